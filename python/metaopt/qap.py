"""HC12 over the qapswap2 encoding for the quadratic assignment problem (the thesis's
``HC12QAP`` class, over ``metaopt_qap_params`` / ``metaopt_qap_run`` / ``metaopt_qap_solve``),
and the robust tabu search over the same instances (``HC12QAP.solve_ts``, ``qap_solve``, over
``metaopt_qap_ts_solve``)."""

import ctypes
import math
import os
from dataclasses import dataclass, field
from typing import Optional, Union

import numpy as np

from . import _checks, _ffi, _interrupt, _lib, _state
from ._errors import ErrorCode, check, check_int
from ._handle import Instance
from ._result import ArrayEq
# the thesis's QAP module (5.1.5) held these three device functions beside its HC12QAP class: the
# same functions as metaopt.device's, so `from metaopt.qap import is_mem_space_valid` works
from .device import get_cuda_device_number, is_mem_space_valid, set_cuda_device_number  # noqa: F401

# numpy dtype name -> the library's type name
_DF_TYPES = ("int32", "int64", "uint32", "uint64", "float32", "float64")
_BACKENDS = {"device": _ffi.METAOPT_BACKEND_DEVICE, "cpu": _ffi.METAOPT_BACKEND_CPU}
_COST_FORMS = {"delta": _ffi.METAOPT_QAP_COST_DELTA, "full": _ffi.METAOPT_QAP_COST_FULL}
# "hrw", "pe", "ab": projected from the eigenvalue, projected eigenvalue and convex QP bounds
# (thesis Table 5; docs/specs/QAP.md, "Lower bounds")
_STARTS = {
    "random": _ffi.METAOPT_QAP_START_RANDOM,
    "identity": _ffi.METAOPT_QAP_START_IDENTITY,
    "glb": _ffi.METAOPT_QAP_START_GLB,
    "hrw": _ffi.METAOPT_QAP_START_HRW,
    "pe": _ffi.METAOPT_QAP_START_PE,
    "ab": _ffi.METAOPT_QAP_START_AB,
}
_RESTARTS = {"rebase": _ffi.METAOPT_QAP_RESTART_REBASE, "random": _ffi.METAOPT_QAP_RESTART_RANDOM}
_TENURES = {"cubic": _ffi.METAOPT_QAP_TS_TENURE_CUBIC, "uniform": _ffi.METAOPT_QAP_TS_TENURE_UNIFORM}
_METHODS = ("ts", "hc12")


def _cost(r):
    """The cost of a MetaoptQapRunResult / MetaoptQapSolveResult, from the field its result_type names."""
    return {
        _ffi.METAOPT_QAP_RESULT_INT64: lambda: int(r.f_t1),
        _ffi.METAOPT_QAP_RESULT_UINT64: lambda: int(r.f_t2),
        _ffi.METAOPT_QAP_RESULT_FLOAT: lambda: float(r.f_t3),
        _ffi.METAOPT_QAP_RESULT_DOUBLE: lambda: float(r.f_t4),
    }[r.result_type]()


def _copy(ptr, n, dtype):
    return np.ctypeslib.as_array(ptr, shape=(n,)).astype(dtype, copy=True) if n else np.zeros(0, dtype)


@dataclass(eq=False)
class QAPRun(ArrayEq):
    """One HC12 run: ``cost``, ``order`` (0-based permutation: facility i at location
    ``order[i]``), ``k`` (the final Gray-coded string ``K_GC``, relative to the run's base
    order), ``last_iteration`` and ``stop``: None (the climb ended at a local optimum or its
    iteration limit) or ``"interrupted"`` (``metaopt.interrupt()`` or Ctrl-C stopped it: the
    best so far)."""

    cost: object
    order: np.ndarray
    k: np.ndarray
    last_iteration: int
    stop: Optional[str] = None


@dataclass(eq=False)
class QAPSolution(ArrayEq):
    """The iterated solve: best ``cost`` and ``permutation`` (0-based) with its statistics;
    ``bks``/``gap_percent`` are None unless the instance came from a file listed in a
    ``BKS.csv`` beside it. ``stop``, the library's word: ``"budget"`` (the runs ran),
    ``"time_limit"``, ``"target"`` or ``"interrupted"`` (``metaopt.interrupt()``, a
    ``StopToken`` or Ctrl-C: the best so far; ``success`` is then False)."""

    cost: object
    permutation: np.ndarray
    runs: int
    iterations: int
    best_run_iterations: int
    evaluations: int
    seconds: float = field(compare=False)
    seconds_to_best: float = field(compare=False)
    target_reached: bool
    bks: Optional[int]
    gap_percent: Optional[float]
    stop: str = "budget"

    @property
    def gap(self) -> Optional[float]:
        """``gap_percent``: 100 * (cost - bks) / |bks|, or None without a best-known value."""
        return self.gap_percent

    @property
    def success(self) -> bool:
        """False when the solve was interrupted (the result is the best so far), else True."""
        return self.stop != "interrupted"


