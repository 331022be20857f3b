"""SAT: SATLIB files parsed and solved, every model checked against the clauses in Python;
evaluation on the device and the CPU against a host count; errors and handles."""

import ctypes

import numpy as np
import pytest

import metaopt
from conftest import satlib
from metaopt import SAT, ErrorCode, MetaoptError


def host_counts(clauses, rows):
    return [len(clauses) - len(metaopt.unsatisfied_clauses(clauses, r)) for r in rows]


SEARCHES = [
    {},  # probSAT walks on the device, the default
    {"cpu": True, "walks": 2},
    {"method": "walksat", "walks": 3},
    {"method": "walksat", "cpu": True, "noise": 0.4},
    {"cb": 2.5, "eps": 1.0, "cpu": True},
    {"method": "hc12"},
]


@pytest.mark.parametrize("rel", ["uf20-91/uf20-01.cnf", "uf50-218/uf50-01.cnf", "uf75-325/uf75-01.cnf"])
def test_satlib_models_satisfy_every_clause(rel):
    path = satlib(rel)
    num_vars, clauses = metaopt.read_dimacs(path)
    with SAT.from_file(path) as s:
        assert (s.num_vars, s.num_clauses) == (num_vars, len(clauses))
        for opts in SEARCHES:
            r = s.solve(time_limit=60, **opts)
            assert r.satisfiable and r.best_unsatisfied == 0 and r.stop == "target", (opts, r)
            assert r.method == opts.get("method", "probsat")
            assert r.model.dtype == bool and r.model.shape == (num_vars,)
            assert metaopt.unsatisfied_clauses(clauses, r.model) == []
            assert r.literals.tolist() == [v if m else -v for v, m in zip(range(1, num_vars + 1), r.model)]
            assert np.array_equal(r.assignment, r.model)
            # the library's own count agrees: every clause satisfied
            assert s.evaluate(r.model).tolist() == [len(clauses)]
            if r.method == "hc12":
                assert r.runs >= 1 and r.iterations >= 1 and r.flips == 0 and r.walks == 0, r
            else:
                assert r.runs == 0 and r.flips >= 1 and r.flips_per_second > 0, r
                assert r.walks == opts.get("walks", r.walks) and r.walks >= 1
        # the same seed, the same search (HC12; one walk on the CPU backend)
        for opts in ({"method": "hc12"}, {"cpu": True, "walks": 1}):
            r = s.solve(time_limit=60, **opts)
            again = s.solve(time_limit=60, **opts)
            assert again == r


def test_unsatisfiable_formula_reports_its_best_count():
    path = satlib("uuf50-218/uuf50-01.cnf")
    _, clauses = metaopt.read_dimacs(path)
    with SAT.from_file(path) as s:
        for method in ("probsat", "walksat", "hc12"):
            r = s.solve(time_limit=0.5, method=method)
            assert not r.satisfiable and r.model is None and r.literals is None
            assert r.stop == "time_limit" and r.method == method
            assert r.best_unsatisfied >= 1
            assert len(metaopt.unsatisfied_clauses(clauses, r.assignment)) == r.best_unsatisfied
        # a flip budget: that many flips per walk, a restart every 1000
        r = s.solve(time_limit=0, max_flips=5000, restart_flips=1000, flips_per_launch=600, walks=2, cpu=True)
        assert (r.flips, r.restarts, r.walks, r.stop) == (10000, 8, 2, "budget"), r
        assert len(metaopt.unsatisfied_clauses(clauses, r.assignment)) == r.best_unsatisfied >= 1


def test_walk_options_are_checked():
    with SAT.from_file(satlib("uf20-91/uf20-01.cnf")) as s:
        with pytest.raises(ValueError, match="method must be one of probsat, walksat, hc12"):
            s.solve(method="gsat")
        with pytest.raises(ValueError, match="tabu_length does not apply to method='probsat'"):
            s.solve(tabu_length=10)
        with pytest.raises(ValueError, match="walks does not apply to method='hc12'"):
            s.solve(method="hc12", walks=4)
        with pytest.raises(ValueError, match="cb must be > 0"):
            s.solve(cb=0)
        with pytest.raises(ValueError, match="eps must be finite"):
            s.solve(eps=float("inf"))
        with pytest.raises(ValueError, match="walks must be"):
            s.solve(walks=0)
        for kwargs, name in (({"method": "walksat", "noise": 1.5}, "opts.noise"), ({"restart_flips": 2**64 - 1, "flips_per_launch": 2**32 - 1, "noise": -0.5}, "opts.noise"),
                             ({"time_limit": 0}, "opts.max_flips")):
            with pytest.raises(MetaoptError) as e:
                s.solve(**kwargs)
            assert e.value.code == ErrorCode.INVALID_ARGUMENT and name in e.value.message, kwargs
        # the one-call form takes the method too, and the model is checked here
        num_vars, clauses = metaopt.read_dimacs(satlib("uf20-91/uf20-01.cnf"))
        r = metaopt.sat.solve(satlib("uf20-91/uf20-01.cnf"), method="walksat", walks=2, cpu=True, time_limit=10)
        assert r.satisfied and r.method == "walksat" and metaopt.unsatisfied_clauses(clauses, r.model) == []


