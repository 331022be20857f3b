"""Batched DE from Python: sphere converges, the CPU backend follows the device in double,
heterogeneous dims and per-problem settings, a run that goes on, time limits and stop tokens,
and errors naming the argument."""

import time

import numpy as np
import pytest

import metaopt
from metaopt import BatchDE, MetaoptError


def sphere(x):
    return float(np.sum(np.asarray(x) ** 2))


def test_sphere_d10_reaches_1e_10():
    with BatchDE("F1", 10, -5.12, 5.12, members=40, generations=3000, target=1e-10, seed=[3, 4], cpu=True) as b:
        r = b.run()
    assert r.best_values.shape == (2,) and r.best_values.dtype == np.float64
    assert np.all(r.best_values < 1e-10)
    assert r.stop == ["target", "target"]
    assert np.all(r.generations < 3000) and r.generations.dtype == np.uint64
    for v, x in zip(r.best_values, r.best):
        assert x.shape == (10,) and abs(sphere(x) - v) <= 1e-15
        assert np.all(np.abs(x) <= 5.12)
    assert r.precision == "double"


def test_cpu_equals_device_in_double_on_a_mixed_batch():
    kw = dict(function=["F1", "F6", "F8", "CEC07t"], dims=[3, 5, 4, 10], lower=[-5.12, -5.12, [-600, -500, -400, -300], -100],
              upper=[5.12, 5.12, 600, 100], members=[12, 20, 16, 24], f=[0.5, 0.7, 0.4, 0.6], cr=np.array([0.9, 0.2, 0.5, 1.0]),
              mutation=["DE/rand/1", "DE/best/2", "DE/current-to-best/1", "DE/rand/2"], bounds=["sat", "mir", "tor", "uni"],
              seed=100, generations=[30, 25, 20, 15], precision="double", generations_per_launch=7)
    cpu = metaopt.batch_de.run(cpu=True, **kw)
    dev = metaopt.batch_de.run(**kw)
    assert list(cpu.generations) == [30, 25, 20, 15] and cpu.stop == ["budget"] * 4
    assert [x.size for x in cpu.best] == [3, 5, 4, 10]
    for i in range(4):
        c, d = cpu.best_values[i], dev.best_values[i]
        assert abs(c - d) <= 1e-12 * max(abs(c), abs(d), 1e-300), (i, c, d)
        np.testing.assert_allclose(cpu.best[i], dev.best[i], rtol=1e-12, atol=0)
    # per-dimension bounds hold
    assert np.all(cpu.best[2] >= [-600, -500, -400, -300]) and np.all(cpu.best[2] <= 600)
    # a scalar seed S gives problem i the seed S + i: the same as the explicit list
    again = metaopt.batch_de.run(cpu=True, **{**kw, "seed": [100, 101, 102, 103]})
    assert np.array_equal(again.best_values, cpu.best_values)


def test_jde100_problems_beside_a_fixed_de_one_cpu_equals_device():
    # jDE100 per problem by method="jde100" (members = big + jde_small), the CPU
    # backend following the device in double, and the island DE's jDE100 run with one island
    kw = dict(function=["F6", "F1", "F8"], dims=[5, 4, 3], lower=[-5.12, -5.12, -600], upper=[5.12, 5.12, 600],
              members=[30, 20, 24], method=["jde100", "de", "jde100"], jde_small=[10, 25, 6], seed=7,
              generations=[40, 30, 40], precision="double", generations_per_launch=8)
    cpu = metaopt.batch_de.run(cpu=True, **kw)
    dev = metaopt.batch_de.run(**kw)
    assert list(cpu.generations) == [40, 30, 40]
    for i in range(3):
        c, d = cpu.best_values[i], dev.best_values[i]
        assert abs(c - d) <= 1e-9 * max(abs(c), abs(d), 1e-300), (i, c, d)
    # the best ever of a jDE100 problem is the value of its vector
    assert abs(float(metaopt.evaluate("F6", cpu.best[0][None, :])[0]) - cpu.best_values[0]) <= 1e-9 * max(1.0, cpu.best_values[0])


def test_adaptive_problems_beside_a_fixed_de_one_cpu_equals_device():
    # JADE, SHADE, L-SHADE and jSO per problem by method=, on the device (ade_gen of
    # cl/de_batch.cl) as on the CPU twin in double, and each reaches sphere's target
    kw = dict(function=["F6", "F1", "F5", "F6", "F1"], dims=[5, 4, 3, 4, 5], lower=-2.048, upper=2.048,
              members=[20, 12, 16, 24, 10], method=["jade", "de", "shade", "lshade", "jso"], seed=3,
              generations=40, precision="double", generations_per_launch=8)
    cpu = metaopt.batch_de.run(cpu=True, **kw)
    dev = metaopt.batch_de.run(**kw)
    for i in range(5):
        c, d = cpu.best_values[i], dev.best_values[i]
        assert abs(c - d) <= 1e-9 * max(abs(c), abs(d), 1e-300), (i, c, d)
        assert cpu.generations[i] == dev.generations[i]
    r = metaopt.batch_de.run("F1", 10, -5.12, 5.12, members=50, generations=3000, target=1e-8,
                             method=["jade", "shade", "lshade", "jso"], cpu=True)
    assert r.stop == ["target"] * 4 and np.all(r.best_values <= 1e-8)


