"""0/1 knapsack instances over ``metaopt_knapsack_*``: from a file, from arrays or from a seeded
generator; their data, the exact optimum and the evaluation of item sets. ``metaopt.QIGA``
solves them."""

import ctypes
from dataclasses import dataclass

import numpy as np

from . import _checks, _ffi, _lib
from ._errors import check
from ._handle import Instance
from ._result import ArrayEq

# MetaoptKnapsackKind, by the CLI's names
KINDS = {
    "hankim": _ffi.METAOPT_KNAPSACK_HAN_KIM,
    "uncorrelated": _ffi.METAOPT_KNAPSACK_UNCORRELATED,
    "weak": _ffi.METAOPT_KNAPSACK_WEAKLY_CORRELATED,
    "strong": _ffi.METAOPT_KNAPSACK_STRONGLY_CORRELATED,
    "subset-sum": _ffi.METAOPT_KNAPSACK_SUBSET_SUM,
}


@dataclass(eq=False)
class KnapsackOptimum(ArrayEq):
    """The exact optimum: ``value`` (a real), ``int_value`` (on the integer scale, exact),
    ``weight``, ``int_weight``, ``bits`` (uint8 0/1 per item) and ``items`` (the indices
    taken)."""

    value: float
    int_value: int
    weight: float
    int_weight: int
    bits: np.ndarray
    items: np.ndarray


@dataclass(frozen=True)
class KnapsackEvaluation:
    """``profit`` and ``weight`` of an item set (reals), the same on the integer scale, and
    ``feasible`` (the weight fits the capacity)."""

    profit: float
    weight: float
    int_profit: int
    int_weight: int
    feasible: bool


class Knapsack(Instance):
    """A 0/1 knapsack instance: ``Knapsack(weights, profits, capacity)`` (or
    ``Knapsack.from_arrays``) from reals (weights > 0, profits >= 0, each with at most 9
    decimals), ``Knapsack.from_file(path)`` (the QIGA paper's format or Pisinger's), or
    ``Knapsack.generate(kind, items, range=1000, seed=1)`` (``kind``: ``"hankim"``,
    ``"uncorrelated"``, ``"weak"``, ``"strong"``, ``"subset-sum"``).

    Properties (copies): ``n``, ``weights``, ``profits`` (float64 arrays), ``capacity``,
    ``scale`` (10^decimals of the exact integer form), ``name``."""

    def __init__(self, weights, profits, capacity):
        w = _checks.vector("weights", weights, np.float64)
        p = _checks.vector("profits", profits, np.float64, length=w.size)
        if w.size == 0:
            raise ValueError("weights must hold at least one item")
        cap = _checks.real("capacity", capacity)
        n = _checks.integer("n", w.size, 1, 2**32 - 1)
        dp = ctypes.POINTER(ctypes.c_double)
        r = _lib.lib().metaopt_knapsack_from_arrays(n, w.ctypes.data_as(dp), p.ctypes.data_as(dp), cap)
        self._init(r, "metaopt_knapsack_from_arrays")

    def _init(self, r, function):
        check(r, function)
        self._adopt(r.knapsack, "metaopt_knapsack_free")
        L = _lib.lib()
        with self._use("data") as h:
            d = L.metaopt_knapsack_data(h)
            try:
                check(d, "metaopt_knapsack_data")
                n = int(d.n)
                self._weights = np.ctypeslib.as_array(d.weights, shape=(n,)).copy()
                self._profits = np.ctypeslib.as_array(d.profits, shape=(n,)).copy()
                self._capacity = float(d.capacity)
                self._scale = int(d.scale)
                self._name = ctypes.string_at(d.name).decode("utf-8", errors="replace") if d.name else ""
            finally:
                L.metaopt_knapsack_free_data(ctypes.byref(d))

    @classmethod
    def from_arrays(cls, weights, profits, capacity):
        """The same as ``Knapsack(weights, profits, capacity)``."""
        return cls(weights, profits, capacity)

    @classmethod
    def from_file(cls, path):
        """Reads an instance file (``n capacity`` then ``weight profit`` lines, or Pisinger's
        format)."""
        path = _checks.c_string("path", path, path=True)
        self = cls.__new__(cls)
        self._init(_lib.lib().metaopt_knapsack_from_file(path), "metaopt_knapsack_from_file")
        return self

    @classmethod
    def generate(cls, kind="hankim", items=250, range=1000, seed=1):  # noqa: A002 - Pisinger's R
        """A seeded random instance with the capacity half the total weight; the same arguments
        give the same instance everywhere (``range`` is ignored by ``"hankim"``)."""
        k = _checks.choice("kind", kind, KINDS)
        items = _checks.integer("items", items, 1, 2**32 - 1)
        range = _checks.integer("range", range, 1, 2**64 - 1)  # noqa: A001
        seed = _checks.integer("seed", seed, 0, 2**64 - 1)
        self = cls.__new__(cls)
        self._init(_lib.lib().metaopt_knapsack_generate(k, items, range, seed), "metaopt_knapsack_generate")
        return self

    @property
    def n(self):
        return int(self._weights.size)

    @property
    def weights(self):
        return self._weights.copy()

    @property
    def profits(self):
        return self._profits.copy()

    @property
    def capacity(self):
        return self._capacity

    @property
    def scale(self):
        return self._scale

    @property
    def name(self):
        return self._name

    def __repr__(self):
        state = "freed" if self.freed else f"n={self.n}, capacity={self._capacity}"
        return f"Knapsack({self._name!r}, {state})"

    def optimum(self):
        """The exact optimum (``KnapsackOptimum``). An instance beyond the exact solver's state
        limit raises ``MetaoptError`` (``INVALID_ARGUMENT``, naming ``max_states``)."""
        L = _lib.lib()
        with self._use("optimum") as h:
            r = L.metaopt_knapsack_optimum(h)
            try:
                check(r, "metaopt_knapsack_optimum")
                bits = np.ctypeslib.as_array(r.bits, shape=(r.n,)).astype(np.uint8, copy=True)
                return KnapsackOptimum(
                    value=float(r.value),
                    int_value=int(r.int_value),
                    weight=float(r.weight),
                    int_weight=int(r.int_weight),
                    bits=bits,
                    items=np.flatnonzero(bits),
                )
            finally:
                L.metaopt_knapsack_free_optimum_result(ctypes.byref(r))

    def evaluate(self, bits):
        """Profit and weight of an item set (``n`` bools or 0/1): a ``KnapsackEvaluation``."""
        b = _checks.numeric_array("bits", bits)
        if b.ndim != 1 or b.size != self.n:
            raise ValueError(f"bits must have {self.n} entries, got shape {b.shape}")
        if not np.all((b == 0) | (b == 1)):
            raise ValueError("bits must hold booleans or 0/1")
        b = np.ascontiguousarray(b, dtype=np.uint8)
        L = _lib.lib()
        with self._use("evaluate") as h:
            r = L.metaopt_knapsack_evaluate(h, b.ctypes.data_as(ctypes.POINTER(ctypes.c_uint8)), b.size)
            check(r, "metaopt_knapsack_evaluate")
            return KnapsackEvaluation(float(r.profit), float(r.weight), int(r.int_profit), int(r.int_weight), bool(r.feasible))
