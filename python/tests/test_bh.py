"""Basin hopping from Python (``metaopt.BasinHopping``, ``metaopt.bh.solve``): the device
against the CPU backend, a Python objective, states that continue a solve exactly (in memory,
pickled, from a checkpoint file), the stops, and errors naming the argument."""

import pickle
import threading
import time

import numpy as np
import pytest

import metaopt
from metaopt import BasinHopping

BOX = [(-5.12, 5.12)] * 3
X0 = [3.1, -2.4, 4.9]
SMALL = dict(chains=64, max_search=200, seed=7, launch_steps=50)


def test_the_device_takes_the_cpu_backends_steps_in_double():
    out = []
    for backend in ("device", "cpu"):
        with BasinHopping("F6", BOX, backend=backend, precision="double", **SMALL) as bh:
            assert bh.precision == "double"
            out.append(bh.solve(steps=200, x0=X0))
    assert out[0] == out[1]
    assert out[0].steps == 200 and out[0].evaluations == 1 + 200 * 64 and out[0].stop == "budget"


def test_a_python_objective_is_minimised_and_its_exception_reraised():
    calls = []

    def sphere(X):
        calls.append(len(X))
        return (X**2).sum(axis=1)

    r = metaopt.bh.solve(sphere, [(-5, 5)] * 2, x0=[1, 1], steps=1000, chains=16, backend="cpu", max_search=100)
    assert r.value < 1e-9 and r.success and sum(calls) == r.evaluations
    np.testing.assert_allclose(r.x, 0, atol=1e-4)

    def broken(X):
        raise ZeroDivisionError("inside the objective")

    with BasinHopping(broken, [(-5, 5)] * 2, chains=4, backend="cpu") as bh:
        with pytest.raises(ZeroDivisionError, match="inside the objective"):
            bh.start([1, 1])


def test_a_state_continues_the_solve_exactly(tmp_path):
    with BasinHopping("F8", BOX, backend="cpu", **SMALL) as bh:
        whole = bh.solve(steps=400, x0=X0)
    with BasinHopping("F8", BOX, backend="cpu", **SMALL) as bh:
        first = bh.solve(steps=170, x0=X0, checkpoint=tmp_path / "bh.ckpt")
        st = bh.state()
    assert first.steps == 170
    assert st.info()["solver"] == "basin_hopping"
    # from the State, its pickle and the checkpoint file
    for saved in (st, pickle.loads(pickle.dumps(st)), tmp_path / "bh.ckpt"):
        with BasinHopping.from_state("F8", BOX, saved, backend="cpu", **SMALL) as bh:
            assert bh.solve(steps=400) == whole
    with BasinHopping("F8", BOX, backend="cpu", **SMALL) as bh:
        assert bh.solve(steps=400, resume=st) == whole
    # other options are refused, naming what differs
    with BasinHopping("F8", BOX, backend="cpu", **dict(SMALL, seed=8)) as bh:
        with pytest.raises(metaopt.MetaoptError, match="seed"):
            bh.load_state(st)


def test_a_time_limit_and_a_stop_token_end_an_unbounded_solve():
    t0 = time.perf_counter()
    r = metaopt.bh.solve("F8", [(-600, 600)] * 10, time_limit=0.5, chains=1024, backend="cpu")
    took = time.perf_counter() - t0
    assert r.stop == "time_limit" and np.isfinite(r.value)
    assert took < 0.5 + 1.0, f"a 0.5 s limit, set-up included, took {took:.2f} s"

    token = metaopt.StopToken()
    with BasinHopping("F8", [(-600, 600)] * 10, chains=1024, backend="cpu") as bh:
        t = threading.Timer(0.3, token.request)
        t.start()
        t0 = time.perf_counter()
        r = bh.solve(time_limit=60, x0=[100] * 10, stop_token=token)
        took = time.perf_counter() - t0
        t.join()
    assert r.stop == "interrupted" and not r.success and np.isfinite(r.value)
    assert took < 0.3 + 1.0, f"a request at 0.3 s ended the solve at {took:.2f} s"


