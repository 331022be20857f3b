"""The robust tabu search from Python: HC12QAP.solve_ts and metaopt.qap_solve (over
metaopt_qap_ts_solve), on the CPU backend and on the device (identical results on integer
data)."""

import numpy as np
import pytest

import metaopt
from conftest import DATA, bks

@pytest.mark.parametrize("name", ["had12", "nug12"])
def test_reaches_the_best_known_value(name):
    A, B = metaopt.read_qaplib(DATA / f"{name}.dat")
    want = bks()[name]
    r = metaopt.qap_solve(A, B, chains=4, time_limit=60, target=want, cpu=True, bks=want)
    assert isinstance(r, metaopt.QAPTsSolution)
    assert r.cost == want == metaopt.qap_cost(A, B, r.permutation)
    assert r.target_reached and r.gap == 0.0 and r.gap_percent == 0.0 and r.bks == want
    assert r.chains == 4 and r.iterations > 0 and r.seconds < 60
    assert "CPU" in r.backend


def test_from_a_file_the_gap_comes_from_bks_csv():
    r = metaopt.qap_solve(str(DATA / "nug12.dat"), chains=4, time_limit=60, target="bks", cpu=True)
    assert r.cost == 578 and r.bks == 578 and r.gap == 0.0
    # without a best-known value there is no gap
    A, B = metaopt.read_qaplib(DATA / "nug12.dat")
    r = metaopt.qap_solve(A, B, chains=2, iterations=100, cpu=True)
    assert r.bks is None and r.gap is None
    assert r.iterations == 100
    # a given one wins
    r = metaopt.qap_solve(A, B, chains=2, iterations=100, cpu=True, bks=500)
    assert r.bks == 500 and r.gap == pytest.approx(100.0 * (r.cost - 500) / 500)


def test_the_method_on_an_instance_and_its_options():
    with metaopt.HC12QAP.from_file(DATA / "had12.dat", 2) as q:
        q.set_backend("cpu")
        kw = dict(chains=3, iterations=500, seed=5, tenure="uniform", elite_size=4, stagnation=100,
                  perturbation=(2, 3), starts=[np.arange(12)])
        a = q.solve_ts(**kw)
        b = q.solve_ts(**kw)
        assert a == b  # the same seed: the same result (wall times aside)
        assert a.iterations == 500 and a.bks == 1652
        assert a.cost == metaopt.qap_cost(*metaopt.read_qaplib(DATA / "had12.dat"), a.permutation)
        # restarts from children of two pool members: reproducible too, and restarts happen
        # (the pool acts every 2,000 iterations)
        kc = dict(kw, iterations=6000, crossover=1.0)
        c = q.solve_ts(**kc)
        assert c == q.solve_ts(**kc) and c.restarts > 0
        assert c.cost == metaopt.qap_cost(*metaopt.read_qaplib(DATA / "had12.dat"), c.permutation)
        # left out: the default chains, the CPU backend's count (at least one), warm start or not
        assert q.solve_ts(iterations=10).chains >= 1
        assert q.solve_ts(iterations=10, starts=[np.arange(12)]).chains >= 1
    # the HC12 method stays available
    r = metaopt.qap_solve(str(DATA / "had12.dat"), method="hc12", runs=3, cpu=True)
    assert isinstance(r, metaopt.QAPSolution) and r.runs == 3


