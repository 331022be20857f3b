"""Batched DE with constraints and integer variables: a linearly constrained source beside an
unconstrained sphere reaches its optimum feasibly, the CPU backend follows the device in double,
integer variables give the integral optimum, results report the violation, bad input raises."""

import numpy as np
import pytest

import metaopt
from metaopt import MetaoptError, Source

# min x0^2 + x1^2 + x2^2 subject to x0 + x1 + x2 >= 3 and x0 - x1 = 0.5: x = (1.25, 0.75, 1), f = 3.125
LINEAR = Source("""
FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)
{
    FP a = x[0], b = x[stride], c = x[2 * stride];
    return a * a + b * b + c * c;
}
void constraints(__global const FP *x, uint dims, uint stride, __global const void *data, FP *g)
{
    g[0] = (FP)3 - x[0] - x[stride] - x[2 * stride];
    g[1] = x[0] - x[stride] - (FP)0.5;
}
""")

# sum (x_j - 2.4)^2: over the integers its minimum is at x_j = 2
SHIFTED = Source("""
FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)
{
    FP s = (FP)0;
    for (uint j = 0; j < dims; ++j) {
        FP d = x[j * stride] - (FP)2.4;
        s += d * d;
    }
    return s;
}
""")

CONS = {"inequalities": 1, "equalities": 1, "eq_tol": 1e-6}


def mixed(**extra):
    return dict(function=["F1", LINEAR], dims=[4, 3], lower=[-5.12, -5.0], upper=[5.12, 5.0], members=[30, 40],
                constraints=[None, CONS], seed=[3, 14], precision="double", **extra)


def test_a_constrained_source_beside_a_sphere_reaches_its_optimum():
    for cpu in (False, True):
        r = metaopt.batch_de.run(generations=[300, 1500], cpu=cpu, **mixed())
        assert r.violation.dtype == np.float64 and r.violation.shape == (2,)
        assert list(r.violation) == [0.0, 0.0]
        assert r.best_values[0] < 1e-8
        assert abs(r.best_values[1] - 3.125) < 1e-4, r.best_values
        x = r.best[1]
        assert abs(x[0] - x[1] - 0.5) <= 1e-6 and x.sum() >= 3.0 - 1e-12


def test_cpu_follows_the_device_and_infeasible_results_report_their_violation():
    # [-100, -90]^3 holds no point with x0 + x1 + x2 >= 3: the best has the least violation
    kw = mixed(generations=[20, 20], generations_per_launch=6)
    kw["lower"], kw["upper"] = [-5.12, -100.0], [5.12, -90.0]
    cpu = metaopt.batch_de.run(cpu=True, **kw)
    dev = metaopt.batch_de.run(**kw)
    assert cpu.violation[0] == 0.0 and cpu.violation[1] > 250.0
    assert cpu.stop == dev.stop == ["budget", "budget"]
    np.testing.assert_allclose(dev.violation, cpu.violation, rtol=1e-9)
    np.testing.assert_allclose(dev.best_values, cpu.best_values, rtol=1e-9)
    for a, b in zip(cpu.best, dev.best):
        np.testing.assert_allclose(a, b, rtol=1e-9)
    # the violation is the sum of what the constraints violate at the best point
    x = cpu.best[1]
    want = max(3 - x.sum(), 0) + abs(x[0] - x[1] - 0.5)
    assert abs(cpu.violation[1] - want) <= 1e-9 * want


def test_integer_variables_give_the_integral_optimum():
    for cpu in (False, True):
        r = metaopt.batch_de.run(function=[SHIFTED, SHIFTED, "F1"], dims=[5, 5, 3], lower=-5.3, upper=5.7,
                                 integrality=[[True] * 5, [True] * 5, [False, True, False]], method=["de", "jade", "de"],
                                 members=30, generations=[150, 150, 300], seed=40, precision="double", cpu=cpu)
        for i in range(2):
            assert list(r.best[i]) == [2.0] * 5, r.best[i]
            assert abs(r.best_values[i] - 0.8) < 1e-12
        assert r.best[2][1] == 0.0 and r.best_values[2] < 1e-8
        assert list(r.violation) == [0.0, 0.0, 0.0]
    # one flag sequence for every problem of those dims
    r = metaopt.batch_de.run(function=SHIFTED, dims=2, lower=-3, upper=3, integrality=[True, False], problems=2,
                             generations=100, precision="double")
    for x in r.best:
        assert x[0] == 2.0 and abs(x[1] - 2.4) < 1e-6


def test_bad_integrality_and_constraints_raise_naming_them():
    base = dict(function=LINEAR, dims=3, lower=-5, upper=5, generations=1)
    with pytest.raises(ValueError, match="integrality"):
        metaopt.batch_de.BatchDE(integrality=[True, False], **base)
    with pytest.raises(ValueError, match="integrality"):
        metaopt.batch_de.BatchDE(integrality=[1, 2, 0], **base)
    with pytest.raises(ValueError, match="integrality"):
        metaopt.batch_de.BatchDE(integrality=[[True] * 3, [True] * 3], problems=3, **base)
    with pytest.raises(ValueError, match="inequalities"):
        metaopt.batch_de.BatchDE(constraints={"inequalities": -1, "equalities": 1}, **base)
    with pytest.raises(TypeError, match="constraints"):
        metaopt.batch_de.BatchDE(constraints={"inequality": 1}, **base)
    with pytest.raises(ValueError, match="eq_tol"):
        metaopt.batch_de.BatchDE(constraints={"inequalities": 1, "eq_tol": float("nan")}, **base)
    # the library's refusals name the argument
    with pytest.raises(MetaoptError, match="constraints"):
        metaopt.batch_de.BatchDE(constraints={"inequalities": 300}, **base)
    with pytest.raises(MetaoptError, match="constraints"):
        metaopt.batch_de.BatchDE(constraints={"inequalities": 0, "equalities": 0}, **base)
    with pytest.raises(MetaoptError, match="constraints.*F1"):
        metaopt.batch_de.BatchDE(function="F1", dims=3, lower=-1, upper=1, constraints={"inequalities": 1})
    with pytest.raises(MetaoptError, match="constraints"):
        metaopt.batch_de.BatchDE(constraints=CONS, method="jade", **base)
    with pytest.raises(MetaoptError, match="integrality"):
        metaopt.batch_de.BatchDE(function="F1", dims=2, lower=0.2, upper=0.8, integrality=[True, True])
