"""SAT over ``metaopt_sat_*``: formulas from DIMACS files or clause lists, evaluation of many
assignments at once, and the search for a model: many probSAT (the default) or WalkSAT walks on
the device or the CPU backend, or the HC12 local search."""

import ctypes
import time
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from . import _checks, _ffi, _interrupt, _lib, _state
from ._errors import check, check_int
from ._handle import Instance
from ._result import ArrayEq


@dataclass(eq=False)
class SATResult(ArrayEq):
    """``satisfiable`` (a model was found and verified; False proves nothing), ``model`` (bool
    per variable, when satisfiable, else None), ``literals`` (the model as signed DIMACS
    literals, or None), ``assignment`` (bool per variable: the best assignment seen),
    ``best_unsatisfied`` (0 with a model), ``runs``, ``iterations``, ``evaluations`` (HC12),
    ``seconds``, ``stop`` (the library's word): ``"target"`` (a model), ``"budget"`` (HC12's
    runs, the walks' flips), ``"time_limit"`` or ``"interrupted"`` (``metaopt.interrupt()``, a
    ``StopToken`` or Ctrl-C: the best so far), ``method`` (``"probsat"``, ``"walksat"`` or
    ``"hc12"``), and for the walks ``walks``, ``flips`` (all walks), ``restarts`` (all walks)
    and ``flips_per_second`` (all walks together)."""

    satisfiable: bool
    model: Optional[np.ndarray]
    literals: Optional[np.ndarray]
    assignment: np.ndarray
    best_unsatisfied: int
    runs: int
    iterations: int
    evaluations: int
    seconds: float = field(compare=False)
    stop: str = "budget"
    method: str = "hc12"
    walks: int = 0
    flips: int = 0
    restarts: int = 0
    flips_per_second: float = field(default=0.0, compare=False)

    @property
    def success(self) -> bool:
        """``satisfiable``: a model was found (an interrupted search may still have one)."""
        return self.satisfiable

    @property
    def satisfied(self) -> bool:
        """``satisfiable`` under the name of ``metaopt.sat.solve``'s results."""
        return self.satisfiable

    @property
    def unsatisfied(self) -> int:
        """``best_unsatisfied``: clauses the best assignment leaves unsatisfied (0 with a model)."""
        return self.best_unsatisfied

    def __bool__(self) -> bool:
        return self.satisfiable


def _unpack(words, num_vars):
    """Bit-packed words (variable v is bit (v-1) % 32 of word (v-1) // 32) as bools."""
    w = np.asarray(words, dtype=np.uint32)
    bits = (w[:, None] >> np.arange(32, dtype=np.uint32)) & 1
    return bits.reshape(-1)[:num_vars].astype(bool)


def _pack(assignments, num_vars, words):
    """(count, num_vars) bools as (count, words) uint32."""
    count = assignments.shape[0]
    padded = np.zeros((count, words * 32), dtype=np.uint32)
    padded[:, :num_vars] = assignments
    return np.ascontiguousarray((padded.reshape(count, words, 32) << np.arange(32, dtype=np.uint32)).sum(axis=2, dtype=np.uint32))


def _literals(clauses, num_vars):
    """DIMACS literals, each clause ended by 0, checked; (flat int32 array, num_vars)."""
    if isinstance(clauses, (str, bytes)) or not hasattr(clauses, "__iter__"):
        raise TypeError(f"clauses must be a list of clauses (lists of nonzero ints), got {type(clauses).__name__}")
    flat = []
    top = 0
    for k, c in enumerate(clauses):
        lits = _checks.vector(f"clauses[{k}]", c, np.int64)
        if lits.size == 0:
            raise ValueError(f"clauses[{k}] is empty")
        if np.any(lits == 0):
            raise ValueError(f"clauses[{k}] contains 0 (literals are ±1..±num_vars; 0 only ends a clause in DIMACS files)")
        top = max(top, int(np.abs(lits).max()))
        flat.extend(lits.tolist())
        flat.append(0)
    if num_vars is None:
        num_vars = top
    num_vars = _checks.integer("num_vars", num_vars, 0, 2**32 - 1)
    if top > num_vars:
        raise ValueError(f"clauses name variable {top}, above num_vars = {num_vars}")
    if flat and max(abs(v) for v in flat) > 2**31 - 1:
        raise ValueError("literals must fit in int32")
    return np.array(flat, dtype=np.int32), num_vars


METHODS = ("probsat", "walksat", "hc12")
_METHOD_CODES = {
    "probsat": _ffi.METAOPT_SAT_PROBSAT,
    "walksat": _ffi.METAOPT_SAT_WALKSAT,
    "hc12": _ffi.METAOPT_SAT_HC12,
}


