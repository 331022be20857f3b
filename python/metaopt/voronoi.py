"""The additively weighted Voronoi diagram of balls (atoms) over ``metaopt_awvd_*``
(docs/specs/AWVD.md): ``awvd(balls_or_path, ...)`` gives its vertices (empty spheres tangent to
four balls, as Voronota's ``calculate-vertices``), edges and contacts as NumPy arrays;
``read_balls(path, ...)`` the balls of a PDB / mmCIF / balls file with Voronota's radii."""

import ctypes
import os
from dataclasses import dataclass, field

import numpy as np

from . import _checks, _ffi, _interrupt, _lib
from ._errors import ErrorCode, check, take_string

_F64 = ctypes.POINTER(ctypes.c_double)


def _flags(hetatm, hydrogens, all_models):
    """MetaoptAwvdSelection bits."""
    return (_ffi.METAOPT_AWVD_HETATM if _checks.flag("hetatm", hetatm) else 0) | (
        _ffi.METAOPT_AWVD_HYDROGENS if _checks.flag("hydrogens", hydrogens) else 0) | (
        _ffi.METAOPT_AWVD_ALL_MODELS if _checks.flag("all_models", all_models) else 0)


def read_balls(path, hetatm=False, hydrogens=False, all_models=False):
    """The balls of ``path`` as an (n, 4) float64 array of ``x, y, z, r``: ``.pdb``, ``.ent``,
    ``.cif``, ``.mmcif`` (optionally ``.gz``) as structures with Voronota's selection (first
    model, ATOM records, no hydrogens; ``hetatm``, ``hydrogens``, ``all_models`` widen it) and
    radii, anything else as a balls file of ``x y z r`` lines."""
    p = _checks.c_string("path", path, path=True)
    L = _lib.lib()
    b = L.metaopt_awvd_read_balls(p, _flags(hetatm, hydrogens, all_models))
    try:
        check(b, "metaopt_awvd_read_balls")
        n = int(b.n)
        return np.stack([np.ctypeslib.as_array(getattr(b, k), shape=(n,)).copy() for k in "xyzr"], axis=1)
    finally:
        L.metaopt_awvd_free_balls(ctypes.byref(b))


@dataclass(eq=False)
class AwvdResult:
    """The diagram: ``quadruples`` ((V, 4) uint32, the four balls of each vertex, ascending; rows
    sorted), ``which`` ((V,) uint8, which tangent sphere of the four: 0 or 1), ``spheres``
    ((V, 4) float64: x, y, z, r of the empty sphere), ``edges`` ((V, 4) int64: the neighbour
    along the edge opposite to each of the four balls, -1 where it is unbounded), ``contacts``
    ((C, 2) uint32 ball pairs i < j that share a face), ``balls`` ((n, 4) the balls it was made
    of), the counters ``searches``, ``double_rechecks``, ``float_replaced``, ``restarts``,
    ``elapsed`` (s, the diagram alone) and ``backend``; ``vertices_text()`` gives Voronota's
    format."""

    balls: np.ndarray
    quadruples: np.ndarray
    which: np.ndarray
    spheres: np.ndarray
    edges: np.ndarray
    contacts: np.ndarray
    searches: int
    double_rechecks: int
    float_replaced: int
    restarts: int
    elapsed: float = field(compare=False)
    backend: str = field(compare=False)
    text: str = field(compare=False, repr=False, default="")

    def vertices_text(self):
        """The vertices as ``voronota calculate-vertices`` prints them (``q1 q2 q3 q4 x y z r``,
        15 decimals, one line each)."""
        return self.text

    def __len__(self):
        return len(self.which)


def _balls(balls):
    a = _checks.numeric_array("balls", balls)
    if a.ndim != 2 or a.shape[1] != 4:
        raise ValueError(f"balls must have shape (n, 4) (x, y, z, r), got {a.shape}")
    if a.shape[0] == 0:
        raise ValueError("balls must hold at least one ball")
    a = np.ascontiguousarray(a, dtype=np.float64)
    bad = ~np.isfinite(a)
    if bad.any():
        i, k = (int(v) for v in np.argwhere(bad)[0])
        raise ValueError(f"balls[{i}, {k}] ({'xyzr'[k]}) is not finite: {a[i, k]}")
    if (a[:, 3] < 0).any():
        i = int(np.flatnonzero(a[:, 3] < 0)[0])
        raise ValueError(f"balls[{i}, 3] (r) is negative: {a[i, 3]}")
    return a


