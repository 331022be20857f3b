"""The scipy-shaped API: metaopt.minimize (DE and HC12) against known optima and against
scipy.optimize.differential_evolution's result shape, metaopt.qap.solve against QAPLIB's
best-known value, metaopt.sat.solve on a SATLIB formula, double precision by default, argument
errors and the documentation that help() shows."""

import time

import numpy as np
import pytest

import metaopt
from conftest import DATA, bks, satlib


def sphere(x):
    return float(np.sum((x - 0.5) ** 2))


def rosen(x, a=1.0, b=100.0):
    x = np.asarray(x)
    return float(np.sum(b * (x[1:] - x[:-1] ** 2) ** 2 + (a - x[:-1]) ** 2))


def rosen_vectorized(X):
    # scipy's orientation: X has shape (n, S), one column per point
    return np.sum(100.0 * (X[1:] - X[:-1] ** 2) ** 2 + (1 - X[:-1]) ** 2, axis=0)


def test_de_finds_the_sphere_minimum_and_reports_a_scipy_shaped_result():
    r = metaopt.minimize(sphere, [(-5, 5)] * 4, seed=42, polish=False)
    assert isinstance(r, metaopt.OptimizeResult) and isinstance(r, dict)
    for key in ("x", "fun", "nfev", "nit", "success", "status", "message", "precision", "device", "stop"):
        assert key in r and r[key] is getattr(r, key)
    np.testing.assert_allclose(r.x, 0.5, atol=1e-4)
    assert r.x.dtype == np.float64 and r.x.shape == (4,)
    assert r.fun < 1e-8 and abs(r.fun - sphere(r.x)) < 1e-12
    assert r.success and r.status == 0 and r.stop == "converged" and r.method == "de"
    assert r.precision == "double" and r.device.startswith("device ")
    assert r.nfev == r.islands * r.members * (r.nit + 1) and 0 < r.nit <= 1000
    assert r.population.shape == (r.islands * r.members, 4) and r.population_energies.min() == r.fun
    # the same seed gives the same run
    again = metaopt.minimize(sphere, [(-5, 5)] * 4, seed=42, polish=False)
    assert again.fun == r.fun and np.array_equal(again.x, r.x) and again.nit == r.nit
    # by default (scipy installed) L-BFGS-B polishes the same run's best, never for the worse
    p = metaopt.minimize(sphere, [(-5, 5)] * 4, seed=42)
    assert p.polished and not r.polished and p.nit == r.nit and p.fun <= r.fun and p.nfev > r.nfev
    assert abs(p.fun - sphere(p.x)) < 1e-12 and p.success == r.success


def test_de_finds_the_rosenbrock_minimum_with_args_and_vectorized():
    r = metaopt.minimize(rosen, [(-2, 2)] * 3, args=(1.0, 100.0), seed=7, tol=1e-10, maxiter=3000)
    np.testing.assert_allclose(r.x, 1.0, atol=1e-3)
    assert r.fun < 1e-6
    shapes = []

    def vec(X):
        shapes.append(X.shape)
        return rosen_vectorized(X)

    v = metaopt.minimize(vec, [(-2, 2)] * 3, vectorized=True, seed=7, tol=1e-10, maxiter=3000)
    assert all(s[0] == 3 for s in shapes) and shapes[0][1] == v.islands * v.members
    np.testing.assert_allclose(v.x, 1.0, atol=1e-3)
    # the same run, scalar or vectorized
    assert v.nit == r.nit and v.fun == pytest.approx(r.fun, rel=1e-9, abs=1e-15)


def test_the_objective_gets_float64_points_by_default():
    seen = set()

    def f(x):
        seen.add((type(x), x.dtype, x.shape))
        return float(np.sum(x**2))

    r = metaopt.minimize(f, [(-1, 1)] * 2, maxiter=5, seed=1)
    assert seen == {(np.ndarray, np.dtype(np.float64), (2,))}
    assert r.precision == "double"
    s = metaopt.minimize(f, [(-1, 1)] * 2, maxiter=5, seed=1, precision="single")
    assert s.precision == "single"


def test_hc12_finds_the_rosenbrock_minimum():
    r = metaopt.minimize(rosen_vectorized, [(-2, 2)] * 2, method="hc12", vectorized=True, seed=3, runs=4)
    assert r.method == "hc12" and r.success and r.precision == "double"
    np.testing.assert_allclose(r.x, 1.0, atol=0.02)
    assert r.fun < 1e-3 and r.nfev > 0 and r.nit > 0 and r.runs <= 4
    # x0: the first run starts there
    s = metaopt.minimize(rosen_vectorized, [(-2, 2)] * 2, method="hc12", vectorized=True, seed=3, runs=1,
                         x0=[0.9, 0.8])
    assert s.fun < 1e-3


