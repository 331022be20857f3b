"""Basin hopping (``metaopt_bh_*``): many chains of monotonic basin hopping with a (1+1)-ES local
search over a box, side by side on the device (one work-item a chain) or on the CPU backend,
which takes the device's steps (docs/specs/DE.md, "Basin hopping").

``BasinHopping(objective, bounds, ...)`` makes the chains once; ``start(x0)`` puts every chain at
a point; ``solve(...)`` runs them until a stop (steps, evaluations, target, time limit, a
``StopToken``, ``metaopt.interrupt()`` or Ctrl-C) and returns a ``BHResult``; ``state()`` and
``load_state()`` (or ``solve(resume=...)``) continue a solve exactly. ``solve(objective, bounds,
x0, ...)`` does all of it in one call, its time limit counting the set-up.
"""

import ctypes
import math
import time
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from . import _checks, _interrupt, _lib, _precision, _state
from ._errors import MetaoptError, check, check_int, take_string
from ._handle import Instance
from ._objective import as_bytes, make_objective, violation_state
from ._result import ArrayEq

__all__ = ["BasinHopping", "BHResult", "PolishResult", "polish", "solve"]

_BACKENDS = {"device": 0, "cpu": 1}
U32 = 2**32 - 1
U64 = 2**64 - 1


@dataclass(eq=False)
class BHResult(ArrayEq):
    """What ``BasinHopping.solve`` found: the best anchor's ``value`` and point ``x``, the
    ``steps`` of every chain since ``start``, the ``launches``, the ``evaluations`` (the starting
    point's included), the ``seconds`` since the start (of every solve continuing it) and
    ``seconds_to_best``, ``stop`` (the library's word: ``"budget"`` (the steps ran),
    ``"evaluations"``, ``"target"``, ``"time_limit"`` or ``"interrupted"``: the best so far,
    ``success`` False) and the ``precision`` computed in."""

    value: float
    x: np.ndarray
    steps: int
    launches: int = field(compare=False)
    evaluations: int
    seconds: float = field(compare=False)
    seconds_to_best: float = field(compare=False)
    stop: str
    precision: str = "double"
    #: with constraints the best anchor's violation (0: feasible; the best by Deb's rules)
    violation: float = 0.0

    @property
    def success(self) -> bool:
        """False when the solve was interrupted (the result is the best so far), else True."""
        return self.stop != "interrupted"


