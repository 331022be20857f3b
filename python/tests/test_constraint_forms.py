"""metaopt/_constraints.py: scipy's constraint forms as one total-violation function. The totals
equal the sums of scipy's own per-constraint violation (differential_evolution's
_ConstraintWrapper, and the solver's _constraint_violation_fn) at random points, for nonlinear,
linear and Bounds constraints, mixtures, the dict form of minimize and both calling conventions;
eq_tol, NaN outputs and every refusal behave as documented. The module is loaded from its file,
so the compiled library is not needed."""

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

scipy_optimize = pytest.importorskip("scipy.optimize")
from scipy.optimize import Bounds, LinearConstraint, NonlinearConstraint  # noqa: E402
from scipy.optimize._differentialevolution import (  # noqa: E402
    DifferentialEvolutionSolver,
    _ConstraintWrapper,
)

_PATH = Path(__file__).resolve().parent.parent / "metaopt" / "_constraints.py"
_spec = importlib.util.spec_from_file_location("metaopt_constraints_under_test", _PATH)
C = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(C)
violation_function = C.violation_function

INF = np.inf
N = 3


def points(k=40, n=N, seed=0):
    """k points, the first half spread over [-2, 2]^n, the rest near the origin."""
    X = np.random.default_rng(seed).uniform(-2.0, 2.0, size=(k, n))
    X[k // 2:] *= 0.2
    return X


def scipy_total(constraints, X):
    """The sum over components and constraints of scipy's _ConstraintWrapper.violation, per row."""
    cons = constraints if isinstance(constraints, (list, tuple)) else [constraints]
    wrapped = [_ConstraintWrapper(c, X[0]) for c in cons]
    return np.array([sum(float(np.sum(w.violation(x))) for w in wrapped) for x in X])


# constraint functions usable both per point (x of shape (n,)) and vectorized (x of shape (n, k))
def g_scalar(x):
    return x[0] ** 2 + x[1]


def g_vector(x):
    return np.array([x[0] + x[1] * x[2], np.sin(x[0]) - x[2], x[1] ** 2])


def g_eq(x):
    return x[0] - x[1] ** 2


def g_eq_rows(x):
    """g_eq with scipy's vectorized shape (1, S) for x of shape (n, S)."""
    return g_eq(x)[None] if np.ndim(x) == 2 else g_eq(x)


def cases():
    return {
        "nonlinear scalar, upper only": NonlinearConstraint(g_scalar, -INF, 1.0),
        "nonlinear scalar, lower only": NonlinearConstraint(g_scalar, 0.5, INF),
        "nonlinear scalar, two-sided": NonlinearConstraint(g_scalar, -0.5, 0.75),
        "nonlinear vector, array bounds": NonlinearConstraint(g_vector, [-1.0, -INF, 0.1], [0.5, 0.2, INF]),
        "nonlinear vector, scalar bounds": NonlinearConstraint(g_vector, -0.3, 0.4),
        "nonlinear equality": NonlinearConstraint(g_eq, 0.0, 0.0),
        "nonlinear mixed equality": NonlinearConstraint(g_vector, [0.0, -1.0, 0.25], [0.0, 1.0, 0.25]),
        "linear two-sided": LinearConstraint([[1.0, 2.0, -1.0], [0.5, 0.0, 1.0]], [-1.0, -INF], [1.0, 0.3]),
        "linear one row, scalar bounds": LinearConstraint([1.0, 1.0, 1.0], 0.0, 1.5),
        "linear equality row": LinearConstraint([[1.0, -1.0, 0.0], [0.0, 1.0, 1.0]], [0.0, -1.0], [0.0, 1.0]),
        "bounds scalar": Bounds(-1.0, 1.0),
        "bounds arrays, one-sided": Bounds([-INF, -0.5, 0.0], [0.5, INF, 0.0]),
        "mixture": [NonlinearConstraint(g_vector, -0.3, 0.4), LinearConstraint([[1.0, 1.0, 0.0]], 1.0, INF),
                    Bounds(-1.5, [1.0, 1.0, 0.5]), NonlinearConstraint(g_eq, 0.0, 0.0)],
        "mixture tuple": (LinearConstraint(np.eye(N), -0.5, 0.5), NonlinearConstraint(g_scalar, -INF, 0.0)),
    }


def m_of(constraints):
    cons = constraints if isinstance(constraints, (list, tuple)) else [constraints]
    return sum(_ConstraintWrapper(c, np.zeros(N)).num_constr for c in cons)


@pytest.mark.parametrize("name", list(cases()))
def test_totals_equal_scipys_violation(name):
    cons = cases()[name]
    X = points(seed=sorted(cases()).index(name))
    fn, count = violation_function(cons, N, x_probe=np.zeros(N))
    assert count == m_of(cons) == fn.count
    got = fn(X)
    assert got.shape == (X.shape[0],) and got.dtype == np.float64
    np.testing.assert_allclose(got, scipy_total(cons, X), rtol=1e-13, atol=1e-14)
    # some points are feasible and some are not, so the comparison means something
    if name not in ("nonlinear equality", "nonlinear mixed equality", "linear equality row",
                    "bounds arrays, one-sided", "mixture"):
        assert (got == 0).any() and (got > 0).any(), got


@pytest.mark.parametrize("name", list(cases()))
def test_vectorized_gives_the_same(name):
    cons = cases()[name]
    X = points(k=25, seed=7)
    want = violation_function(cons, N)[0](X)
    fn, _ = violation_function(cons, N, vectorized=True)
    np.testing.assert_allclose(fn(X), want, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(fn(X[:1]), want[:1], rtol=1e-13, atol=1e-14)


@pytest.mark.parametrize("vectorized", [False, True])
def test_totals_equal_the_scipy_solvers_violation(vectorized):
    cons = cases()["mixture"][:-1] + [NonlinearConstraint(g_eq_rows, 0.0, 0.0)]
    solver = DifferentialEvolutionSolver(lambda x: np.sum(x ** 2, axis=0), [(-2, 2)] * N,
                                         constraints=cons, vectorized=vectorized,
                                         updating="deferred" if vectorized else "immediate", seed=1)
    X = points(k=30, seed=3)
    if vectorized:
        want = solver._constraint_violation_fn(X).sum(axis=1)
    else:
        want = np.array([solver._constraint_violation_fn(x).sum() for x in X])
    fn, count = violation_function(cons, N, vectorized=vectorized, x_probe=X[0])
    assert count == solver.total_constraints
    np.testing.assert_allclose(fn(X), want, rtol=1e-13, atol=1e-14)
    feasible, _ = solver._calculate_population_feasibilities(solver._unscale_parameters(X))
    np.testing.assert_array_equal(fn(X) == 0, feasible)


def test_sparse_linear_constraint_equals_scipys():
    sparse = pytest.importorskip("scipy.sparse")
    A = sparse.csr_matrix(np.array([[1.0, 0.0, 2.0], [0.0, -1.0, 1.0]]))
    con = LinearConstraint(A, [-1.0, 0.0], [1.0, INF])
    X = points(seed=11)
    fn, count = violation_function(con, N)
    assert count == 2
    np.testing.assert_allclose(fn(X), scipy_total(con, X), rtol=1e-13)
    np.testing.assert_allclose(violation_function(con, N, vectorized=True)[0](X), fn(X), rtol=1e-13)


def test_known_linear_check():
    fn, count = violation_function(LinearConstraint([[1, 1]], 1, INF), 2)
    assert count == 1
    np.testing.assert_array_equal(fn(np.array([[0.5, 0.5], [0.0, 0.0]])), [0.0, 1.0])


def test_no_constraints():
    for empty in ([], (), None):
        fn, count = violation_function(empty, 2)
        assert count == 0
        np.testing.assert_array_equal(fn(np.ones((3, 2))), np.zeros(3))


# the dict form of scipy.optimize.minimize

def shifted(x, a, b):
    return np.array([a - x[0] ** 2 - x[1], x[2] - b])


@pytest.mark.parametrize("vectorized", [False, True])
def test_dicts_equal_the_equivalent_nonlinear_constraints(vectorized):
    X = points(seed=5)
    dicts = [{"type": "ineq", "fun": shifted, "args": (1.0, 0.25), "jac": lambda x, a, b: None},
             {"type": "EQ", "fun": g_eq},
             {"type": "ineq", "fun": g_scalar, "args": ()}]
    same = [NonlinearConstraint(lambda x: shifted(x, 1.0, 0.25), 0.0, INF),
            NonlinearConstraint(g_eq, 0.0, 0.0),
            NonlinearConstraint(g_scalar, 0.0, INF)]
    fn, count = violation_function(dicts, N, vectorized=vectorized)
    assert count is None                      # sizes come from the first call
    got = fn(X)
    assert fn.count == 4
    np.testing.assert_allclose(got, scipy_total(same, X), rtol=1e-13, atol=1e-14)
    assert (got > 0).any()
    # a single dict is one constraint, not a sequence of its keys
    one, count = violation_function(dicts[0], N, x_probe=np.zeros(N))
    assert count == 2
    np.testing.assert_allclose(one(X), scipy_total(same[0], X), rtol=1e-13, atol=1e-14)


def test_nonlinear_constraint_args_are_passed():
    con = NonlinearConstraint(shifted, 0.0, INF)
    con.args = (1.0, 0.25)                    # scipy versions with an args attribute
    X = points(seed=6)
    want = scipy_total(NonlinearConstraint(lambda x: shifted(x, 1.0, 0.25), 0.0, INF), X)
    np.testing.assert_allclose(violation_function(con, N)[0](X), want, rtol=1e-13)


# component counts

def test_count_from_bounds_probe_or_first_call():
    assert violation_function(Bounds(0, 1), 4)[1] == 4
    assert violation_function(LinearConstraint(np.ones((5, 4))), 4)[1] == 5
    # array bounds fix a nonlinear constraint's size; scalar ones leave it to a probe or first call
    assert violation_function(NonlinearConstraint(g_vector, [0, 0, 0], 1), N)[1] == 3
    fn, count = violation_function([Bounds(0, 1), NonlinearConstraint(g_vector, 0, 1)], N)
    assert count is None and fn.count is None
    fn(points(k=2))
    assert fn.count == N + 3
    assert violation_function(NonlinearConstraint(g_vector, 0, 1), N, x_probe=[1, 2, 3])[1] == 3
    assert violation_function(NonlinearConstraint(g_vector, 0, 1), N, x_probe=[1, 2, 3],
                              vectorized=True)[1] == 3


def test_calls_get_fresh_copies_in_the_promised_orientation():
    seen = []

    def spoil(x):
        seen.append(x.shape)
        value = x[0].copy()
        x[...] = 100.0                        # must not reach X or the next call
        return value

    X = points(k=4)
    keep = X.copy()
    fn, _ = violation_function([NonlinearConstraint(spoil, -INF, 0.0), Bounds(-2, 2)], N)
    np.testing.assert_allclose(fn(X), scipy_total([NonlinearConstraint(lambda x: x[0], -INF, 0.0),
                                                   Bounds(-2, 2)], keep), rtol=1e-13)
    np.testing.assert_array_equal(X, keep)
    assert seen == [(N,)] * 4
    seen.clear()
    fn, _ = violation_function([NonlinearConstraint(spoil, -INF, 0.0), Bounds(-2, 2)], N, vectorized=True)
    fn(X)
    np.testing.assert_array_equal(X, keep)
    assert seen == [(N, 4)]


# eq_tol

def test_eq_tol_forgives_small_equality_deviations_only():
    cons = [NonlinearConstraint(lambda x: np.array([x[0], x[1]]), [0.0, 0.0], [0.0, INF]),
            LinearConstraint([[0.0, 0.0, 1.0]], 1.0, 1.0)]
    X = np.array([[1e-7, -1e-7, 1.0 + 1e-7],   # equalities within 1e-6; x1 >= 0 missed by 1e-7
                  [-1e-7, 0.0, 1.0],
                  [0.5, 1.0, 1.0 - 1e-3],      # equalities missed by more than eq_tol: in full
                  [0.0, 3.0, 1.0]])
    exact = violation_function(cons, N)[0](X)
    np.testing.assert_allclose(exact, scipy_total(cons, X), rtol=1e-15)
    got = violation_function(cons, N, eq_tol=1e-6)[0](X)
    np.testing.assert_allclose(got, [1e-7, 0.0, 0.5 + 1e-3, 0.0], rtol=1e-9)
    assert exact[1] > 0 and exact[0] > got[0]
    # a tolerance never touches inequality components
    ineq = NonlinearConstraint(g_scalar, 0.0, 1.0)
    X = points()
    np.testing.assert_array_equal(violation_function(ineq, N, eq_tol=0.5)[0](X),
                                  violation_function(ineq, N)[0](X))
    np.testing.assert_array_equal(violation_function(Bounds([0, 0, 0], [0, 1, 1]), N, eq_tol=10.0)[0](X)
                                  <= violation_function(Bounds([0, 0, 0], [0, 1, 1]), N)[0](X), True)


# NaN

@pytest.mark.parametrize("vectorized", [False, True])
def test_nan_output_gives_nan_for_that_point_only(vectorized):
    def g(x):
        return np.where(x[0] > 0, np.nan, x[1])

    X = np.array([[1.0, 0.0, 0.0], [-1.0, 0.5, 0.0], [-1.0, -0.5, 0.0]])
    fn, _ = violation_function([NonlinearConstraint(g, 0.0, INF), Bounds(-1, 1)], N, vectorized=vectorized)
    got = fn(X)
    assert np.isnan(got[0])
    np.testing.assert_array_equal(got[1:], [0.0, 0.5])
    np.testing.assert_array_equal(got[1:], scipy_total([NonlinearConstraint(g, 0.0, INF), Bounds(-1, 1)], X)[1:])
    assert np.isnan(scipy_total(NonlinearConstraint(g, 0.0, INF), X[:1])[0])


def test_infinite_bounds_are_allowed():
    fn, count = violation_function([NonlinearConstraint(g_scalar, -INF, INF), Bounds(-INF, INF),
                                    LinearConstraint(np.eye(N), -INF, [INF, 0.0, INF])], N,
                                   x_probe=np.zeros(N))
    assert count == 1 + N + N
    X = points()
    np.testing.assert_array_equal(fn(X), np.maximum(X[:, 1], 0.0))


# refusals

@pytest.mark.parametrize("n", [0, -1, 2.5, True, "3", None])
def test_bad_n(n):
    with pytest.raises(ValueError, match=r"\bn\b"):
        violation_function(Bounds(0, 1), n)


@pytest.mark.parametrize("eq_tol", [-1e-9, np.nan, "0", None])
def test_bad_eq_tol(eq_tol):
    with pytest.raises(ValueError, match="eq_tol"):
        violation_function(Bounds(0, 1), 2, eq_tol=eq_tol)


@pytest.mark.parametrize("thing", ["x >= 0", 3, object(), lambda x: x, np.zeros(2)])
def test_unknown_constraint_type_refused_as_scipys_de_does(thing):
    with pytest.raises(ValueError, match="unknown type") as ours:
        violation_function([Bounds(0, 1), thing], 2)
    assert "constraints[1]" in str(ours.value)
    with pytest.raises(ValueError, match="unknown type"):
        violation_function(thing, 2)
    if not isinstance(thing, (str, np.ndarray)):  # scipy iterates those (anything with a length)
        with pytest.raises(ValueError, match="unknown type"):
            scipy_optimize.differential_evolution(lambda x: 0.0, [(0, 1), (0, 1)],
                                                  constraints=thing, maxiter=1)


def test_dict_refusals_follow_scipy():
    with pytest.raises(ValueError, match="Constraint 1 has no type defined"):
        violation_function([{"type": "eq", "fun": g_eq}, {"fun": g_eq}], N)
    with pytest.raises(TypeError, match="type must be a string"):
        violation_function({"type": 1, "fun": g_eq}, N)
    with pytest.raises(ValueError, match="Unknown constraint type 'le'"):
        violation_function({"type": "le", "fun": g_eq}, N)
    with pytest.raises(ValueError, match="Constraint 0 has no function defined"):
        violation_function({"type": "ineq"}, N)
    with pytest.raises(TypeError, match="'fun' must be callable"):
        violation_function({"type": "ineq", "fun": 3.0}, N)
    with pytest.raises(TypeError, match="'args' must be a tuple"):
        violation_function({"type": "ineq", "fun": g_eq, "args": 3.0}, N)
    # scipy's own checks give the same kinds of error (its missing type is a KeyError)
    from scipy.optimize._constraints import old_constraint_to_new
    with pytest.raises(TypeError, match="type must be a string"):
        old_constraint_to_new(0, {"type": 1, "fun": g_eq})
    with pytest.raises(ValueError, match="Unknown constraint type 'le'"):
        old_constraint_to_new(0, {"type": "le", "fun": g_eq})
    with pytest.raises(ValueError, match="Constraint 0 has no function defined"):
        old_constraint_to_new(0, {"type": "ineq"})


def test_nonlinear_fun_must_be_callable():
    with pytest.raises(TypeError, match=r"constraints\[0\].*fun must be callable"):
        violation_function(NonlinearConstraint(3.0, 0, 1), N)


def test_bound_shapes_checked():
    # lb and ub of different sizes
    with pytest.raises(ValueError, match=r"constraints\[0\].*lb.*ub.*broadcast"):
        violation_function(NonlinearConstraint(g_vector, [0, 0], [1, 1, 1]), N)
    # array bounds of another size than the function's output, found by the probe
    with pytest.raises(ValueError, match=r"constraints\[1\].*returned 3 values.*2 components"):
        violation_function([Bounds(0, 1), NonlinearConstraint(g_vector, [0, 0], 1)], N, x_probe=np.zeros(N))
    # ... or at the first call without one
    fn, count = violation_function([Bounds(0, 1), NonlinearConstraint(g_vector, [0, 0], 1)], N)
    assert count == N + 2
    with pytest.raises(ValueError, match=r"constraints\[1\].*returned 3 values.*2 components"):
        fn(points())
    # LinearConstraint bounds changed after construction to a size other than A's rows
    lc = LinearConstraint(np.ones((2, N)), 0, 1)
    lc.lb, lc.ub = np.zeros(3), np.ones(3)
    with pytest.raises(ValueError, match=r"constraints\[0\].*2 components.*lb has shape \(3,\)"):
        violation_function(lc, N)
    # Bounds of another size than n
    with pytest.raises(ValueError, match=r"Bounds.*3 components.*shape \(2,\)"):
        violation_function(Bounds([0, 0], [1, 1]), N)
    # 2-D bounds
    with pytest.raises(ValueError, match="1-D"):
        violation_function(NonlinearConstraint(g_vector, np.zeros((3, 1)), 1), N)


def test_A_must_have_n_columns():
    with pytest.raises(ValueError, match=r"A has shape \(1, 3\).*n = 2"):
        violation_function(LinearConstraint([[1.0, 1.0, 1.0]], 0, 1), 2)
    sparse = pytest.importorskip("scipy.sparse")
    with pytest.raises(ValueError, match=r"A has shape \(2, 4\)"):
        violation_function(LinearConstraint(sparse.eye(2, 4, format="csr"), 0, 1), N)


def test_lb_above_ub_and_nan_bounds_refused():
    with pytest.raises(ValueError, match=r"lb > ub at component 1"):
        violation_function(NonlinearConstraint(g_vector, [0, 2, 0], [1, 1, 1]), N)
    with pytest.raises(ValueError, match=r"lb > ub at component 0"):
        violation_function(LinearConstraint([[1.0, 1.0]], 1.0, 0.0), 2)
    with pytest.raises(ValueError, match=r"lb > ub"):
        violation_function(Bounds([0, 1], [1, 0.5]), 2)
    with pytest.raises(ValueError, match=r"ub contains NaN"):
        violation_function(NonlinearConstraint(g_scalar, 0.0, np.nan), N)
    with pytest.raises(ValueError, match=r"lb contains NaN"):
        violation_function(Bounds([0, np.nan], 1), 2)
    with pytest.raises(ValueError, match=r"lb must be a real number"):
        violation_function(NonlinearConstraint(g_scalar, "low", 1.0), N)


def test_output_size_changing_between_calls_refused():
    sizes = iter([2, 2, 3])

    def g(x):
        return np.zeros(next(sizes))

    fn, count = violation_function([Bounds(0, 1), {"type": "ineq", "fun": g}], N)
    assert count is None
    with pytest.raises(ValueError, match=r"constraints\[1\].*returned 3 values.*2 components"):
        fn(points(k=3))


def test_vectorized_wrong_shape_refused():
    fn, _ = violation_function(NonlinearConstraint(lambda x: x.T, 0, [1, 1, 1]), N, vectorized=True)
    with pytest.raises(ValueError, match=r"constraints\[0\].*vectorized=True.*\(3, 5\).*got shape \(5, 3\)"):
        fn(points(k=5))
    fn, _ = violation_function(NonlinearConstraint(lambda x: x[0], 0, [1, 1]), N, vectorized=True)
    with pytest.raises(ValueError, match=r"constraints\[0\].*1 values.*2 components"):
        fn(points(k=5))


def test_per_point_output_must_be_scalar_or_1d():
    fn, _ = violation_function(NonlinearConstraint(lambda x: x.reshape(-1, 1), 0, 1), N)
    with pytest.raises(ValueError, match=r"constraints\[0\].*scalar or a 1-D array.*\(3, 1\)"):
        fn(points(k=2))


def test_non_numeric_output_refused():
    fn, _ = violation_function({"type": "ineq", "fun": lambda x: None}, N)
    with pytest.raises(TypeError, match=r"constraints\[0\].*real numbers"):
        fn(points(k=2))


@pytest.mark.parametrize("X", [np.zeros(N), np.zeros((2, N + 1)), np.zeros((0, N)), np.zeros((1, 2, N))])
def test_X_shape_checked(X):
    fn, _ = violation_function(Bounds(0, 1), N)
    with pytest.raises(ValueError, match=r"X must have shape \(k, 3\)"):
        fn(X)


def test_x_probe_shape_checked():
    with pytest.raises(ValueError, match=r"x_probe must have shape \(3,\)"):
        violation_function(NonlinearConstraint(g_scalar, 0, 1), N, x_probe=np.zeros((1, N)))


# scipy is optional

def test_without_scipy_dicts_work_and_the_rest_is_refused(monkeypatch):
    con = NonlinearConstraint(g_scalar, 0, 1)
    for name in [m for m in sys.modules if m == "scipy" or m.startswith("scipy.")]:
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(ImportError):
        import scipy.optimize  # noqa: F401
    fn, count = violation_function([{"type": "ineq", "fun": g_scalar}, {"type": "eq", "fun": g_eq}], N,
                                   x_probe=np.zeros(N))
    assert count == 2
    X = points()
    np.testing.assert_allclose(fn(X), np.maximum(-g_scalar(X.T), 0) + np.abs(g_eq(X.T)), rtol=1e-13)
    with pytest.raises(ValueError, match=r"constraints\[1\] is a NonlinearConstraint.*scipy is not importable"):
        violation_function([{"type": "ineq", "fun": g_scalar}, con], N)