@pytest.mark.parametrize("objective, bounds, runs", [
    # a Python objective: one run of many climb steps, each a host callback
    (lambda x: float(np.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)), [(-5, 5)] * 10, 1),
    # a catalogue objective on the device, the default ten runs
    ("F5", [(-2.048, 2.048)] * 20, 10),
])
def test_hc12_stops_at_its_time_limit_inside_a_run(objective, bounds, runs):
    # the limit binds every climb step, not only the gaps between runs; set-up counts
    t = time.perf_counter()
    r = metaopt.minimize(objective, bounds, method="hc12", runs=runs, maxiter=600, time_limit=1)
    took = time.perf_counter() - t
    assert r.stop == "time_limit" and not r.success, r
    assert np.isfinite(r.fun) and r.x.shape == (len(bounds),)
    assert took < 1 + 1.5, took


def test_a_catalogue_objective_runs_on_the_device():
    # tol=0: scipy's relative convergence test can end a sphere run just above the target, when
    # the energies close in on each other (seed 11 did at 7.6e-10 once the parents' draw changed)
    r = metaopt.minimize("F1", [(-5.12, 5.12)] * 5, seed=11, target=1e-10, tol=0)
    assert r.stop == "target" and r.fun <= 1e-10 and r.success
    assert "population" not in r and r.nfev == r.islands * r.members * (r.nit + 1)


def test_no_success_short_of_convergence_on_the_device():
    # the islands' bests agree long before the members do: success only when every member's
    # value passes scipy's test, which the population read back confirms
    r = metaopt.minimize("F5", [(-2.048, 2.048)] * 10, seed=1)
    assert r.nit > 20
    assert not (r.success and r.fun > 1e-6), (r.fun, r.nit, r.message)
    with metaopt.IslandDE(4, 8, 3, (-5.12, 5.12), backend="device") as de:
        de.init("F6")
        for _ in range(5):
            de.iteration()
        E = metaopt.evaluate("F6", de.population(), cpu=True)
        mean, std = de.spread()
        np.testing.assert_allclose([mean, std], [np.mean(E), np.std(E)], rtol=1e-9)
        assert std > 1e-3 * abs(mean)


@pytest.mark.parametrize("method", ["jade", "shade", "lshade", "jso", "jde100"])
def test_the_adaptive_variants_are_methods_of_minimize(method):
    sphere = lambda x: float((x**2).sum())  # noqa: E731
    r = metaopt.minimize(sphere, [(-5, 5)] * 4, method=method, seed=2, maxiter=400, device="cpu")
    assert r.method == method and r.fun < 1e-6, (r.fun, r.message)
    assert r.nfev > 0 and r.nit <= 400
    # the catalogue path counts what the library evaluated, as the Python path does
    c = metaopt.minimize("F1", [(-5, 5)] * 4, method=method, seed=2, maxiter=50, tol=0, device="cpu")
    p = metaopt.minimize(sphere, [(-5, 5)] * 4, method=method, seed=2, maxiter=50, tol=0, device="cpu")
    assert c.nfev == p.nfev and c.nit == p.nit == 50