@dataclass(eq=False)
class QAPTsSolution(ArrayEq):
    """The robust tabu search: best ``cost`` and ``permutation`` (0-based) with its statistics
    (``iterations`` per chain). ``bks`` is the best-known value given to the solve, else the one
    of a ``BKS.csv`` beside the instance's file, else None; ``gap`` (= ``gap_percent``) is
    100 * (cost - bks) / |bks|, or None without a best-known value. ``stop``, the library's
    word: ``"budget"`` (every chain ran its iterations), ``"time_limit"``, ``"target"`` or ``"interrupted"``
    (``metaopt.interrupt()``, a ``StopToken`` or Ctrl-C: the best so far; ``success`` is then
    False)."""

    cost: object
    permutation: np.ndarray
    chains: int
    iterations: int
    launches: int
    restarts: int
    seconds: float = field(compare=False)
    seconds_to_best: float = field(compare=False)
    target_reached: bool
    bks: Optional[int]
    gap_percent: Optional[float]
    backend: str
    stop: str = "budget"
    #: the chains asked for; ``chains`` is fewer where that many did not fit the memory
    #: (``fit_chains``)
    chains_requested: int = 0

    @property
    def gap(self) -> Optional[float]:
        """``gap_percent``: 100 * (cost - bks) / |bks|, or None without a best-known value."""
        return self.gap_percent

    @property
    def success(self) -> bool:
        """False when the search was interrupted (the result is the best so far), else True."""
        return self.stop != "interrupted"


def _gap(cost, bks):
    return None if bks is None else 100.0 * (float(cost) - bks) / abs(bks) if bks != 0 else None


def _matrix_stack(name, M):
    """A thesis-style (n, n) or (n, n, nSlices) array as (nSlices, n, n) C-contiguous, checked."""
    if isinstance(M, np.ndarray):
        a = M
    else:
        try:
            a = np.asarray(M)
        except Exception as e:
            raise TypeError(f"{name} must be array-like: {e}") from None
    if a.ndim not in (2, 3):
        raise ValueError(f"{name} must be a square matrix (n, n) or a stack of them (n, n, nSlices), got shape {a.shape}")
    if a.shape[0] != a.shape[1]:
        raise ValueError(f"{name} must be a square matrix (or array of square matrices), got shape {a.shape}")
    if a.dtype.name not in _DF_TYPES:
        raise TypeError(f"{name} has dtype {a.dtype}; expected one of {', '.join(_DF_TYPES)}")
    if a.shape[0] < 2 or (a.ndim == 3 and a.shape[2] < 1):
        raise ValueError(f"{name} must be at least 2 x 2 with at least one slice, got shape {a.shape}")
    if a.dtype.kind == "f" and not np.all(np.isfinite(a)):
        raise ValueError(f"{name} contains NaN or infinite elements")
    stack = a[np.newaxis] if a.ndim == 2 else np.moveaxis(a, 2, 0)
    return np.ascontiguousarray(stack, dtype=a.dtype.newbyteorder("="))


