"""Knapsack instances and QIGA from Python: the optimum of knapsack-250, data round trips, the
device run equal to the CPU run, strings worth their values, tuning runs, stop tokens, and
errors naming the argument."""

import numpy as np
import pytest

import metaopt
from conftest import DATA_ROOT
from metaopt import QIGA, ErrorCode, Knapsack, MetaoptError

K250 = DATA_ROOT / "knapsack" / "knapsack-250.txt"


def test_knapsack_250_optimum_and_data():
    with Knapsack.from_file(K250) as k:
        assert (k.n, k.scale, k.name) == (250, 1_000_000, "knapsack-250")
        assert k.weights.dtype == np.float64 and k.weights.shape == (250,)
        o = k.optimum()
        assert o.value == 1533.821142 and o.int_value == 1_533_821_142
        assert o.items.size == 172 and o.bits.sum() == 172
        e = k.evaluate(o.bits)
        assert (e.profit, e.int_weight, e.feasible) == (o.value, o.int_weight, True)
        assert not k.evaluate(np.ones(250, bool)).feasible


def test_arrays_and_generator():
    k = Knapsack.from_arrays([2.5, 3.0, 1.25, 4.0], np.array([3.0, 4.5, 2.0, 1.0]), 5.0)
    assert k.n == 4 and k.capacity == 5.0 and k.scale == 100
    assert k.optimum().value == 6.5
    assert np.array_equal(k.weights, [2.5, 3.0, 1.25, 4.0])
    g1 = Knapsack.generate("strong", 50, range=300, seed=4)
    g2 = Knapsack.generate("strong", 50, range=300, seed=4)
    assert np.array_equal(g1.weights, g2.weights) and np.array_equal(g1.profits, g1.weights + 30)
    assert g1.name == "strong-50-s4"
    h = Knapsack.generate("hankim", 20)
    assert np.allclose(h.profits, h.weights + 5)


def test_device_equals_cpu_and_strings_are_worth_their_values():
    k = Knapsack.from_file(K250)
    dev = QIGA(k, populations=40, generations=25, seed=11).run()
    cpu = QIGA(k, populations=40, generations=25, seed=11, cpu=True).run()
    assert dev == cpu
    assert np.array_equal(dev.best_value, cpu.best_value)
    assert dev.best_bits.shape == (40, 250) and dev.best_bits.dtype == np.uint8
    assert np.array_equal(dev.population, np.arange(40))
    assert dev.stop == "budget" and dev.stats.count == 40
    assert dev.stats.max == dev.best == dev.best_value.max() <= 1533.821142
    for i in range(40):
        e = k.evaluate(dev.best_bits[i])
        assert e.feasible and e.int_profit == dev.best_value_int[i]
    assert "cpu" in cpu.backend.lower()
    # the device list gives the same
    assert QIGA(k, populations=40, generations=25, seed=11, devices=[0]).run() == dev


def test_tuning_run_with_names_and_texts():
    k = Knapsack.generate("weak", 80, seed=3)
    text = "0 1 1 10 -1 +1 +1 0\n1 0 0 2 -1 +1 +1 0\n"
    q = QIGA(k, populations=12, generations=10, table=["gqa2000", "qea2002", text], pops_per_table=2,
             repair="greedy", pole_signs="random", individuals=5)
    r = q.run()
    assert len(r.table_stats) == 3 and sum(s.count for s in r.table_stats) == 12
    assert r == QIGA(k, populations=12, generations=10, table=["gqa2000", "qea2002", text], pops_per_table=2,
                     repair="greedy", pole_signs="random", individuals=5, cpu=True).run()
    t = QIGA(k, populations=6, generations=50, target=0).run()
    assert t.stop == "target" and np.all(t.generations_run == 0)


def test_a_requested_token_stops_the_run():
    k = Knapsack.generate("uncorrelated", 30)
    with metaopt.StopToken() as tok:
        tok.request()
        r = QIGA(k, populations=50, generations=10).run(stop_token=tok)
    assert r.stop == "interrupted" and r.population.size < 50


