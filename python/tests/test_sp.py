"""Shortest paths from Python: ``sssp`` equal to scipy.sparse.csgraph on random graphs (every
method, the device and the CPU backend, one source and several) and on the Helsinki road
network, graphs from every source, the ant colony, errors naming the argument, and time limits,
stop tokens and Ctrl-C (the ant colony keeps its best path so far; exact shortest paths give
none)."""

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import metaopt
from conftest import DATA_ROOT, PYDIR
from metaopt import ErrorCode, Graph, MetaoptError, aco_shortest_path, sssp

csgraph = pytest.importorskip("scipy.sparse.csgraph")
import scipy.sparse  # noqa: E402

HELSINKI = DATA_ROOT / "graphs" / "helsinki.osm.pbf"


def random_graph(n, density, seed, integer=True):
    a = scipy.sparse.random(n, n, density=density, random_state=seed, format="lil")
    a.setdiag(0)
    a = a.tocsr()
    a.eliminate_zeros()
    a.data = np.floor(a.data * 1000) + 1 if integer else a.data + 0.001
    return a


def check_tree(g_csr, dist, pred, sources):
    """``pred`` is a shortest-path tree of ``dist``: -1 exactly at the sources and the
    unreachable vertices, else an arc p -> v with dist[p] + w == dist[v]."""
    dist, pred = np.atleast_2d(dist), np.atleast_2d(pred)
    for row, s in enumerate(np.atleast_1d(sources)):
        d, p = dist[row], pred[row]
        none = p == -1
        assert np.array_equal(none, ~np.isfinite(d) | (np.arange(d.size) == s))
        v = np.flatnonzero(~none)
        w = np.asarray(g_csr[p[v], v]).ravel()
        np.testing.assert_allclose(d[p[v]] + w, d[v], rtol=1e-12)


@pytest.mark.parametrize("method", ["frontier", "bellman-ford", "near-far"])
def test_random_graphs_equal_scipy(method):
    for seed in range(3):
        a = random_graph(120, 0.04, seed)
        with Graph.from_scipy(a) as g:
            assert (g.n, g.m, g.weight_type) == (120, a.nnz, "float64")
            sources = [0, 7, 7, 119]
            want = csgraph.dijkstra(a, indices=sources)
            r = sssp(g, sources, method=method)
            assert r.dist.shape == (4, 120) and r.pred.dtype == np.int32
            assert np.array_equal(r.dist, want)
            check_tree(a, r.dist, r.pred, sources)
            assert np.array_equal(r.reached, np.isfinite(want).sum(axis=1))
            d, p = sssp(g, 7, method=method, cpu=True)
            assert d.shape == (120,) and np.array_equal(d, want[1])
            assert np.array_equal(p, r.pred[1])


def test_integer_weights_are_exact_and_equal_scipy():
    a = random_graph(200, 0.03, 11)
    g = Graph.from_csr(a.indptr, a.indices, a.data.astype(np.uint32))
    assert g.weight_type == "uint32"
    r = sssp(g, 3)
    want = csgraph.dijkstra(a, indices=3)
    assert np.array_equal(r.dist, want)
    reach = np.isfinite(want)
    assert r.dist_int.dtype == np.uint64
    assert np.array_equal(r.dist_int[reach], want[reach].astype(np.uint64))
    assert np.all(r.dist_int[~reach] == np.iinfo(np.uint64).max)
    # the device and the CPU give the same canonical predecessors on integer weights
    assert np.array_equal(sssp(g, 3, cpu=True).pred, r.pred)
    assert np.array_equal(sssp(g, 3, method="near-far", delta=500).pred, r.pred)


def test_the_tables_view_the_library_buffers_and_outlive_the_result():
    # the distance and predecessor tables are NumPy views of the library's result, freed when
    # the last of them goes: each kept alone, through garbage collection, still reads right
    import gc
    import weakref

    a = random_graph(300, 0.02, 5)
    g = Graph.from_csr(a.indptr, a.indices, a.data.astype(np.uint32))
    sources = [0, 7, 299]
    want = csgraph.dijkstra(a, indices=sources)
    for cpu in (False, True):
        r = sssp(g, sources, cpu=cpu)
        dist, pred, dist_int = r.dist, r.pred, r.dist_int
        assert not dist.flags.owndata and dist.shape == (3, 300)
        assert np.array_equal(dist, want)
        ref = weakref.ref(r)
        del r
        gc.collect()
        assert ref() is None
        keep_pred = pred.copy()
        del pred, dist_int
        gc.collect()
        # only the distances are left: their buffer is still the library's, unchanged
        np.testing.assert_array_equal(dist, want)
        d1 = dist[1].copy()
        del dist
        gc.collect()
        # a fresh call (which may reuse the freed memory) gives the same tables
        r = sssp(g, sources, cpu=cpu)
        np.testing.assert_array_equal(r.dist[1], d1)
        np.testing.assert_array_equal(r.pred, keep_pred)
        check_tree(a, r.dist, r.pred, sources)
        one = sssp(g, 7, cpu=cpu)
        row = one.dist
        del one
        gc.collect()
        np.testing.assert_array_equal(row, want[1])