class SAT(Instance):
    """A CNF formula: ``SAT(clauses, num_vars=None)`` from a list of clauses (each a list of
    signed DIMACS literals, e.g. ``[[1, -2], [2, 3]]``), or ``SAT.from_file(path)`` from a
    DIMACS file."""

    def __init__(self, clauses, num_vars=None):
        flat, nv = _literals(clauses, num_vars)
        r = _lib.lib().metaopt_sat_from_clauses(nv, flat.ctypes.data_as(ctypes.POINTER(ctypes.c_int32)), flat.size)
        self._init(r, "metaopt_sat_from_clauses")

    def _init(self, r, function):
        check(r, function)
        self.num_vars = int(r.num_vars)
        self.num_clauses = int(r.num_clauses)
        self._adopt(r.instance, "metaopt_sat_free")
        with self._use("words") as h:
            self.words = check_int(_lib.lib().metaopt_sat_words_per_assignment(h), "metaopt_sat_words_per_assignment")

    @classmethod
    def from_file(cls, path):
        path = _checks.c_string("path", path, path=True)
        self = cls.__new__(cls)
        self._init(_lib.lib().metaopt_sat_parse(path), "metaopt_sat_parse")
        return self

    def evaluate(self, assignments, cpu=False, device=None):
        """Satisfied clauses of each row of ``assignments`` ((count, num_vars) or (num_vars,)
        of bools or 0/1), on the device (DXAC kernel; ``device``: its number, None the device in use)
        or with ``cpu=True`` on the host."""
        a = np.asarray(assignments)
        if a.ndim == 1:
            a = a[np.newaxis]
        if a.ndim != 2 or a.shape[1] != self.num_vars:
            raise ValueError(f"assignments must have shape (count, {self.num_vars}), got {np.shape(assignments)}")
        if a.shape[0] == 0:
            raise ValueError("assignments must hold at least one row")
        if a.dtype != bool:
            if a.dtype.kind not in "biuf" or not np.all((a == 0) | (a == 1)):
                raise ValueError("assignments must hold booleans or 0/1")
            a = a.astype(bool)
        packed = _pack(a, self.num_vars, self.words)
        count = _checks.integer("count", a.shape[0], 1, 2**32 - 1)
        cpu = int(_checks.flag("cpu", cpu))
        device = _checks.device(device)
        L = _lib.lib()
        with self._use("evaluate") as h:
            r = L.metaopt_sat_evaluate_on_device(h, packed.ctypes.data_as(ctypes.POINTER(ctypes.c_uint32)), count, cpu,
                                                 device)
            try:
                check(r, "metaopt_sat_evaluate_on_device")
                return np.ctypeslib.as_array(r.satisfied, shape=(r.count,)).astype(np.uint32, copy=True)
            finally:
                L.metaopt_sat_free_eval_result(ctypes.byref(r))

    def solve(self, time_limit=None, runs=None, seed=None, mask_order=None, tabu_length=None,
              tabu_max_iterations=None, tabu_max_no_improve=None, tenure=None, stop_token=None, *,
              method="probsat", walks=None, cb=None, eps=None, noise=None, restart_flips=None,
              flips_per_launch=None, max_flips=None, cpu=False, device=None, start=None, checkpoint=None,
              checkpoint_every=None, resume=None):
        """Looks for a model; None keeps the library's default of an option
        (``metaopt_sat_default_solve_options``: 10 s, seed 1, ...).

        ``method``: ``"probsat"`` (the default) or ``"walksat"``, many walks on the device or,
        with ``cpu=True``, the CPU backend (``walks``: None picks the count; ``cb`` and ``eps``
        of probSAT's break function, None: its SC13 values for the longest clause; WalkSAT's
        ``noise``, default 0.567; ``restart_flips``, default never (2^64 - 1);
        ``flips_per_launch``, default 4096; ``max_flips`` per walk, default none); or
        ``"hc12"`` on the device (``runs``, ``mask_order``, ``tabu_length``,
        ``tabu_max_iterations``, ``tabu_max_no_improve``, ``tenure``). Options of the other search are refused.
        ``device``: the device number of either search (None: the device in use).

        ``stop_token`` (a ``metaopt.StopToken``) requested, or ``metaopt.interrupt()``, stops
        the search with the best assignment so far (``stop == "interrupted"``); Ctrl-C too,
        raising ``metaopt.Interrupted`` with that ``SATResult`` as its ``result``.

        The walks only: ``start`` a warm start, one assignment (``num_vars`` bools or 0/1) from
        which every walk starts, or several rows (at most the walks) from which the first walks
        start, the others at random.

        Any method: ``checkpoint`` a file the search writes its whole state to (HC12: between
        runs) when it ends (interrupted or not) and every ``checkpoint_every`` seconds;
        ``resume`` (a ``metaopt.State`` of ``state()``, its bytes, or a checkpoint file's path)
        continues a search of the state's method as if it had never stopped: the options must be
        the saved search's (``max_flips``, ``runs`` and ``time_limit`` may be larger; they count
        the work already done)."""
        stop_token = _interrupt.token_arg(stop_token)
        resume = _state.resume_arg(resume)
        if method not in METHODS:
            raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
        hc12 = {"runs": runs, "mask_order": mask_order, "tabu_length": tabu_length, "tabu_max_iterations": tabu_max_iterations,
                "tabu_max_no_improve": tabu_max_no_improve, "tenure": tenure}
        walk = {"walks": walks, "cb": cb, "eps": eps, "noise": noise, "restart_flips": restart_flips,
                "flips_per_launch": flips_per_launch, "max_flips": max_flips, "cpu": cpu or None, "start": start}
        other = walk if method == "hc12" else hc12
        for name, value in other.items():
            if value is not None:
                raise ValueError(f"{name} does not apply to method={method!r}")
        L = _lib.lib()
        o = L.metaopt_sat_default_solve_options()
        o.method = _METHOD_CODES[method]
        o.backend = _ffi.METAOPT_BACKEND_CPU if _checks.flag("cpu", cpu) else _ffi.METAOPT_BACKEND_DEVICE
        o.device = _checks.device(device)
        if time_limit is not None:
            o.time_limit_s = _checks.real("time_limit", time_limit)
            if o.time_limit_s < 0:
                raise ValueError(f"time_limit must be >= 0, got {time_limit}")
        for name, value in (("cb", cb), ("eps", eps), ("noise", noise)):
            if value is not None:
                setattr(o, name, _checks.real(name, value))
        for name, value, lo in (("cb", cb, 0), ("eps", eps, 0)):
            if value is not None and not getattr(o, name) > lo:
                raise ValueError(f"{name} must be > 0, got {value}")
        for name, value, lo, hi in (("runs", runs, 0, 2**32 - 1), ("seed", seed, 0, 2**64 - 1), ("mask_order", mask_order, 0, 2),
                                    ("tabu_length", tabu_length, 0, 2**32 - 1), ("tabu_max_iterations", tabu_max_iterations, 0, 2**32 - 1),
                                    ("tabu_max_no_improve", tabu_max_no_improve, 0, 2**32 - 1), ("tenure", tenure, 0, 2**32 - 1),
                                    ("walks", walks, 1, 2**32 - 1), ("restart_flips", restart_flips, 1, 2**64 - 1),
                                    ("flips_per_launch", flips_per_launch, 1, 2**32 - 1), ("max_flips", max_flips, 1, 2**64 - 1)):
            if value is not None:
                setattr(o, name, _checks.integer(name, value, lo, hi))
        keep = []
        if start is not None:
            a = np.asarray(start)
            if a.ndim == 1:
                a = a[np.newaxis]
            if a.ndim != 2 or a.shape[1] != self.num_vars or a.shape[0] == 0:
                raise ValueError(f"start must have shape ({self.num_vars},) or (count, {self.num_vars}), "
                                 f"got {np.shape(start)}")
            if a.dtype != bool:
                if a.dtype.kind not in "biuf" or not np.all((a == 0) | (a == 1)):
                    raise ValueError("start must hold booleans or 0/1")
                a = a.astype(bool)
            packed = _pack(a, self.num_vars, self.words)
            keep.append(packed)
            o.start = packed.ctypes.data_as(ctypes.POINTER(ctypes.c_uint32))
            o.start_count = _checks.integer("start", a.shape[0], 1, 2**32 - 1)
        _state.set_checkpoint(o, checkpoint, checkpoint_every, keep)
        with self._use("solve") as h:
            if resume is not None:
                _state.load(L.metaopt_sat_load_state, h, resume, "metaopt_sat_load_state")
            r, caught = _interrupt.run(L.metaopt_sat_solve, (h, ctypes.byref(o)), o, stop_token, "SAT.solve")
            try:
                check(r, "metaopt_sat_solve", interrupted_ok=True)
                words = np.ctypeslib.as_array(r.assignment, shape=(r.words,)).copy() if r.words else np.zeros(0, np.uint32)
                literals = (
                    np.ctypeslib.as_array(r.model_literals, shape=(r.num_vars,)).astype(np.int32, copy=True)
                    if r.model_literals else None
                )
                result = SATResult(
                    satisfiable=bool(r.satisfiable),
                    model=(literals > 0) if literals is not None else None,
                    literals=literals,
                    assignment=_unpack(words, self.num_vars),
                    best_unsatisfied=int(r.best_unsatisfied),
                    runs=int(r.runs),
                    iterations=int(r.iterations),
                    evaluations=int(r.evaluations),
                    seconds=float(r.seconds),
                    stop=_interrupt.result_stop(r),
                    method=method,
                    walks=int(r.walks),
                    flips=int(r.flips),
                    restarts=int(r.restarts),
                    flips_per_second=float(r.flips_per_second),
                )
            finally:
                L.metaopt_sat_free_solve_result(ctypes.byref(r))
        if caught is not None:
            _interrupt.raise_interrupted(caught, result, "SAT.solve")
        return result

    def state(self):
        """The whole state of the last ``solve``, whichever its method: of the walks (every
        walk's assignment, best assignment, flip log and counters, the launches and the time
        taken) or of HC12 (runs made, counters, the best assignment and every run's figures, the
        time taken; taken between runs) as a ``metaopt.State``, from which ``solve(resume=...)``
        with that method continues it."""
        L = _lib.lib()
        with self._use("state") as h:
            return _state.saved(L, L.metaopt_sat_save_state, h, "metaopt_sat_save_state")

    def load_state(self, state):
        """The next ``solve`` continues the search saved in ``state`` (a ``metaopt.State``, its
        bytes, or a checkpoint file's path); it must be of the state's method. A ``SAT`` is rebuilt from its formula, so
        ``SAT.from_file(path).load_state(state)`` is the way to continue in a new process."""
        L = _lib.lib()
        with self._use("load_state") as h:
            _state.load(L.metaopt_sat_load_state, h, state, "metaopt_sat_load_state")


