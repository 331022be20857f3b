"""The additively weighted Voronoi diagram from Python: 1UBQ (data/pdb) from the PDB file and
from an array equals Voronota's vertices (data/pdb/1ubq.vertices.txt), its spheres touch their
four balls and contain no ball, its edges link back, the device (PoCL here) equals the CPU, and
bad input raises errors naming the argument."""

import numpy as np
import pytest

import metaopt
from conftest import DATA_ROOT
from metaopt import ErrorCode, MetaoptError, awvd, read_balls

PDB = DATA_ROOT / "pdb"


def voronota_vertices():
    rows = [line.split() for line in (PDB / "1ubq.vertices.txt").read_text().splitlines() if line.strip()]
    q = np.array([[int(t) for t in r[:4]] for r in rows], dtype=np.uint32)
    s = np.array([[float(t) for t in r[4:8]] for r in rows])
    return q, s


@pytest.fixture(scope="module")
def ubq_cpu():
    return awvd(PDB / "1ubq.pdb", cpu=True)


def test_balls_of_1ubq_equal_voronotas_balls_file():
    b = read_balls(PDB / "1ubq.pdb")
    assert b.shape == (602, 4) and b.dtype == np.float64
    want = np.loadtxt(PDB / "1ubq.balls.txt", usecols=(0, 1, 2, 3))
    np.testing.assert_array_equal(b, want)
    np.testing.assert_array_equal(read_balls(str(PDB / "1ubq.balls.txt")), want)
    # N 1.55, C 1.70, O 1.52: the first atoms of 1UBQ are N, CA, C, O
    np.testing.assert_array_equal(b[:4, 3], [1.55, 1.70, 1.70, 1.52])


def test_1ubq_vertices_equal_voronotas(ubq_cpu):
    r = ubq_cpu
    assert len(r) == 3793
    assert r.quadruples.shape == (3793, 4) and r.quadruples.dtype == np.uint32
    assert r.spheres.shape == (3793, 4) and r.spheres.dtype == np.float64
    q, s = voronota_vertices()
    assert len(q) == 3793
    # the same quadruples (sorted rows; 1UBQ has one sphere per quadruple)
    got = sorted(map(tuple, r.quadruples.tolist()))
    want = sorted(map(tuple, q.tolist()))
    assert got == want
    # and the same spheres
    order_g = np.lexsort(r.quadruples.T[::-1])
    order_w = np.lexsort(q.T[::-1])
    np.testing.assert_allclose(r.spheres[order_g], s[order_w], atol=1e-6)
    assert np.all(np.diff(r.quadruples.astype(np.int64), axis=0)[:, 0] >= 0)  # sorted by the first ball
    text = r.vertices_text()
    assert len(text.splitlines()) == 3793
    first = text.splitlines()[0].split()
    assert [int(t) for t in first[:4]] == r.quadruples[0].tolist()
    assert float(first[7]) == pytest.approx(r.spheres[0, 3], abs=1e-12)
    assert "CPU" in r.backend and r.elapsed > 0
    assert r.searches > 0 and r.double_rechecks == 0 and r.float_replaced == 0


def test_1ubq_spheres_touch_their_balls_and_are_empty(ubq_cpu):
    r = ubq_cpu
    b = r.balls
    centres = b[r.quadruples, :3]  # (V, 4, 3)
    d = np.linalg.norm(centres - r.spheres[:, None, :3], axis=2)
    np.testing.assert_allclose(d, r.spheres[:, 3:4] + b[r.quadruples, 3], atol=1e-7)
    # no ball enters any sphere
    for k in range(0, len(r), 500):
        s = r.spheres[k]
        gap = np.linalg.norm(b[:, :3] - s[:3], axis=1) - b[:, 3] - s[3]
        assert gap.min() > -1e-7


def test_1ubq_edges_and_contacts(ubq_cpu):
    r = ubq_cpu
    assert r.edges.shape == (3793, 4) and r.edges.dtype == np.int64
    assert r.edges.min() >= -1 and r.edges.max() < 3793
    for v in range(0, len(r), 97):
        for m in r.edges[v]:
            if m >= 0:
                assert v in r.edges[m]
    c = r.contacts
    assert c.ndim == 2 and c.shape[1] == 2 and np.all(c[:, 0] < c[:, 1])
    pairs = set(map(tuple, c.tolist()))
    for qd in r.quadruples[::50].tolist():
        assert (qd[0], qd[1]) in pairs and (qd[2], qd[3]) in pairs


def test_array_input_equals_the_file_and_the_device_equals_the_cpu(ubq_cpu):
    b = read_balls(PDB / "1ubq.balls.txt")
    r = awvd(b, cpu=True)
    np.testing.assert_array_equal(r.quadruples, ubq_cpu.quadruples)
    np.testing.assert_array_equal(r.spheres, ubq_cpu.spheres)
    np.testing.assert_array_equal(r.edges, ubq_cpu.edges)
    try:
        d = awvd(b)
    except MetaoptError as e:
        if e.code == ErrorCode.NO_DEVICE:
            pytest.skip(f"no OpenCL device: {e}")
        raise
    assert "device" in d.backend
    np.testing.assert_array_equal(d.quadruples, ubq_cpu.quadruples)
    np.testing.assert_allclose(d.spheres, ubq_cpu.spheres, atol=1e-9)
    assert d.vertices_text() == ubq_cpu.vertices_text()