def test_the_start_at_x0_counts_in_the_time_limit():
    # the objective's first call (x0's evaluation, made by the start) takes 1 s: a 1.5 s limit
    # then leaves about 0.5 s to the steps, not 1.5 s
    first = [True]

    def slow_start(X):
        if first[0]:
            first[0] = False
            time.sleep(1.0)
        return (X**2).sum(axis=1)

    with BasinHopping(slow_start, [(-5, 5)] * 2, chains=16, backend="cpu") as bh:
        t0 = time.perf_counter()
        r = bh.solve(time_limit=1.5, x0=[1, 1])
        took = time.perf_counter() - t0
    assert not first[0] and r.stop == "time_limit"
    assert 1.0 <= took < 1.5 + 0.5, f"a 1.5 s limit with a 1 s start took {took:.2f} s"
    assert r.seconds < 1.0, f"the solve itself ran {r.seconds:.2f} s of a 1.5 s limit after a 1 s start"


def test_errors_name_the_argument():
    with pytest.raises(ValueError, match="bounds"):
        BasinHopping("F1", [(1, 0)])
    with pytest.raises(metaopt.MetaoptError, match="options.chains"):
        BasinHopping("F1", BOX, chains=0, backend="cpu")
    with pytest.raises(metaopt.MetaoptError, match="options.precision"):
        BasinHopping("F1", BOX, precision="single", backend="cpu")
    with pytest.raises(metaopt.MetaoptError, match="data"):
        BasinHopping("F1", BOX, data=b"12345678", backend="cpu")
    with pytest.raises(metaopt.MetaoptError, match="objective"):
        BasinHopping(lambda X: X.sum(axis=1), BOX, backend="device")
    with BasinHopping("F1", BOX, backend="cpu", chains=4) as bh:
        with pytest.raises(ValueError, match="x0"):
            bh.solve(steps=5)
        with pytest.raises(ValueError, match="no stop condition"):
            bh.solve(x0=X0)
        with pytest.raises(metaopt.MetaoptError, match="outside"):
            bh.start([9, 0, 0])
        with pytest.raises(ValueError, match="x0"):
            bh.start([1, 2])
        with pytest.raises(metaopt.MetaoptError, match="state"):
            bh.load_state(b"not a state")


def test_polish_finishes_a_point_on_the_cpu_and_the_device_and_names_its_bad_arguments():
    x0 = [0.01, 0.02, -0.03]
    c = metaopt.bh.polish("F1", [(-5, 5)] * 3, x0, backend="cpu")
    d = metaopt.bh.polish("F1", [(-5, 5)] * 3, x0)
    for r in (c, d):
        assert r.improved and r.value < 1e-20 and r.stop == "budget"
        assert r.start_value == pytest.approx(sum(v * v for v in x0), rel=1e-12)
        assert r.evaluations == 1 + 8 * (1000 + 600 + 2)
    # additions and products only: the device takes the CPU twin's steps
    assert c.value == d.value and np.array_equal(c.x, d.x)
    # a Python objective with a violation callable: Deb's rules, never worse
    f = lambda X: (X**2).sum(axis=1)  # noqa: E731
    v = lambda X: np.maximum(1.0 - X[:, 0], 0.0)  # x0 >= 1  # noqa: E731
    r = metaopt.bh.polish(f, [(-5, 5)] * 2, [1.2, 0.3], backend="cpu", constraints=v, steps=800)
    assert r.improved and r.violation == 0 and r.x[0] >= 1 and r.value < min(r.start_value, 1.01)
    # a stop token already requested: the point back, interrupted
    tok = metaopt.StopToken()
    tok.request()
    r = metaopt.bh.polish("F1", [(-5, 5)] * 3, x0, backend="cpu", stop_token=tok)
    assert r.stop == "interrupted" and not r.improved and np.array_equal(r.x, x0)
    for kw, name in [(dict(x=[9, 0, 0]), "x"), (dict(steps=0), "steps"), (dict(chains=0), "chains")]:
        args = dict(x=x0, backend="cpu")
        args.update(kw)
        with pytest.raises(metaopt.MetaoptError, match=name):
            metaopt.bh.polish("F1", [(-5, 5)] * 3, **args)
    with pytest.raises(ValueError, match="time_limit"):
        metaopt.bh.polish("F1", [(-5, 5)] * 3, x0, backend="cpu", time_limit=0)
