"""Batched differential evolution over ``metaopt_batch_de_*``: many independent
problems in one batch, each with its own catalogue function (or OpenCL source and data),
dimensions, bounds, members, F, CR, mutation, bound correction, seed, generation budget and
target, integer variables and constraints; one fused kernel runs K generations of every problem
per launch (or the CPU backend)."""

import ctypes
import time
from dataclasses import dataclass, field
from typing import List

import numpy as np

from . import _checks, _ffi, _interrupt, _lib, _precision, _state
from ._errors import check
from ._handle import Instance
from ._objective import Source, as_bytes
from ._result import ArrayEq
from .de import _METHODS  # the batch runs every DE algorithm island DE has

MUTATIONS = ("DE/rand/1", "DE/rand/2", "DE/best/1", "DE/best/2", "DE/current-to-rand/1", "DE/current-to-best/1")
BOUNDS = ("sat", "mir", "tor", "HVB", "uni", "COTN")
_PLACEMENTS = {
    "auto": _ffi.METAOPT_BATCH_DE_PLACEMENT_AUTO,
    "local": _ffi.METAOPT_BATCH_DE_PLACEMENT_LOCAL,
    "global": _ffi.METAOPT_BATCH_DE_PLACEMENT_GLOBAL,
}
# MetaoptBatchDeStopReason
STOP_WORDS = {
    _ffi.METAOPT_BATCH_DE_STOP_RUNNING: "running",
    _ffi.METAOPT_BATCH_DE_STOP_TARGET: "target",
    _ffi.METAOPT_BATCH_DE_STOP_BUDGET: "budget",
    _ffi.METAOPT_BATCH_DE_STOP_TIME_LIMIT: "time_limit",
    _ffi.METAOPT_BATCH_DE_STOP_INTERRUPTED: "interrupted",
}


@dataclass(eq=False)
class BatchDEResult(ArrayEq):
    """Per-problem results in problem order: ``best_values`` (float64; +inf for a problem whose
    initial population the stop came before, its ``best`` then NaN), ``generations`` (uint64, after the initial population), ``stop`` (``"running"``,
    ``"target"``, ``"budget"``, ``"time_limit"`` or ``"interrupted"``, one per problem), ``best``
    (a list of float64 vectors, one per problem, of its own dims), ``precision``,
    ``seconds`` and ``violation`` (float64: each best point's violation, the sum of its
    violated constraints' amounts; 0 when feasible and for an unconstrained problem, +inf for a
    constrained problem not started)."""

    best_values: np.ndarray
    generations: np.ndarray
    stop: List[str]
    best: List[np.ndarray]
    precision: str
    seconds: float = field(compare=False)
    violation: np.ndarray = field(default_factory=lambda: np.zeros(0))


def _is_seq(v):
    """Whether ``v`` is a sequence of per-problem values (a list, tuple or array of ndim >= 1)."""
    return isinstance(v, (list, tuple, range)) or (isinstance(v, np.ndarray) and v.ndim > 0)


def _per_problem(name, value, count, convert):
    """``value`` for each of ``count`` problems: a scalar broadcast, or a sequence of ``count``."""
    if not _is_seq(value):
        return [convert(name, value)] * count
    items = list(value)
    if len(items) != count:
        raise ValueError(f"{name} must be one value or {count} values (one per problem), got {len(items)}")
    return [convert(f"{name}[{i}]", v) for i, v in enumerate(items)]


def _count(**kw):
    """The number of problems: the length of the longest per-problem sequence (1 if all are
    scalars); sequences of another length are errors later."""
    return max([len(v) for v in kw.values() if _is_seq(v)] + [1])


def _flags(name, v, dims):
    """``v`` as ``dims`` integer flags (uint8 0/1): bools or 0/1 only."""
    a = np.asarray(v)
    if a.ndim != 1 or a.size != dims:
        raise ValueError(f"{name} must have one flag per dimension ({dims}), got shape {a.shape}")
    if a.dtype != np.bool_:
        if not np.issubdtype(a.dtype, np.integer) or np.any((a != 0) & (a != 1)):
            raise ValueError(f"{name} must hold booleans (or 0 and 1), got {a.tolist()}")
    return np.ascontiguousarray(a.astype(np.uint8))