def test_bad_input_raises_errors_naming_the_argument(tmp_path):
    good = np.array([[0, 0, 0, 1.0], [3, 0, 0, 1.2], [0, 3, 0, 0.8], [0, 0, 3, 1.1], [1, 1, 1, 0.5]])
    with pytest.raises(ValueError, match="balls must have shape"):
        awvd(good[:, :3])
    with pytest.raises(ValueError, match="at least one ball"):
        awvd(np.zeros((0, 4)))
    bad = good.copy()
    bad[2, 3] = -0.5
    with pytest.raises(ValueError, match=r"balls\[2, 3\] \(r\) is negative"):
        awvd(bad)
    bad = good.copy()
    bad[1, 0] = np.nan
    with pytest.raises(ValueError, match=r"balls\[1, 0\] \(x\) is not finite"):
        awvd(bad)
    with pytest.raises(TypeError, match="balls must hold numbers"):
        awvd([["a", "b", "c", "d"]])
    with pytest.raises(ValueError, match="cell"):
        awvd(good, cpu=True, cell=-1)
    with pytest.raises(TypeError, match="cpu"):
        awvd(good, cpu="yes")
    with pytest.raises(MetaoptError) as e:
        awvd(tmp_path / "missing.balls", cpu=True)
    assert e.value.code == ErrorCode.IO and "missing.balls" in e.value.message
    p = tmp_path / "bad.balls"
    p.write_text("1 2 3 1.5\n1 2 x 1.5\n")
    with pytest.raises(MetaoptError) as e:
        read_balls(p)
    assert e.value.code == ErrorCode.PARSE and "bad.balls:2" in e.value.message and "`x`" in e.value.message
    # five balls: a small diagram whose spheres touch their balls
    r = awvd(good, cpu=True)
    assert len(r) > 0
    d = np.linalg.norm(good[r.quadruples, :3] - r.spheres[:, None, :3], axis=2)
    np.testing.assert_allclose(d, r.spheres[:, 3:4] + good[r.quadruples, 3], atol=1e-9)
    assert metaopt.awvd is awvd


def test_a_diagram_cut_short_raises_and_gives_nothing():
    """100,000 random balls: past a 0.3 s limit ``MetaoptError`` (``TIME_LIMIT``); stopped by a
    token, ``metaopt.Interrupted`` with no result; both within a second."""
    import threading
    import time

    rng = np.random.default_rng(1)
    balls = np.column_stack([rng.random((100_000, 3)) * 140, 1 + rng.random(100_000)])
    t0 = time.monotonic()
    with pytest.raises(MetaoptError) as e:
        awvd(balls, cpu=True, time_limit=0.3)
    assert time.monotonic() - t0 < 1.3
    assert e.value.code == ErrorCode.TIME_LIMIT and "time limit" in e.value.message
    with metaopt.StopToken() as token:
        threading.Timer(0.3, token.request).start()
        t0 = time.monotonic()
        with pytest.raises(metaopt.Interrupted) as e:
            awvd(balls, cpu=True, stop_token=token)
        assert time.monotonic() - t0 < 1.3 and e.value.result is None


def test_hostile_balls_are_errors_or_quick_diagrams(tmp_path):
    good = np.array([[0, 0, 0, 1.0], [3, 0, 0, 1.2], [0, 3, 0, 0.8], [0, 0, 3, 1.1], [1, 1, 1, 0.5]])
    # finite but huge: refused by the library naming the coordinate (a panic in its grid before)
    for k, v in [(0, 1e300), (1, -1e300), (2, 1e20)]:
        bad = good.copy()
        bad[2, k] = v
        with pytest.raises(MetaoptError) as e:
            awvd(bad, cpu=True)
        assert e.value.code == ErrorCode.INVALID_ARGUMENT and "ball 2" in e.value.message
    # a tiny cell is widened, the diagram unchanged
    np.testing.assert_array_equal(awvd(good, cpu=True, cell=1e-300).quadruples, awvd(good, cpu=True).quadruples)
    # equal balls: the later copies left out, the indices the first copy's
    twice = np.vstack([good, good])
    np.testing.assert_array_equal(awvd(twice, cpu=True).quadruples, awvd(good, cpu=True).quadruples)
    # a PDB atom with a `nan` coordinate is an error naming the line
    p = tmp_path / "nan.pdb"
    p.write_text(
        "ATOM      1  CA  GLY A   1         nan   0.000   0.000  1.00  0.00           C  \nEND\n"
    )
    with pytest.raises(MetaoptError) as e:
        read_balls(p)
    assert e.value.code == ErrorCode.PARSE and "nan.pdb:1" in e.value.message
