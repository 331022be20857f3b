"""scipy's constraint forms as one total-violation function over a matrix of points.

``violation_function(constraints, n)`` accepts what ``scipy.optimize.differential_evolution``
accepts as ``constraints`` (``NonlinearConstraint``, ``LinearConstraint``, ``Bounds``, or a
sequence of them) and also the dict form of ``scipy.optimize.minimize``
(``{'type': 'ineq' | 'eq', 'fun': f, 'args': (...)}``). It returns a function that gives, for each
row of a ``(k, n)`` matrix, the point's total constraint violation as scipy's differential
evolution measures it: per component value ``c`` with bounds ``lb <= c <= ub``,
``max(lb - c, 0) + max(c - ub, 0)``, summed over all components of all constraints. A point is
feasible when its total is 0; Deb's feasibility rules compare totals.

scipy is an optional dependency: it is imported only when a constraint is not a dict. This
module imports nothing from the rest of the package.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from typing import Any, Callable, List, Optional, Tuple

import numpy as np

__all__ = ["ConstraintViolation", "violation_function"]

_NONLINEAR = "NonlinearConstraint"
_LINEAR = "LinearConstraint"
_BOUNDS = "Bounds"
_DICT = "dict"


def _scipy_constraint_types() -> Optional[Tuple[type, type, type]]:
    """``(NonlinearConstraint, LinearConstraint, Bounds)`` of scipy, or None without scipy."""
    try:
        from scipy.optimize import Bounds, LinearConstraint, NonlinearConstraint
    except ImportError:
        return None
    return NonlinearConstraint, LinearConstraint, Bounds


def _issparse(a: Any) -> bool:
    """Whether ``a`` is a scipy.sparse matrix or array (False without scipy)."""
    try:
        from scipy.sparse import issparse
    except ImportError:
        return False
    return bool(issparse(a))


def _bound_array(where: str, name: str, value: Any) -> np.ndarray:
    """A lower or upper bound as a float64 array of at most one dimension; NaN is refused."""
    try:
        a = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as e:
        raise ValueError(f"{where}: {name} must be a real number or an array of them, got {value!r}") from e
    if a.ndim > 1:
        raise ValueError(f"{where}: {name} must be a scalar or a 1-D array, got shape {a.shape}")
    if np.isnan(a).any():
        raise ValueError(f"{where}: {name} contains NaN (use -inf or inf for a side without a bound)")
    return a


class _Constraint:
    """One constraint after its checks: where its component values come from, and its bounds.

    Parameters
    ----------
    kind : str
        ``"NonlinearConstraint"``, ``"LinearConstraint"``, ``"Bounds"`` or ``"dict"``.
    where : str
        How error messages name it, such as ``"constraints[2] (NonlinearConstraint)"``.
    lb, ub : numpy.ndarray
        The bounds as given (0-D or 1-D float64), checked against each other.
    fun : callable, optional
        The constraint function of a nonlinear or dict constraint.
    args : tuple
        Extra arguments of ``fun``.
    A : array or sparse matrix, optional
        The matrix of a linear constraint.
    m : int, optional
        The number of components where known.
    m_source : str
        What fixed ``m``, for error messages.
    """

    def __init__(self, kind: str, where: str, lb: np.ndarray, ub: np.ndarray, *,
                 fun: Optional[Callable[..., Any]] = None, args: tuple = (), A: Any = None,
                 m: Optional[int] = None, m_source: str = "") -> None:
        self.kind = kind
        self.where = where
        self.fun = fun
        self.args = args
        self.A = A
        self.lb_given = lb
        self.ub_given = ub
        try:
            lbb, ubb = np.broadcast_arrays(lb, ub)
        except ValueError as e:
            raise ValueError(f"{where}: lb (shape {lb.shape}) and ub (shape {ub.shape}) "
                             "do not broadcast to one shape") from e
        above = np.flatnonzero(np.atleast_1d(lbb > ubb))
        if above.size:
            i = int(above[0])
            lo, hi = np.atleast_1d(lbb)[i], np.atleast_1d(ubb)[i]
            raise ValueError(f"{where}: lb > ub at component {i} ({lo} > {hi}): no point satisfies it")
        if m is None:
            # a bound of a size other than 1 fixes the number of components; size 1 broadcasts
            sizes = {a.size for a in (lb, ub) if a.ndim == 1 and a.size != 1}
            if sizes:
                m, m_source = sizes.pop(), "the size of lb/ub"
        self.m: Optional[int] = None
        self.m_source = ""
        if m is not None:
            self._set_size(m, m_source)

    def _set_size(self, m: int, source: str) -> None:
        """Fixes the number of components at ``m`` and broadcasts the bounds to it."""
        try:
            lb = np.broadcast_to(self.lb_given, (m,))
            ub = np.broadcast_to(self.ub_given, (m,))
        except ValueError as e:
            raise ValueError(f"{self.where}: it has {m} components ({source}), but lb has shape "
                             f"{self.lb_given.shape} and ub shape {self.ub_given.shape}") from e
        self.m = m
        self.m_source = source
        self.lb = lb
        self.ub = ub
        self.eq = (lb == ub) & np.isfinite(lb)

    def _check_size(self, m: int, what: str) -> None:
        if self.m is None:
            self._set_size(m, f"{what} at its first evaluation")
        elif m != self.m:
            raise ValueError(f"{self.where}: its function returned {m} values {what}, but it has "
                             f"{self.m} components ({self.m_source})")

    def _numeric(self, value: Any) -> np.ndarray:
        r = np.asarray(value)
        if r.dtype.kind not in "biuf":
            raise TypeError(f"{self.where}: its function must return real numbers, got "
                            f"{type(value).__name__} of dtype {r.dtype}")
        return r.astype(np.float64, copy=False)

    def values(self, X: np.ndarray, vectorized: bool) -> np.ndarray:
        """The component values at the rows of ``X`` (shape (k, n)), shape (k, m)."""
        k = X.shape[0]
        if self.kind == _BOUNDS:
            return X
        if self.kind == _LINEAR:
            if _issparse(self.A):
                return np.asarray(self.A @ X.T, dtype=np.float64).T
            return X @ self.A.T
        if vectorized:
            r = self._numeric(self.fun(X.T.copy(), *self.args))
            if r.ndim == 2 and r.shape[1] == k:
                self._check_size(r.shape[0], f"as an array of shape {r.shape} for {k} points")
                return r.T
            if r.ndim <= 1 and k == 1:
                # one point: a 1-D result holds its m components
                self._check_size(r.size, f"for one point (shape {r.shape})")
                return r.reshape(1, -1)
            if r.ndim == 1 and r.size == k:
                self._check_size(1, f"as an array of shape {r.shape} for {k} points")
                return r.reshape(k, 1)
            want = f"({self.m}, {k})" if self.m is not None else f"(m, {k})"
            raise ValueError(f"{self.where}: with vectorized=True its function must return shape "
                             f"{want} for x of shape {X.T.shape} (or ({k},) when it has one "
                             f"component), got shape {r.shape}")
        rows: List[np.ndarray] = []
        for x in X:
            r = self._numeric(self.fun(x.copy(), *self.args))
            if r.ndim > 1:
                raise ValueError(f"{self.where}: with vectorized=False its function must return a "
                                 f"scalar or a 1-D array for x of shape ({X.shape[1]},), got shape {r.shape}")
            self._check_size(r.size, "at a point")
            rows.append(r.reshape(-1))
        return np.stack(rows)

    def violation(self, X: np.ndarray, vectorized: bool, eq_tol: float) -> np.ndarray:
        """Each row's violation of this constraint summed over its components, shape (k,)."""
        C = self.values(X, vectorized)
        V = np.maximum(self.lb - C, 0.0) + np.maximum(C - self.ub, 0.0)
        if eq_tol > 0.0 and self.eq.any():
            within = np.abs(C[:, self.eq] - self.lb[self.eq]) <= eq_tol
            V[:, self.eq] = np.where(within, 0.0, V[:, self.eq])
        return V.sum(axis=1)