def _copied(L, what, h, fields):
    """Copies of the arrays of ``metaopt_awvd_<what>(h)`` (``fields``: name, columns, dtype; one
    row a vertex, edge row or contact), the C result freed."""
    res = getattr(L, f"metaopt_awvd_{what}")(h)
    try:
        check(res, f"metaopt_awvd_{what}")
        n = int(res.n)
        out = []
        for name, cols, dtype in fields:
            a = np.ctypeslib.as_array(getattr(res, name), shape=(cols * n,)).copy() if n else np.zeros(0, dtype)
            out.append(a.reshape(n, cols) if cols > 1 else a)
        return out
    finally:
        getattr(L, f"metaopt_awvd_free_{what}")(ctypes.byref(res))


def awvd(balls_or_path, cpu=False, device=None, double=False, cell=0.0, suspect_bound=1e-3, hetatm=False,
         hydrogens=False, all_models=False, time_limit=None, stop_token=None):
    """The additively weighted Voronoi diagram of ``balls_or_path``: an (n, 4) array of ``x, y,
    z, r`` or a file (read by ``read_balls`` with ``hetatm``, ``hydrogens``, ``all_models``).
    ``cpu=True`` computes on the rayon CPU backend, else on the device in use (``device``: a
    device number) with a float pass whose suspects are re-checked in double (``double=True``:
    double throughout). ``cell``: the grid cell in Å (0: the library's choice);
    ``suspect_bound``: the float pass's re-check distance. Returns an ``AwvdResult``.

    ``time_limit`` (seconds, the program build included) and ``stop_token`` (a
    ``metaopt.StopToken``) bound the call; a part of a diagram is no result, so a call past its
    limit raises ``MetaoptError`` (code ``ErrorCode.TIME_LIMIT``), and one stopped by Ctrl-C,
    ``metaopt.interrupt()`` or its token raises ``metaopt.Interrupted`` (``.result`` None)."""
    if isinstance(balls_or_path, (str, os.PathLike)):
        b = read_balls(balls_or_path, hetatm, hydrogens, all_models)
    else:
        b = _balls(balls_or_path)
    L = _lib.lib()
    o = L.metaopt_awvd_default_options()
    o.cell = _checks.real("cell", cell)
    if o.cell < 0:
        raise ValueError(f"cell must be >= 0, got {o.cell}")
    o.suspect_bound = _checks.real("suspect_bound", suspect_bound)
    if o.suspect_bound < 0:
        raise ValueError(f"suspect_bound must be >= 0, got {o.suspect_bound}")
    o.backend = _ffi.METAOPT_BACKEND_CPU if _checks.flag("cpu", cpu) else _ffi.METAOPT_BACKEND_DEVICE
    o.device = -1 if device is None else _checks.integer("device", device, 0, 2**31 - 1)
    o.double_precision = 1 if _checks.flag("double", double) else 0
    if time_limit is not None:
        o.time_limit_s = _checks.real("time_limit", time_limit)
        if o.time_limit_s <= 0:
            raise ValueError(f"time_limit must be positive, got {time_limit}")
    stop_token = _interrupt.token_arg(stop_token)
    n = _checks.integer("n (balls)", b.shape[0], 1, 2**32 - 1)
    cols = [np.ascontiguousarray(b[:, k]) for k in range(4)]
    r, caught = _interrupt.run(L.metaopt_awvd_build, (*(c.ctypes.data_as(_F64) for c in cols), n, ctypes.byref(o)),
                               o, stop_token, "awvd")
    h = None
    try:
        if r.error_code == ErrorCode.INTERRUPTED:
            # stopped: no diagram to give
            take_string(r.error_message)
            r.error_message = None
            _interrupt.raise_interrupted(caught or KeyboardInterrupt(), None, "awvd")
        check(r, "metaopt_awvd_build")
        h = r.awvd
        quadruples, which, spheres = _copied(L, "vertices", h, [("quadruples", 4, np.uint32), ("which", 1, np.uint8),
                                                                ("spheres", 4, np.float64)])
        (edges,) = _copied(L, "edges", h, [("neighbours", 4, np.int64)])
        (contacts,) = _copied(L, "contacts", h, [("pairs", 2, np.uint32)])
        t = L.metaopt_awvd_vertices_text(h)
        check(t, "metaopt_awvd_vertices_text")
        text = take_string(t.text) or ""
        result = AwvdResult(
            balls=b,
            quadruples=quadruples,
            which=which,
            spheres=spheres,
            edges=edges,
            contacts=contacts,
            searches=int(r.searches),
            double_rechecks=int(r.double_rechecks),
            float_replaced=int(r.float_replaced),
            restarts=int(r.restarts),
            elapsed=float(r.elapsed_s),
            backend=ctypes.string_at(r.backend).decode("utf-8", errors="replace") if r.backend else "",
            text=text,
        )
    finally:
        if h:
            L.metaopt_awvd_free(h)
        L.metaopt_awvd_free_result(ctypes.byref(r))
    if caught is not None:
        _interrupt.raise_interrupted(caught, result, "awvd")
    return result