class BasinHopping(Instance):
    """Chains of basin hopping over the box ``bounds`` (a sequence of ``(min, max)`` pairs, one
    per dimension, or a ``scipy.optimize.Bounds``) of ``objective``: a catalogue function name
    (``"F8"``, ``"CEC08t"``, ...), a ``metaopt.Source`` of OpenCL C (on a device; ``data``, bytes
    or a NumPy array, is its data buffer) or a Python callable ``f(X) -> F`` (on the CPU backend) given the
    ``(chains, dims)`` trial points of one step, returning their values.

    Options, fixed for the instance (a saved state is checked against them): ``chains`` side by
    side, each with its own random numbers; hops from ``hop_min`` to ``hop_max`` (fractions of
    each dimension's width, ``hop_scales`` values spaced evenly in log, one drawn per hop); the
    local search from step ``step0`` down to ``step_stop`` (fractions of the widths) or
    ``max_search`` steps; ``seed``; ``launch_steps``: steps between two shares of the lowest
    anchor (``share=False``: the chains stay independent); ``precision`` ``"auto"`` (double
    where the device has fp64 and on the CPU backend), ``"double"`` or ``"single"`` (a device
    only); ``backend`` ``"device"`` or ``"cpu"``; ``device`` the device number (None: the device
    in use). Bad values raise ``MetaoptError`` naming the option (``options.<name>``).

    ``constraints``, compared by Deb's feasibility rules (the best feasible anchor, else the
    least violation; ``BHResult.violation``): for a Python callable objective a callable
    ``violation(X) -> V`` (each trial's violation, 0 feasible; NaN counts as infinite), for a
    ``metaopt.Source`` ``{"inequalities": ng, "equalities": nh, "eq_tol": 1e-4}`` (the counts of
    what its OpenCL ``constraints`` writes: ``g <= 0``, then ``|h| <= eq_tol``).

    The constructor builds the device program; a ``solve``'s time limit counts from the solve
    (``metaopt.bh.solve`` counts the set-up too)."""

    def __init__(self, objective, bounds, *, data=None, chains: int = 4096, hop_min: float = 1e-6,
                 hop_max: float = 0.015, hop_scales: int = 16, step0: float = 0.0015, step_stop: float = 5e-17,
                 max_search: int = 20000, seed: int = 1, launch_steps: int = 250, share: bool = True,
                 precision: Optional[str] = None, backend: str = "device", device: Optional[int] = None,
                 constraints=None):
        b = _checks.box(bounds)
        self.dims = b.shape[0]
        self.bounds = b
        _checks.choice("backend", backend, _BACKENDS)
        self.backend = backend
        L = _lib.lib()
        o = L.metaopt_bh_default_options()
        o.chains = _checks.integer("chains", chains, 0, U32)
        o.hop_min = _checks.real("hop_min", hop_min, finite=False)
        o.hop_max = _checks.real("hop_max", hop_max, finite=False)
        o.hop_scales = _checks.integer("hop_scales", hop_scales, 0, U32)
        o.step0 = _checks.real("step0", step0, finite=False)
        o.step_stop = _checks.real("step_stop", step_stop, finite=False)
        o.max_search = _checks.integer("max_search", max_search, 0, U32)
        o.seed = _checks.integer("seed", seed, 0, U64)
        o.launch_steps = _checks.integer("launch_steps", launch_steps, 0, U32)
        o.share = int(_checks.flag("share", share))
        o.precision = _precision.code(_precision.requested(precision, None))
        o.backend = _BACKENDS[backend]
        o.device = _checks.device(device)
        self.chains = o.chains
        vstate = _set_constraints(L, o, constraints)
        obj, state, keep = make_objective(objective)
        buf = b"" if data is None else as_bytes("data", data)
        lo = np.ascontiguousarray(b[:, 0])
        hi = np.ascontiguousarray(b[:, 1])
        dbl = ctypes.POINTER(ctypes.c_double)
        r = L.metaopt_bh_create(ctypes.byref(obj), lo.ctypes.data_as(dbl), hi.ctypes.data_as(dbl), self.dims,
                                buf or None, len(buf), ctypes.byref(o))
        del keep  # the library copied the strings and the data
        try:
            check(r, "metaopt_bh_create")
        except MetaoptError as err:
            for st in (state, vstate):
                if st is not None:
                    st.raise_pending(err)
            raise
        # the callbacks of a Python objective and violation live as long as the handle
        self._adopt(r.instance, "metaopt_bh_free", keep=[state, vstate])
        self._violation = vstate
        self._callback = state
        self.objective = objective
        self._started = False
        #: "double" or "single": the precision the library resolved and computes in
        self.precision = _precision.from_info(self.info()) or "double"

    def start(self, x0):
        """Every chain starts anew from ``x0`` (``dims`` values inside the box), evaluated here;
        the next ``solve`` counts its steps, time and best from this point."""
        x = _checks.vector("x0", x0, np.float64, length=self.dims)
        with self._use("start") as h:
            self._check(_lib.lib().metaopt_bh_start(h, x.ctypes.data_as(ctypes.POINTER(ctypes.c_double)), self.dims),
                        "metaopt_bh_start")
        self._started = True

    def solve(self, steps=None, evaluations=None, target=None, time_limit=None, x0=None, stop_token=None,
              checkpoint=None, checkpoint_every=None, resume=None):
        """Runs the chains until one condition holds (at least one is needed): ``steps`` of
        every chain since the start, ``evaluations`` (the starting point's included), the best
        value at most ``target``, ``time_limit`` seconds from this call (the start at ``x0`` or
        the loading of ``resume`` included; a continued solve counts the saved one's), or a
        stop request: ``stop_token``, ``metaopt.interrupt()`` (then ``stop ==
        "interrupted"``). ``x0`` first starts the chains there (as ``start``); without it the
        solve continues from the last ``start``, solve or loaded state.

        Checkpoints: ``checkpoint`` a file the solve writes its whole state to when it ends and
        every ``checkpoint_every`` seconds; ``resume`` (a ``metaopt.State``, its bytes, or a
        checkpoint file's path) first loads that state, and the solve continues the saved one
        as if it had never stopped.

        Ctrl-C stops the solve within one launch and raises ``metaopt.Interrupted`` whose
        ``result`` is the ``BHResult`` so far."""
        started = time.perf_counter()  # starting at x0 or loading a state counts in the limit
        stop_token = _interrupt.token_arg(stop_token)
        resume = _state.resume_arg(resume)
        if x0 is not None and resume is not None:
            raise ValueError("x0 and resume both say where the chains start; give one")
        L = _lib.lib()
        s = _checks.stop(L.metaopt_bh_default_stop(), "steps", steps, evaluations, target, time_limit)
        if not (s.steps or s.evaluations or s.has_target or s.time_limit):
            raise ValueError("no stop condition: give steps, evaluations, target or time_limit")
        keep_path = []
        _state.set_checkpoint(s, checkpoint, checkpoint_every, keep_path)
        if resume is not None:
            self.load_state(resume)
        elif x0 is not None:
            self.start(x0)
        elif not self._started:
            raise ValueError("x0: no starting point; pass x0= (or call start(x0), or resume=)")
        if s.time_limit > 0 and math.isfinite(s.time_limit):
            s.time_limit = _checks.time_left(s.time_limit, started)
        with self._use("solve") as h:
            r, caught = _interrupt.run(L.metaopt_bh_solve, (h, ctypes.byref(s)), s, stop_token, "BasinHopping.solve")
            try:
                self._check(r, "metaopt_bh_solve", interrupted_ok=True)
                result = BHResult(
                    value=float(r.value),
                    x=np.ctypeslib.as_array(r.x, shape=(r.dims,)).copy() if r.dims else np.zeros(0),
                    steps=int(r.steps),
                    launches=int(r.launches),
                    evaluations=int(r.evaluations),
                    seconds=float(r.seconds),
                    seconds_to_best=float(r.seconds_to_best),
                    stop=_interrupt.result_stop(r),
                    precision=_precision.name(r.precision) if r.precision else self.precision,
                    violation=float(r.violation),
                )
            finally:
                L.metaopt_bh_free_solve_result(ctypes.byref(r))
        if caught is not None:
            _interrupt.raise_interrupted(caught, result, "BasinHopping.solve")
        return result

    def state(self):
        """The whole state (every chain's anchor, search point, step and search length, the
        counters, the solve's best, steps, launches and seconds) as a ``metaopt.State`` (bytes:
        it pickles and saves), from which ``load_state`` (or ``solve(resume=...)``) continues.
        Needs a start."""
        L = _lib.lib()
        with self._use("state") as h:
            return _state.saved(L, L.metaopt_bh_save_state, h, "metaopt_bh_save_state")

    def load_state(self, state):
        """Continues from ``state`` (a ``metaopt.State``, its bytes, or a checkpoint file's
        path) on chains made with the saved ones' objective, box and options: the next
        ``solve`` continues the saved solve as if it had never stopped. Another objective,
        box, option or library version, and damaged bytes, raise ``MetaoptError`` naming
        ``state`` and saying what differs."""
        L = _lib.lib()
        with self._use("load_state") as h:
            _state.load(L.metaopt_bh_load_state, h, state, "metaopt_bh_load_state")
        self._started = True

    @classmethod
    def from_state(cls, objective, bounds, state, **options):
        """Chains made with ``options`` (those of the saved ones) that continue ``state``."""
        bh = cls(objective, bounds, **options)
        bh.load_state(state)
        return bh

    def info(self):
        """A description: dimensions, chains, objective, precision, backend, steps so far."""
        with self._use("info") as h:
            r = _lib.lib().metaopt_bh_info(h)
            check(r, "metaopt_bh_info")
            return take_string(r.text) or ""