class ConstraintViolation:
    """The total constraint violation of points: ``fn(X)`` for ``X`` of shape (k, n).

    Made by `violation_function`; see there for the measure and the calling conventions of
    constraint functions.

    Attributes
    ----------
    n : int
        The number of variables.
    vectorized : bool
        Whether constraint functions get all points at once.
    eq_tol : float
        The tolerance of equality components.
    """

    def __init__(self, parts: List[_Constraint], n: int, eq_tol: float, vectorized: bool) -> None:
        self._parts = parts
        self.n = n
        self.eq_tol = eq_tol
        self.vectorized = vectorized

    @property
    def count(self) -> Optional[int]:
        """The total number of constraint components, or None while a size is still unknown
        (a nonlinear or dict constraint whose function has not been called yet)."""
        if any(p.m is None for p in self._parts):
            return None
        return sum(p.m for p in self._parts)

    def __call__(self, X: Any) -> np.ndarray:
        """Each point's total constraint violation.

        Parameters
        ----------
        X : array_like
            Points, one per row, shape (k, n) with k >= 1.

        Returns
        -------
        numpy.ndarray
            float64, shape (k,): 0 where a point satisfies every constraint, NaN where a
            constraint function returned NaN at it.

        Raises
        ------
        ValueError
            For ``X`` of another shape, and for a constraint function that returns a number of
            values other than its constraint's component count (the message names the
            constraint's index and both sizes).
        """
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2 or X.shape[1] != self.n or X.shape[0] < 1:
            raise ValueError(f"X must have shape (k, {self.n}) with k >= 1 (one point per row), "
                             f"got shape {X.shape}")
        total = np.zeros(X.shape[0])
        for p in self._parts:
            total += p.violation(X, self.vectorized, self.eq_tol)
        return total

    def __repr__(self) -> str:
        kinds = ", ".join(p.kind for p in self._parts)
        return (f"ConstraintViolation(n={self.n}, count={self.count}, [{kinds}], "
                f"eq_tol={self.eq_tol}, vectorized={self.vectorized})")


