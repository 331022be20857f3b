"""The general HC12 solver (thesis Table 1) over ``metaopt_hc12_*``."""

import ctypes
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from . import _checks, _ffi, _interrupt, _lib, _precision, _state
from ._errors import check, check_int, take_string
from ._handle import Instance
from ._result import ArrayEq
from ._objective import as_bytes, make_objective
from .qap import _tabu_options

_DOMAINS = {
    "binary": _ffi.METAOPT_DOMAIN_BINARY,
    "integer": _ffi.METAOPT_DOMAIN_INTEGER,
    "real": _ffi.METAOPT_DOMAIN_REAL,
    "B": _ffi.METAOPT_DOMAIN_BINARY,
    "I": _ffi.METAOPT_DOMAIN_INTEGER,
    "R": _ffi.METAOPT_DOMAIN_REAL,
}
_CODINGS = {"GC": _ffi.METAOPT_CODING_GRAY, "BC": _ffi.METAOPT_CODING_BINARY}
_SENSES = {"min": _ffi.METAOPT_SENSE_MIN, "max": _ffi.METAOPT_SENSE_MAX}


@dataclass(eq=False)
class HC12Result(ArrayEq):
    """The best of the runs: ``value``; ``x`` (the reals for the real domain, else the decoded
    integers); ``string`` (the stored words, Gray-coded under GC: the thesis's K_GC),
    ``integers``, ``reals``; ``iterations`` of the best run, ``evaluations`` over all runs,
    ``seconds``, per run ``run_values`` and ``run_iterations``, the ``precision`` the library
    computed in, and ``stop``: why the runs ended, in the library's word: ``"budget"`` (every
    run finished), ``"target"``, ``"time_limit"`` or ``"interrupted"`` (``metaopt.interrupt()``,
    a ``StopToken`` or Ctrl-C: the best so far; ``success`` is then False)."""

    value: float
    x: np.ndarray
    string: np.ndarray
    integers: np.ndarray
    reals: np.ndarray
    iterations: int
    evaluations: int
    seconds: float = field(compare=False)
    run_values: np.ndarray
    run_iterations: np.ndarray
    #: "double" or "single": the precision the solver computed in
    precision: str = "double"
    #: "budget", "target", "time_limit" or "interrupted"
    stop: str = "budget"

    @property
    def success(self) -> bool:
        """False when the runs were interrupted (the result is the best so far), else True."""
        return self.stop != "interrupted"


def _copy(ptr, n, dtype):
    return np.ctypeslib.as_array(ptr, shape=(n,)).astype(dtype, copy=True) if n else np.zeros(0, dtype)