def test_scipys_de_arguments():
    rng = np.random.default_rng(7)
    r = metaopt.minimize("F1", [(-5, 5)] * 3, strategy="best1bin", mutation=0.6, recombination=0.7, seed=rng,
                         maxiter=300, device="cpu")
    assert r.fun < 1e-8 and isinstance(r.seed, int)
    # a Generator in the same state gives the same run
    a = metaopt.minimize("F1", [(-5, 5)] * 3, seed=np.random.default_rng(11), maxiter=20, tol=0, device="cpu")
    b = metaopt.minimize("F1", [(-5, 5)] * 3, seed=np.random.default_rng(11), maxiter=20, tol=0, device="cpu")
    assert a.seed == b.seed and a.fun == b.fun
    # scipy's arguments at what minimize does are taken
    metaopt.minimize("F1", [(-5, 5)] * 2, maxiter=5, device="cpu", workers=1, updating="deferred", polish=False,
                     constraints=(), integrality=[False, False])
    # polish: on a catalogue function through the library's host code; never after a time limit
    # unless asked; a Source's by the library on the device (basin hopping's (1+1)-ES)
    d = metaopt.minimize("F5", [(-2.048, 2.048)] * 3, seed=3, maxiter=60, tol=0, device="cpu", polish=False)
    p = metaopt.minimize("F5", [(-2.048, 2.048)] * 3, seed=3, maxiter=60, tol=0, device="cpu")
    assert p.polished and p.fun <= d.fun and p.nfev > d.nfev
    assert abs(p.fun - metaopt.evaluate("F5", p.x, cpu=True)) <= 1e-12 * max(1.0, p.fun)
    t = metaopt.minimize("F5", [(-2.048, 2.048)] * 3, maxiter=10**6, tol=0, device="cpu", time_limit=0.3)
    assert t.stop == "time_limit" and not t.polished
    src = metaopt.Source("FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)"
                         " { return x[0] * x[0]; }")
    sd = metaopt.minimize(src, [(-1, 1)], maxiter=5, seed=2, polish=False)
    sp = metaopt.minimize(src, [(-1, 1)], maxiter=5, seed=2)
    assert not sd.polished and sp.polished
    assert sp.fun <= sd.fun and sp.fun < 1e-20 and sp.nfev == sd.nfev + 8 * (1000 + 200 + 2) + 1
    assert abs(sp.x[0]) <= 1 and sp.fun == sp.x[0] ** 2
    refused = {
        "binomial": dict(strategy="rand1exp"),
        "no such mutation": dict(strategy="randtobest1bin"),
        "both in": dict(mutation=(0.5, 2.0)),
        "dithering": dict(mutation=(0.5, 0.7, 0.9)),
        "adapts its own F": dict(mutation=(0.5, 1.0), method="jade"),
        "both set F": dict(mutation=(0.5, 1.0), f_min=0.3),
        "vectorized": dict(workers=-1),
        "deferred": dict(updating="immediate"),
        "has none": dict(constraints=[{"type": "ineq", "fun": lambda x: x[0]}]),
        "hold none": dict(integrality=[True, False], bounds=[(0.2, 0.8), (-5, 5)]),
        "leave the integers": dict(integrality=[True, False], polish=True),
        "integrality must have": dict(integrality=[True, False, True]),
        "give one": dict(strategy="best1bin", mutation="DE/rand/1"),
        r"\[0, 1\]": dict(recombination=1.5),
        r"\[0, 2\]": dict(mutation=3.0),
    }
    for why, kw in refused.items():
        kw = dict(kw)
        with pytest.raises(ValueError, match=why):
            metaopt.minimize("F1", kw.pop("bounds", [(-5, 5)] * 2), maxiter=5, device="cpu", **kw)
    with pytest.raises(ValueError, match="for DE"):
        metaopt.minimize("F1", [(-5, 5)] * 2, method="hc12", integrality=True)
    # scipy's dithering: the pair in either order is one run, the device's and the CPU's agree,
    # and it is not the fixed F of either end
    kw = dict(seed=4, maxiter=40, tol=0, polish=False)
    dither = metaopt.minimize("F5", [(-2.048, 2.048)] * 4, mutation=(0.5, 1.0), device="cpu", **kw)
    assert metaopt.minimize("F5", [(-2.048, 2.048)] * 4, mutation=(1.0, 0.5), device="cpu", **kw).fun == dither.fun
    on_device = metaopt.minimize("F5", [(-2.048, 2.048)] * 4, mutation=(0.5, 1.0), **kw)
    assert on_device.fun == pytest.approx(dither.fun, rel=1e-9, abs=1e-12)
    for f in (0.5, 1.0):
        assert metaopt.minimize("F5", [(-2.048, 2.048)] * 4, mutation=f, device="cpu", **kw).fun != dither.fun
    with pytest.raises(ValueError, match="for DE"):
        metaopt.minimize("F1", [(-5, 5)] * 2, method="hc12", strategy="best1bin")


def test_callback_gets_intermediate_results_and_can_stop():
    seen = []

    def cb(intermediate_result):
        seen.append((intermediate_result.nit, intermediate_result.fun))
        return intermediate_result.nit >= 5

    r = metaopt.minimize(sphere, [(-5, 5)] * 2, seed=1, callback=cb, tol=0)
    assert [n for n, _ in seen] == [1, 2, 3, 4, 5] and r.nit == 5
    assert r.stop == "budget" and not r.success and r.status == 2
    assert all(a >= b for (_, a), (_, b) in zip(seen, seen[1:]))  # the best never gets worse

    def stop_iteration(intermediate_result):
        raise StopIteration

    assert metaopt.minimize(sphere, [(-5, 5)] * 2, seed=1, callback=stop_iteration).nit == 1
    legacy = []
    metaopt.minimize(sphere, [(-5, 5)] * 2, seed=1, maxiter=3, tol=0,
                     callback=lambda xk, convergence: legacy.append((xk.shape, convergence)))
    assert len(legacy) == 3 and legacy[0][0] == (2,)
    # HC12: between runs
    runs = []
    metaopt.minimize(rosen_vectorized, [(-2, 2)] * 2, method="hc12", vectorized=True, seed=1, runs=3, tol=0,
                     callback=lambda intermediate_result: runs.append(intermediate_result.run))
    assert runs == [1, 2]


def test_maxiter_ends_unsuccessfully_like_scipy():
    r = metaopt.minimize(rosen, [(-2, 2)] * 5, maxiter=3, seed=1)
    assert r.nit == 3 and r.stop == "budget" and not r.success and r.status == 1
    assert "Maximum number of iterations" in r.message