def _from_dict(i: int, con: Mapping) -> _Constraint:
    """A dict constraint of scipy.optimize.minimize, checked as scipy checks it."""
    where = f"constraints[{i}] (dict)"
    if "type" not in con:
        raise ValueError(f"Constraint {i} has no type defined.")
    ctype = con["type"]
    if not isinstance(ctype, str):
        raise TypeError(f"Constraint {i}: constraint's type must be a string, got {ctype!r}.")
    ctype = ctype.lower()
    if ctype not in ("eq", "ineq"):
        raise ValueError(f"Unknown constraint type '{con['type']}' in constraint {i} (expected 'eq' or 'ineq').")
    if "fun" not in con:
        raise ValueError(f"Constraint {i} has no function defined.")
    fun = con["fun"]
    if not callable(fun):
        raise TypeError(f"{where}: 'fun' must be callable, got {type(fun).__name__}")
    args = con.get("args", ())
    args = (args,) if isinstance(args, (str, bytes)) else args
    try:
        args = tuple(args)
    except TypeError as e:
        raise TypeError(f"{where}: 'args' must be a tuple, got {type(args).__name__}") from e
    ub = 0.0 if ctype == "eq" else np.inf
    return _Constraint(_DICT, where, np.asarray(0.0), np.asarray(ub), fun=fun, args=args)