def test_bad_arguments_name_the_argument():
    A, B = metaopt.read_qaplib(DATA / "had12.dat")
    with pytest.raises(ValueError, match="chains"):
        metaopt.qap_solve(A, B, chains=0, cpu=True)
    with pytest.raises(ValueError, match="iterations"):
        metaopt.qap_solve(A, B, iterations=0, cpu=True)
    with pytest.raises(ValueError, match="method"):
        metaopt.qap_solve(A, B, method="aco", cpu=True)
    with pytest.raises(ValueError, match="tenure"):
        metaopt.qap_solve(A, B, tenure="long", cpu=True)
    with pytest.raises(ValueError, match="bks"):
        metaopt.qap_solve(A, B, target="bks", cpu=True)
    with pytest.raises(ValueError, match="starts"):
        metaopt.qap_solve(A, B, starts=[np.zeros(12)], cpu=True)
    with pytest.raises(ValueError, match="method='ts'"):
        metaopt.qap_solve(A, B, method="hc12", chains=4, cpu=True)
    with pytest.raises(TypeError, match="B"):
        metaopt.qap_solve(A, cpu=True)
    # the library's own checks come back as MetaoptError naming the option
    with pytest.raises(metaopt.MetaoptError, match="perturbation"):
        metaopt.qap_solve(A, B, perturbation=(3, 2), cpu=True)
    for bad in (1.5, -0.1):
        with pytest.raises(ValueError, match="crossover"):
            metaopt.qap_solve(A, B, crossover=bad, cpu=True)
    with pytest.raises(ValueError, match="crossover"):
        metaopt.qap_solve(A, B, crossover=float("nan"), cpu=True)
    with pytest.raises(TypeError, match="crossover"):
        metaopt.qap_solve(A, B, crossover="half", cpu=True)


def test_the_device_gives_the_cpu_result():
    A, B = metaopt.read_qaplib(DATA / "chr12a.dat")
    cpu = metaopt.qap_solve(A, B, chains=3, iterations=500, cpu=True)
    dev = metaopt.qap_solve(A, B, chains=3, iterations=500)
    assert cpu.cost == dev.cost and np.array_equal(cpu.permutation, dev.permutation)


def test_a_warm_start_from_given_permutations():
    # nug12's optimal permutation (QAPLIB's nug12.sln, 1-based): a chain started there reports it
    # after one iteration, whatever the seed
    opt = np.array([12, 7, 9, 3, 4, 8, 11, 1, 5, 6, 10, 2]) - 1
    for start in (opt, [opt, opt[::-1]]):
        r = metaopt.qap.solve(DATA / "nug12.dat", iterations=1, chains=4, seed=5, start=start)
        assert r.cost == 578 and list(r.permutation) == list(opt), r
    cold = metaopt.qap.solve(DATA / "nug12.dat", iterations=1, chains=4, seed=5)
    assert cold.cost > 578
    with pytest.raises(ValueError, match="start"):
        metaopt.qap.solve(DATA / "nug12.dat", iterations=1, start="identity")
    with pytest.raises(ValueError, match="starts"):
        metaopt.qap.solve(DATA / "nug12.dat", iterations=1, start=[0] * 12)


def _ts(q, iterations, **kw):
    return q.solve_ts(chains=3, iterations=iterations, seed=5, stagnation=300, **kw)


def test_a_resumed_search_ends_as_the_uninterrupted_one(tmp_path):
    import pickle
    with metaopt.HC12QAP.from_file(DATA / "chr15a.dat", 2) as q:
        q.set_backend("cpu")
        whole = _ts(q, 3000)
        part = _ts(q, 1000)
        state = q.ts_state()
    assert isinstance(state, metaopt.State) and isinstance(state, bytes)
    info = state.info()
    assert info["solver"] == "qap_ts" and "n=15" in info["problem"]
    assert dict(info["options"])["seed"] == "5"
    # a State pickles as its bytes, and a file holds the same
    state = pickle.loads(pickle.dumps(state))
    state.save(tmp_path / "ts.state")
    assert metaopt.State.load(tmp_path / "ts.state") == state
    assert part.iterations == 1000
    for resume in (state, bytes(state), tmp_path / "ts.state"):
        with metaopt.HC12QAP.from_file(DATA / "chr15a.dat", 2) as q:
            q.set_backend("cpu")
            r = _ts(q, 3000, resume=resume)
        assert (r.cost, r.iterations, r.restarts) == (whole.cost, whole.iterations, whole.restarts)
        assert np.array_equal(r.permutation, whole.permutation)
    # a checkpoint file written by a search, through qap_solve
    path = tmp_path / "c.state"
    r1 = metaopt.qap_solve(str(DATA / "chr15a.dat"), chains=3, iterations=1000, seed=5, stagnation=300,
                           cpu=True, checkpoint=path, checkpoint_every=0.01)
    r2 = metaopt.qap_solve(str(DATA / "chr15a.dat"), chains=3, iterations=3000, seed=5, stagnation=300,
                           cpu=True, resume=path)
    assert r1.iterations == 1000 and r2.cost == whole.cost
    assert np.array_equal(r2.permutation, whole.permutation)