class HC12QAP(Instance):
    """HC12 with the qapswap2 encoding on the device in use.

    ``HC12QAP(swaps, DF, start_bit=0, bit_len=0, mask_order=2)``: ``DF`` is the thesis's
    combined matrix, (n, n) or (n, n, nSlices), of int32/int64/uint32/uint64/float32/float64:
    below the diagonal the flow matrix, above it the distance matrix (symmetric instances, zero
    diagonal). ``HC12QAP.from_file`` reads a QAPLIB ``.dat``; ``HC12QAP.from_ab`` takes the two
    matrices of a general (asymmetric) instance. ``n_bit_param`` (the thesis's ``nBitParam``;
    None: ceil(log2 n)) sets the bits per parameter, see ``set_bits_per_param``.
    """

    def __init__(self, swaps, DF, start_bit=0, bit_len=0, mask_order=2, n_bit_param=None, device=None):
        stack = _matrix_stack("DF", DF)
        self._setup(swaps, stack.shape[1], stack.shape[0], mask_order)
        L = _lib.lib()
        r = L.metaopt_qap_params_on_device(
            self.swaps, self.n_elements, self.n_slices, stack.ctypes.data_as(ctypes.c_void_p),
            _checks.c_string("DF dtype", stack.dtype.name), self.mask_order,
            _checks.integer("start_bit", start_bit, 0, 2**31 - 1), _checks.integer("bit_len", bit_len, 0, 2**31 - 1),
            _checks.device(device),
        )
        self._adopt(check(r, "metaopt_qap_params_on_device").instance, "metaopt_qap_free")
        self.DF = DF
        if n_bit_param is not None:
            self.set_bits_per_param(n_bit_param)

    def _setup(self, swaps, n, slices, mask_order):
        self.swaps = _checks.integer("swaps", swaps, 1, 64)
        self.mask_order = _checks.integer("mask_order", mask_order, 1, 3)
        self.n_elements = int(n)
        self.n_slices = int(slices)
        self.n_param = 2 * self.swaps
        self.n_bit_param = int(math.ceil(math.log2(self.n_elements)))

    @classmethod
    def from_ab(cls, swaps, A, B, start_bit=0, bit_len=0, mask_order=2, device=None):
        """From the flow matrices ``A`` and distance matrices ``B`` (same shape and dtype, (n, n)
        or (n, n, nSlices)); the cost of p is sum A[i, j] * B[p[i], p[j]] over the slices."""
        a, b = _matrix_stack("A", A), _matrix_stack("B", B)
        if a.shape != b.shape:
            raise ValueError(f"A and B must have the same shape, got {np.shape(A)} and {np.shape(B)}")
        if a.dtype != b.dtype:
            raise TypeError(f"A and B must have the same dtype, got {a.dtype} and {b.dtype}")
        self = cls.__new__(cls)
        self._setup(swaps, a.shape[1], a.shape[0], mask_order)
        r = _lib.lib().metaopt_qap_params_ab_on_device(
            self.swaps, self.n_elements, self.n_slices, a.ctypes.data_as(ctypes.c_void_p),
            b.ctypes.data_as(ctypes.c_void_p), _checks.c_string("A dtype", a.dtype.name), self.mask_order,
            _checks.integer("start_bit", start_bit, 0, 2**31 - 1), _checks.integer("bit_len", bit_len, 0, 2**31 - 1),
            _checks.device(device),
        )
        self._adopt(check(r, "metaopt_qap_params_ab_on_device").instance, "metaopt_qap_free")
        self.DF = None
        return self

    @classmethod
    def from_file(cls, path, swaps, start_bit=0, bit_len=0, mask_order=2, device=None):
        """From a QAPLIB ``.dat`` file (int64); a ``BKS.csv`` beside it gives ``solve`` its gap,
        and ``start="glb"`` (or "hrw", "pe", "ab") works."""
        path = _checks.c_string("path", path, path=True)
        self = cls.__new__(cls)
        self.swaps = _checks.integer("swaps", swaps, 1, 64)
        self.mask_order = _checks.integer("mask_order", mask_order, 1, 3)
        r = _lib.lib().metaopt_qap_params_from_file_on_device(
            path, self.swaps, self.mask_order,
            _checks.integer("start_bit", start_bit, 0, 2**31 - 1), _checks.integer("bit_len", bit_len, 0, 2**31 - 1),
            _checks.device(device),
        )
        self._adopt(check(r, "metaopt_qap_params_from_file_on_device").instance, "metaopt_qap_free")
        info = self.info
        self._setup(swaps, info["n_elements"], info["n_slices"], mask_order)
        self.DF = None
        return self

    # --- the thesis's interface ---
    @property
    def zero_kernel(self):
        """The all-zero string (``n_param`` words): as ``init_kernel`` it starts at the base
        order itself."""
        return np.zeros(self.n_param, dtype=np.uint32)

    def init_tabu_list(self, max_length):
        """Turns the tabu list on with room for ``max_length`` strings (0 turns it off)."""
        n = _checks.integer("max_length", max_length, 0, 2**32 - 1)
        with self._use("init_tabu_list") as h:
            check_int(_lib.lib().metaopt_qap_init_tabu_list(h, n), "metaopt_qap_init_tabu_list")

    def set_tabu_options(self, activation_limit=None, aspiration=False, max_iterations=10000, max_no_improve=100):
        """Options of the tabu list (after ``init_tabu_list``)."""
        o = _tabu_options(activation_limit, aspiration, max_iterations, max_no_improve)
        with self._use("set_tabu_options") as h:
            check_int(_lib.lib().metaopt_qap_set_tabu_options(h, ctypes.byref(o)), "metaopt_qap_set_tabu_options")

    def run(self, init_order=None, init_kernel=None):
        """One HC12 run from base permutation ``init_order`` (0-based, None = identity) and string
        ``init_kernel`` (``n_param`` Gray-coded words, None = zeros) to a local optimum.
        ``metaopt.interrupt()`` stops the climb (``stop == "interrupted"``); Ctrl-C too, raising
        ``metaopt.Interrupted`` with the ``QAPRun`` so far as its ``result``."""
        n = self.n_elements
        order_p = k_p = None
        if init_order is not None:
            order = _checks.vector("init_order", init_order, np.uint16, length=n)
            if not np.array_equal(np.sort(order), np.arange(n)):
                raise ValueError(f"init_order must be a permutation of 0..{n - 1}")
            order_p = order.ctypes.data_as(ctypes.POINTER(ctypes.c_uint16))
        if init_kernel is not None:
            k = _checks.vector("init_kernel", init_kernel, np.uint32, length=self.n_param)
            if np.any(k >= (1 << self.n_bit_param)):
                raise ValueError(f"init_kernel values must be below 2**{self.n_bit_param} (bits per parameter)")
            k_p = k.ctypes.data_as(ctypes.POINTER(ctypes.c_uint32))
        L = _lib.lib()
        with self._use("run") as h:
            # no stop_token field: a Ctrl-C calls metaopt_interrupt
            r, caught = _interrupt.run(L.metaopt_qap_run, (h, order_p, k_p), None, None, "HC12QAP.run")
            try:
                check(r, "metaopt_qap_run", interrupted_ok=True)
                stop = "interrupted" if r.error_code == ErrorCode.INTERRUPTED else None
                result = QAPRun(
                    cost=_cost(r),
                    order=_copy(r.order, r.orderLength, np.uint16),
                    k=_copy(r.K_GC, r.K_GCLength, np.uint32),
                    last_iteration=int(r.lastIteration),
                    stop=stop,
                )
            finally:
                L.metaopt_qap_free_run_result(ctypes.byref(r))
        if caught is not None:
            _interrupt.raise_interrupted(caught, result, "HC12QAP.run")
        return result

    # --- beyond the thesis ---
    def solve(self, runs=100, time_limit=None, seed=1, start="random", restart="rebase", target=None,
              stop_token=None, checkpoint=None, checkpoint_every=None, resume=None):
        """The iterated solve: up to ``runs`` runs (0 = no limit), ``time_limit`` seconds,
        stopping at ``target``; ``start`` is "random", "identity", a permutation projected from a
        lower bound ("glb": Gilmore-Lawler; "hrw": eigenvalue bound; "pe": projected eigenvalue
        bound of Hadley, Rendl and Wolkowicz; "ab": convex quadratic programming bound of
        Anstreicher and Brixius; instances from a file only) or a 0-based permutation; ``restart`` "rebase" or "random". ``stop_token`` (a ``metaopt.StopToken``)
        requested, or ``metaopt.interrupt()``, stops it with the best so far (``stop ==
        "interrupted"``); Ctrl-C too, raising ``metaopt.Interrupted`` with that
        ``QAPSolution`` as its ``result``.

        Checkpoints: ``checkpoint`` a file the solve writes its whole state to (between runs)
        when it ends (interrupted or not) and every ``checkpoint_every`` seconds; ``resume`` (a
        ``metaopt.State`` of ``state()``, its bytes, or a checkpoint file's path) continues a
        solve as if it had never stopped: the options and the instance's settings must be the
        saved solve's (``runs`` and ``time_limit`` may be larger; they count the work already
        done)."""
        stop_token = _interrupt.token_arg(stop_token)
        resume = _state.resume_arg(resume)
        L = _lib.lib()
        o = L.metaopt_qap_default_solve_options()
        o.runs = _checks.integer("runs", runs, 0, 2**32 - 1)
        if time_limit is not None:
            o.time_limit_s = _checks.real("time_limit", time_limit)
            if o.time_limit_s <= 0:
                raise ValueError(f"time_limit must be positive, got {time_limit}")
        if o.runs == 0 and time_limit is None and target is None:
            raise ValueError("runs=0 (no limit) needs a time_limit or a target")
        o.seed = _checks.integer("seed", seed, 0, 2**64 - 1)
        keep = None
        if isinstance(start, str):
            if start not in _STARTS:
                raise ValueError(f"start must be one of {', '.join(_STARTS)} or a permutation, got {start!r}")
            o.start = _STARTS[start]
        else:
            keep = _checks.vector("start", start, np.uint16, length=self.n_elements)
            if not np.array_equal(np.sort(keep), np.arange(self.n_elements)):
                raise ValueError(f"start must be a permutation of 0..{self.n_elements - 1}")
            o.start = _ffi.METAOPT_QAP_START_GIVEN
            o.start_order = keep.ctypes.data_as(ctypes.POINTER(ctypes.c_uint16))
        o.restart = _checks.choice("restart", restart, _RESTARTS)
        if target is not None:
            o.has_target = 1
            o.target = _checks.real("target", target)
        keep_path = []
        _state.set_checkpoint(o, checkpoint, checkpoint_every, keep_path)
        with self._use("solve") as h:
            if resume is not None:
                _state.load(L.metaopt_qap_load_state, h, resume, "metaopt_qap_load_state")
            r, caught = _interrupt.run(L.metaopt_qap_solve, (h, ctypes.byref(o)), o, stop_token, "HC12QAP.solve")
            try:
                check(r, "metaopt_qap_solve", interrupted_ok=True)
                result = QAPSolution(
                    cost=_cost(r),
                    permutation=_copy(r.permutation, r.permutation_length, np.uint16),
                    runs=int(r.runs),
                    iterations=int(r.iterations),
                    best_run_iterations=int(r.best_run_iterations),
                    evaluations=int(r.evaluations),
                    seconds=float(r.seconds),
                    seconds_to_best=float(r.seconds_to_best),
                    target_reached=bool(r.target_reached),
                    bks=int(r.bks) if r.has_bks else None,
                    gap_percent=float(r.gap_percent) if r.has_bks else None,
                    stop=_interrupt.result_stop(r),
                )
            finally:
                L.metaopt_qap_free_solve_result(ctypes.byref(r))
        if caught is not None:
            _interrupt.raise_interrupted(caught, result, "HC12QAP.solve")
        return result

    def solve_ts(self, chains=None, iterations=None, time_limit=None, target=None, seed=1, tenure="cubic",
                 elite_size=8, stagnation=None, perturbation=None, crossover=0.0, starts=None, bks=None,
                 stop_token=None,
                 checkpoint=None, checkpoint_every=None, resume=None, fit_chains=True):
        """The robust tabu search (Taillard) on this instance's matrices and backend
        (``set_backend``): ``chains`` independent chains (None: four per compute unit on a GPU,
        one per compute unit on another device, one per thread on the CPU backend) of
        ``iterations`` iterations each
        (default 100,000; no limit when only ``time_limit`` is given), stopping at ``target``
        (a cost, or ``"bks"`` for the best-known value); ``tenure`` "cubic" (Taillard 2006) or
        "uniform" (1991); ``elite_size`` permutations kept for restarts; ``stagnation``
        iterations without a new best before a chain restarts (None: n^2, 0: never);
        ``perturbation`` a (min, max) number of swaps of a restart; ``crossover`` the share of
        restarts (0 to 1) from a child of two pool members (uniform crossover) instead; ``starts`` 0-based start
        permutations (a sequence, at most ``chains``); ``bks`` a best-known value for the gap.
        ``fit_chains`` (default True): when ``chains`` chains would not fit the memory of the
        device (or of the host, on the CPU backend; n runs up to 2048) run as many as fit
        (``chains`` of the result below its ``chains_requested``); False raises instead.
        ``stop_token`` (a ``metaopt.StopToken``) requested, or ``metaopt.interrupt()``, stops the
        search between launches with the best so far (``stop == "interrupted"``); Ctrl-C too,
        raising ``metaopt.Interrupted`` with that ``QAPTsSolution`` as its ``result``.

        Checkpoints: ``checkpoint`` a file the search writes its whole state to when it ends
        (interrupted or not) and every ``checkpoint_every`` seconds; ``resume`` (a
        ``metaopt.State`` of ``ts_state()``, its bytes, or a checkpoint file's path) continues a
        search as if it had never stopped: the options must be the saved search's (``iterations``
        and ``time_limit`` may be larger; they count the work already done)."""
        stop_token = _interrupt.token_arg(stop_token)
        resume = _state.resume_arg(resume)
        L = _lib.lib()
        n = self.n_elements
        o = L.metaopt_qap_ts_default_options()
        if chains is not None:
            o.chains = _checks.integer("chains", chains, 1, 2**20)
        o.fit_chains = 1 if _checks.flag("fit_chains", fit_chains) else 0
        if bks is not None:
            bks = _checks.integer("bks", bks, -(2**63), 2**63 - 1)
        if time_limit is not None:
            o.time_limit_s = _checks.real("time_limit", time_limit)
            if o.time_limit_s <= 0:
                raise ValueError(f"time_limit must be positive, got {time_limit}")
        if iterations is None:
            o.max_iterations = 0 if time_limit is not None else o.max_iterations
        else:
            o.max_iterations = _checks.integer("iterations", iterations, 0, 2**64 - 1)
            if o.max_iterations == 0 and time_limit is None:
                raise ValueError("iterations=0 (no limit) needs a time_limit")
        if isinstance(target, str):
            if target != "bks":
                raise ValueError(f"target must be a number or 'bks', got {target!r}")
            known = bks if bks is not None else self._known_bks()
            if known is None:
                raise ValueError("target='bks': no best-known value (give bks=, or make the instance with "
                                 "from_file beside a BKS.csv that lists it)")
            o.has_target, o.target = 1, float(known)
        elif target is not None:
            o.has_target, o.target = 1, _checks.real("target", target)
        o.seed = _checks.integer("seed", seed, 0, 2**64 - 1)
        o.tenure = _checks.choice("tenure", tenure, _TENURES)
        o.elite_size = _checks.integer("elite_size", elite_size, 0, 2**32 - 1)
        if stagnation is not None:
            o.stagnation = _checks.integer("stagnation", stagnation, 0, 2**63 - 1)
        if perturbation is not None:
            try:
                lo, hi = perturbation
            except (TypeError, ValueError):
                raise TypeError(f"perturbation must be a (min, max) pair, got {perturbation!r}") from None
            o.perturbation_min = _checks.integer("perturbation min", lo, 1, 2**32 - 1)
            o.perturbation_max = _checks.integer("perturbation max", hi, 1, 2**32 - 1)
        o.crossover = _checks.real("crossover", crossover)
        if not 0.0 <= o.crossover <= 1.0:
            raise ValueError(f"crossover must be a share in [0, 1], got {crossover!r}")
        keep = None
        if starts is not None:
            rows = [_checks.vector("starts", p, np.uint16, length=n) for p in starts]
            for p in rows:
                if not np.array_equal(np.sort(p), np.arange(n)):
                    raise ValueError(f"starts must hold permutations of 0..{n - 1}")
            if rows:
                keep = np.ascontiguousarray(np.stack(rows), dtype=np.uint16)
                o.starts = keep.ctypes.data_as(ctypes.POINTER(ctypes.c_uint16))
                o.starts_count = len(rows)
        keep_path = []
        _state.set_checkpoint(o, checkpoint, checkpoint_every, keep_path)
        with self._use("solve_ts") as h:
            if resume is not None:
                _state.load(L.metaopt_qap_ts_load_state, h, resume, "metaopt_qap_ts_load_state")
            r, caught = _interrupt.run(L.metaopt_qap_ts_solve, (h, ctypes.byref(o)), o, stop_token,
                                       "HC12QAP.solve_ts")
            try:
                check(r, "metaopt_qap_ts_solve", interrupted_ok=True)
                cost = _cost(r)
                known = bks if bks is not None else (int(r.bks) if r.has_bks else None)
                result = QAPTsSolution(
                    cost=cost,
                    permutation=_copy(r.permutation, r.permutation_length, np.uint16),
                    chains=int(r.chains),
                    iterations=int(r.iterations),
                    launches=int(r.launches),
                    restarts=int(r.restarts),
                    seconds=float(r.seconds),
                    seconds_to_best=float(r.seconds_to_best),
                    target_reached=bool(r.target_reached),
                    bks=known,
                    gap_percent=_gap(cost, known),
                    backend=ctypes.string_at(r.backend).decode("utf-8", "replace") if r.backend else "",
                    stop=_interrupt.result_stop(r),
                    chains_requested=int(r.chains_requested),
                )
            finally:
                L.metaopt_qap_ts_free_solve_result(ctypes.byref(r))
        if caught is not None:
            _interrupt.raise_interrupted(caught, result, "HC12QAP.solve_ts")
        return result

    def state(self):
        """The whole state of the last ``solve`` (runs made, counters, the best permutation and
        every run's figures, the random restarts' position, time taken) as a ``metaopt.State``,
        from which ``solve(resume=...)`` continues it. Taken between runs: a run cut short is
        climbed again. Rebuilding the solver (``set_backend``, ``set_bits_per_param``) drops
        it."""
        L = _lib.lib()
        with self._use("state") as h:
            return _state.saved(L, L.metaopt_qap_save_state, h, "metaopt_qap_save_state")

    def load_state(self, state):
        """The next ``solve`` continues the solve saved in ``state`` (a ``metaopt.State``, its
        bytes, or a checkpoint file's path)."""
        L = _lib.lib()
        with self._use("load_state") as h:
            _state.load(L.metaopt_qap_load_state, h, state, "metaopt_qap_load_state")

    def ts_state(self):
        """The whole state of the last ``solve_ts`` (chains, tabu matrices, elite pool, random
        draws, counters, time taken) as a ``metaopt.State``, from which ``solve_ts(resume=...)``
        continues it."""
        L = _lib.lib()
        with self._use("ts_state") as h:
            return _state.saved(L, L.metaopt_qap_ts_save_state, h, "metaopt_qap_ts_save_state")

    def load_ts_state(self, state):
        """The next ``solve_ts`` continues the search saved in ``state`` (a ``metaopt.State``,
        its bytes, or a checkpoint file's path)."""
        L = _lib.lib()
        with self._use("load_ts_state") as h:
            _state.load(L.metaopt_qap_ts_load_state, h, state, "metaopt_qap_ts_load_state")

    def _known_bks(self):
        """The best-known value the library found beside the instance's file (a one-iteration
        solve reports it), or None."""
        L = _lib.lib()
        o = L.metaopt_qap_ts_default_options()
        o.chains, o.max_iterations, o.launch_iterations = 1, 1, 1
        with self._use("solve_ts") as h:
            r = L.metaopt_qap_ts_solve(h, ctypes.byref(o))
            try:
                check(r, "metaopt_qap_ts_solve")
                return int(r.bks) if r.has_bks else None
            finally:
                L.metaopt_qap_ts_free_solve_result(ctypes.byref(r))

    def set_backend(self, backend="device", cost_form="delta", device=None):
        """Rebuilds the solver on the device in use (``"device"``; ``device``: a device number
        instead) or the CPU (``"cpu"``), with the ``"delta"`` or ``"full"`` cost."""
        backend = _checks.choice("backend", backend, _BACKENDS)
        cost_form = _checks.choice("cost_form", cost_form, _COST_FORMS)
        device = _checks.device(device)
        with self._use("set_backend") as h:
            check_int(_lib.lib().metaopt_qap_set_backend_on_device(h, backend, cost_form, device),
                      "metaopt_qap_set_backend_on_device")

    def set_bits_per_param(self, n_bit_param):
        """The bits per parameter of the strings (the thesis's ``nBitParam``): 0 or
        ceil(log2 n) is the default; more (up to 32) makes each parameter decode to I below
        2**n_bit_param naming position ``I mod n``, as the thesis's kernel does; fewer than
        ceil(log2 n) raises MetaoptError naming ``nBitParam`` (positions no swap could reach).
        Rebuilds the solver (the tabu list and the iteration cap are kept)."""
        b = _checks.integer("n_bit_param", n_bit_param, 0, 2**32 - 1)
        with self._use("set_bits_per_param") as h:
            check_int(_lib.lib().metaopt_qap_set_bits_per_param(h, b), "metaopt_qap_set_bits_per_param")
        self.n_bit_param = int(self.info["bits_per_param"])

    def set_max_iterations(self, max_iterations):
        n = _checks.integer("max_iterations", max_iterations, 1, 2**32 - 1)
        with self._use("set_max_iterations") as h:
            check_int(_lib.lib().metaopt_qap_set_max_iterations(h, n), "metaopt_qap_set_max_iterations")

    @property
    def info(self):
        """Sizes and settings (``metaopt_qap_info``) as a dict."""
        out = _ffi.MetaoptQapInfo()
        with self._use("info") as h:
            check_int(_lib.lib().metaopt_qap_info(h, ctypes.byref(out)), "metaopt_qap_info")
        d = {name: getattr(out, name) for name, _ in out._fields_}
        d["backend"] = {v: k for k, v in _BACKENDS.items()}.get(d["backend"], d["backend"])
        d["cost_form"] = {v: k for k, v in _COST_FORMS.items()}.get(d["cost_form"], d["cost_form"])
        return d


