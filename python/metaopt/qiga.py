"""The quantum-inspired genetic algorithm (docs/specs/QIGA.md) over ``metaopt_qiga_run``: many
independent populations on a ``metaopt.Knapsack``, with each population's best value and item
set and their statistics."""

import ctypes
import os
from dataclasses import dataclass, field
from typing import List

import numpy as np

from . import _checks, _ffi, _interrupt, _lib, _state
from ._errors import check
from .knapsack import Knapsack
from ._result import ArrayEq

_TABLES = {"gqa2000": _ffi.METAOPT_QIGA_TABLE_GQA2000, "qea2002": _ffi.METAOPT_QIGA_TABLE_QEA2002}
_REPAIRS = {
    "index": _ffi.METAOPT_QIGA_REPAIR_INDEX,
    "random": _ffi.METAOPT_QIGA_REPAIR_RANDOM,
    "greedy": _ffi.METAOPT_QIGA_REPAIR_GREEDY,
}
_POLE_SIGNS = {"fixed": 0, "random": 1}


@dataclass(frozen=True)
class QIGAStats:
    """Statistics of final values: ``count``, ``mean``, ``variance`` (sample), ``median``,
    ``min``, ``max``."""

    count: int
    mean: float
    variance: float
    median: float
    min: float
    max: float

    @classmethod
    def _of(cls, s):
        return cls(int(s.count), float(s.mean), float(s.variance), float(s.median), float(s.min), float(s.max))


@dataclass(eq=False)
class QIGAResult(ArrayEq):
    """One entry per population that ran, in population order: ``population`` (numbers),
    ``best_value`` (float64, the problem's units), ``best_value_int`` (uint64, exact),
    ``best_bits`` (uint8, populations x items), ``best_generation``, ``generations_run``;
    ``stats`` and ``table_stats`` (``QIGAStats``; one per table), ``best_index`` (the best
    entry), ``stop`` (the library's word: ``"budget"`` (the generations ran), ``"target"``,
    ``"time_limit"`` or ``"interrupted"``),
    ``elapsed``, ``runs_per_second`` and ``backend``."""

    population: np.ndarray
    best_value: np.ndarray
    best_value_int: np.ndarray
    best_bits: np.ndarray
    best_generation: np.ndarray
    generations_run: np.ndarray
    stats: QIGAStats
    table_stats: List[QIGAStats]
    best_index: int
    stop: str
    elapsed: float = field(compare=False)
    runs_per_second: float = field(compare=False)
    backend: str = field(compare=False)

    @property
    def best(self):
        """The best value of the run."""
        return float(self.best_value[self.best_index]) if self.best_value.size else float("nan")

    @property
    def best_string(self):
        """The best population's item set."""
        return self.best_bits[self.best_index]


def _table_text(name, t):
    """A table for the library: a preset name or a table's text as it is; a path (a
    ``os.PathLike``, or a one-line str naming a file) is read."""
    if isinstance(t, os.PathLike) or (isinstance(t, str) and t not in _TABLES and "\n" not in t and os.path.isfile(t)):
        with open(t, encoding="utf-8") as f:
            t = f.read()
    if not isinstance(t, str):
        raise TypeError(f"{name} must be a preset name ({', '.join(_TABLES)}), a table's text or a file, got {type(t).__name__}")
    return _checks.c_string(name, t)