def solve(formula, num_vars: Optional[int] = None, *, time_limit: Optional[float] = None, runs: Optional[int] = None,
          seed: Optional[int] = None, **options) -> SATResult:
    """Looks for a model of a CNF formula, in one call (the instance is made and freed here):
    many probSAT walks by default, ``method="walksat"`` or ``method="hc12"``.

    ``formula``: a DIMACS file (str or path) or a list of clauses (lists of signed literals,
    ``[[1, -2], [2, 3]]``; ``num_vars`` defaults to the highest variable). ``time_limit`` in
    seconds (library default 10 s), ``runs`` (HC12; default: until a model or the time limit),
    ``seed`` (None: the library's default, 1), and ``SAT.solve``'s other options (``method``;
    the walks' ``walks``, ``cb``, ``eps``, ``noise``, ``restart_flips``, ``flips_per_launch``,
    ``max_flips``, ``cpu``, ``start``; HC12's ``mask_order``, ``tabu_length``, ``tabu_max_iterations``,
    ``tabu_max_no_improve``, ``tenure``; any method's ``checkpoint``, ``checkpoint_every``,
    ``resume``).

    Returns a ``SATResult``: ``.satisfied`` (a model was found and verified against every clause;
    False proves nothing), ``.model`` and ``.literals`` (with a model), ``.assignment`` (the best
    assignment seen, bool per variable), ``.unsatisfied`` (its unsatisfied clauses), ``.method``,
    ``.walks``, ``.flips``, ``.restarts``, ``.flips_per_second`` (the walks), ``.runs``,
    ``.iterations``, ``.evaluations`` (HC12), ``.seconds``, ``.stop``.

    ``stop_token=`` (a ``metaopt.StopToken``, requested from another thread) or
    ``metaopt.interrupt()`` returns the best so far with ``stop == "interrupted"``. Ctrl-C
    stops the search and raises ``metaopt.Interrupted`` (a ``KeyboardInterrupt``) whose
    ``result`` is the best so far.
    """
    import os  # noqa: PLC0415

    started = time.perf_counter()  # reading the formula counts in the time limit
    if isinstance(formula, (str, os.PathLike)):
        if num_vars is not None:
            raise TypeError("num_vars is for a list of clauses; a DIMACS file names its own")
        inst = SAT.from_file(formula)
    else:
        inst = SAT(formula, num_vars)
    with inst:
        return inst.solve(time_limit=_checks.time_left(time_limit, started), runs=runs, seed=seed, **options)


# --- host helpers (no library) ---
def read_dimacs(path):
    """(num_vars, clauses) of a DIMACS CNF file, clauses as lists of ints (host-side reader,
    independent of the library: the tests check models with it)."""
    num_vars = None
    clauses, cur = [], []
    with open(path) as f:
        for line in f:
            s = line.strip()
            if not s or s[0] == "c":
                continue
            if s[0] == "%":
                break
            if s[0] == "p":
                num_vars = int(s.split()[2])
                continue
            for t in s.split():
                v = int(t)
                if v == 0:
                    if cur:
                        clauses.append(cur)
                    cur = []
                else:
                    cur.append(v)
    if cur:
        clauses.append(cur)
    return num_vars, clauses


def unsatisfied_clauses(clauses, model):
    """Indices of the clauses that ``model`` (bool per variable, variable v at ``model[v-1]``)
    leaves unsatisfied."""
    m = np.asarray(model, dtype=bool)
    return [k for k, c in enumerate(clauses) if not any(m[abs(l) - 1] == (l > 0) for l in c)]