def test_the_result_has_the_shape_of_scipys_differential_evolution():
    optimize = pytest.importorskip("scipy.optimize")
    bounds = [(-2, 2)] * 3
    want = optimize.differential_evolution(rosen, bounds, seed=1, polish=False, tol=1e-8, maxiter=2000)
    got = metaopt.minimize(rosen, bounds, seed=1, tol=1e-8, maxiter=2000)
    for key in ("x", "fun", "nfev", "nit", "success", "message"):
        assert key in got, key
        assert type(got[key]) is type(want[key]) or (key == "fun" and isinstance(got[key], float)), key
    assert got.x.shape == want.x.shape and got.x.dtype == want.x.dtype
    np.testing.assert_allclose(got.x, want.x, atol=1e-3)
    # scipy.optimize.Bounds is accepted too
    b = metaopt.minimize(rosen, optimize.Bounds([-2] * 3, [2] * 3), seed=1, tol=1e-8, maxiter=2000)
    assert b.nit == got.nit and np.array_equal(b.x, got.x)


def test_bad_arguments_name_the_argument():
    f = sphere
    cases = [
        (ValueError, "method must be", dict(method="nelder-mead")),
        (TypeError, "method must be", dict(method=3)),
        (ValueError, "bounds", dict(bounds=[(1, 0)])),
        (ValueError, "bounds", dict(bounds=[1, 2, 3])),
        (TypeError, "bounds", dict(bounds="x")),
        (ValueError, "precision must be", dict(precision="half")),
        (TypeError, "seed must be an integer", dict(seed=1.5)),
        (ValueError, "seed must be", dict(seed=-1)),
        (ValueError, "maxiter must be", dict(maxiter=0)),
        (ValueError, "popsize must be", dict(popsize=0)),
        (ValueError, "tol", dict(tol=-1)),
        (TypeError, "callback must be callable", dict(callback=3)),
        (TypeError, "vectorized must be", dict(vectorized="yes")),
        (ValueError, "device must be", dict(device="gpu")),
        (ValueError, "x0 must have 2 entries", dict(x0=[1, 2, 3])),
        (ValueError, "x0 must lie within bounds", dict(x0=[9, 9])),
        (TypeError, "unexpected option.*popsizee", dict(popsizee=3)),
        (ValueError, "popsize is an option of method='de'", dict(method="hc12", popsize=4)),
        (ValueError, "members must be", dict(members=2)),
    ]
    for exc, match, kwargs in cases:
        kw = dict(fun=f, bounds=[(-1, 1)] * 2, maxiter=2)
        kw.update(kwargs)
        with pytest.raises(exc, match=match):
            metaopt.minimize(**kw)
    with pytest.raises(TypeError, match="fun must be callable"):
        metaopt.minimize(3, [(-1, 1)])
    with pytest.raises(ValueError, match="fun must return one real number"):
        metaopt.minimize(lambda x: "a", [(-1, 1)], maxiter=1)
    with pytest.raises(ValueError, match=r"fun \(vectorized=True\) must return 8 values"):
        metaopt.minimize(lambda X: np.zeros(3), [(-1, 1)], vectorized=True, maxiter=1, islands=2, members=4)


def test_an_exception_of_fun_propagates():
    class Boom(Exception):
        pass

    def f(x):
        raise Boom("no")

    with pytest.raises(Boom):
        metaopt.minimize(f, [(-1, 1)] * 2, maxiter=2)


def test_precision_defaults_to_auto_in_the_classes_and_double_is_an_alias():
    # auto: double on this test machine's devices (fp64); test_precision_auto_is_resolved_by_the_library
    # covers a device without it
    with metaopt.IslandDE(2, 8, 2, (-1, 1)) as de:
        assert de.precision == "double" and de.double
        de.init("F1")
        assert de.run(generations=2).precision == "double"
    with metaopt.IslandDE(2, 8, 2, (-1, 1), double=False) as de:
        assert de.precision == "single" and not de.double
    with metaopt.IslandDE(2, 8, 2, (-1, 1), precision="single") as de:
        assert de.precision == "single"
    with pytest.raises(ValueError, match="disagree"):
        metaopt.IslandDE(2, 8, 2, (-1, 1), precision="single", double=True)
    with pytest.raises(ValueError, match="precision must be"):
        metaopt.IslandDE(2, 8, 2, (-1, 1), precision="quad")
    with metaopt.HC12(2, 10, [-1, 1], "F1") as h:
        assert h.precision == "double" and h.run().precision == "double"
    with metaopt.HC12(2, 10, [-1, 1], "F1", precision="single") as h:
        assert h.precision == "single"
    assert all(isinstance(d.fp64, bool) for d in metaopt.devices())