def test_helsinki_equals_scipy():
    g = Graph.from_file(HELSINKI)
    assert (g.n, g.m, g.weight_type) == (6906, 15314, "float64")
    a = g.to_scipy()
    sources = [0, 1234, 6905]
    want = csgraph.dijkstra(a, indices=sources)
    r = sssp(g, sources)
    np.testing.assert_allclose(r.dist, want, rtol=1e-12)
    assert np.array_equal(np.isfinite(r.dist), np.isfinite(want))
    check_tree(a, r.dist, r.pred, sources)
    r2 = sssp(g, sources, cpu=True)
    np.testing.assert_allclose(r2.dist, want, rtol=1e-12)
    # whole metres: exact
    gi = Graph.from_file(HELSINKI, format="osm-roads-rounded")
    assert gi.weight_type == "uint32"
    ai = gi.to_scipy()
    d, _ = sssp(gi, 0, method="near-far")
    assert np.array_equal(d, csgraph.dijkstra(ai, indices=0))


def test_graph_sources_agree():
    m = np.array([[0, 4, 0, 1], [0, 0, 2, 0], [0, 0, 0, 0], [0, 1, 7, 0]], dtype=np.int64)
    dense = Graph.from_dense(m)
    assert (dense.n, dense.m, dense.weight_type) == (4, 5, "uint32")
    u, v = np.nonzero(m)
    edges = Graph.from_edges(4, u, v, m[u, v])
    off, tg, w = dense.csr()
    assert off.tolist() == [0, 2, 3, 3, 5] and tg.tolist() == [1, 3, 2, 1, 2]
    assert (w == m[u, v]).all() and w.dtype == np.float64
    for g in (dense, edges, Graph(off, tg, w), Graph.from_scipy(scipy.sparse.csr_array(m))):
        d, p = sssp(g, 0, cpu=True)
        assert d.tolist() == [0, 2, 4, 1] and p.tolist() == [-1, 3, 1, 0]
    # a grid and the thesis's graph
    grid = Graph.grid(5, 4)
    assert grid.n == 20 and grid.m == 2 * (4 * 4 + 5 * 3)
    d, _ = sssp(grid, 0)
    assert d[19] == 7
    t = Graph.thesis_random(6, 8, seed=3)
    assert t.n == 64 and t.weight_type == "uint32"
    assert np.array_equal(sssp(t, 5).dist, csgraph.dijkstra(t.to_scipy(), indices=5))


def test_from_networkx():
    nx = pytest.importorskip("networkx")
    G = nx.Graph()
    G.add_weighted_edges_from([("a", "b", 2.0), ("b", "c", 3.0), ("a", "c", 10.0)])
    G.add_node("z")
    g = Graph.from_networkx(G)
    assert g.nodes == ["a", "b", "c", "z"] and g.m == 6
    d, p = sssp(g, 0)
    assert d.tolist() == [0, 2, 5, np.inf] and p.tolist() == [-1, 0, 1, -1]
    D = nx.DiGraph([(0, 1), (1, 2)])
    assert sssp(Graph.from_networkx(D), 2).dist.tolist() == [np.inf, np.inf, 0]