def test_evaluate_matches_the_host_on_device_and_cpu():
    path = satlib("uf50-218/uf50-02.cnf")
    _, clauses = metaopt.read_dimacs(path)
    rng = np.random.default_rng(7)
    rows = rng.integers(0, 2, size=(64, 50)).astype(bool)
    want = host_counts(clauses, rows)
    with SAT.from_file(path) as s:
        assert s.words == 2
        assert s.evaluate(rows).tolist() == want
        assert s.evaluate(rows.astype(np.uint8), cpu=True).tolist() == want


def test_clause_lists():
    # (x1 or not x2) and (x2 or x3) and (not x1)
    with SAT([[1, -2], [2, 3], [-1]]) as s:
        assert (s.num_vars, s.num_clauses, s.words) == (3, 3, 1)
        assert s.evaluate([[0, 0, 1], [1, 1, 1]]).tolist() == [3, 2]
        r = s.solve(runs=10, time_limit=0, method="hc12")
        assert r.satisfiable and r.model.tolist() == [False, False, True]
        r = s.solve(max_flips=1000, time_limit=0, cpu=True)
        assert r.satisfiable and r.model.tolist() == [False, False, True] and r.stop == "target"
    # more variables than the clauses name
    with SAT([[40]], num_vars=40) as s:
        assert (s.num_vars, s.words) == (40, 2)
        r = s.solve(runs=10, time_limit=0, method="hc12")
        assert r.satisfiable and r.model[39] and r.model.shape == (40,)
        r = s.solve(max_flips=1000, time_limit=0)
        assert r.satisfiable and r.model[39] and r.model.shape == (40,)


def test_argument_and_library_errors():
    with pytest.raises(ValueError, match=r"clauses\[1\] contains 0"):
        SAT([[1], [2, 0]])
    with pytest.raises(ValueError, match=r"clauses\[0\] is empty"):
        SAT([[]])
    with pytest.raises(ValueError, match="above num_vars = 2"):
        SAT([[1, -3]], num_vars=2)
    with pytest.raises(TypeError, match="clauses must be a list"):
        SAT("1 2 0")
    with pytest.raises(TypeError, match=r"clauses\[0\] must hold numbers"):
        SAT([["a"]])
    with SAT([[1, 2], [-1]]) as s:
        with pytest.raises(ValueError, match=r"assignments must have shape \(count, 2\)"):
            s.evaluate([[1, 0, 1]])
        with pytest.raises(ValueError, match="booleans or 0/1"):
            s.evaluate([[2, 0]])
        with pytest.raises(ValueError, match="time_limit is NaN"):
            s.solve(time_limit=float("nan"))
        with pytest.raises(MetaoptError) as e:
            s.solve(mask_order=0, method="hc12")
        assert e.value.code == ErrorCode.INVALID_ARGUMENT and "opts.mask_order" in e.value.message
        with pytest.raises(MetaoptError) as e:
            s.solve(time_limit=0, runs=0, method="hc12")  # neither limit: the library refuses
        assert "opts.runs" in e.value.message
    with pytest.raises(MetaoptError) as e:
        SAT.from_file(satlib("uf20-91/uf20-01.cnf").parent / "no-such-file.cnf")
    assert e.value.code == ErrorCode.IO and "no-such-file.cnf" in e.value.message


def test_parse_errors_give_the_line(tmp_path):
    bad = tmp_path / "bad.cnf"
    bad.write_text("c a comment\np cnf 3 2\n1 -2 0\n2 7 0\n")
    with pytest.raises(MetaoptError) as e:
        SAT.from_file(bad)
    assert e.value.code == ErrorCode.PARSE and "bad.cnf:4" in e.value.message


def test_forged_foreign_and_freed_handles():
    s = SAT([[1, 2], [-1]])
    real = s._handle
    fake = (ctypes.c_uint64 * 64)()
    s._handle = ctypes.cast(fake, type(real))
    with pytest.raises(MetaoptError, match="not a live MetaoptSatInstance"):
        s.solve(runs=1, method="hc12")
    with pytest.raises(MetaoptError, match="not a live MetaoptSatInstance"):
        s.evaluate([[1, 0]])
    assert all(w == 0 for w in fake)
    h = metaopt.HC12(2, 8, [0, 1], "F1")
    s._handle = ctypes.cast(h._handle, type(real))
    with pytest.raises(MetaoptError, match="not a live MetaoptSatInstance"):
        s.solve(runs=1, method="hc12")
    h.free()
    s._handle = real
    s.free()
    with pytest.raises(ValueError, match="SAT: the instance was freed"):
        s.solve()
    s._handle = real
    with pytest.raises(MetaoptError, match="freed already"):
        s.solve(runs=1, method="hc12")
    s._handle = None