def _tabu_options(activation_limit, aspiration, max_iterations, max_no_improve):
    o = _lib.lib().metaopt_tabu_default_options()
    if activation_limit is not None:
        o.has_activation_limit = 1
        o.activation_limit = _checks.real("activation_limit", activation_limit, finite=False)
    o.aspiration = int(_checks.flag("aspiration", aspiration))
    o.max_iterations = _checks.integer("max_iterations", max_iterations, 1, 2**32 - 1)
    o.max_no_improve = _checks.integer("max_no_improve", max_no_improve, 1, 2**32 - 1)
    return o


def qap_solve(A, B=None, method: str = "ts", chains: Optional[int] = None, iterations: Optional[int] = None,
              time_limit: Optional[float] = None, target=None, seed: Optional[int] = 1, cpu: bool = False,
              bks: Optional[int] = None, **options) -> Union["QAPTsSolution", "QAPSolution"]:
    """Solves a QAP instance in one call and frees the instance: ``A`` and ``B`` the flow and
    distance matrices (any instance, as ``HC12QAP.from_ab``), or ``A`` a QAPLIB ``.dat`` path
    (``B`` None; a ``BKS.csv`` beside it gives the best-known value). ``method="ts"`` (default)
    is the robust tabu search (``HC12QAP.solve_ts``: ``chains``, ``iterations`` per chain,
    ``time_limit``, ``target`` (a cost or ``"bks"``), ``seed``, ``bks`` and its other keyword
    options) and returns a ``QAPTsSolution``; ``method="hc12"`` the iterated HC12 solve
    (``HC12QAP.solve``; ``swaps`` (default 16) and ``mask_order`` (2) among the keyword options,
    ``runs`` (100), ``start``, ``restart``) and returns a ``QAPSolution``. A warm start: ``start=``
    a 0-based permutation (or a list of them, one for each of the first chains with ``"ts"``; the
    first run's start with ``"hc12"``). ``cpu=True`` runs on
    the CPU instead of the device in use. ``seed=None`` draws a fresh seed. Checkpoints
    (``"ts"``): ``checkpoint=`` a file, ``checkpoint_every=`` seconds, ``resume=`` a
    ``metaopt.State`` or checkpoint file to continue (see ``HC12QAP.solve_ts``).

    Also ``metaopt.qap.solve``. The result has ``.cost``, ``.permutation`` (0-based: facility i
    at location ``permutation[i]``), ``.gap`` (percent above the best-known value, or None),
    ``.bks`` and ``.stop``.

    Stopping early: ``stop_token=`` (a ``metaopt.StopToken``, requested from another thread) or
    ``metaopt.interrupt()`` returns the best so far with ``stop == "interrupted"`` and
    ``success`` False. Ctrl-C stops the search within about one launch and raises
    ``metaopt.Interrupted`` (a ``KeyboardInterrupt``) whose ``result`` is the best so far.

    >>> r = metaopt.qap.solve("data/qaplib/had12.dat", target="bks", time_limit=60)  # doctest: +SKIP
    >>> r.cost, r.gap  # doctest: +SKIP
    (1652, 0.0)
    """
    if not isinstance(method, str) or method not in _METHODS:
        raise ValueError(f"method must be one of {', '.join(_METHODS)}, got {method!r}")
    cpu = _checks.flag("cpu", cpu)
    if seed is None:
        seed = int(np.random.SeedSequence().entropy % 2**63)
    swaps = options.pop("swaps", 16 if method == "hc12" else 2)
    mask_order = options.pop("mask_order", 2)
    if isinstance(A, (str, os.PathLike)):
        if B is not None:
            raise TypeError("give A and B as matrices, or A as a QAPLIB file and no B")
        q = HC12QAP.from_file(A, swaps, mask_order=mask_order)
    else:
        if B is None:
            raise TypeError("B (the distance matrix) is missing")
        q = HC12QAP.from_ab(swaps, A, B, mask_order=mask_order)
    with q:
        if cpu:
            q.set_backend("cpu")
        if method == "ts":
            if "start" in options:  # warm start: one permutation, or one for each of the first chains
                start = options.pop("start")
                if options.get("starts") is not None:
                    raise ValueError("give start or starts, not both")
                if isinstance(start, str) or start is None:
                    raise ValueError("start: method='ts' starts from 0-based permutations (one, or one per "
                                     f"chain), got {start!r}")
                rows = np.asarray(start)
                options["starts"] = [rows] if rows.ndim == 1 else list(rows)
            return q.solve_ts(chains=chains, iterations=iterations, time_limit=time_limit, target=target, seed=seed,
                              bks=bks, **options)
        if iterations is not None or chains is not None:
            raise ValueError("chains and iterations are options of method='ts', not of method='hc12'")
        if isinstance(target, str):
            if target != "bks":
                raise ValueError(f"target must be a number or 'bks', got {target!r}")
            target = bks if bks is not None else q._known_bks()
            if target is None:
                raise ValueError("target='bks': no best-known value (give bks=)")
        if time_limit is not None and "runs" not in options:
            options["runs"] = 0
        try:
            r = q.solve(time_limit=time_limit, target=target, seed=seed, **options)
        except _interrupt.Interrupted as e:
            if bks is not None and e.result is not None:
                e.result.bks, e.result.gap_percent = int(bks), _gap(e.result.cost, int(bks))
            raise
        if bks is not None:  # the given best-known value, as method="ts" reports it
            r.bks, r.gap_percent = int(bks), _gap(r.cost, int(bks))
        return r


