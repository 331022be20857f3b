"""metaopt.cec2006: the CEC 2006 constrained problems by name (sizes, boxes, best known values and
points), evaluated on the host and the device, and in scipy's forms for differential_evolution
and metaopt.minimize."""

import numpy as np
import pytest

import metaopt
from metaopt import ErrorCode, MetaoptError, cec2006

# The report's table: variables, inequalities, equalities and the best known f(x*) (G02, G03 and
# G08 negated, as the report's table gives them).
REPORT = {
    "G01": (13, 9, 0, -15.0000000000),
    "G02": (20, 2, 0, -0.8036191042),
    "G03": (10, 0, 1, -1.0005001000),
    "G04": (5, 6, 0, -30665.5386717834),
    "G05": (4, 2, 3, 5126.4967140071),
    "G06": (2, 2, 0, -6961.8138755802),
    "G07": (10, 8, 0, 24.3062090681),
    "G08": (2, 2, 0, -0.0958250415),
    "G09": (7, 4, 0, 680.6300573745),
    "G10": (8, 6, 0, 7049.2480205286),
    "G11": (2, 0, 1, 0.7499000000),
    "G12": (3, 1, 0, -1.0000000000),
    "G13": (5, 0, 3, 0.0539415140),
    "G14": (10, 0, 3, -47.7648884595),
    "G15": (3, 0, 2, 961.7150222899),
    "G16": (5, 38, 0, -1.9051552586),
    "G17": (6, 0, 4, 8853.5396748064),
    "G18": (9, 13, 0, -0.8660254038),
    "G19": (15, 5, 0, 32.6555929502),
    "G20": (24, 6, 14, 0.2049794002),
    "G21": (7, 1, 5, 193.7245100700),
    "G22": (22, 1, 19, 236.4309755040),
    "G23": (9, 2, 4, -400.0551000000),
    "G24": (2, 2, 0, -5.5080132716),
}


def test_info_gives_the_reports_sizes_and_best_known_values():
    assert cec2006.NAMES == tuple(REPORT)
    for name, (dims, ng, nh, best) in REPORT.items():
        p = cec2006.info(name)
        assert (p.name, p.id, p.dims, p.ng, p.nh) == (name, int(name[1:]), dims, ng, nh)
        assert p.best == best
        assert p.best_feasible == (name != "G20")
        assert p.maximisation == (name in ("G02", "G03", "G08"))
        assert p.equality_tolerance == 1e-4
        assert len(p.bounds) == dims and all(lo < hi for lo, hi in p.bounds)
        assert p.best_x.shape == (dims,) and p.best_x.dtype == np.float64
        # the best known point lies in the box
        assert all(lo <= x <= hi for (lo, hi), x in zip(p.bounds, p.best_x))
    # other spellings of a name
    assert cec2006.info("g7").name == "G07"
    assert cec2006.info(" 24 ").name == "G24"
    assert cec2006.info("G06").bounds == ((13.0, 100.0), (0.0, 100.0))


def test_the_best_points_give_the_best_known_values():
    for name in cec2006.NAMES:
        p = cec2006.info(name)
        f, c, v = cec2006.evaluate(name, p.best_x, violation=True)
        assert isinstance(f, float) and c.shape == (p.ng + p.nh,)
        if name == "G17":
            # the report's value is that of its code, 6.4e-7 relative above its formula at x*
            assert f == pytest.approx(8853.5340164, rel=1e-9)
        else:
            assert f == pytest.approx(p.best, rel=1e-9, abs=1e-10), name
        if name == "G20":
            # the report's point violates its constraints
            assert v > 1e-3
        else:
            # the printed digits of x* leave at most a rounding error beyond a tolerance
            assert v <= 1e-4, (name, v)


def test_host_and_device_agree_at_the_best_points():
    for name in cec2006.NAMES:
        p = cec2006.info(name)
        X = np.vstack([p.best_x, np.array([(lo + hi) / 2 for lo, hi in p.bounds])])
        fh, ch, vh = cec2006.evaluate(name, X, cpu=True, violation=True)
        fd, cd, vd = cec2006.evaluate(name, X, cpu=False, violation=True)
        assert fh.shape == (2,) and ch.shape == (2, p.ng + p.nh) and vh.shape == (2,)
        # double on both sides: only the device's math library may differ
        scale = np.maximum(1.0, np.abs(fh))
        assert np.all(np.abs(fh - fd) <= 1e-9 * scale), (name, fh, fd)
        assert np.all(np.abs(ch - cd) <= 1e-9 * np.maximum(1.0, np.abs(ch))), name
        assert np.all(np.abs(vh[0] - vd[0]) <= 1e-9 * max(1.0, vh[0])), (name, vh, vd)