class HC12(Instance):
    """General HC12: ``n_param`` parameters of ``n_bit_param`` bits (one value or one per
    parameter) on the intervals ``dod_param`` ((2,) for all, or (n_param, 2)).

    ``objective`` is a catalogue function name (``"F1"``, ``"CEC05t"``, ...), a
    ``metaopt.Source`` of OpenCL C, or a Python callable ``f(X) -> F`` that receives the
    (rows, n_param) matrix of one iteration (float64; the integers or bit strings for the
    ``"integer"``/``"binary"`` domains) and returns its ``rows`` values. An exception raised by
    the callable ends the run and is re-raised by ``run``; the callable must not use this
    instance (see ``Instance``).

    ``domain``: ``"real"`` (default), ``"integer"`` or ``"binary"`` (the thesis's
    ``params:noR``); ``precision``: ``"auto"`` (the default: double where the device has fp64,
    cl_khr_fp64, else single), ``"double"`` (refused by a device without fp64) or ``"single"``
    (``double=True/False`` is the older spelling); the library resolves it here and
    ``precision`` says which is used (``precision_note`` when auto chose single).
    """

    def __init__(self, n_param: int, n_bit_param, dod_param, objective, mask_order: int = 2, start_bit: int = 0,
                 bit_len: int = 0, domain: str = "real", double: Optional[bool] = None, *,
                 precision: Optional[str] = None, device: Optional[int] = None):
        self.n_param = _checks.integer("n_param", n_param, 1, 2**32 - 1)
        self.n_bit_param = _checks.vector("n_bit_param", n_bit_param, np.uint32, lengths=(1, self.n_param))
        if np.any(self.n_bit_param < 1) or np.any(self.n_bit_param > 32):
            raise ValueError(f"n_bit_param values must be 1..32, got {self.n_bit_param.tolist()}")
        dod = np.asarray(dod_param) if not isinstance(dod_param, np.ndarray) else dod_param
        if dod.ndim == 2 and dod.shape not in ((1, 2), (self.n_param, 2)):
            raise ValueError(f"dod_param must have shape (2,) or (n_param, 2) = ({self.n_param}, 2), got {dod.shape}")
        self.dod_param = _checks.vector("dod_param", dod.reshape(-1) if dod.ndim == 2 else dod, np.float64,
                                        lengths=(2, 2 * self.n_param), finite=True)
        pairs = self.dod_param.reshape(-1, 2)
        bad = np.flatnonzero(pairs[:, 0] >= pairs[:, 1])
        if bad.size:
            raise ValueError(f"dod_param row {int(bad[0])} is [{pairs[bad[0], 0]}, {pairs[bad[0], 1]}]; expected a < b")
        self.mask_order = _checks.integer("mask_order", mask_order, 1, 3)
        domain = _checks.choice("domain", domain, _DOMAINS)
        self.domain = {
            _ffi.METAOPT_DOMAIN_BINARY: "binary", _ffi.METAOPT_DOMAIN_INTEGER: "integer", _ffi.METAOPT_DOMAIN_REAL: "real"
        }[domain]
        asked = _precision.requested(precision, double)
        obj, self._callback, keep = make_objective(objective)
        self.objective = objective
        r = _lib.lib().metaopt_hc12_params_on_device(
            self.n_param,
            self.n_bit_param.ctypes.data_as(ctypes.POINTER(ctypes.c_uint32)), self.n_bit_param.size,
            self.dod_param.ctypes.data_as(ctypes.POINTER(ctypes.c_double)), self.dod_param.size,
            self.mask_order,
            _checks.integer("start_bit", start_bit, 0, 2**31 - 1),
            _checks.integer("bit_len", bit_len, 0, 2**31 - 1),
            domain, _precision.code(asked), _checks.device(device), ctypes.byref(obj),
        )
        del keep  # the library copied the strings
        # the callback object lives as long as the handle (freed first, then released)
        self._adopt(check(r, "metaopt_hc12_params_on_device").instance, "metaopt_hc12_free", keep=self._callback)
        #: "double" or "single": the precision the library resolved and computes in
        self.precision = _precision.from_info(self.info) or ("single" if asked == "single" else "double")
        self.precision_note = _precision.note(asked, self.precision)
        self.double = self.precision == "double"

    def init_tabu_list(self, max_length):
        """The thesis's ``set-tabu-list``: room for ``max_length`` strings (0 removes it); runs
        with ``taboo=True`` use it."""
        n = _checks.integer("max_length", max_length, 0, 2**32 - 1)
        with self._use("init_tabu_list") as h:
            check_int(_lib.lib().metaopt_hc12_init_tabu_list(h, n), "metaopt_hc12_init_tabu_list")

    set_tabu_list = init_tabu_list

    def set_tabu_options(self, activation_limit=None, aspiration=False, max_iterations=10000, max_no_improve=100):
        o = _tabu_options(activation_limit, aspiration, max_iterations, max_no_improve)
        with self._use("set_tabu_options") as h:
            check_int(_lib.lib().metaopt_hc12_set_tabu_options(h, ctypes.byref(o)), "metaopt_hc12_set_tabu_options")

    def run(self, runs=1, coding="GC", sense="min", start=None, seed=1, max_iterations=1_000_000, taboo=False,
            stop_token=None, time_limit=None, checkpoint=None, checkpoint_every=None, resume=None):
        """``runs`` runs (the first from ``start``: None = random, ``"zeros"`` = the thesis's
        bit-zeros, or a vector of ``n_param`` reals), the best of them as ``HC12Result``.

        ``stop_token`` (a ``metaopt.StopToken``) requested, or ``metaopt.interrupt()``, stops the
        runs between climb steps: the result is the best so far with ``stop == "interrupted"``;
        ``time_limit`` (seconds) likewise, with ``stop == "time_limit"``.
        Ctrl-C does the same and raises ``metaopt.Interrupted`` (a ``KeyboardInterrupt``) whose
        ``result`` is that ``HC12Result``.

        Checkpoints: ``checkpoint`` a file the runs write their whole state to (between runs)
        when the call ends (interrupted or not) and every ``checkpoint_every`` seconds;
        ``resume`` (a ``metaopt.State`` of ``state()``, its bytes, or a checkpoint file's path)
        continues the runs as if they had never stopped: the options and the tabu list must be
        the saved call's (``runs`` and ``time_limit`` may be larger; they count the work already
        done)."""
        stop_token = _interrupt.token_arg(stop_token)
        resume = _state.resume_arg(resume)
        L = _lib.lib()
        o = L.metaopt_hc12_default_run_options()
        if coding in ("GCi", "gci"):
            raise ValueError("coding 'GCi': the thesis (000, Table 1) lists this coding but does not define it, so the "
                             "library does not implement a guess; use 'GC' (Gray code per parameter) or 'BC' (plain binary)")
        o.coding = _checks.choice("coding", coding, _CODINGS)
        o.sense = _checks.choice("sense", sense, _SENSES)
        o.runs = _checks.integer("runs", runs, 1, 2**32 - 1)
        o.seed = _checks.integer("seed", seed, 0, 2**64 - 1)
        o.max_iterations = _checks.integer("max_iterations", max_iterations, 1, 2**32 - 1)
        o.taboo = int(_checks.flag("taboo", taboo))
        o.time_limit_s = 0.0 if time_limit is None else _checks.real("time_limit", time_limit)
        vec = None
        if start is None:
            o.start = _ffi.METAOPT_HC12_START_RANDOM
        elif isinstance(start, str):
            if start not in ("zeros", "bit-zeros"):
                raise ValueError(f"start must be None, 'zeros' or a vector of {self.n_param} reals, got {start!r}")
            o.start = _ffi.METAOPT_HC12_START_ZEROS
        else:
            vec = _checks.vector("start", start, np.float64, length=self.n_param, finite=True)
            o.start = _ffi.METAOPT_HC12_START_VECTOR
            o.start_vector = vec.ctypes.data_as(ctypes.POINTER(ctypes.c_double))
        keep_path = []
        _state.set_checkpoint(o, checkpoint, checkpoint_every, keep_path)
        with self._use("run") as h:
            if resume is not None:
                _state.load(L.metaopt_hc12_load_state, h, resume, "metaopt_hc12_load_state")
            r, caught = _interrupt.run(L.metaopt_hc12_run, (h, ctypes.byref(o)), o, stop_token, "HC12.run")
            try:
                self._check(r, "metaopt_hc12_run", interrupted_ok=True)
                n = r.nParam
                integers = _copy(r.integers, n, np.uint32)
                reals = _copy(r.reals, n, np.float64)
                result = HC12Result(
                    value=float(r.value),
                    x=reals if self.domain == "real" else integers,
                    string=_copy(r.string, n, np.uint32),
                    integers=integers,
                    reals=reals,
                    iterations=int(r.iterations),
                    evaluations=int(r.evaluations),
                    seconds=float(r.seconds),
                    run_values=_copy(r.run_values, r.runs, np.float64),
                    run_iterations=_copy(r.run_iterations, r.runs, np.uint32),
                    precision=_precision.name(r.precision) if r.precision else self.precision,
                    stop=_interrupt.result_stop(r),
                )
            finally:
                L.metaopt_hc12_free_run_result(ctypes.byref(r))
        if caught is not None:
            _interrupt.raise_interrupted(caught, result, "HC12.run")
        return result

    def state(self):
        """The whole state of the last ``run`` (runs made, counters, the best string and every
        run's figures, the random restarts' position, time taken) as a ``metaopt.State``, from
        which ``run(resume=...)`` continues it. Taken between runs: a run cut short is climbed
        again."""
        L = _lib.lib()
        with self._use("state") as h:
            return _state.saved(L, L.metaopt_hc12_save_state, h, "metaopt_hc12_save_state")

    def load_state(self, state):
        """The next ``run`` continues the runs saved in ``state`` (a ``metaopt.State``, its
        bytes, or a checkpoint file's path)."""
        L = _lib.lib()
        with self._use("load_state") as h:
            _state.load(L.metaopt_hc12_load_state, h, state, "metaopt_hc12_load_state")

    def func_data(self, data):
        """The thesis's ``func-data``: the ``data`` buffer of a ``Source`` objective (bytes, or
        a NumPy array's raw memory: e.g. ``np.float32([10])`` for one float)."""
        b = as_bytes("data", data)
        with self._use("func_data") as h:
            check_int(_lib.lib().metaopt_hc12_func_data(h, b, len(b)), "metaopt_hc12_func_data")

    def func_data_clean(self):
        with self._use("func_data_clean") as h:
            check_int(_lib.lib().metaopt_hc12_func_data_clean(h), "metaopt_hc12_func_data_clean")

    def kernel_verbose(self, on=True):
        """Prints every kernel launch to stderr while on."""
        on = int(_checks.flag("on", on))
        with self._use("kernel_verbose") as h:
            check_int(_lib.lib().metaopt_hc12_kernel_verbose(h, on), "metaopt_hc12_kernel_verbose")

    def profiler_on(self):
        with self._use("profiler_on") as h:
            check_int(_lib.lib().metaopt_hc12_profiler_on(h), "metaopt_hc12_profiler_on")

    def profiler_output(self):
        """Kernel timings since ``profiler_on``, one line per kernel."""
        with self._use("profiler_output") as h:
            return _text(_lib.lib().metaopt_hc12_profiler_output(h), "metaopt_hc12_profiler_output")

    @property
    def info(self):
        """The thesis's ``info``: a description of the instance."""
        with self._use("info") as h:
            return _text(_lib.lib().metaopt_hc12_info(h), "metaopt_hc12_info")


def _text(r, function):
    """The text of a MetaoptStringResult, freed."""
    check(r, function)
    return take_string(r.text) or ""