#: ``metaopt.qap.solve``: the same function as ``metaopt.qap_solve``.
solve = qap_solve


# --- QAPLIB helpers (host side, no library) ---
def read_qaplib(path):
    """The matrices (A, B) of a QAPLIB ``.dat`` file as int64 arrays."""
    with open(path) as f:
        tokens = f.read().split()
    if not tokens:
        raise ValueError(f"{path}: empty file")
    n = int(tokens[0])
    want = 1 + 2 * n * n
    if len(tokens) < want:
        raise ValueError(f"{path}: {len(tokens) - 1} numbers after n = {n}; expected {2 * n * n}")
    vals = np.array([int(t) for t in tokens[1:want]], dtype=np.int64)
    return vals[: n * n].reshape(n, n), vals[n * n :].reshape(n, n)


def read_solution(path):
    """(n, cost, 0-based permutation) of a QAPLIB ``.sln`` file."""
    with open(path) as f:
        tokens = f.read().split()
    n, cost = int(tokens[0]), int(tokens[1])
    return n, cost, np.array([int(t) - 1 for t in tokens[2 : 2 + n]], dtype=np.int64)


def df_from_ab(A, B):
    """The thesis's combined matrix of a symmetric zero-diagonal instance: A below the diagonal,
    B above it."""
    A, B = np.asarray(A), np.asarray(B)
    if A.shape != B.shape or A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise ValueError(f"A and B must be square matrices of one shape, got {A.shape} and {B.shape}")
    if not (np.array_equal(A, A.T) and np.array_equal(B, B.T)):
        raise ValueError("A and B must be symmetric (use HC12QAP.from_ab for other instances)")
    if np.any(np.diag(A)) or np.any(np.diag(B)):
        raise ValueError("A and B must have zero diagonals (use HC12QAP.from_ab for other instances)")
    lower = np.tril(np.ones(A.shape, dtype=bool), -1)
    return np.where(lower, A, B)


def qap_cost(A, B, perm):
    """sum_ij A[i, j] * B[perm[i], perm[j]] (computed on the host)."""
    A, B = np.asarray(A), np.asarray(B)
    p = np.asarray(perm, dtype=np.int64)
    return (A * B[np.ix_(p, p)]).sum()