def test_aco_finds_the_shortest_path():
    a = random_graph(60, 0.08, 5)
    g = Graph.from_csr(a.indptr, a.indices, a.data.astype(np.uint32))
    d = csgraph.dijkstra(a, indices=0)
    t = int(np.argmax(np.where(np.isfinite(d), d, -1)))
    dev = aco_shortest_path(g, 0, t, iterations=30, ants=32, seed=2)
    cpu = aco_shortest_path(g, 0, t, iterations=30, ants=32, seed=2, cpu=True)
    # the thesis's method (no local search) and MAX-MIN restarts: device = CPU too
    ra = aco_shortest_path(g, 0, t, iterations=10, ants=16, seed=3, local_search=False, restart=3)
    rb = aco_shortest_path(g, 0, t, iterations=10, ants=16, seed=3, local_search=False, restart=3, cpu=True)
    assert ra.length == rb.length and list(ra.path) == list(rb.path) and ra.length >= d[t]
    with pytest.raises(ValueError):
        aco_shortest_path(g, 0, t, restart=0)
    assert dev == cpu
    assert dev.exact_length == d[t] and dev.iterations == 30
    assert dev.path[0] == 0 and dev.path[-1] == t and dev.path.dtype == np.uint32
    assert dev.length == sum(a[u, v] for u, v in zip(dev.path[:-1], dev.path[1:]))
    assert dev.length_int == dev.length and dev.gap == (dev.length - d[t]) / d[t]
    assert 1 <= dev.found_at_iteration <= 30 and dev.successful_ants > 0
    # unreachable: no iteration, no path
    u = int(np.flatnonzero(~np.isfinite(d))[0]) if not np.isfinite(d).all() else None
    if u is not None:
        r = aco_shortest_path(g, 0, u, cpu=True)
        assert r.path is None and r.exact_length == np.inf and r.iterations == 0


def test_errors_name_the_argument():
    with pytest.raises(MetaoptError) as e:
        Graph.from_edges(3, [0, 1], [1, 5], [1.0, 2.0])
    assert e.value.code == ErrorCode.INVALID_ARGUMENT and "edges" in e.value.message
    with pytest.raises(MetaoptError) as e:
        Graph([0, 1, 1], [1], [-1.0])
    assert "weights" in e.value.message or "targets" in e.value.message
    with pytest.raises(ValueError, match="weights"):
        Graph([0, 1, 1], [1], [-1])
    with pytest.raises(MetaoptError) as e:
        Graph.from_file(DATA_ROOT / "graphs" / "missing.gr")
    assert e.value.code == ErrorCode.IO and "missing.gr" in e.value.message
    with pytest.raises(MetaoptError, match="format"):
        Graph.from_file(HELSINKI.with_suffix(".txt"))
    with pytest.raises(ValueError, match="format"):
        Graph.from_file(HELSINKI, format="csv")
    with pytest.raises(ValueError, match="square"):
        Graph.from_dense(np.zeros((2, 3)))
    g = Graph.from_dense([[0, 1], [1, 0]])
    with pytest.raises(MetaoptError) as e:
        sssp(g, [0, 2])
    assert e.value.code == ErrorCode.INVALID_ARGUMENT and "sources" in e.value.message
    with pytest.raises(ValueError, match="method"):
        sssp(g, 0, method="dijkstra")
    with pytest.raises(MetaoptError, match="delta"):
        sssp(g, 0, method="near-far", delta=-1)
    with pytest.raises(MetaoptError, match="rounds_per_check"):
        sssp(g, 0, rounds_per_check=0)
    with pytest.raises(TypeError, match="graph"):
        sssp(np.eye(2), 0)
    with pytest.raises(MetaoptError, match="target"):
        aco_shortest_path(g, 0, 9, cpu=True)
    with pytest.raises(MetaoptError, match="evaporation"):
        aco_shortest_path(g, 0, 1, cpu=True, evaporation=2.0)
    with pytest.raises(TypeError, match="colour"):
        aco_shortest_path(g, 0, 1, colour=1)
    g.free()
    with pytest.raises(ValueError, match="freed"):
        sssp(g, 0)
    assert metaopt.sp.METHODS["frontier"] == 1


# a 1000 x 1000 unit grid: Bellman-Ford from its corners needs far more than the limits below
BIG = "Graph.grid(1000, 1000)"
CORNERS = [0, 999, 999000, 999999]


def check_aco_best(g, r):
    """A best path so far from corner 0 to corner 399 of a 20 x 20 grid, cut short."""
    assert 0 < r.iterations < 10**6
    assert r.path is not None and r.path[0] == 0 and r.path[-1] == 399
    w = g.to_scipy()
    assert r.length == sum(w[a, b] for a, b in zip(r.path[:-1], r.path[1:]))
    assert r.length >= r.exact_length