def test_precision_auto_is_resolved_by_the_library():
    """``precision=None``/``"auto"`` is the library's MetaoptPrecision auto: double where the
    device has fp64, else single (with a note); instances and results report the library's
    choice, and an explicit ``"double"`` on a device without fp64 is the library's error."""
    from metaopt import _precision

    assert _precision.requested(None, None) == "auto" and _precision.requested("auto", True) == "double"
    assert _precision.code("auto") == 0 and _precision.code("single") == 1 and _precision.code("double") == 2
    fp64 = metaopt.device_info(metaopt.get_device_number()).fp64
    want = "double" if fp64 else "single"
    with metaopt.IslandDE(2, 8, 2, (-1, 1), precision="auto") as de:
        assert de.precision == want and (de.precision_note is None) == fp64
        de.init("F1")
        assert de.run(generations=2).precision == want
    with metaopt.IslandDE(2, 8, 2, (-1, 1), backend="cpu") as de:
        assert de.precision == "double" and de.precision_note is None  # the CPU backend always has double
    with metaopt.HC12(2, 10, [-1, 1], "F1", precision="auto") as h:
        assert h.precision == want and h.run().precision == want
    r = metaopt.minimize(sphere, [(-1, 1)] * 2, maxiter=3, seed=1)
    assert r.precision == want
    if not fp64:
        assert "no fp64" in r.precision_note and "no fp64" in r.message
        with pytest.raises(metaopt.MetaoptError) as e:
            metaopt.IslandDE(2, 8, 2, (-1, 1), precision="double")
        assert e.value.code == metaopt.ErrorCode.UNSUPPORTED


def test_de_seeds_from_one_integer():
    from metaopt.de import de_seeds

    assert de_seeds(42) == de_seeds(42) != de_seeds(43)
    assert len(de_seeds(None)) == 4 and de_seeds((1, 2, 3, 4)) == [1, 2, 3, 4]
    with metaopt.IslandDE(2, 8, 2, (-1, 1), seeds=42, backend="cpu") as a, \
            metaopt.IslandDE(2, 8, 2, (-1, 1), seeds=42, backend="cpu") as b:
        a.init("F1")
        b.init("F1")
        assert a.run(generations=5) == b.run(generations=5)


def test_qap_solve_reaches_the_best_known_value():
    path = DATA / "had12.dat"
    r = metaopt.qap.solve(str(path), target="bks", time_limit=60, chains=8, seed=1, cpu=True)
    assert r.cost == bks()["had12"] == 1652 and r.gap == 0.0 and r.bks == 1652
    A, B = metaopt.read_qaplib(path)
    assert metaopt.qap_cost(A, B, r.permutation) == r.cost
    assert metaopt.qap.solve is metaopt.qap_solve
    h = metaopt.qap.solve(A, B, method="hc12", runs=50, seed=2, bks=1652, target="bks")
    assert h.cost == metaopt.qap_cost(A, B, h.permutation) and h.gap == pytest.approx(100 * (h.cost - 1652) / 1652)
    with pytest.raises(ValueError, match="method must be"):
        metaopt.qap.solve(A, B, method="sa")


def test_sat_solve_finds_a_model():
    path = satlib("uf20-91/uf20-01.cnf")
    r = metaopt.sat.solve(path, time_limit=30, seed=1)
    assert r.satisfied and r and r.unsatisfied == 0
    _, clauses = metaopt.read_dimacs(path)
    assert metaopt.unsatisfied_clauses(clauses, r.assignment) == []
    assert metaopt.unsatisfied_clauses(clauses, r.model) == []
    small = metaopt.sat.solve([[1, -2], [2, 3], [-1, -3]], time_limit=5)
    assert small.satisfied and metaopt.unsatisfied_clauses([[1, -2], [2, 3], [-1, -3]], small.model) == []
    with pytest.raises(TypeError, match="num_vars is for a list of clauses"):
        metaopt.sat.solve(path, num_vars=3)


def test_help_shows_the_public_api():
    import pydoc

    text = pydoc.render_doc(metaopt, renderer=pydoc.plaintext)
    for name in ("minimize", "OptimizeResult", "qap.solve", "sat.solve", "IslandDE", "precision"):
        assert name in text, name
    doc = pydoc.render_doc(metaopt.minimize, renderer=pydoc.plaintext)
    for word in ("fun", "bounds", "vectorized", "seed", "tol", "callback", "precision", "Returns", "-> metaopt.optimize.OptimizeResult"):
        assert word in doc, word
    for f in (metaopt.qap.solve, metaopt.sat.solve, metaopt.IslandDE, metaopt.HC12, metaopt.devices):
        assert f.__doc__ and len(f.__doc__) > 40, f


