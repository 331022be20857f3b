"""HC12 checkpoints in Python: HC12.state()/load_state()/run(checkpoint=, resume=),
HC12QAP.state()/load_state()/solve(checkpoint=, resume=), and SAT with method="hc12"; a
resumed search ends as the uninterrupted one, and bad states are refused."""

import pickle

import pytest

import metaopt
from conftest import DATA, satlib
from metaopt import HC12, SAT, HC12QAP


def shifted(X):
    return ((X - 0.3) ** 2).sum(axis=1)


def _hc12():
    return HC12(3, 10, [-2, 2], shifted, double=True)


def _run(h, runs, **kw):
    return h.run(runs=runs, seed=7, max_iterations=40, **kw)


def _key(r):
    return (r.value, r.string.tolist(), r.run_values.tolist(), r.run_iterations.tolist(), r.evaluations)


def test_hc12_resumed_runs_end_as_the_uninterrupted_ones(tmp_path):
    with _hc12() as h:
        whole = _run(h, 10)
    path = tmp_path / "hc12.state"
    with _hc12() as h:
        part = _run(h, 4, checkpoint=path)
        state = h.state()
    assert len(part.run_values) == 4
    assert isinstance(state, metaopt.State) and state.info()["solver"] == "hc12"
    assert metaopt.State.load(path) == state
    state = pickle.loads(pickle.dumps(state))
    for resume in (state, bytes(state), path):
        with _hc12() as h:
            assert _key(_run(h, 10, resume=resume)) == _key(whole)
    with _hc12() as h:
        h.load_state(state)
        assert _key(_run(h, 10)) == _key(whole)
        # used up: the next run starts afresh
        assert _key(_run(h, 10)) == _key(whole)


def test_hc12_bad_states_are_refused(tmp_path):
    with _hc12() as h:
        with pytest.raises(metaopt.MetaoptError, match="no run"):
            h.state()
        _run(h, 2)
        state = h.state()
        with pytest.raises(metaopt.MetaoptError, match="option seed was 7; this run has 8"):
            h.run(runs=3, seed=8, max_iterations=40, resume=state)
        with pytest.raises(metaopt.MetaoptError, match="truncated"):
            h.load_state(state[: len(state) // 2])
        with pytest.raises(metaopt.MetaoptError, match="checksum"):
            h.load_state(state[:40] + bytes([state[40] ^ 1]) + state[41:])
        with pytest.raises(ValueError, match="empty"):
            h.load_state(b"")
        with pytest.raises(TypeError, match="resume must be"):
            _run(h, 2, resume=3)
        with pytest.raises(ValueError, match="checkpoint_every needs"):
            _run(h, 2, checkpoint_every=1)
        with pytest.raises(metaopt.MetaoptError, match="checkpoint_path"):
            _run(h, 2, checkpoint=tmp_path / "missing" / "x.state")
    with HC12(3, 10, [-2, 2], "F1", double=True) as h:
        with pytest.raises(metaopt.MetaoptError, match="another problem"):
            h.load_state(state)


def _q():
    q = HC12QAP.from_file(DATA / "had12.dat", 2)
    q.set_backend("cpu")
    return q


def _solve(q, runs, **kw):
    return q.solve(runs=runs, seed=11, **kw)


def _qkey(r):
    return (r.cost, r.permutation.tolist(), r.runs, r.iterations, r.evaluations)


def test_qap_hc12_resumed_solve_ends_as_the_uninterrupted_one(tmp_path):
    with _q() as q:
        whole = _solve(q, 30)
    path = tmp_path / "qap.state"
    with _q() as q:
        part = _solve(q, 10, checkpoint=path, checkpoint_every=0.01)
        state = q.state()
    assert part.runs == 10 and state.info()["solver"] == "qap_hc12"
    assert metaopt.State.load(path) == state
    state = pickle.loads(pickle.dumps(state))
    for resume in (state, path):
        with _q() as q:
            assert _qkey(_solve(q, 30, resume=resume)) == _qkey(whole)
    with _q() as q:
        q.load_state(state)
        assert _qkey(_solve(q, 30)) == _qkey(whole)
        with pytest.raises(metaopt.MetaoptError, match="restart"):
            _solve(q, 30, restart="random", resume=state)
        with pytest.raises(metaopt.MetaoptError, match="qap_hc12"):
            q.load_ts_state(state)
        with pytest.raises(metaopt.MetaoptError, match="checksum"):
            q.load_state(state[:40] + bytes([state[40] ^ 1]) + state[41:])
        with pytest.raises(TypeError, match="resume must be"):
            _solve(q, 3, resume=3)
    with HC12QAP.from_file(DATA / "had14.dat", 2) as q:
        with pytest.raises(metaopt.MetaoptError, match="another problem"):
            q.load_state(state)
    with _q() as q:
        with pytest.raises(metaopt.MetaoptError, match="no solve"):
            q.state()


def test_sat_hc12_resumed_solve_ends_as_the_uninterrupted_one(tmp_path):
    path = satlib("uuf50-218/uuf50-01.cnf")

    def hc12(s, runs, **kw):
        return s.solve(method="hc12", runs=runs, seed=5, time_limit=0, **kw)

    def key(r):
        return (r.best_unsatisfied, r.assignment.tolist(), r.runs, r.iterations, r.evaluations)

    with SAT.from_file(path) as s:
        whole = hc12(s, 6)
    cp = tmp_path / "sat.state"
    with SAT.from_file(path) as s:
        part = hc12(s, 2, checkpoint=cp)
        state = s.state()
    assert part.runs == 2 and state.info()["solver"] == "sat_hc12"
    assert metaopt.State.load(cp) == state
    with SAT.from_file(path) as s:
        assert key(hc12(s, 6, resume=pickle.loads(pickle.dumps(state)))) == key(whole)
        # an HC12 state refuses a walk search, and a walk state an HC12 search
        s.load_state(state)
        with pytest.raises(metaopt.MetaoptError, match="`state`"):
            s.solve(method="walksat", walks=2, cpu=True, max_flips=300, time_limit=0)
        s.solve(method="walksat", walks=2, cpu=True, max_flips=300, time_limit=0)
        walks = s.state()
        assert walks.info()["solver"] != "sat_hc12"
        with pytest.raises(metaopt.MetaoptError, match="walk"):
            hc12(s, 6, resume=walks)
        with pytest.raises(metaopt.MetaoptError, match="option seed"):
            s.solve(method="hc12", runs=6, seed=6, time_limit=0, resume=state)
    with SAT([[1, -2], [2]]) as s:
        with pytest.raises(metaopt.MetaoptError, match="another problem"):
            s.load_state(state)