def _integrality_list(v, n, dims):
    """Per problem None or its flags: None for all; one flag sequence for all (same dims); or a
    list with per problem None or its flags."""
    if v is None:
        return [None] * n
    if not _is_seq(v):
        raise TypeError(f"integrality must be None, a sequence of flags or a list of them, got {type(v).__name__}")
    items = list(v)
    if items and not any(x is None or _is_seq(x) for x in items):
        return [_flags(f"integrality (problem {i})", items, dims[i]) for i in range(n)]
    if len(items) != n:
        raise ValueError(f"integrality must be one flag sequence or {n} entries (one per problem), got {len(items)}")
    return [None if x is None else _flags(f"integrality[{i}]", x, dims[i]) for i, x in enumerate(items)]


def _one_constraints(name, c):
    if c is None:
        return None
    if not isinstance(c, dict) or not set(c) <= {"inequalities", "equalities", "eq_tol"}:
        raise TypeError(f"{name} must be None or a dict with inequalities, equalities and eq_tol, got {c!r}")
    ng = _checks.integer(f"{name}['inequalities']", c.get("inequalities", 0), 0, 2**32 - 1)
    nh = _checks.integer(f"{name}['equalities']", c.get("equalities", 0), 0, 2**32 - 1)
    tol = _checks.real(f"{name}['eq_tol']", c.get("eq_tol", 1e-4))
    return ng, nh, tol


def _constraints_list(v, n):
    """Per problem None or (inequalities, equalities, eq_tol)."""
    if v is None or isinstance(v, dict):
        return [_one_constraints("constraints", v)] * n
    if not isinstance(v, (list, tuple)):
        raise TypeError(f"constraints must be None, a dict or a list of them, got {type(v).__name__}")
    if len(v) != n:
        raise ValueError(f"constraints must be one dict or {n} entries (one per problem), got {len(v)}")
    return [_one_constraints(f"constraints[{i}]", c) for i, c in enumerate(v)]