def test_integrality_rounds_every_point_as_scipy():
    # sum of (x - 0.3)^2 with dimensions 0 and 2 integers: 0 there, 0.3 elsewhere
    def f(x):
        return float(((x - 0.3) ** 2).sum())

    bounds = [(-3.7, 4.2)] * 4
    ints = [True, False, True, False]
    seen = []

    def g(x):
        seen.append(np.array(x))
        return f(x)

    for method in ("de", "jade"):
        r = metaopt.minimize(g, bounds, method=method, integrality=ints, seed=2, maxiter=200, tol=0,
                             x0=[3.6, 0.0, -3.7, 1.0])
        assert r.x[0] == 0 and r.x[2] == 0 and abs(r.x[1] - 0.3) < 1e-3 and abs(r.fun - 0.18) < 1e-3, r.x
        assert not r.polished
        pts = np.array(seen)
        assert np.all(pts[:, [0, 2]] == np.round(pts[:, [0, 2]])), "a point evaluated off the integers"
        assert pts[:, [0, 2]].min() >= -3 and pts[:, [0, 2]].max() <= 4
        assert any(np.array_equal(p, [4, 0, -3, 1]) for p in seen)  # x0, rounded into the bounds
        seen.clear()
    # a catalogue function on the device: the same rounding there
    d = metaopt.minimize("F1", [(-5.5, 5.5)] * 3, integrality=True, seed=1, maxiter=50)
    assert np.all(d.x == np.round(d.x)) and d.fun == 0


def test_basin_hopping_from_minimize():
    # a catalogue function on the device, a Python fun on the CPU backend; no false success
    r = metaopt.minimize("F1", [(-5, 5)] * 4, basin_hopping=True, seed=3, maxiter=200, chains=64)
    assert r.basin_hopping and r.nit == 200 and r.fun < 1e-6 and not r.success and r.stop == "budget"
    assert "no convergence test" in r.message and r.status == 1
    t = metaopt.minimize(sphere, [(-5, 5)] * 3, basin_hopping=True, seed=3, maxiter=10**6, chains=16,
                         x0=[1, 2, 3], target=1e-6)
    assert t.success and t.stop == "target" and t.fun <= 1e-6 and t.nfev > 0
    # DE's arguments are refused with it, and unknown options name the accepted ones
    for kw in (dict(method="jade"), dict(strategy="best1bin"), dict(polish=True), dict(integrality=True),
               dict(popsize=5), dict(callback=lambda intermediate_result: False)):
        with pytest.raises(ValueError, match="not basin_hopping=True"):
            metaopt.minimize("F1", [(-5, 5)] * 2, basin_hopping=True, maxiter=5, **kw)
    with pytest.raises(TypeError, match="hop_max"):
        metaopt.minimize("F1", [(-5, 5)] * 2, basin_hopping=True, maxiter=5, islands=4)


LINEAR_SOURCE = """
FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)
{
    return x[0] * x[0] + x[stride] * x[stride] + x[2 * stride] * x[2 * stride];
}
void constraints(__global const FP *x, uint dims, uint stride, __global const void *data, FP *g)
{
    g[0] = (FP)3 - x[0] - x[stride] - x[2 * stride];
    g[1] = x[0] - x[stride] - (FP)0.5;
}
"""


@pytest.mark.parametrize("device", [None, "cpu"])
def test_constraints_in_scipys_forms(device):
    from scipy.optimize import LinearConstraint, NonlinearConstraint

    def f(x):
        return float(np.sum(x ** 2))

    # min |x|^2 subject to x0 + x1 >= 1: (0.5, 0.5), f = 0.5 (scipy finds 0.5000)
    lc = LinearConstraint([[1, 1]], 1, np.inf)
    r = metaopt.minimize(f, [(-2, 2)] * 2, constraints=lc, seed=1, device=device, maxiter=400, tol=0)
    assert r.constr_violation == 0 and r.x.sum() >= 1 - 1e-12
    assert r.fun == pytest.approx(0.5, abs=1e-6)
    # with scipy's tol the run converges: every member feasible and close
    c = metaopt.minimize(f, [(-2, 2)] * 2, constraints=lc, seed=1, device=device)
    assert c.success and c.stop == "converged" and c.constr_violation == 0 and c.fun == pytest.approx(0.5, abs=1e-3)
    # the same as a dict ('ineq': fun >= 0) and as a NonlinearConstraint, under the epsilon level
    d = {"type": "ineq", "fun": lambda x: x[0] + x[1] - 1}
    r = metaopt.minimize(f, [(-2, 2)] * 2, constraints=[d], seed=1, device=device, maxiter=400, tol=0,
                         epsilon=True)
    assert r.constr_violation == 0 and r.fun == pytest.approx(0.5, abs=1e-6)
    # an adaptive variant (the host-planned path)
    r = metaopt.minimize(f, [(-2, 2)] * 2, constraints=lc, seed=1, device=device, maxiter=400, tol=0, method="shade")
    assert r.constr_violation == 0 and r.fun == pytest.approx(0.5, abs=1e-6)
    # an equality within eq_tol: |x|^2 = 2 on the line x0 = x1 minimising x0 + x1 -> (-1, -1)
    nl = NonlinearConstraint(lambda x: [x[0] ** 2 + x[1] ** 2, x[0] - x[1]], [2, 0], [2, 0])
    r = metaopt.minimize(lambda x: float(x[0] + x[1]), [(-2, 2)] * 2, constraints=nl, seed=2, device=device,
                         maxiter=1500, tol=0, eq_tol=1e-6, epsilon=(0.2, 300, 5))
    assert r.constr_violation == 0 and r.fun == pytest.approx(-2.0, abs=1e-5), r