def test_aco_time_limit_returns_the_best_so_far():
    g = Graph.grid(20, 20, max_weight=100, seed=1)
    for cpu in (False, True):
        t0 = time.monotonic()
        r = aco_shortest_path(g, 0, 399, cpu=cpu, iterations=10**6, time_limit=0.3)
        took = time.monotonic() - t0
        assert r.stop == "time_limit" and took < 1.3, (r.stop, took)
        check_aco_best(g, r)
    assert aco_shortest_path(g, 0, 399, cpu=True, iterations=2).stop == "budget"
    assert aco_shortest_path(g, 0, 399, cpu=True, iterations=10**5, max_no_improve=2).stop == "stagnation"
    assert aco_shortest_path(g, 5, 5, cpu=True).stop == "done"
    with pytest.raises(ValueError, match="time_limit"):
        aco_shortest_path(g, 0, 399, time_limit=0)


def test_aco_stop_token_returns_the_best_so_far():
    g = Graph.grid(20, 20, max_weight=100, seed=1)
    with metaopt.StopToken() as token:
        threading.Timer(0.3, token.request).start()
        t0 = time.monotonic()
        r = aco_shortest_path(g, 0, 399, iterations=10**6, stop_token=token)
        assert r.stop == "interrupted" and time.monotonic() - t0 < 1.3
        check_aco_best(g, r)


def test_sssp_time_limit_and_stop_token_give_no_result():
    g = Graph.grid(1000, 1000)
    t0 = time.monotonic()
    with pytest.raises(MetaoptError) as e:
        sssp(g, CORNERS, method="bellman-ford", time_limit=0.3)
    assert time.monotonic() - t0 < 1.3
    assert e.value.code == ErrorCode.TIME_LIMIT and "time limit" in e.value.message
    with metaopt.StopToken() as token:
        threading.Timer(0.3, token.request).start()
        t0 = time.monotonic()
        with pytest.raises(metaopt.Interrupted) as e:
            sssp(g, CORNERS, method="bellman-ford", stop_token=token)
        assert time.monotonic() - t0 < 1.3 and e.value.result is None
        assert isinstance(e.value, KeyboardInterrupt)
    # within its limit: the distances
    small = Graph.grid(10, 10)
    assert sssp(small, 0, time_limit=60).dist[99] == 18