class BatchDE(Instance):
    """A batch of independent DE problems:

    ``BatchDE(function, dims, lower, upper, members=50, f=0.5, cr=0.9, mutation="DE/rand/1",
    bounds="sat", seed=1, generations=1000, target=None, problems=None, cpu=False,
    precision="auto", generations_per_launch=1000, placement="auto", method="de", jde_small=25,
    integrality=None, constraints=None)``

    Every per-problem argument is one value for all problems or a sequence with one per
    problem: ``function`` (a catalogue name such as ``"F1"`` or ``"CEC07t"``, or a
    ``metaopt.Source`` with its data), ``dims``, ``members``, ``f``, ``cr``, ``mutation``,
    ``bounds``, ``generations``, ``target`` (None: none), ``data`` (the bytes or NumPy array of a
    ``Source`` problem's ``data`` argument), ``method`` (``"de"``: F, CR and the mutation above;
    ``"jade"``, ``"shade"``, ``"lshade"``, ``"jso"``: the adaptive variants with their papers'
    settings, F, CR and the mutation not used, L-SHADE and jSO shrinking over ``members`` x
    (``generations`` + 1) evaluations; ``"jde100"``: jDE100, ``members`` = big + ``jde_small``,
    a generation is a cycle, the result the best ever), ``jde_small``, ``integrality`` (None, or
    one flag per dimension: an integer dimension's bounds are rounded inward and its components
    rounded, as scipy's ``integrality``; one sequence of bools for all problems when they have
    those dims, else a list with per problem None or its flags), ``constraints`` (None, or a dict
    with ``inequalities``, ``equalities`` and ``eq_tol`` (default 1e-4): the counts of the values
    a ``Source`` problem's OpenCL ``constraints`` function writes, ``g <= 0`` then
    ``|h| <= eq_tol``, compared by Deb's feasibility rules; the fixed DE only; one dict for all
    problems or a list with per problem None or a dict). ``seed``: a sequence, or a scalar S that gives
    problem i the seed S + i. ``lower``/``upper``: a scalar for all, one vector of dims values
    for all (when every problem has those dims), or a list with per problem a scalar or a vector
    of its dims. ``problems`` fixes the count (default: the longest sequence among the other
    arguments). ``cpu=True``: the CPU backend (in double it follows the device's run); ``device``: the device
    number (None: the device in use).
    ``run()`` returns a ``BatchDEResult``; ``results()`` the state without running."""

    def __init__(self, function, dims, lower, upper, members=50, f=0.5, cr=0.9, mutation="DE/rand/1", bounds="sat",
                 seed=1, generations=1000, target=None, problems=None, cpu=False, precision="auto",
                 generations_per_launch=1000, placement="auto", data=None, device=None, method="de", jde_small=25,
                 integrality=None, constraints=None):
        if problems is None:
            n = _count(function=function, dims=dims, members=members, f=f, cr=cr, mutation=mutation, bounds=bounds,
                       seed=seed, generations=generations, target=target, method=method, jde_small=jde_small,
                       data=data if isinstance(data, (list, tuple)) else None,
                       integrality=integrality if _is_seq(integrality) and any(
                           x is None or _is_seq(x) for x in integrality) else None,
                       constraints=constraints if isinstance(constraints, (list, tuple)) else None)
        else:
            n = _checks.integer("problems", problems, 1, 2**32 - 1)
        L = _lib.lib()

        def func(name, v):
            if isinstance(v, Source):
                return v
            if isinstance(v, str):
                return _checks.c_string(name, v)
            raise TypeError(f"{name} must be a catalogue name (str) or a metaopt.Source, got {type(v).__name__}")

        funcs = _per_problem("function", function, n, func)
        dims_ = _per_problem("dims", dims, n, lambda k, v: _checks.integer(k, v, 1, 2**32 - 1))
        members_ = _per_problem("members", members, n, lambda k, v: _checks.integer(k, v, 1, 2**32 - 1))
        f_ = _per_problem("f", f, n, _checks.real)
        cr_ = _per_problem("cr", cr, n, _checks.real)
        mut_ = _per_problem("mutation", mutation, n, lambda k, v: _checks.c_string(k, v))
        bnd_ = _per_problem("bounds", bounds, n, lambda k, v: _checks.c_string(k, v))
        if not _is_seq(seed):
            s0 = _checks.integer("seed", seed, 0, 2**64 - 1)
            seed_ = [(s0 + i) % 2**64 for i in range(n)]
        else:
            seed_ = _per_problem("seed", seed, n, lambda k, v: _checks.integer(k, v, 0, 2**64 - 1))
        if data is None:
            data_ = [None] * n
        elif isinstance(data, (bytes, bytearray, memoryview, np.ndarray)):
            data_ = [as_bytes("data", data)] * n
        else:
            data_ = _per_problem("data", data, n, lambda k, v: None if v is None else as_bytes(k, v))
        gens_ = _per_problem("generations", generations, n, lambda k, v: _checks.integer(k, v, 0, 2**64 - 1))
        meth_ = _per_problem("method", method, n, lambda k, v: _checks.choice(k, v, _METHODS))
        small_ = _per_problem("jde_small", jde_small, n, lambda k, v: _checks.integer(k, v, 0, 2**32 - 1))
        if target is None:
            tgt_ = [None] * n
        else:
            tgt_ = _per_problem("target", target, n, lambda k, v: None if v is None else _checks.real(k, v, finite=False))

        def bound_list(name, v):
            if not _is_seq(v):
                return [_checks.vector(name, [v], np.float64)] * n
            if not any(_is_seq(x) for x in v) and len(set(dims_)) == 1 and len(v) == dims_[0] and len(v) != n:
                vec = _checks.vector(name, v, np.float64)
                return [vec] * n
            items = list(v)
            if len(items) != n:
                raise ValueError(f"{name} must be a scalar, one vector of dims values, or {n} entries (one per problem), "
                                 f"got {len(items)}")
            out = []
            for i, x in enumerate(items):
                vec = _checks.vector(f"{name}[{i}]", np.atleast_1d(x), np.float64)
                if vec.size not in (1, dims_[i]):
                    raise ValueError(f"{name}[{i}] must have 1 or dims = {dims_[i]} entries, got {vec.size}")
                out.append(vec)
            return out

        lo_ = bound_list("lower", lower)
        hi_ = bound_list("upper", upper)
        int_ = _integrality_list(integrality, n, dims_)
        cons_ = _constraints_list(constraints, n)
        for i in range(n):
            if np.any(np.isnan(lo_[i])) or np.any(np.isnan(hi_[i])):
                raise ValueError(f"bounds of problem {i} contain NaN")
        specs = (_ffi.MetaoptBatchDeProblem * n)()
        keep = []
        for i in range(n):
            p = L.metaopt_batch_de_default_problem()
            fn = funcs[i]
            if isinstance(fn, Source):
                code = _checks.c_string(f"function[{i}].code", fn.code)
                p.source = code
                keep.append(code)
                if data_[i]:
                    buf = ctypes.create_string_buffer(data_[i], len(data_[i]))
                    keep.append(buf)
                    p.data = ctypes.cast(buf, ctypes.c_void_p)
                    p.data_bytes = len(data_[i])
            elif data_[i]:
                raise ValueError(f"data[{i}] is given but problem {i}'s function is a catalogue name, not a Source")
            else:
                p.function = fn
            p.dims = dims_[i]
            p.lower = lo_[i].ctypes.data_as(ctypes.POINTER(ctypes.c_double))
            p.lower_length = lo_[i].size
            p.upper = hi_[i].ctypes.data_as(ctypes.POINTER(ctypes.c_double))
            p.upper_length = hi_[i].size
            p.members = members_[i]
            p.f = f_[i]
            p.cr = cr_[i]
            p.mutation = mut_[i]
            p.bounds = bnd_[i]
            p.seed = seed_[i]
            p.max_generations = gens_[i]
            p.algorithm = meth_[i]
            p.jde_small = small_[i]
            if tgt_[i] is not None:
                p.has_target = 1
                p.target = tgt_[i]
            if int_[i] is not None:
                p.integrality = int_[i].ctypes.data_as(ctypes.POINTER(ctypes.c_uint8))
                p.integrality_length = int_[i].size
                keep.append(int_[i])
            if cons_[i] is not None:
                c = L.metaopt_default_constraints()
                c.inequalities, c.equalities, c.eq_tol = cons_[i]
                keep.append(c)
                p.constraints = ctypes.pointer(c)
            specs[i] = p
        o = L.metaopt_batch_de_default_options()
        o.backend = _ffi.METAOPT_BACKEND_CPU if _checks.flag("cpu", cpu) else _ffi.METAOPT_BACKEND_DEVICE
        o.device = _checks.device(device)
        o.precision = _precision.code(_precision.requested(precision, None))
        o.generations_per_launch = _checks.integer("generations_per_launch", generations_per_launch, 1, 2**32 - 1)
        o.placement = _checks.choice("placement", placement, _PLACEMENTS)
        r = L.metaopt_batch_de_create(specs, n, ctypes.byref(o))
        check(r, "metaopt_batch_de_create")
        del keep, lo_, hi_
        self.count = n
        self.dims = np.array(dims_, dtype=np.uint32)
        self.cpu = bool(cpu)
        self._adopt(r.instance, "metaopt_batch_de_free")

    def _result(self, L, h, r, seconds=None):
        n = int(r.count)
        values = np.ctypeslib.as_array(r.best_value, shape=(n,)).astype(np.float64, copy=True)
        gens = np.ctypeslib.as_array(r.generations, shape=(n,)).astype(np.uint64, copy=True)
        stops = [STOP_WORDS.get(int(r.stop_reason[i]), str(int(r.stop_reason[i]))) for i in range(n)]
        viol = np.ctypeslib.as_array(r.violation, shape=(n,)).astype(np.float64, copy=True) if n else np.zeros(0)
        best = []
        for i in range(n):
            v = np.full(int(self.dims[i]), np.nan)
            if np.isfinite(values[i]) or gens[i] > 0 or stops[i] in ("target", "budget"):
                b = L.metaopt_batch_de_best(h, i, v.ctypes.data_as(ctypes.POINTER(ctypes.c_double)), v.size)
                if b.error_code != 0:
                    # a problem not started has no vector yet
                    v = np.full(int(self.dims[i]), np.nan)
                    _lib.lib().metaopt_pointer_free(b.error_message)
            best.append(v)
        return BatchDEResult(best_values=values, generations=gens, stop=stops, best=best,
                             precision=_precision.name(r.precision), seconds=float(r.seconds if seconds is None else seconds),
                             violation=viol)

    def run(self, time_limit=None, stop_token=None, checkpoint=None, checkpoint_every=None, resume=None):
        """Runs every problem until its target or generations, ``time_limit`` seconds (None: no
        limit) or ``stop_token``/``metaopt.interrupt()``; may be called again to go on. Ctrl-C
        stops it and raises ``metaopt.Interrupted`` with the ``BatchDEResult`` so far.

        Checkpoints: ``checkpoint`` a file the run writes every problem's state to when it ends
        (interrupted or not) and every ``checkpoint_every`` seconds between launches; ``resume``
        (a ``metaopt.State`` of ``state()``, its bytes, or a checkpoint file's path) first loads
        that state (as ``load_state``), and the run goes on as the one that never stopped."""
        stop_token = _interrupt.token_arg(stop_token)
        resume = _state.resume_arg(resume)
        L = _lib.lib()
        s = L.metaopt_batch_de_default_stop()
        if time_limit is not None:
            s.time_limit = _checks.real("time_limit", time_limit)
            if s.time_limit < 0:
                raise ValueError(f"time_limit must be >= 0, got {time_limit}")
        keep_path = []
        _state.set_checkpoint(s, checkpoint, checkpoint_every, keep_path)
        if resume is not None:
            self.load_state(resume)
        with self._use("run") as h:
            r, caught = _interrupt.run(L.metaopt_batch_de_run, (h, ctypes.byref(s)), s, stop_token, "BatchDE.run")
            s.stop_token = None
            try:
                self._check(r, "metaopt_batch_de_run", interrupted_ok=True)
                result = self._result(L, h, r)
            finally:
                L.metaopt_batch_de_free_run_result(ctypes.byref(r))
        if caught is not None:
            _interrupt.raise_interrupted(caught, result, "BatchDE.run")
        return result

    def state(self):
        """Every problem's state (populations, values, adaptive memories and archives, jDE100's
        per-member F and CR, counters, generations, statuses) as a ``metaopt.State`` (bytes: it
        pickles and saves), from which ``load_state`` (or ``run(resume=...)``) continues."""
        L = _lib.lib()
        with self._use("state") as h:
            return _state.saved(L, L.metaopt_batch_de_save_state, h, "metaopt_batch_de_save_state")

    def load_state(self, state):
        """Continues from ``state`` (a ``metaopt.State``, its bytes, or a checkpoint file's path)
        on a batch made of the same problems and options (the state holds no problem: a
        ``BatchDE`` is rebuilt from its arguments, then ``load_state``). Another problem set,
        precision, placement, backend or library version, and damaged bytes, raise
        ``MetaoptError`` naming ``state`` and saying what differs."""
        L = _lib.lib()
        with self._use("load_state") as h:
            _state.load(L.metaopt_batch_de_load_state, h, state, "metaopt_batch_de_load_state")

    def results(self):
        """The per-problem results as they stand, without running."""
        L = _lib.lib()
        with self._use("results") as h:
            r = L.metaopt_batch_de_results(h)
            try:
                self._check(r, "metaopt_batch_de_results")
                return self._result(L, h, r)
            finally:
                L.metaopt_batch_de_free_run_result(ctypes.byref(r))

    def best(self, i):
        """The best vector of problem ``i`` (its dims values)."""
        i = _checks.integer("i", i, 0, self.count - 1)
        L = _lib.lib()
        with self._use("best") as h:
            v = np.empty(int(self.dims[i]))
            r = L.metaopt_batch_de_best(h, i, v.ctypes.data_as(ctypes.POINTER(ctypes.c_double)), v.size)
            self._check(r, "metaopt_batch_de_best")
            return v


def run(function, dims, lower, upper, time_limit=None, stop_token=None, checkpoint=None, checkpoint_every=None,
        resume=None, **options) -> BatchDEResult:
    """``BatchDE(...).run(time_limit, stop_token, checkpoint, checkpoint_every, resume)`` in one
    call, the batch freed after. ``time_limit`` counts the batch's set-up (building its device
    program) too."""
    started = time.perf_counter()
    with BatchDE(function, dims, lower, upper, **options) as b:
        return b.run(time_limit=_checks.time_left(time_limit, started), stop_token=stop_token, checkpoint=checkpoint,
                     checkpoint_every=checkpoint_every, resume=resume)


__all__ = ["BatchDE", "BatchDEResult", "MUTATIONS", "BOUNDS", "run"]