def test_an_infeasible_result_is_no_success_as_scipy():
    from scipy.optimize import LinearConstraint

    r = metaopt.minimize(lambda x: float(x @ x), [(-1, 1)] * 2, constraints=LinearConstraint([[1, 0]], 10, np.inf),
                         seed=1, maxiter=30, device="cpu")
    assert not r.success and "does not satisfy the constraints" in r.message
    # the least violation: x0 at its upper bound
    assert r.constr_violation == pytest.approx(9.0, abs=1e-6) and r.x[0] == pytest.approx(1.0, abs=1e-6)


def test_a_source_computes_its_own_constraints():
    src = metaopt.Source(LINEAR_SOURCE)
    for device in (None, "cpu"):
        r = metaopt.minimize(src, [(-5, 5)] * 3, constraints={"inequalities": 1, "equalities": 1}, eq_tol=1e-6,
                             seed=3, maxiter=2000, tol=0, device=device)
        assert r.constr_violation == 0 and r.fun == pytest.approx(3.125, abs=1e-5), r


def test_constraints_refusals():
    from scipy.optimize import LinearConstraint

    lc = LinearConstraint([[1, 1]], 1, np.inf)
    f = lambda x: float(x @ x)  # noqa: E731
    for why, kw in {
        "method='de'": dict(method="jde100"),
        "unknown type": dict(constraints=[object()]),
        "columns|shape": dict(constraints=LinearConstraint([[1, 1, 1]], 1, 2)),
    }.items():
        kw = {"constraints": lc, **kw}
        with pytest.raises(ValueError, match=why):
            metaopt.minimize(f, [(-2, 2)] * 2, maxiter=5, device="cpu", **kw)
    with pytest.raises(ValueError, match="inequalities"):
        metaopt.minimize(metaopt.Source(LINEAR_SOURCE), [(-5, 5)] * 3, constraints=lc, maxiter=5)
    # a Source's constraints: the library's polish compares by Deb's rules, never worse
    counts = {"inequalities": 1, "equalities": 1}
    d = metaopt.minimize(metaopt.Source(LINEAR_SOURCE), [(-5, 5)] * 3, maxiter=5, seed=4, polish=False,
                         constraints=counts)
    p = metaopt.minimize(metaopt.Source(LINEAR_SOURCE), [(-5, 5)] * 3, maxiter=5, seed=4, polish=True,
                         constraints=counts)
    assert p.polished and p.nfev > d.nfev
    assert (p.constr_violation < d.constr_violation
            or (p.constr_violation == d.constr_violation and p.fun <= d.fun)), (p, d)
    with pytest.raises(ValueError, match="options of constraints"):
        metaopt.minimize(f, [(-2, 2)] * 2, maxiter=5, device="cpu", eq_tol=1e-3)


def test_island_de_takes_a_violation_callable_and_its_exception_propagates():
    de = metaopt.IslandDE(2, 10, 2, [(-4, 4)] * 2, backend="cpu", double=True)
    de.set_constraints(lambda X: np.maximum(X.sum(axis=1) - 2, 0))
    de.init(lambda X: ((X - 2) ** 2).sum(axis=1), "DE/rand/1")
    r = de.run(generations=300)
    assert r.violation == 0 and r.value == pytest.approx(2.0, abs=1e-6)
    x, value, violation = de.best_point()
    assert value == r.value and violation == 0 and np.array_equal(x, r.x)

    def bad(X):
        raise RuntimeError("no violation today")

    de.set_constraints(bad)
    with pytest.raises(RuntimeError, match="no violation today"):
        de.init(lambda X: (X ** 2).sum(axis=1))