def ctrl_c_child(body, delay):
    """Runs ``body`` (after READY) in a child Python, sends it SIGINT ``delay`` seconds after
    READY; returns (seconds from the signal to the CAUGHT line, its fields, all output)."""
    code = f"import sys, time\nsys.path.insert(0, {str(PYDIR)!r})\nimport metaopt\nfrom metaopt import Graph\n"
    code += textwrap.dedent(body)
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         env=dict(os.environ, PYTHONUNBUFFERED="1"))
    lines, caught_at, fields = [], None, None
    try:
        for line in p.stdout:
            lines.append(line)
            if line.startswith("READY"):
                break
        else:
            pytest.fail("the child ended before READY:\n" + "".join(lines))
        time.sleep(delay)
        assert p.poll() is None, "the call ended before the signal:\n" + "".join(lines)
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        for line in p.stdout:
            lines.append(line)
            if line.startswith("CAUGHT") and caught_at is None:
                caught_at = time.monotonic()
                fields = line.split()[1:]
        rc = p.wait(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    out = "".join(lines)
    assert rc == 0 and caught_at is not None, out
    return caught_at - sent, fields, out


def test_ctrl_c_stops_aco_with_its_best_path():
    seconds, (stop, length, iterations), out = ctrl_c_child("""
        g = Graph.grid(20, 20, max_weight=100, seed=1)
        metaopt.aco_shortest_path(g, 0, 399, iterations=1)  # builds the kernels
        print("READY", flush=True)
        try:
            metaopt.aco_shortest_path(g, 0, 399, iterations=10**6)
            print("NOT INTERRUPTED", flush=True)
        except metaopt.Interrupted as e:
            r = e.result
            assert r.path[0] == 0 and r.path[-1] == 399 and r.length >= r.exact_length
            print("CAUGHT", r.stop, r.length, r.iterations, flush=True)
    """, delay=0.5)
    assert stop == "interrupted" and float(length) > 0 and 0 < int(iterations) < 10**6, out
    assert seconds < 1.0, f"KeyboardInterrupt came {seconds:.2f} s after SIGINT\n{out}"


def test_ctrl_c_stops_sssp_with_no_result():
    seconds, (result,), out = ctrl_c_child(f"""
        g = {BIG}
        metaopt.sssp(Graph.grid(3, 3), 0, method="bellman-ford")  # builds the kernels
        print("READY", flush=True)
        try:
            metaopt.sssp(g, {CORNERS}, method="bellman-ford")
            print("NOT INTERRUPTED", flush=True)
        except metaopt.Interrupted as e:
            print("CAUGHT", e.result, flush=True)
    """, delay=0.5)
    assert result == "None", out
    assert seconds < 1.0, f"KeyboardInterrupt came {seconds:.2f} s after SIGINT\n{out}"


def _aco_pheromone_run(g, t, iterations, **kw):
    return aco_shortest_path(g, 0, t, iterations=iterations, ants=12, seed=3, local_search=False, restart=4,
                             cpu=True, **kw)


def test_a_resumed_aco_run_ends_as_the_uninterrupted_one(tmp_path):
    import pickle
    a = random_graph(60, 0.08, 5)
    g = Graph.from_csr(a.indptr, a.indices, a.data.astype(np.uint32))
    d = csgraph.dijkstra(a, indices=0)
    t = int(np.argmax(np.where(np.isfinite(d), d, -1)))
    whole = _aco_pheromone_run(g, t, 30)
    part = _aco_pheromone_run(g, t, 11)
    assert part.iterations == 11
    state = part.state
    assert isinstance(state, metaopt.State)
    info = state.info()
    assert info["solver"] == "aco" and "n=60" in info["problem"]
    assert dict(info["options"])["seed"] == "3"
    state = pickle.loads(pickle.dumps(state))
    state.save(tmp_path / "aco.state")
    for resume in (state, bytes(state), tmp_path / "aco.state"):
        r = _aco_pheromone_run(g, t, 30, resume=resume)
        # the paths, lengths, counters and the strongest-pheromone walk
        assert r == whole
        assert r.elapsed >= part.elapsed
    # a checkpoint file written by a run, then continued
    path = tmp_path / "c.state"
    r1 = _aco_pheromone_run(g, t, 17, checkpoint=path, checkpoint_every=0.001)
    r2 = _aco_pheromone_run(g, t, 30, resume=path)
    assert r1.iterations == 17 and r2 == whole
    # on a device too (integer weights: its steps are the CPU's)
    dev = aco_shortest_path(g, 0, t, iterations=30, ants=12, seed=3, local_search=False, restart=4,
                            resume=part.state)
    assert dev == whole
    # a run that needs no iteration has no state
    assert aco_shortest_path(g, 5, 5, cpu=True).state is None


def test_bad_aco_states_are_refused_with_what_differs(tmp_path):
    a = random_graph(60, 0.08, 5)
    g = Graph.from_csr(a.indptr, a.indices, a.data.astype(np.uint32))
    d = csgraph.dijkstra(a, indices=0)
    t = int(np.argmax(np.where(np.isfinite(d), d, -1)))
    state = _aco_pheromone_run(g, t, 5).state
    with pytest.raises(MetaoptError, match="option seed was 3; this run has 4"):
        aco_shortest_path(g, 0, t, iterations=8, ants=12, seed=4, local_search=False, restart=4, cpu=True,
                          resume=state)
    with pytest.raises(MetaoptError, match="a run from 0 to"):
        aco_shortest_path(g, 1, t, iterations=8, ants=12, seed=3, local_search=False, restart=4, cpu=True,
                          resume=state)
    with pytest.raises(MetaoptError, match="truncated"):
        _aco_pheromone_run(g, t, 8, resume=state[: len(state) // 2])
    with pytest.raises(MetaoptError, match="checksum"):
        _aco_pheromone_run(g, t, 8, resume=state[:40] + bytes([state[40] ^ 1]) + state[41:])
    b = random_graph(60, 0.08, 6)
    other = Graph.from_csr(b.indptr, b.indices, b.data.astype(np.uint32))
    with pytest.raises(MetaoptError, match="another problem"):
        _aco_pheromone_run(other, t, 8, resume=state)
    with pytest.raises(TypeError, match="resume must be"):
        _aco_pheromone_run(g, t, 8, resume=3)
    with pytest.raises(ValueError, match="checkpoint_every needs"):
        _aco_pheromone_run(g, t, 8, checkpoint_every=1)
    with pytest.raises(MetaoptError, match="checkpoint_path"):
        _aco_pheromone_run(g, t, 8, checkpoint=tmp_path / "missing" / "x.state")
    # a refused state is not left behind: the next run starts afresh
    assert _aco_pheromone_run(g, t, 5) == _aco_pheromone_run(g, t, 5)
    fresh = _aco_pheromone_run(g, t, 8)
    with pytest.raises(MetaoptError):
        _aco_pheromone_run(g, (t + 1) % 60, 8, resume=state)
    assert _aco_pheromone_run(g, t, 8) == fresh