def test_a_problem_does_not_depend_on_its_batch_and_runs_go_on():
    one = metaopt.batch_de.run("F6", 4, -5.12, 5.12, members=16, generations=40, seed=9, cpu=True)
    with BatchDE(["F1", "F6"], 4, -5.12, 5.12, members=16, generations=40, seed=[1, 9], cpu=True,
                 generations_per_launch=5) as b:
        assert b.results().stop == ["running", "running"]
        assert np.all(np.isnan(b.results().best[0]))
        r = b.run()
        assert r.best_values[1] == one.best_values[0]
        assert np.array_equal(b.best(1), one.best[0])
        assert b.run().best_values.tolist() == r.best_values.tolist()


def test_time_limit_and_stop_token():
    with BatchDE("F1", 5, -5, 5, members=20, generations=10**9, cpu=True) as b:
        r = b.run(time_limit=0.3)
        assert r.stop == ["time_limit"] and 0 < r.generations[0] < 10**9
        with metaopt.StopToken() as t:
            t.request()
            r2 = b.run(stop_token=t)
        assert r2.stop == ["interrupted"] and r2.generations[0] == r.generations[0]


def test_source_objective_with_data():
    src = metaopt.Source("FP objective(__global const FP *x, uint dims, uint stride, __global const void *data) {"
                         " __global const double *c = (__global const double *)data; FP s = 0;"
                         " for (uint j = 0; j < dims; j++) { FP d = x[j * stride] - (FP)c[j]; s += d * d; } return s; }")
    centres = [np.array([1.0, -2.0, 0.5]), np.array([-3.0, 0.0, 2.0])]
    r = metaopt.batch_de.run(src, 3, -5, 5, members=20, generations=300, data=centres, precision="double", cpu=True)
    for c, x in zip(centres, r.best):
        np.testing.assert_allclose(x, c, atol=1e-4)


@pytest.mark.parametrize(
    "kw, exc, needle",
    [
        (dict(function=5), TypeError, "function"),
        (dict(function=["F1", "F1", "F1"], dims=[2, 3]), ValueError, "dims"),
        (dict(lower=float("nan")), ValueError, "NaN"),
        (dict(lower=[[-1, -1, -1]], upper=1), ValueError, "lower"),
        (dict(f=float("nan")), ValueError, "f"),
        (dict(cr="x"), TypeError, "cr"),
        (dict(members=-1), ValueError, "members"),
        (dict(mutation=3), TypeError, "mutation"),
        (dict(placement="far"), ValueError, "placement"),
        (dict(precision="half"), ValueError, "precision"),
        (dict(generations_per_launch=0), ValueError, "generations_per_launch"),
        (dict(data=b"xx"), ValueError, "data"),
        (dict(method="jdee"), ValueError, "method"),
        (dict(method=["de", "best"]), ValueError, "method"),
        (dict(jde_small=-1), ValueError, "jde_small"),
    ],
)
def test_python_side_errors_name_the_argument(kw, exc, needle):
    args = dict(function="F1", dims=2, lower=-1, upper=1, cpu=True)
    args.update(kw)
    with pytest.raises(exc, match=needle):
        BatchDE(**args)


@pytest.mark.parametrize(
    "kw, needle",
    [
        (dict(function="nope"), "nope"),
        (dict(mutation="DE/worst/1"), "mutation"),
        (dict(bounds="bounce"), "bounds"),
        (dict(cr=1.5), "cr"),
        (dict(members=2), "members"),
        (dict(lower=2, upper=1), "bounds"),
        (dict(members=[10, 2]), "problem 1"),
        (dict(method="jde100", members=20, jde_small=3), "jde_small"),
        (dict(method=["de", "jde100"], members=20, jde_small=[25, 18]), "problem 1"),
    ],
)
def test_library_errors_name_the_argument_and_the_problem(kw, needle):
    args = dict(function="F1", dims=2, lower=-1, upper=1, cpu=True)
    args.update(kw)
    with pytest.raises(MetaoptError, match=needle) as e:
        BatchDE(**args)
    assert e.value.code == metaopt.ErrorCode.INVALID_ARGUMENT


def test_the_one_call_run_counts_the_set_up_in_its_time_limit(monkeypatch):
    # a set-up that takes longer than the limit leaves the run a spent limit: it ends at once
    made = metaopt.batch_de.BatchDE.__init__

    def slow(self, *a, **k):
        made(self, *a, **k)
        time.sleep(1.0)

    monkeypatch.setattr(metaopt.batch_de.BatchDE, "__init__", slow)
    t = time.perf_counter()
    r = metaopt.batch_de.run("F1", 5, -5, 5, generations=10**9, time_limit=0.8)
    # (a run given the whole limit after the set-up would end after 1.8 s)
    assert time.perf_counter() - t < 1.0 + 0.5
    assert list(r.stop) == ["time_limit"]