def _from_object(i: int, con: Any, n: int, types: Optional[Tuple[type, type, type]]) -> _Constraint:
    """A scipy constraint object, checked against ``n``."""
    name = type(con).__name__
    if types is None:
        raise ValueError(f"constraints[{i}] is a {name}, which needs scipy, and scipy is not "
                         "importable; without scipy only dict constraints "
                         "({'type': 'ineq' | 'eq', 'fun': f, 'args': (...)}) are accepted")
    nonlinear, linear, bounds = types
    if isinstance(con, nonlinear):
        where = f"constraints[{i}] (NonlinearConstraint)"
        if not callable(con.fun):
            raise TypeError(f"{where}: fun must be callable, got {type(con.fun).__name__}")
        args = getattr(con, "args", None)
        args = () if args is None else tuple(args) if isinstance(args, (tuple, list)) else (args,)
        return _Constraint(_NONLINEAR, where, _bound_array(where, "lb", con.lb),
                           _bound_array(where, "ub", con.ub), fun=con.fun, args=args)
    if isinstance(con, linear):
        where = f"constraints[{i}] (LinearConstraint)"
        A = con.A
        if not _issparse(A):
            A = np.atleast_2d(np.asarray(A, dtype=np.float64))
        if A.ndim != 2 or A.shape[1] != n:
            raise ValueError(f"{where}: A has shape {tuple(A.shape)}, but it must have shape (m, {n}): "
                             f"one column per variable (n = {n})")
        return _Constraint(_LINEAR, where, _bound_array(where, "lb", con.lb),
                           _bound_array(where, "ub", con.ub), A=A, m=A.shape[0],
                           m_source=f"the rows of A, shape {tuple(A.shape)}")
    if isinstance(con, bounds):
        where = f"constraints[{i}] (Bounds)"
        return _Constraint(_BOUNDS, where, _bound_array(where, "lb", con.lb),
                           _bound_array(where, "ub", con.ub), m=n,
                           m_source=f"a Bounds constrains the n = {n} variables")
    raise ValueError(f"`constraint` of an unknown type is passed: constraints[{i}] is a {name}; "
                     "expected NonlinearConstraint, LinearConstraint, Bounds or a dict "
                     "{'type': 'ineq' | 'eq', 'fun': f, 'args': (...)}")