def test_a_path_with_a_nul_is_refused():
    path = str(satlib("uf20-91/uf20-01.cnf"))
    with pytest.raises(ValueError, match=rf"^path contains a NUL character \(at byte {len(path)}\)"):
        SAT.from_file(path + "\0junk")
    with pytest.raises(TypeError, match="path must be a str or path, got bytes"):
        SAT.from_file(path.encode())


def _walks(s, max_flips, **kw):
    return s.solve(walks=4, cpu=True, seed=5, flips_per_launch=1000, restart_flips=2500, max_flips=max_flips,
                   time_limit=0, **kw)


def test_resumed_walks_end_as_the_uninterrupted_ones(tmp_path):
    import pickle
    path = satlib("uuf50-218/uuf50-01.cnf")
    with SAT.from_file(path) as s:
        whole = _walks(s, 6000)
        part = _walks(s, 2000)
        state = s.state()
    assert isinstance(state, metaopt.State)
    info = state.info()
    assert info["solver"] == "sat_sls" and "50 variables" in info["problem"]
    assert dict(info["options"])["seed"] == "5"
    state = pickle.loads(pickle.dumps(state))
    state.save(tmp_path / "w.state")
    assert part.flips == 4 * 2000
    for resume in (state, bytes(state), tmp_path / "w.state"):
        with SAT.from_file(path) as s:
            r = _walks(s, 6000, resume=resume)
        assert (r.best_unsatisfied, r.flips, r.restarts, r.stop) == (whole.best_unsatisfied, whole.flips, whole.restarts,
                                                                   whole.stop)
        assert np.array_equal(r.assignment, whole.assignment)
    # a checkpoint file written by a search, through metaopt.sat.solve
    c = tmp_path / "c.state"
    r1 = metaopt.sat.solve(path, walks=4, cpu=True, seed=5, flips_per_launch=1000, restart_flips=2500,
                           max_flips=3000, time_limit=0, checkpoint=c, checkpoint_every=0.01)
    r2 = metaopt.sat.solve(path, walks=4, cpu=True, seed=5, flips_per_launch=1000, restart_flips=2500,
                           max_flips=6000, time_limit=0, resume=c)
    assert r1.flips == 4 * 3000 and r2.flips == whole.flips
    assert np.array_equal(r2.assignment, whole.assignment)


def test_bad_walk_states_are_refused(tmp_path):
    path = satlib("uuf50-218/uuf50-01.cnf")
    with SAT.from_file(path) as s:
        with pytest.raises(MetaoptError, match="no search has run"):
            s.state()
        _walks(s, 1000)
        state = s.state()
        with pytest.raises(MetaoptError, match="option seed was 5; this run has 6"):
            s.solve(walks=4, cpu=True, seed=6, flips_per_launch=1000, restart_flips=2500, max_flips=2000,
                    time_limit=0, resume=state)
        # the state was used up by the failed search: the next one starts afresh
        assert _walks(s, 1000).flips == 4 * 1000
        with pytest.raises(MetaoptError, match="truncated"):
            s.load_state(state[: len(state) // 2])
        with pytest.raises(MetaoptError, match="checksum"):
            s.load_state(state[:40] + bytes([state[40] ^ 1]) + state[41:])
        # a walk state is for a walk search: an HC12 search refuses it, naming the state
        with pytest.raises(MetaoptError, match="`state`: the loaded state is of a walk search"):
            s.solve(method="hc12", runs=1, resume=state)
        with pytest.raises(ValueError, match="checkpoint_every needs"):
            _walks(s, 1000, checkpoint_every=1)
    with SAT.from_file(satlib("uuf50-218/uuf50-02.cnf")) as s:
        with pytest.raises(MetaoptError, match="another problem"):
            s.load_state(state)


def test_walks_start_from_a_given_assignment():
    with SAT.from_file(satlib("uf20-91/uf20-01.cnf")) as s:
        model = s.solve(walks=2, cpu=True, max_flips=100000, time_limit=0).model
        r = s.solve(walks=2, cpu=True, max_flips=100000, time_limit=0, start=model)
        assert r.satisfiable and r.stop == "target" and r.flips == 0
        assert np.array_equal(r.model, model)
        r = s.solve(walks=2, cpu=True, max_flips=100000, time_limit=0, start=[model, ~model])
        assert r.satisfiable and r.flips == 0
        with pytest.raises(ValueError, match="start must have shape"):
            s.solve(walks=2, cpu=True, max_flips=10, time_limit=0, start=model[:5])
        with pytest.raises(MetaoptError, match="opts.start"):
            s.solve(walks=2, cpu=True, max_flips=10, time_limit=0, start=[model] * 3)
        with pytest.raises(ValueError, match="start does not apply"):
            s.solve(method="hc12", runs=1, start=model)