def test_rows_are_evaluated_as_single_points():
    rng = np.random.default_rng(6)
    for name in ("G01", "G05", "G16", "G22"):
        p = cec2006.info(name)
        lo, hi = np.array(p.bounds).T
        X = lo + (hi - lo) * rng.random((17, p.dims))
        f, c = cec2006.evaluate(name, X)
        for i in range(17):
            fi, ci = cec2006.evaluate(name, X[i])
            assert fi == f[i] and np.array_equal(ci, c[i])
    # the violation is the report's mean: G06 at its lower corner violates g1 only
    f, c, v = cec2006.evaluate("G06", [13.0, 0.0], violation=True)
    assert c[0] > 0 and c[1] <= 0 and v == pytest.approx(c[0] / 2)


def test_scipy_forms_hold_the_constraints():
    from scipy.optimize import NonlinearConstraint

    fun, bounds, cons = cec2006.problem("G05")
    p = cec2006.info("G05")
    assert bounds == list(p.bounds)
    assert [type(k) for k in cons] == [NonlinearConstraint, NonlinearConstraint]
    g, h = cons
    assert (g.lb, g.ub) == (-np.inf, 0.0) and (h.lb, h.ub) == (-1e-4, 1e-4)
    f, c = cec2006.evaluate("G05", p.best_x)
    assert fun(p.best_x) == f
    assert np.array_equal(g.fun(p.best_x), c[:2]) and np.array_equal(h.fun(p.best_x), c[2:])
    # the objective and both constraints at one point: one evaluation
    assert fun.evaluator.points == 1
    # a problem without equalities has no equality constraint, and without inequalities none
    assert len(cec2006.problem("G06")[2]) == 1 and cec2006.problem("G06")[2][0].ub == 0.0
    assert len(cec2006.problem("G11")[2]) == 1 and cec2006.problem("G11")[2][0].lb == -1e-4


def test_scipy_and_minimize_run_a_problem():
    from scipy.optimize import differential_evolution

    best = cec2006.info("G08").best
    fun, bounds, cons = cec2006.problem("G08")
    r = differential_evolution(fun, bounds, constraints=cons, seed=3, maxiter=200, polish=False)
    f, c, v = cec2006.evaluate("G08", r.x, violation=True)
    assert v == 0.0 and f - best <= 1e-4, (f, c)
    assert fun.evaluator.points > 0
    fun, bounds, cons = cec2006.problem("G08")
    r = metaopt.minimize(fun, bounds, constraints=cons, seed=3, maxiter=300, device="cpu", tol=0)
    f, c, v = cec2006.evaluate("G08", r.x, violation=True)
    assert v == 0.0 and f - best <= 1e-4, (f, c, r)


def test_refusals_name_the_argument():
    for bad in ("", "G0", "G25", "G-1", "H01", "G01x", "1e1"):
        with pytest.raises(MetaoptError) as e:
            cec2006.info(bad)
        assert e.value.code == ErrorCode.INVALID_ARGUMENT and "problem" in e.value.message
        with pytest.raises(MetaoptError):
            cec2006.evaluate(bad, np.zeros(2))
    with pytest.raises(TypeError, match="name"):
        cec2006.info(6)
    with pytest.raises(ValueError, match="name"):
        cec2006.info("G0\x006")
    with pytest.raises(MetaoptError) as e:
        cec2006.evaluate("G06", np.zeros((2, 3)))
    assert e.value.code == ErrorCode.INVALID_ARGUMENT and "dims" in e.value.message
    with pytest.raises(ValueError, match="X"):
        cec2006.evaluate("G06", [[14.0, np.nan]])
    with pytest.raises(ValueError, match="X"):
        cec2006.evaluate("G06", [14.0, np.inf])
    with pytest.raises(ValueError, match="X"):
        cec2006.evaluate("G06", np.zeros((0, 2)))
    with pytest.raises(ValueError, match="X"):
        cec2006.evaluate("G06", np.zeros((1, 2, 2)))
    with pytest.raises(TypeError, match="X"):
        cec2006.evaluate("G06", [["a", "b"]])
    with pytest.raises(TypeError, match="cpu"):
        cec2006.evaluate("G06", [14.0, 1.0], cpu="yes")
    with pytest.raises(MetaoptError) as e:
        cec2006.evaluate("G06", [14.0, 1.0], cpu=False, device=-2)
    assert "device" in e.value.message
    with pytest.raises(MetaoptError):
        cec2006.problem("G99")