def test_basin_hopping_with_constraints_on_the_cpu_and_the_device():
    from scipy.optimize import LinearConstraint

    # min |x|^2 subject to x0 + x1 >= 1 from an infeasible start: a Python fun and its scipy
    # constraint on the CPU backend, a Source with its own constraints on the device; in double
    # the two take the same steps
    kw = dict(basin_hopping=True, seed=1, maxiter=2000, chains=16, x0=[-1.5, -1.5], max_search=100,
              step_stop=1e-9, step0=0.05, hop_max=0.2, hop_min=1e-3)
    a = metaopt.minimize(lambda x: float(x @ x), [(-2, 2)] * 2, constraints=LinearConstraint([[1, 1]], 1, np.inf),
                         **kw)
    src = metaopt.Source(
        "FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)\n"
        "{ return x[0] * x[0] + x[stride] * x[stride]; }\n"
        "void constraints(__global const FP *x, uint dims, uint stride, __global const void *data, FP *c)\n"
        "{ c[0] = (FP)1 - x[0] - x[stride]; }\n")
    b = metaopt.minimize(src, [(-2, 2)] * 2, constraints={"inequalities": 1}, **kw)
    for r in (a, b):
        assert r.constr_violation == 0 and r.x.sum() >= 1 - 1e-12 and r.fun == pytest.approx(0.5, abs=1e-5), r
    assert a.fun == b.fun and np.array_equal(a.x, b.x)
    # too few steps to leave the start: infeasible, no success
    c = metaopt.minimize(lambda x: float(x @ x), [(-2, 2)] * 2, constraints=LinearConstraint([[1, 1]], 1, np.inf),
                         basin_hopping=True, maxiter=5, chains=4, x0=[-1.5, -1.5])
    assert not c.success and c.constr_violation == pytest.approx(4.0) and "does not satisfy" in c.message
    with pytest.raises(ValueError, match="Deb"):
        metaopt.minimize(lambda x: float(x @ x), [(-2, 2)] * 2, constraints=LinearConstraint([[1, 1]], 1, np.inf),
                         basin_hopping=True, maxiter=5, epsilon=True)
    with pytest.raises(TypeError, match="violation"):
        metaopt.BasinHopping(lambda X: (X ** 2).sum(axis=1), [(-1, 1)] * 2, backend="cpu", constraints=[1, 2])


CIRCLE_SOURCE = """
FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)
{ return x[0] + x[stride]; }
void constraints(__global const FP *x, uint dims, uint stride, __global const void *data, FP *c)
{ c[0] = x[0] * x[0] + x[stride] * x[stride] - (FP)2; }
"""


def test_the_gradient_repair_holds_a_thin_equality():
    # min x0 + x1 on the circle x0^2 + x1^2 = 2 within 1e-8: (-1, -1), f = -2; a picked
    # infeasible trial is moved onto the circle by Newton steps
    src = metaopt.Source(CIRCLE_SOURCE)
    for device in (None, "cpu"):
        r = metaopt.minimize(src, [(-2, 2)] * 2, constraints={"equalities": 1}, eq_tol=1e-8, seed=4,
                             maxiter=400, tol=0, device=device, epsilon=(0.2, 100, 5), repair=(0.2, 3))
        assert r.constr_violation == 0 and r.fun == pytest.approx(-2.0, abs=1e-6), r
        assert abs(r.x[0] ** 2 + r.x[1] ** 2 - 2) <= 1e-8


def test_repair_refusals():
    src = metaopt.Source(CIRCLE_SOURCE)
    with pytest.raises(ValueError, match="repair"):
        metaopt.minimize(lambda x: float(x @ x), [(-2, 2)] * 2, maxiter=5, device="cpu",
                         constraints={"type": "eq", "fun": lambda x: x[0]}, repair=True)
    with pytest.raises(ValueError, match="options of constraints"):
        metaopt.minimize(src, [(-2, 2)] * 2, maxiter=5, repair=True)
    de = metaopt.IslandDE(1, 8, 2, [(-2, 2)] * 2, backend="cpu", double=True)
    for bad in (0, -0.5, (0.5, 1, 2)):
        with pytest.raises(ValueError, match="repair"):
            de.set_constraints(equalities=1, repair=bad)
    with pytest.raises(metaopt.MetaoptError, match="repair"):
        de.set_constraints(equalities=1, repair=1.5)


def test_polish_with_constraints_is_scipys_trust_constr():
    # the example: min x.x subject to x0 + x1 >= 1; scipy polishes to 0.5000
    pytest.importorskip("scipy")
    f = lambda x: float(x @ x)  # noqa: E731
    cons = {"type": "ineq", "fun": lambda x: x[0] + x[1] - 1}
    raw = metaopt.minimize(f, [(-2, 2)] * 2, constraints=cons, seed=1, maxiter=200, device="cpu", polish=False)
    r = metaopt.minimize(f, [(-2, 2)] * 2, constraints=cons, seed=1, maxiter=200, device="cpu")
    assert not raw.polished and r.polished and r.constr_violation == 0, r
    assert r.fun <= raw.fun and r.fun == pytest.approx(0.5, abs=1e-6), (r.fun, raw.fun)
    assert r.x[0] + r.x[1] >= 1 and r.nfev > raw.nfev
    # an infeasible polished point is not taken: x0 >= 10 cannot hold in [-1, 1]
    from scipy.optimize import LinearConstraint

    bad = metaopt.minimize(f, [(-1, 1)] * 2, constraints=LinearConstraint([[1, 0]], 10, np.inf), seed=1,
                           maxiter=30, device="cpu", polish=True)
    assert bad.polished and bad.constr_violation == pytest.approx(9.0, abs=1e-6) and bad.x[0] == pytest.approx(1.0)