def test_errors_name_the_argument():
    with pytest.raises(MetaoptError) as e:
        Knapsack.from_arrays([1.0, float("nan")], [1.0, 2.0], 1.0)
    assert e.value.code == ErrorCode.INVALID_ARGUMENT and "weights" in e.value.message
    with pytest.raises(ValueError, match="capacity"):
        Knapsack.from_arrays([1.0], [1.0], float("nan"))
    with pytest.raises(ValueError, match="profits"):
        Knapsack.from_arrays([1.0, 2.0], [1.0], 1.0)
    with pytest.raises(ValueError, match="kind"):
        Knapsack.generate("nope", 10)
    with pytest.raises(MetaoptError) as e:
        Knapsack.from_file(DATA_ROOT / "knapsack" / "missing.txt")
    assert e.value.code == ErrorCode.IO
    o = Knapsack.from_file(DATA_ROOT / "knapsack" / "knapsack-100.txt").optimum()
    assert o.value == 609.4956 and len(o.items) == 67
    k = Knapsack.generate("weak", 10)
    with pytest.raises(ValueError, match="bits"):
        k.evaluate([2] * 10)
    with pytest.raises(ValueError, match="bits"):
        k.evaluate([1] * 9)
    with pytest.raises(ValueError, match="repair"):
        QIGA(k, repair="best")
    with pytest.raises(ValueError, match="pole_signs"):
        QIGA(k, pole_signs="both")
    with pytest.raises(ValueError, match="populations"):
        QIGA(k, populations=0)
    with pytest.raises(ValueError, match="target"):
        QIGA(k, target=float("nan"))
    with pytest.raises(TypeError, match="knapsack"):
        QIGA([1, 2, 3])
    with pytest.raises(MetaoptError) as e:
        QIGA(k, table="0 1 1 999 -1 +1 +1 0", populations=2).run()
    assert "tables[0]" in e.value.message
    with pytest.raises(MetaoptError) as e:
        QIGA(k, individuals=5000, populations=2).run()
    assert "individuals" in e.value.message
    k.free()
    with pytest.raises(ValueError, match="freed"):
        QIGA(k, populations=2).run()


def test_a_table_file(tmp_path):
    k = Knapsack.generate("weak", 40, seed=8)
    text = "0 1 1 10 -1 +1 +1 0\n1 0 0 2 -1 +1 +1 0\n"
    f = tmp_path / "t.txt"
    f.write_text(text)
    a = QIGA(k, populations=5, generations=8, table=f).run()
    b = QIGA(k, populations=5, generations=8, table=str(f)).run()
    c = QIGA(k, populations=5, generations=8, table=text).run()
    assert a == b == c


def _q(k, **kw):
    return QIGA(k, populations=48, generations=150, seed=7, cpu=True, launch_populations=8, **kw)


def test_a_resumed_run_ends_as_the_uninterrupted_one(tmp_path):
    import pickle
    k = Knapsack.from_file(DATA_ROOT / "knapsack" / "knapsack-250.txt")
    whole = _q(k).run()
    token = metaopt.StopToken()
    q = _q(k, checkpoint=tmp_path / "q.state", checkpoint_every=0.001)
    token.request()
    part = q.run(stop_token=token)
    assert part.stop == "interrupted" and part.population.size < 48
    state = q.state()
    assert isinstance(state, metaopt.State)
    info = state.info()
    assert info["solver"] == "qiga" and "250 items" in info["problem"]
    assert dict(info["options"])["seed"] == "7"
    state = pickle.loads(pickle.dumps(state))
    assert metaopt.State.load(tmp_path / "q.state") == state
    for resume in (state, bytes(state), tmp_path / "q.state"):
        r = _q(k, resume=resume).run()
        assert r == whole
    r = QIGA.from_state(k, state, populations=48, generations=150, seed=7, cpu=True, launch_populations=8).run()
    assert r == whole
    q = _q(k)
    q.load_state(state)
    assert q.run() == whole
    # a run under a time limit, resumed without one
    cut = _q(k, time_limit=0.05)
    cut.run()
    assert _q(k, resume=cut.state()).run() == whole


def test_bad_qiga_states_are_refused():
    k = Knapsack.from_file(DATA_ROOT / "knapsack" / "knapsack-250.txt")
    q = _q(k)
    with pytest.raises(MetaoptError, match="nothing to save"):
        q.state()
    q.run()
    state = q.state()
    with pytest.raises(MetaoptError, match="option seed was 7; this run has 8"):
        QIGA(k, populations=48, generations=150, seed=8, cpu=True, resume=state).run()
    # the state was used up by the failed run: the next run starts afresh
    assert _q(k).run() == _q(k).run()
    with pytest.raises(MetaoptError, match="truncated"):
        _q(k).load_state(state[: len(state) // 2])
    with pytest.raises(MetaoptError, match="checksum"):
        _q(k).load_state(state[:40] + bytes([state[40] ^ 1]) + state[41:])
    other = Knapsack.from_file(DATA_ROOT / "knapsack" / "knapsack-100.txt")
    with pytest.raises(MetaoptError, match="another problem"):
        _q(other).load_state(state)
    with pytest.raises(TypeError, match="resume must be"):
        _q(k, resume=3)


def test_populations_start_from_given_strings():
    k = Knapsack.from_file(DATA_ROOT / "knapsack" / "knapsack-100.txt")
    opt = k.optimum()
    bits = np.asarray(opt.bits, dtype=np.uint8)
    r = QIGA(k, populations=8, generations=50, cpu=True, start=bits, target=opt.value).run()
    assert r.stop == "target"
    assert np.all(r.generations_run == 0)
    assert np.array_equal(r.best_bits, np.tile(bits, (8, 1)))
    with pytest.raises(ValueError, match="start must have shape"):
        QIGA(k, populations=2, cpu=True, start=bits[:10])
    with pytest.raises(MetaoptError, match="weighs"):
        QIGA(k, populations=2, cpu=True, start=np.ones(k.n)).run()
