"""The CEC 2006 constrained problems G01..G24 (``metaopt_cec2006_*``): J. J. Liang et al.,
"Problem definitions and evaluation criteria for the CEC 2006 special session on constrained
real-parameter optimization" (2006), the report below.

Each problem minimises ``f(x)`` over a box subject to ``ng`` inequalities ``g_i(x) <= 0`` and
``nh`` equalities ``h_j(x) = 0``, an equality being satisfied when ``|h_j| <= 1e-4`` (the
report's tolerance). G02, G03 and G08, maximisations in the report, are minimised in their
negated form, so that ``info(name).best`` is the report's f(x*).

- ``info(name)``: sizes, best known value, box and best known point (a ``Cec2006Info``).
- ``evaluate(name, X, cpu=True)``: ``(f, c)`` at the rows of ``X`` (``c``: the g then the h of
  each point), on the host (the library's f64 reference) or, with ``cpu=False``, on a device
  (the problem's OpenCL code, in double); ``violation=True`` adds the report's mean violation.
- ``problem(name)``: ``(fun, bounds, constraints)`` in scipy's forms, so that
  ``scipy.optimize.differential_evolution(fun, bounds, constraints=constraints)`` and
  ``metaopt.minimize(fun, bounds, constraints=constraints)`` both run the problem.
"""

import ctypes
from collections import OrderedDict
from dataclasses import dataclass
from typing import Optional, Tuple

import numpy as np

from . import _checks, _ffi, _lib
from ._errors import check

__all__ = ["Cec2006Info", "NAMES", "info", "evaluate", "problem"]

#: The problems of the set, in order.
NAMES = tuple(f"G{k:02d}" for k in range(1, 25))


@dataclass(frozen=True)
class Cec2006Info:
    """One problem of the set.

    ``name`` ("G01".."G24"), ``id`` (1..24), ``dims`` (variables), ``ng`` (inequalities, first
    in a constraint vector), ``nh`` (equalities, after them), ``best`` (the best known value,
    negated for the maximisations G02, G03, G08), ``best_feasible`` (False for G20 only: its
    known point violates its constraints slightly), ``maximisation``, ``equality_tolerance``
    (1e-4), ``bounds`` (one ``(lower, upper)`` pair per variable), ``best_x`` (the report's best
    known point, a float64 array).
    """

    name: str
    id: int
    dims: int
    ng: int
    nh: int
    best: float
    best_feasible: bool
    maximisation: bool
    equality_tolerance: float
    bounds: Tuple[Tuple[float, float], ...]
    best_x: np.ndarray


def _double_array(result, function):
    L = _lib.lib()
    try:
        check(result, function)
        return np.ctypeslib.as_array(result.values, shape=(result.length,)).copy()
    finally:
        L.metaopt_double_array_free_result(ctypes.byref(result))


def info(name) -> Cec2006Info:
    """Problem ``name`` ("G01".."G24"; case-insensitive, "g1" and "7" name G01 and G07).

    An unknown name raises ``MetaoptError`` (``INVALID_ARGUMENT``, naming ``problem``); a name
    that is not a str raises TypeError naming ``name``.
    """
    b = _checks.c_string("name", name)
    L = _lib.lib()
    r = check(L.metaopt_cec2006_info(b), "metaopt_cec2006_info")
    box = _double_array(L.metaopt_cec2006_bounds(b), "metaopt_cec2006_bounds")
    best_x = _double_array(L.metaopt_cec2006_best_point(b), "metaopt_cec2006_best_point")
    dims = int(r.dims)
    return Cec2006Info(
        name=f"G{int(r.id):02d}",
        id=int(r.id),
        dims=dims,
        ng=int(r.ng),
        nh=int(r.nh),
        best=float(r.best),
        best_feasible=bool(r.best_feasible),
        maximisation=bool(r.maximisation),
        equality_tolerance=float(r.equality_tolerance),
        bounds=tuple((float(box[i]), float(box[dims + i])) for i in range(dims)),
        best_x=best_x,
    )