def solve(objective, bounds, x0=None, *, steps=None, evaluations=None, target=None, time_limit=None,
          stop_token=None, checkpoint=None, checkpoint_every=None, resume=None, **options):
    """Basin hopping in one call: ``BasinHopping(objective, bounds, **options)`` started at
    ``x0`` (None: the middle of the box) and solved until a stop (see ``BasinHopping.solve``);
    without any stop, 10000 steps. ``time_limit`` counts from this call, the set-up (the device
    program's build) included. Returns a ``BHResult``."""
    started = time.perf_counter()
    if steps is None and evaluations is None and target is None and time_limit is None:
        steps = 10000
    with BasinHopping(objective, bounds, **options) as bh:
        if resume is None and x0 is None:
            x0 = bh.bounds.mean(axis=1)
        return bh.solve(steps=steps, evaluations=evaluations, target=target,
                        time_limit=None if time_limit is None else _checks.time_left(time_limit, started),
                        x0=x0, stop_token=stop_token, checkpoint=checkpoint, checkpoint_every=checkpoint_every,
                        resume=resume)


def _set_constraints(L, o, constraints):
    """Sets ``o.constraints`` (basin hopping's or the polish's options) from ``constraints``:
    None, a callable ``violation(X) -> V`` (a Python objective) or the counts of a Source's
    OpenCL constraints; returns the violation callback's state (kept alive by the caller) or
    None."""
    if constraints is None:
        return None
    vstate = None
    c = L.metaopt_default_constraints()
    if callable(constraints):
        vstate = violation_state(constraints)
        c.violation = vstate.c_callback
    elif isinstance(constraints, dict) and set(constraints) <= {"inequalities", "equalities", "eq_tol"}:
        c.inequalities = _checks.integer("inequalities", constraints.get("inequalities", 0), 0, U32)
        c.equalities = _checks.integer("equalities", constraints.get("equalities", 0), 0, U32)
        c.eq_tol = _checks.real("eq_tol", constraints.get("eq_tol", 1e-4))
    else:
        raise TypeError("constraints must be a callable violation(X) -> V (a Python objective) or "
                        "{'inequalities': ng, 'equalities': nh, 'eq_tol': tol} (a metaopt.Source)")
    o.constraints = ctypes.pointer(c)
    return vstate


