"""Island DE checkpoints (state(), load_state(), run(checkpoint=, resume=)) and warm starts
(set_population, minimize's x0 and init)."""

import pickle

import numpy as np
import pytest

import metaopt
from metaopt import IslandDE, MetaoptError


def _de(method="de", seeds=(5, 6, 7, 8)):
    de = IslandDE(3, 16, 5, (-5.12, 5.12), "COTN", backend="cpu", method=method, seeds=seeds,
                  lshade_budget=16 * 60, precision="double")
    de.init("F8", "DE/rand/1", "None" if method != "de" else "One2N", 5)
    return de


def _key(r):
    return (r.value, tuple(r.x), r.island, r.generations, r.evaluations)


def _fresh(method):
    if method != "jde100":
        return _de(method)
    de = IslandDE(2, 20, 5, (-5.12, 5.12), backend="cpu", method="jde100", jde_small=6, precision="double")
    de.init("F8")
    return de


@pytest.mark.parametrize("method", ["de", "shade", "lshade", "jde100"])
def test_a_resumed_run_ends_as_the_uninterrupted_one(tmp_path, method):
    with _fresh(method) as whole:
        w = whole.run(generations=40)
        pop = whole.population()
    with _fresh(method) as first:
        path = tmp_path / "de.state"
        part = first.run(generations=15, checkpoint=path)
        assert part.generations == 15
        state = first.state()
    # a State pickles as its bytes, and the file holds the same state
    state = pickle.loads(pickle.dumps(state))
    assert isinstance(state, metaopt.State) and state.info()["solver"] == "de"
    assert bytes(state) == path.read_bytes()
    for resume in (state, bytes(state), path, str(path)):
        with _fresh(method) as second:
            r = second.run(generations=40, resume=resume)
            assert _key(r) == _key(w), resume
            np.testing.assert_array_equal(second.population(), pop)


def test_a_run_stopped_by_its_token_resumes_from_its_checkpoint(tmp_path):
    # a Python objective requests the token during generation 11: the run stops after it
    token = metaopt.StopToken()
    path = tmp_path / "every.state"
    calls = []

    def objective(X):
        calls.append(1)
        if len(calls) == 12:
            token.request()
        return (X**2).sum(axis=1)

    with IslandDE(3, 16, 5, (-5.12, 5.12), backend="cpu", method="jade", seeds=(5, 6, 7, 8),
                  precision="double") as a:
        a.init(objective)
        r = a.run(generations=40, stop_token=token, checkpoint=path, checkpoint_every=1e-6)
        assert r.stop == "interrupted" and r.generations < 40
    with IslandDE(3, 16, 5, (-5.12, 5.12), backend="cpu", method="jade", seeds=(5, 6, 7, 8),
                  precision="double") as b:
        b.init(lambda X: (X**2).sum(axis=1))
        rest = b.run(generations=40, resume=path)
    with IslandDE(3, 16, 5, (-5.12, 5.12), backend="cpu", method="jade", seeds=(5, 6, 7, 8),
                  precision="double") as c:
        c.init(lambda X: (X**2).sum(axis=1))
        w = c.run(generations=40)
    assert _key(rest) == _key(w)