class QIGA:
    """QIGA on a knapsack (a ``metaopt.Knapsack`` or an instance file's path):

    ``QIGA(knapsack, populations=1000, individuals=10, generations=500, table="gqa2000",
    repair="index", seed=1, target=None, time_limit=None, devices=None, cpu=False,
    pole_signs="fixed", pops_per_table=0, group_size=None, launch_populations=None)``

    ``table``: ``"gqa2000"``, ``"qea2002"``, a table's text (``x b better steps s1 s2 s3 s4``
    lines) or file, or a list of those for a tuning run (population q uses table
    (q // pops_per_table) % len(table)). ``repair``: ``"index"``, ``"random"`` or ``"greedy"``.
    ``pole_signs``: ``"fixed"`` or ``"random"`` (the sources' ±1 cells). ``devices``: OpenCL
    device numbers to spread the populations over (``device``: the one device when ``devices`` is
    None; None: the device in use); ``cpu=True`` runs on the CPU backend (the
    same results as a device). ``run()`` returns a ``QIGAResult``.

    ``start``: a warm start, one best string (``items`` 0/1 values within the capacity) or a
    list of them; population q starts from string q % len(start): it is the population's best
    until an individual beats it, and its Q-bits' angles lean toward the string's bits (75 or 25
    steps of pi/200 instead of 50). ``checkpoint``: a file the run writes its whole state to when
    it ends (interrupted or not) and every ``checkpoint_every`` seconds; ``resume`` (a
    ``metaopt.State`` of ``state()``, its bytes, or a checkpoint file's path) continues a run as
    if it had never stopped: the options must be the saved run's (``time_limit`` may be larger;
    it counts the time already taken). ``QIGA.from_state(knapsack, state, **options)`` is
    ``QIGA(knapsack, resume=state, **options)``."""

    def __init__(self, knapsack, populations=1000, individuals=10, generations=500, table="gqa2000", repair="index",
                 seed=1, target=None, time_limit=None, devices=None, cpu=False, pole_signs="fixed", pops_per_table=0, device=None,
                 group_size=None, launch_populations=None, start=None, checkpoint=None, checkpoint_every=None,
                 resume=None):
        if isinstance(knapsack, (str, os.PathLike)):
            knapsack = Knapsack.from_file(knapsack)
        if not isinstance(knapsack, Knapsack):
            raise TypeError(f"knapsack must be a metaopt.Knapsack or a file path, got {type(knapsack).__name__}")
        self.knapsack = knapsack
        o = _lib.lib().metaopt_qiga_default_options()
        o.populations = _checks.integer("populations", populations, 1, 2**32 - 1)
        o.individuals = _checks.integer("individuals", individuals, 1, 2**32 - 1)
        o.generations = _checks.integer("generations", generations, 0, 2**32 - 2)
        # the tables: kept alive with the options
        if isinstance(table, str) and table in _TABLES:
            o.table = _TABLES[table]
            self._tables = None
        else:
            items = [table] if isinstance(table, (str, os.PathLike)) else table
            if not isinstance(items, (list, tuple)) or not items:
                raise TypeError("table must be a preset name, a table's text, or a non-empty list of those")
            self._tables = (ctypes.c_char_p * len(items))(*[_table_text(f"table[{i}]", t) for i, t in enumerate(items)])
            o.tables = ctypes.cast(self._tables, ctypes.POINTER(ctypes.c_char_p))
            o.tables_count = len(items)
        o.pops_per_table = _checks.integer("pops_per_table", pops_per_table, 0, 2**32 - 1)
        o.repair = _checks.choice("repair", repair, _REPAIRS)
        o.pole_signs_random = _checks.choice("pole_signs", pole_signs, _POLE_SIGNS)
        o.seed = _checks.integer("seed", seed, 0, 2**64 - 1)
        if target is not None:
            o.has_target = 1
            o.target = _checks.real("target", target)
        if time_limit is not None:
            o.time_limit_s = _checks.real("time_limit", time_limit)
            if o.time_limit_s < 0:
                raise ValueError(f"time_limit must be >= 0, got {time_limit}")
        cpu = _checks.flag("cpu", cpu)
        o.backend = _ffi.METAOPT_BACKEND_CPU if cpu else _ffi.METAOPT_BACKEND_DEVICE
        o.device = _checks.device(device)
        self._devices = None
        if devices is not None:
            if cpu:
                raise ValueError("devices and cpu=True exclude each other")
            d = _checks.vector("devices", devices, np.uint32)
            if d.size == 0:
                raise ValueError("devices must name at least one device (None: the device in use)")
            self._devices = d
            o.devices = d.ctypes.data_as(ctypes.POINTER(ctypes.c_uint32))
            o.devices_count = d.size
        if group_size is not None:
            o.group_size = _checks.integer("group_size", group_size, 1, 2**32 - 1)
        if launch_populations is not None:
            o.launch_populations = _checks.integer("launch_populations", launch_populations, 1, 2**32 - 1)
        self._keep = []
        if start is not None:
            a = np.asarray(start)
            if a.ndim == 1:
                a = a[np.newaxis]
            items = knapsack.n
            if a.ndim != 2 or a.shape[0] == 0 or a.shape[1] != items:
                raise ValueError(f"start must have shape (items,) or (count, items) with items = {items}, "
                                 f"got {np.shape(start)}")
            if a.dtype != bool and (a.dtype.kind not in "biuf" or not np.all((a == 0) | (a == 1))):
                raise ValueError("start must hold booleans or 0/1")
            a = np.ascontiguousarray(a, dtype=np.uint8)
            self._keep.append(a)
            o.start = a.ctypes.data_as(ctypes.POINTER(ctypes.c_uint8))
            o.start_count = _checks.integer("start", a.shape[0], 1, 2**32 - 1)
        _state.set_checkpoint(o, checkpoint, checkpoint_every, self._keep)
        self._resume = _state.resume_arg(resume)
        self._options = o

    @classmethod
    def from_state(cls, knapsack, state, **options):
        """A QIGA whose ``run()`` continues the run saved in ``state`` (a ``metaopt.State``, its
        bytes or a checkpoint file's path); ``options`` must be the saved run's."""
        return cls(knapsack, resume=state, **options)

    def state(self):
        """The whole state of the last ``run()`` (the finished populations' outcomes; the Q-bit
        angles, best strings, values and generations of the populations begun and not finished;
        the time taken) as a ``metaopt.State``, from which ``QIGA(..., resume=state)`` continues
        it."""
        L = _lib.lib()
        with self.knapsack._use("QIGA.state") as h:
            return _state.saved(L, L.metaopt_qiga_save_state, h, "metaopt_qiga_save_state")

    def load_state(self, state):
        """The next ``run()`` continues the run saved in ``state`` (a ``metaopt.State``, its
        bytes, or a checkpoint file's path)."""
        self._resume = _state.resume_arg(state, "state")
        L = _lib.lib()
        with self.knapsack._use("QIGA.load_state") as h:
            _state.load(L.metaopt_qiga_load_state, h, self._resume, "metaopt_qiga_load_state")

    def run(self, stop_token=None):
        """Runs every population. ``stop_token`` (a ``metaopt.StopToken``) requested, or
        ``metaopt.interrupt()``, stops the run between launches with the populations that ran
        (``stop == "interrupted"``); Ctrl-C too, raising ``metaopt.Interrupted`` with that
        ``QIGAResult`` as its ``result``."""
        stop_token = _interrupt.token_arg(stop_token)
        L = _lib.lib()
        o = self._options
        with self.knapsack._use("QIGA.run") as h:
            if self._resume is not None:
                _state.load(L.metaopt_qiga_load_state, h, self._resume, "metaopt_qiga_load_state")
                self._resume = None
            r, caught = _interrupt.run(L.metaopt_qiga_run, (h, ctypes.byref(o)), o, stop_token, "QIGA.run")
            o.stop_token = None
            try:
                check(r, "metaopt_qiga_run", interrupted_ok=True)
                n, m = int(r.count), int(r.items)

                def arr(p, dtype, shape):
                    return np.ctypeslib.as_array(p, shape=shape).astype(dtype, copy=True) if n else np.zeros(shape, dtype)

                result = QIGAResult(
                    population=arr(r.population, np.uint32, (n,)),
                    best_value=arr(r.best_value, np.float64, (n,)),
                    best_value_int=arr(r.best_value_int, np.uint64, (n,)),
                    best_bits=arr(r.best_bits, np.uint8, (n * m,)).reshape(n, m),
                    best_generation=arr(r.best_generation, np.uint32, (n,)),
                    generations_run=arr(r.generations_run, np.uint32, (n,)),
                    stats=QIGAStats._of(r.stats),
                    table_stats=[QIGAStats._of(r.table_stats[i]) for i in range(r.tables_count)],
                    best_index=int(r.best_index),
                    stop=_interrupt.result_stop(r),
                    elapsed=float(r.elapsed_s),
                    runs_per_second=float(r.runs_per_second),
                    backend=ctypes.string_at(r.backend).decode("utf-8", errors="replace") if r.backend else "",
                )
            finally:
                L.metaopt_qiga_free_run_result(ctypes.byref(r))
        if caught is not None:
            _interrupt.raise_interrupted(caught, result, "QIGA.run")
        return result


def run(knapsack, **options) -> QIGAResult:
    """``QIGA(knapsack, **options).run()`` in one call (``stop_token=`` goes to ``run``)."""
    stop_token = options.pop("stop_token", None)
    return QIGA(knapsack, **options).run(stop_token=stop_token)


__all__ = ["QIGA", "QIGAResult", "QIGAStats", "run"]