def evaluate(name, X, cpu=True, device: Optional[int] = None, violation=False):
    """The objective and the constraint values of problem ``name`` at the points of ``X``.

    ``X``: a 2-D array of shape ``(rows, dims)`` (one point per row, converted to float64) or a
    1-D point of ``dims`` values. Returns ``(f, c)``: ``f`` of shape ``(rows,)`` and ``c`` of
    shape ``(rows, ng + nh)`` (each row the point's g, then its h), or for a 1-D ``X`` a float
    and a 1-D array. With ``violation=True`` also ``v``, the report's mean violation per point
    (0: feasible).

    ``cpu``: True (the default) evaluates on the host with the library's f64 reference; False on
    a device (``device``: its number, None the device in use) through the problem's OpenCL code
    in double (the device needs fp64).

    Errors: ``X`` that is not 1-D or 2-D, has no rows or holds NaN or infinite values is a
    ValueError (TypeError for non-numbers) naming ``X``; an unknown ``name`` or columns other
    than the problem's ``dims`` raise ``MetaoptError`` (``INVALID_ARGUMENT``) with the library's
    message, which names the argument (``problem``, ``dims``).
    """
    b = _checks.c_string("name", name)
    cpu = _checks.flag("cpu", cpu)
    violation = _checks.flag("violation", violation)
    raw = _checks.numeric_array("X", X)
    one = raw.ndim == 1
    if raw.ndim not in (1, 2):
        raise ValueError(f"X must be a 2-D array (rows, dims) or a 1-D point, got shape {raw.shape}")
    x = np.ascontiguousarray(raw.reshape(1, -1) if one else raw, dtype=np.float64)
    rows, dims = x.shape
    if rows == 0:
        raise ValueError(f"X must hold at least one point, got shape {raw.shape}")
    if rows > 0xFFFFFFFF or dims > 0xFFFFFFFF:
        raise ValueError(f"X has shape {raw.shape}; at most 2^32 - 1 rows and columns")
    finite = np.isfinite(x)
    if not finite.all():
        r, c = (int(i) for i in np.argwhere(~finite)[0])
        where = f"entry {c}" if one else f"row {r}, column {c}"
        raise ValueError(f"X holds a NaN or infinite value at {where} ({x[r, c]!r})")
    L = _lib.lib()
    res = L.metaopt_cec2006_evaluate(
        b, x.ctypes.data_as(ctypes.POINTER(ctypes.c_double)), rows, dims,
        _ffi.METAOPT_BACKEND_CPU if cpu else _ffi.METAOPT_BACKEND_DEVICE, _checks.device(device),
    )
    try:
        check(res, "metaopt_cec2006_evaluate")
        n, m = int(res.rows), int(res.constraints)
        f = np.ctypeslib.as_array(res.f, shape=(n,)).copy()
        c = np.ctypeslib.as_array(res.c, shape=(n * m,)).copy().reshape(n, m) if m else np.zeros((n, 0))
        v = np.ctypeslib.as_array(res.violation, shape=(n,)).copy()
    finally:
        L.metaopt_cec2006_free_evaluate_result(ctypes.byref(res))
    if one:
        f, c, v = float(f[0]), c[0], float(v[0])
    return (f, c, v) if violation else (f, c)


class _Evaluator:
    """The values of one problem at single points, each point evaluated once: scipy asks the
    objective and each constraint separately for the same point, which here is one call of the
    library (the last ``size`` points are kept)."""

    def __init__(self, p: Cec2006Info, cpu: bool, device: Optional[int], size: int = 4096):
        self.p = p
        self.cpu = cpu
        self.device = device
        self.size = size
        self.cache: "OrderedDict[bytes, Tuple[float, np.ndarray]]" = OrderedDict()
        self.points = 0

    def __call__(self, x) -> Tuple[float, np.ndarray]:
        x = np.asarray(x, dtype=np.float64).reshape(-1)
        key = x.tobytes()
        hit = self.cache.get(key)
        if hit is not None:
            self.cache.move_to_end(key)
            return hit
        if x.size != self.p.dims:
            raise ValueError(f"x has {x.size} values; {self.p.name} has {self.p.dims} variables")
        if not np.isfinite(x).all():
            # scipy's polishing may probe such points: they are infeasible, not errors
            value = (float("nan"), np.full(self.p.ng + self.p.nh, np.nan))
        else:
            value = evaluate(self.p.name, x, cpu=self.cpu, device=self.device)
        self.points += 1
        self.cache[key] = value
        if len(self.cache) > self.size:
            self.cache.popitem(last=False)
        return value


def problem(name, cpu=True, device: Optional[int] = None):
    """Problem ``name`` in scipy's forms: ``(fun, bounds, constraints)``.

    ``fun(x) -> float`` is the objective; ``bounds`` a list of ``(lower, upper)`` pairs;
    ``constraints`` a list of ``scipy.optimize.NonlinearConstraint``: the inequalities as
    ``NonlinearConstraint(g, -inf, 0)`` and the equalities as ``NonlinearConstraint(h, -1e-4,
    1e-4)`` (the report's tolerance), each left out where the problem has none. A point is
    evaluated once by the library however many of these ask for it (the objective and the
    constraint values come together); ``fun.evaluator.points`` counts the points evaluated so
    far (a non-finite point counts, and has NaN values).

    ``cpu`` and ``device`` as ``evaluate``. Needs scipy (for ``NonlinearConstraint``).
    """
    from scipy.optimize import NonlinearConstraint

    p = info(name)
    ev = _Evaluator(p, _checks.flag("cpu", cpu), device)

    def fun(x):
        return ev(x)[0]

    def g(x):
        return ev(x)[1][: p.ng]

    def h(x):
        return ev(x)[1][p.ng:]

    fun.evaluator = ev
    constraints = []
    if p.ng:
        constraints.append(NonlinearConstraint(g, -np.inf, 0.0))
    if p.nh:
        tol = p.equality_tolerance
        constraints.append(NonlinearConstraint(h, -tol, tol))
    return fun, list(p.bounds), constraints