def test_bad_states_are_refused_with_what_differs(tmp_path):
    with metaopt.HC12QAP.from_file(DATA / "chr15a.dat", 2) as q:
        q.set_backend("cpu")
        with pytest.raises(metaopt.MetaoptError, match="no solve has run"):
            q.ts_state()
        _ts(q, 500)
        state = q.ts_state()
        with pytest.raises(metaopt.MetaoptError, match="option seed was 5; this run has 6"):
            q.solve_ts(chains=3, iterations=600, seed=6, stagnation=300, resume=state)
        with pytest.raises(metaopt.MetaoptError, match="truncated"):
            q.load_ts_state(state[: len(state) // 2])
        with pytest.raises(metaopt.MetaoptError, match="checksum"):
            q.load_ts_state(state[:40] + bytes([state[40] ^ 1]) + state[41:])
        with pytest.raises(ValueError, match="empty"):
            q.load_ts_state(b"")
        with pytest.raises(TypeError, match="resume must be"):
            _ts(q, 600, resume=3)
        with pytest.raises(ValueError, match="checkpoint_every needs"):
            _ts(q, 600, checkpoint_every=1)
        with pytest.raises(metaopt.MetaoptError, match="checkpoint_path"):
            _ts(q, 600, checkpoint=tmp_path / "missing" / "x.state")
    with metaopt.HC12QAP.from_file(DATA / "chr15b.dat", 2) as q:
        with pytest.raises(metaopt.MetaoptError, match="another problem"):
            q.load_ts_state(state)
    with pytest.raises(metaopt.MetaoptError, match="not a metaopt checkpoint"):
        metaopt.State(b"garbage!" * 4).info()


def _symmetric(n, seed):
    rng = np.random.default_rng(seed)
    m = np.triu(rng.integers(0, 20, (n, n)), 1)
    return m + m.T


def test_sizes_above_256():
    n = 300
    A, B = _symmetric(n, 1), _symmetric(n, 2)
    cpu = metaopt.qap_solve(A, B, chains=2, iterations=40, cpu=True)
    dev = metaopt.qap_solve(A, B, chains=2, iterations=40)
    assert cpu.cost == dev.cost == metaopt.qap_cost(A, B, cpu.permutation)
    assert np.array_equal(cpu.permutation, dev.permutation) and cpu.permutation.max() == n - 1
    assert cpu.chains == cpu.chains_requested == 2
    # HC12 has a lower limit of its own, and says so
    with pytest.raises(metaopt.MetaoptError, match="256"):
        metaopt.qap_solve(A, B, method="hc12", runs=1, cpu=True)


def test_chains_that_do_not_fit_the_memory_are_refused_when_asked():
    n = 2048
    A, B = _symmetric(n, 3), _symmetric(n, 4)
    with metaopt.HC12QAP.from_ab(1, A, B) as q:
        q.set_backend("cpu")
        assert q.n_elements == n
        # a million chains of n = 2048 would hold about 30 TB
        with pytest.raises(metaopt.MetaoptError, match="chains.*at most"):
            q.solve_ts(chains=2**20, iterations=1, fit_chains=False)
        with pytest.raises(TypeError, match="fit_chains"):
            q.solve_ts(chains=1, iterations=1, fit_chains="yes")
