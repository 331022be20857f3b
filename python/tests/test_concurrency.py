"""One instance, several callers: a Python objective that calls its own instance (``free``,
``init``, ``run``, ...) gets ``MetaoptError`` code ``BUSY`` and the running call goes on or ends
with it, never a crash; threads sharing an instance are serialised (a call waits for the
running one), for every class."""

import threading
import time

import numpy as np
import pytest

import metaopt
from conftest import DATA, satlib
from metaopt import HC12, HC12QAP, SAT, ErrorCode, IslandDE, MetaoptError


def sphere(X):
    return (X**2).sum(axis=1)


def assert_busy(excinfo, name, method, running):
    """The BUSY error of a call re-entered from the objective, re-raised by the running call
    (chained to the library's CALLBACK error)."""
    e = excinfo.value
    assert isinstance(e, MetaoptError) and e.code == ErrorCode.BUSY, e
    assert e.function == f"{name}.{method}" and f"{name}.{running}()" in e.message, e
    assert isinstance(e.__cause__, MetaoptError) and e.__cause__.code == ErrorCode.CALLBACK


DE_CALLS = {
    "free": lambda de: de.free(),
    "init": lambda de: de.init("F1"),
    "iteration": lambda de: de.iteration(),
    "run": lambda de: de.run(generations=1),
    "bests_fitness": lambda de: de.bests_fitness(),
    "x": lambda de: de.x(0, 0),
    "info": lambda de: de.info(),
    "func_data": lambda de: de.func_data(b""),
}


@pytest.mark.parametrize("backend", ["device", "cpu"])
@pytest.mark.parametrize("method", sorted(DE_CALLS))
def test_island_de_objective_calling_its_own_instance_is_refused(backend, method):
    de = IslandDE(2, 8, 3, (-5, 5), "sat", double=True, backend=backend)
    calls = []

    def f(X):
        calls.append(len(X))
        if len(calls) == 3:
            DE_CALLS[method](de)
        return sphere(X)

    de.init(f)
    assert de.iteration() == 1
    with pytest.raises(MetaoptError) as e:
        de.run(generations=5)  # the objective's third call (the run's first) uses the instance
    assert_busy(e, "IslandDE", method, "run")
    # nothing happened to the instance: not freed, the same objective, still running it
    assert not de.freed and de.objective is f and de.info().rstrip().endswith(".f`")
    assert de.iteration() == 2 and len(calls) == 4  # the failed generation did not count
    r = de.run(generations=3)
    assert (r.generations, r.evaluations) == (5, 16 * 6) and len(calls) == 7
    assert de.bests_fitness().shape == (2,)
    de.free()
    assert de.freed


def test_island_de_refuses_it_inside_init_too_and_an_objective_may_go_on():
    de = IslandDE(2, 8, 3, (-5, 5), "sat", double=True, backend="cpu")

    def frees_at_init(X):
        de.free()
        return sphere(X)

    with pytest.raises(MetaoptError) as e:
        de.init(frees_at_init)  # init evaluates the first populations
    assert_busy(e, "IslandDE", "free", "init")
    assert not de.freed
    refused = []

    def catches(X):
        try:
            de.init("F1")
        except MetaoptError as err:
            refused.append(err.code)
        return sphere(X)

    de.init(catches)
    r = de.run(generations=4)
    assert r.generations == 4 and refused == [ErrorCode.BUSY] * 5
    assert de.info().rstrip().endswith(".catches`")
    de.free()


HC12_CALLS = {
    "free": lambda h: h.free(),
    "run": lambda h: h.run(),
    "info": lambda h: h.info,
    "init_tabu_list": lambda h: h.init_tabu_list(4),
    "func_data_clean": lambda h: h.func_data_clean(),
}


@pytest.mark.parametrize("method", sorted(HC12_CALLS))
def test_hc12_objective_calling_its_own_instance_is_refused(method):
    calls = []
    h = None

    def f(X):
        calls.append(1)
        if len(calls) == 2:
            HC12_CALLS[method](h)
        return sphere(X)

    h = HC12(3, 8, (-1, 1), f)
    with pytest.raises(MetaoptError) as e:
        h.run(runs=2)
    assert_busy(e, "HC12", method, "run")
    assert not h.freed and len(calls) == 2
    assert h.run(runs=2).value < 1e-3 and h.info
    h.free()
    assert h.freed


def test_threads_running_one_island_de_are_serialised():
    de = IslandDE(4, 32, 10, (-5, 5), backend="cpu")
    de.init("F1")
    errors = []

    def work():
        try:
            for _ in range(10):
                r = de.run(generations=20)
                assert r.generations % 20 == 0
                assert de.bests_fitness().shape == (4,) and de.x(1, 3).shape == (10,)
        except BaseException as e:  # noqa: B036 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    # no generation was lost: 4 threads x 10 runs x 20 generations
    assert de.iteration() == 801
    assert de.run(generations=1).evaluations == 4 * 32 * 803
    de.free()


def waits_for(long_call, short_call, entered):
    """Runs ``long_call`` in a thread and, once it is inside the library (``entered()`` true),
    ``short_call`` here; returns how long ``short_call`` took and the result of ``long_call``."""
    out = {}

    def runner():
        out["long"] = long_call()

    t = threading.Thread(target=runner)
    t.start()
    deadline = time.monotonic() + 10
    while not entered():
        assert time.monotonic() < deadline, "the long call did not start"
        time.sleep(0.001)
    start = time.monotonic()
    short_call()
    took = time.monotonic() - start
    t.join()
    return took, out.get("long")


def slow_objective(entered, seconds=0.6):
    """An objective that, called while ``entered`` is clear, sets it and takes ``seconds``."""
    def f(X):
        if not entered.is_set():
            entered.set()
            time.sleep(seconds)
        return sphere(X)

    return f


def test_a_second_thread_waits_for_the_running_call_island_de_and_hc12():
    entered = threading.Event()
    entered.set()  # init evaluates at once
    de = IslandDE(2, 8, 3, (-5, 5), double=True, backend="cpu")
    de.init(slow_objective(entered))
    entered.clear()  # the run's first evaluation is slow
    took, r = waits_for(lambda: de.run(generations=3), de.free, entered.is_set)
    assert took >= 0.4, "free waits for the running call"
    assert r is not None and r.generations == 3 and de.freed
    entered = threading.Event()
    h = HC12(2, 8, (-1, 1), slow_objective(entered))
    took, r = waits_for(h.run, lambda: h.info, entered.is_set)
    assert took >= 0.4 and r is not None and r.value >= 0
    h.free()


def test_a_second_thread_waits_for_the_running_call_qap_and_sat():
    A, B = metaopt.read_qaplib(DATA / "had12.dat")
    q = HC12QAP(6, metaopt.df_from_ab(A, B))
    # no objective to tell when the library is running: the instance's own record of its call
    took, r = waits_for(lambda: q.solve(runs=0, time_limit=0.8), lambda: q.info, lambda: q._running == "solve")
    assert took >= 0.4 and r is not None and r.seconds >= 0.8
    took, _ = waits_for(lambda: q.solve(runs=0, time_limit=0.8), q.free, lambda: q._running == "solve")
    assert took >= 0.4 and q.freed
    s = SAT.from_file(satlib("uuf50-218/uuf50-01.cnf"))  # unsatisfiable: solve runs to its limit
    took, r = waits_for(lambda: s.solve(time_limit=0.8), lambda: s.evaluate(np.zeros(50, bool)),
                        lambda: s._running == "solve")
    assert took >= 0.4 and r is not None and not r.satisfiable
    s.free()