def test_bad_states_are_refused_with_what_differs(tmp_path):
    with _de() as de:
        de.run(generations=3)
        state = de.state()
    with _de(seeds=(9, 6, 7, 8)) as other:
        with pytest.raises(MetaoptError, match="state.*option seeds was 5,6,7,8; this run has 9,6,7,8"):
            other.load_state(state)
    with _de() as d:
        with pytest.raises(MetaoptError, match="truncated"):
            d.load_state(state[: len(state) // 2])
        with pytest.raises(MetaoptError, match="not a metaopt"):
            d.load_state(b"something else")
        with pytest.raises(ValueError, match="empty"):
            d.load_state(b"")
        with pytest.raises(TypeError, match="resume must be"):
            d.run(generations=1, resume=3)
        with pytest.raises(ValueError, match="checkpoint_every needs a checkpoint"):
            d.run(generations=1, checkpoint_every=1)
    bare = IslandDE(3, 16, 5, (-5.12, 5.12), backend="cpu")
    with pytest.raises(MetaoptError, match="init"):
        bare.state()


def test_a_population_set_reads_back():
    with _de() as de:
        x = np.linspace(-5, 5, 3 * 16 * 5).reshape(48, 5)
        de.set_population(x)
        np.testing.assert_array_equal(de.population(), x)
        de.set_population([1.0] * 5, island=2)
        assert np.all(de.population()[32] == 1.0)
        np.testing.assert_array_equal(de.population()[33:], x[33:])
        with pytest.raises(ValueError, match=r"x must hold points of dims = 5"):
            de.set_population(np.zeros((2, 4)))
        with pytest.raises(ValueError, match=r"x contains NaN .*row 1, dimension 2"):
            de.set_population([[0] * 5, [0, 0, np.nan, 0, 0]])
        with pytest.raises(MetaoptError, match="x.*outside its limits"):
            de.set_population([9.0] * 5)
        with pytest.raises(MetaoptError, match="x.*rows"):
            de.set_population(np.zeros((17, 5)), island=0)
        de.set_population([9.0] * 5, clip=True)
        assert de.population()[0, 0] == 5.12


def test_minimize_x0_joins_the_population():
    def f(x):
        return float(((x - 0.25) ** 2).sum())

    r = metaopt.minimize(f, [(-5, 5)] * 4, x0=[0.25] * 4, maxiter=1, seed=3, device="cpu", tol=0)
    assert r.fun == 0.0 and np.all(r.x == 0.25)
    # the population of the result holds x0 as its first member
    np.testing.assert_array_equal(r.population[0], [0.25] * 4)


def test_minimize_init_is_the_initial_population():
    pop = np.full((4 * 6, 3), 2.0)
    pop[5] = [0.0, 0.0, 0.0]
    r = metaopt.minimize("F1", [(-5, 5)] * 3, init=pop, maxiter=1, seed=3, device="cpu", islands=4, members=6, tol=0)
    assert r.fun == 0.0
    # one island's worth, repeated; points outside the bounds clipped
    one = np.full((6, 3), 9.0)
    r = metaopt.minimize(lambda x: float((x**2).sum()), [(-5, 5)] * 3, init=one, maxiter=1, seed=3, device="cpu",
                         islands=4, members=6, tol=0)
    assert np.all(np.abs(r.population) <= 5.0)
    with pytest.raises(ValueError, match=r"init must have shape \(islands \* members, dims\) = \(24, 3\)"):
        metaopt.minimize("F1", [(-5, 5)] * 3, init=np.zeros((5, 3)), islands=4, members=6, device="cpu")
    with pytest.raises(ValueError, match="init contains NaN"):
        metaopt.minimize("F1", [(-5, 5)] * 3, init=np.full((6, 3), np.nan), islands=4, members=6, device="cpu")
    with pytest.raises(ValueError, match="init .* is for DE, not method='hc12'"):
        metaopt.minimize("F1", [(-5, 5)] * 3, method="hc12", init=np.zeros((6, 3)))


def _batch():
    return metaopt.BatchDE(["F1", "F8", "F6"], 6, [-5.12, -600, -5.12], [5.12, 600, 5.12], members=24,
                           generations=[300, 250, 280], seed=[1, 2, 3], method=["de", "jade", "jde100"],
                           jde_small=8, cpu=True, precision="double", generations_per_launch=5)


def _batch_key(r):
    return (tuple(r.best_values), tuple(r.generations), tuple(r.stop), tuple(tuple(b) for b in r.best))


def test_a_resumed_batch_ends_as_the_uninterrupted_one(tmp_path):
    with _batch() as b:
        whole = b.run()
    path = tmp_path / "batch.state"
    with _batch() as b:
        part = b.run(time_limit=0.02, checkpoint=path)
        state = b.state()
    assert "time_limit" in part.stop or "budget" in part.stop
    state = pickle.loads(pickle.dumps(state))
    assert state.info()["solver"] == "batch_de" and bytes(state) == path.read_bytes()
    for resume in (state, path):
        with _batch() as b:
            assert _batch_key(b.run(resume=resume)) == _batch_key(whole)
    with metaopt.BatchDE("F1", 6, -5.12, 5.12, members=24, generations=300, cpu=True, precision="double") as other:
        with pytest.raises(MetaoptError, match="state.*another problem"):
            other.load_state(state)