@dataclass(eq=False)
class PolishResult(ArrayEq):
    """What ``polish`` returns: the best ``value`` and point ``x`` (the given point when nothing
    better was found), its ``violation`` (0 without constraints), the given point's
    ``start_value`` and ``start_violation`` as the polish evaluated them, ``improved`` (better
    by Deb's rules), the ``evaluations`` and ``seconds`` it took, ``stop`` (``"budget"``: its
    steps ran; ``"time_limit"`` or ``"interrupted"``: cut, the given point kept unless a search
    had ended) and the ``precision`` computed in."""

    value: float
    x: np.ndarray
    violation: float
    start_value: float
    start_violation: float
    improved: bool
    evaluations: int
    seconds: float = field(compare=False)
    stop: str = "budget"
    precision: str = "double"


def polish(objective, bounds, x, *, data=None, chains=None, steps=None, seed: int = 1, precision=None,
           backend: str = "device", device: Optional[int] = None, constraints=None, time_limit=None,
           stop_token=None):
    """The library's polish of the point ``x`` in the box ``bounds`` of ``objective`` (as
    ``BasinHopping`` takes them, ``data`` a Source's data buffer): basin hopping's (1+1)-ES
    from the point, ``chains`` of ``steps`` steps (None: the library's, 8 chains of ``1000 +
    200 dims`` steps), kept only when better by Deb's rules (``constraints`` as
    ``BasinHopping``'s). ``time_limit`` seconds and ``stop_token`` bound it; Ctrl-C stops it and
    raises ``metaopt.Interrupted`` whose ``result`` is the ``PolishResult``. Returns a
    ``PolishResult``."""
    b = _checks.box(bounds)
    dims = b.shape[0]
    _checks.choice("backend", backend, _BACKENDS)
    xv = _checks.vector("x", x, np.float64, length=dims)
    stop_token = _interrupt.token_arg(stop_token)
    L = _lib.lib()
    o = L.metaopt_bh_default_polish_options(dims)
    if chains is not None:
        o.chains = _checks.integer("chains", chains, 0, U32)
    if steps is not None:
        o.steps = _checks.integer("steps", steps, 0, U32)
    o.seed = _checks.integer("seed", seed, 0, U64)
    o.precision = _precision.code(_precision.requested(precision, None))
    o.backend = _BACKENDS[backend]
    o.device = _checks.device(device)
    if time_limit is not None:
        o.time_limit = _checks.real("time_limit", time_limit)
        if o.time_limit <= 0:
            raise ValueError(f"time_limit must be > 0, got {time_limit}")
    vstate = _set_constraints(L, o, constraints)
    obj, state, keep = make_objective(objective)
    buf = b"" if data is None else as_bytes("data", data)
    lo = np.ascontiguousarray(b[:, 0])
    hi = np.ascontiguousarray(b[:, 1])
    dbl = ctypes.POINTER(ctypes.c_double)
    r, caught = _interrupt.run(
        L.metaopt_bh_polish,
        (ctypes.byref(obj), lo.ctypes.data_as(dbl), hi.ctypes.data_as(dbl), dims, buf or None, len(buf),
         xv.ctypes.data_as(dbl), ctypes.byref(o)),
        o, stop_token, "metaopt.bh.polish")
    del keep
    try:
        try:
            check(r, "metaopt_bh_polish", interrupted_ok=True)
        except MetaoptError as err:
            for st in (state, vstate):
                if st is not None:
                    st.raise_pending(err)
            raise
        result = PolishResult(
            value=float(r.value),
            x=np.ctypeslib.as_array(r.x, shape=(r.dims,)).copy() if r.dims else np.zeros(0),
            violation=float(r.violation),
            start_value=float(r.start_value),
            start_violation=float(r.start_violation),
            improved=bool(r.improved),
            evaluations=int(r.evaluations),
            seconds=float(r.seconds),
            stop=_interrupt.result_stop(r),
            precision=_precision.name(r.precision) if r.precision else "double",
        )
    finally:
        L.metaopt_bh_free_polish_result(ctypes.byref(r))
    if caught is not None:
        _interrupt.raise_interrupted(caught, result, "metaopt.bh.polish")
    return result