def violation_function(constraints: Any, n: int, *, eq_tol: float = 0.0, vectorized: bool = False,
                       x_probe: Any = None) -> Tuple[ConstraintViolation, Optional[int]]:
    """One function for the total violation of scipy-style constraints at a matrix of points.

    Parameters
    ----------
    constraints : constraint or sequence of constraints
        One constraint or a list/tuple (any non-string sequence) of them; None or an empty
        sequence is no constraint. Each is one of:

        - ``scipy.optimize.NonlinearConstraint(fun, lb, ub)``: ``lb <= fun(x) <= ub``; an ``args``
          attribute (where the scipy version has one) is passed on as ``fun(x, *args)``;
        - ``scipy.optimize.LinearConstraint(A, lb, ub)``: ``lb <= A @ x <= ub``; ``A`` (dense or
          scipy.sparse) must have ``n`` columns;
        - ``scipy.optimize.Bounds(lb, ub)``: ``lb <= x <= ub``, ``n`` components;
        - a dict of scipy.optimize.minimize, ``{'type': 'ineq', 'fun': f, 'args': (...)}`` for
          ``f(x, *args) >= 0`` (lb = 0, ub = inf) or ``'type': 'eq'`` for ``f(x, *args) == 0``
          (lb = ub = 0); ``'args'`` is optional, ``'jac'`` is ignored, the type is read
          case-insensitively.

        ``lb`` and ``ub`` are scalars (broadcast to every component) or 1-D arrays of one entry
        per component; -inf and inf leave a side open; NaN is refused, and so is ``lb > ub``.
        scipy is imported only for constraints other than dicts.
    n : int
        The number of variables, at least 1.
    eq_tol : float, optional
        Tolerance of equality components (those with ``lb == ub``, finite): a deviation
        ``|c - lb| <= eq_tol`` counts 0; a larger one counts in full, ``|c - lb|``. The default
        0.0 is scipy's measure exactly.
    vectorized : bool, optional
        False (default): each nonlinear or dict function is called once per point with
        ``x`` of shape (n,) (a fresh copy each call) and returns a scalar or a 1-D array of its m
        components. True: it is called once per evaluation with ``x`` of shape (n, k), one column
        per point (scipy's orientation, a fresh copy), and returns shape (m, k), or (k,) when
        m == 1 (for k == 1 a 1-D result of size m is read as the one point's m components).
    x_probe : array_like, optional
        A point of shape (n,). When given, each nonlinear or dict function is evaluated once at it
        (as the matrix ``x_probe[None, :]``, following ``vectorized``) to learn its number of
        components and check its ``lb``/``ub`` against it, so ``count`` is known at once. When
        None, a function's number of components is taken from ``lb``/``ub`` where one of them is
        an array of a size other than 1, and otherwise learnt at the first call of ``fn`` (then
        ``count`` is None; ``fn.count`` gives it after that call).

    Returns
    -------
    fn : ConstraintViolation
        ``fn(X)`` for a float64 array ``X`` of shape (k, n), k >= 1, gives a float64 array of
        shape (k,): entry r is the sum over all components of all constraints of
        ``max(lb - c, 0) + max(c - ub, 0)`` at ``c``, the component's value at ``X[r]`` (scipy's
        ``_ConstraintWrapper.violation`` of differential_evolution summed over components), with
        the ``eq_tol`` exception above. It is 0 at a feasible point and NaN where a constraint
        function gave NaN (the point then counts as the worst; nothing is raised). A function
        whose number of values differs from its constraint's component count (from ``lb``/``ub``,
        ``x_probe`` or its first call) raises ValueError naming the constraint's index and both
        sizes. ``fn.count`` is the current component count (None while unknown).
    count : int or None
        The total number of constraint components (a Bounds counts n, a LinearConstraint the rows
        of A, a nonlinear or dict constraint its function's output size), or None when some
        nonlinear or dict constraint's size is not known yet (see ``x_probe``).

    Raises
    ------
    ValueError
        For ``n`` other than a positive integer, a negative or NaN ``eq_tol``, an ``x_probe`` of
        another shape, a constraint of an unknown type (as scipy's differential_evolution),
        ``lb``/``ub`` that do not broadcast to the constraint's component count or contain NaN,
        ``lb > ub`` in some component, ``A`` without ``n`` columns, a dict without ``'type'`` or
        ``'fun'`` or of a type other than ``'eq'``/``'ineq'``.
    TypeError
        For a dict whose ``'type'`` is not a string (as scipy), a constraint function that is not
        callable, or non-tuple ``'args'``.

    Examples
    --------
    >>> from scipy.optimize import LinearConstraint
    >>> fn, count = violation_function(LinearConstraint([[1, 1]], 1, np.inf), 2)
    >>> count, fn(np.array([[0.5, 0.5], [0.0, 0.0]])).tolist()
    (1, [0.0, 1.0])
    """
    if (isinstance(n, (bool, np.bool_)) or not isinstance(n, (numbers.Integral, np.integer))
            or int(n) < 1):
        raise ValueError(f"n (the number of variables) must be a positive integer, got {n!r}")
    n = int(n)
    if isinstance(eq_tol, (bool, np.bool_)) or not isinstance(eq_tol, (numbers.Real, np.floating, np.integer)):
        raise ValueError(f"eq_tol must be a real number >= 0, got {eq_tol!r}")
    eq_tol = float(eq_tol)
    if math.isnan(eq_tol) or eq_tol < 0.0:
        raise ValueError(f"eq_tol must be a real number >= 0, got {eq_tol!r}")
    vectorized = bool(vectorized)

    if constraints is None:
        items: List[Any] = []
    elif isinstance(constraints, Sequence) and not isinstance(constraints, (str, bytes)):
        items = list(constraints)
    else:
        items = [constraints]

    types: Optional[Tuple[type, type, type]] = None
    if any(not isinstance(c, Mapping) for c in items):
        types = _scipy_constraint_types()
    parts = [_from_dict(i, c) if isinstance(c, Mapping) else _from_object(i, c, n, types)
             for i, c in enumerate(items)]

    if x_probe is not None:
        x = np.asarray(x_probe, dtype=np.float64)
        if x.shape != (n,):
            raise ValueError(f"x_probe must have shape ({n},), got shape {x.shape}")
        for p in parts:
            if p.kind in (_NONLINEAR, _DICT):
                p.values(x.reshape(1, n), vectorized)

    fn = ConstraintViolation(parts, n, eq_tol, vectorized)
    return fn, fn.count
