"""Shortest paths over ``metaopt_graph_*``, ``metaopt_sp_*`` and ``metaopt_aco_*``: a ``Graph``
(from CSR arrays, arcs, a dense matrix, a scipy.sparse matrix, a networkx graph, a file or a
generator), exact single- and multi-source shortest paths (``sssp``, NumPy arrays out:
distances as ``scipy.sparse.csgraph.dijkstra`` gives them, ``inf`` for unreachable; predecessors
with ``-1`` where scipy writes ``-9999``) and the ant colony for one source-target pair
(``aco_shortest_path``).

Both take ``time_limit=`` (seconds) and ``stop_token=`` (a ``metaopt.StopToken``), and answer Ctrl-C
while they run (``_interrupt.run``). The ant colony then returns its best path so far (``stop``
says why; Ctrl-C raises ``metaopt.Interrupted`` carrying it); exact shortest paths have no result
so far: past the time limit ``sssp`` raises ``MetaoptError`` (``ErrorCode.TIME_LIMIT``), and
stopped it raises ``metaopt.Interrupted`` (a ``KeyboardInterrupt``) with no result."""

import ctypes
from dataclasses import dataclass, field

import numpy as np

from . import _checks, _ffi, _interrupt, _lib, _state
from ._errors import ErrorCode, check, take_string
from ._handle import Instance
from ._result import ArrayEq, LibraryOwned

# MetaoptWeightType by NumPy dtype
_WEIGHT_TYPES = {
    np.dtype(np.uint32): _ffi.METAOPT_WEIGHT_U32,
    np.dtype(np.uint64): _ffi.METAOPT_WEIGHT_U64,
    np.dtype(np.float32): _ffi.METAOPT_WEIGHT_F32,
    np.dtype(np.float64): _ffi.METAOPT_WEIGHT_F64,
}
_WEIGHT_NAMES = {
    _ffi.METAOPT_WEIGHT_U32: "uint32",
    _ffi.METAOPT_WEIGHT_U64: "uint64",
    _ffi.METAOPT_WEIGHT_F32: "float32",
    _ffi.METAOPT_WEIGHT_F64: "float64",
}
# MetaoptGraphFormat
FORMATS = {
    "auto": _ffi.METAOPT_GRAPH_FORMAT_AUTO,
    "dimacs": _ffi.METAOPT_GRAPH_FORMAT_DIMACS,
    "mtx": _ffi.METAOPT_GRAPH_FORMAT_MATRIX_MARKET,
    "osm": _ffi.METAOPT_GRAPH_FORMAT_OSM_PBF,
    "osm-roads-rounded": _ffi.METAOPT_GRAPH_FORMAT_OSM_PBF_ROADS_ROUNDED,
}
# MetaoptSpMethod
METHODS = {
    "bellman-ford": _ffi.METAOPT_SP_BELLMAN_FORD,
    "frontier": _ffi.METAOPT_SP_FRONTIER,
    "near-far": _ffi.METAOPT_SP_NEAR_FAR,
}
_DEPOSITS = {"all": _ffi.METAOPT_ACO_DEPOSIT_ALL, "iteration-best": _ffi.METAOPT_ACO_DEPOSIT_ITERATION_BEST}
_SELECTIONS = {"roulette": _ffi.METAOPT_ACO_SELECTION_ROULETTE, "gumbel": _ffi.METAOPT_ACO_SELECTION_GUMBEL}
_U32 = ctypes.POINTER(ctypes.c_uint32)
_U64 = ctypes.POINTER(ctypes.c_uint64)


def _weights(name, value, length=None):
    """``value`` as a contiguous array of one of the library's four weight types: unsigned
    32/64-bit and float32/float64 arrays as they are, other integers (non-negative) as uint32 when
    they fit else uint64, bools as uint32, other floats as float64. Returns (array, type code)."""
    raw = _checks.numeric_array(name, value).reshape(-1)
    if length is not None and raw.size != length:
        raise ValueError(f"{name} must have {length} entries, got {raw.size}")
    dt = raw.dtype
    if dt not in _WEIGHT_TYPES:
        if dt.kind in "iub":
            if raw.size and raw.min() < 0:
                raise ValueError(f"{name} must be non-negative (entry {int(np.argmin(raw))} is {raw.min()})")
            dt = np.dtype(np.uint32) if not raw.size or raw.max() < 2**32 else np.dtype(np.uint64)
        else:
            dt = np.dtype(np.float64)
    out = np.ascontiguousarray(raw, dtype=dt)
    return out, _WEIGHT_TYPES[dt]


class Graph(Instance):
    """A directed graph with non-negative weights (``uint32``, ``uint64``, ``float32`` or
    ``float64``, taken from the arrays given): ``Graph(offsets, targets, weights)`` from CSR
    arrays (or ``Graph.from_csr``), ``Graph.from_edges(n, sources, targets, weights)``,
    ``Graph.from_dense(matrix)`` (0 = no arc), ``Graph.from_scipy(A)`` (any scipy.sparse matrix:
    entry (i, j) is the arc i -> j, as scipy.sparse.csgraph reads it), ``Graph.from_networkx(G,
    weight="weight")``, ``Graph.from_file(path, format="auto")`` (``.gr``, ``.mtx``, ``.osm.pbf``)
    and the generators ``Graph.thesis_random(i, j, seed)`` and ``Graph.grid(width, height, ...)``.
    Self-loops are dropped, duplicate arcs keep the smallest weight.

    Properties: ``n``, ``m``, ``weight_type`` (a NumPy dtype name), ``nodes`` (the networkx node
    of each vertex for ``from_networkx``, else None); ``csr()`` gives copies of the arrays,
    ``to_scipy()`` a ``scipy.sparse.csr_array``."""

    nodes = None

    def __init__(self, offsets, targets, weights):
        off = _checks.vector("offsets", offsets, np.uint64)
        if off.size == 0:
            raise ValueError("offsets must hold n + 1 entries, got 0")
        tg = _checks.vector("targets", targets, np.uint32)
        w, t = _weights("weights", weights, length=tg.size)
        n = _checks.integer("n (offsets' length - 1)", off.size - 1, 0, 2**32 - 1)
        r = _lib.lib().metaopt_graph_from_csr(n, off.ctypes.data_as(_U64), tg.size, tg.ctypes.data_as(_U32),
                                              w.ctypes.data_as(ctypes.c_void_p), t)
        self._init(r, "metaopt_graph_from_csr")

    def _init(self, r, function):
        check(r, function)
        self._adopt(r.graph, "metaopt_graph_free")
        self._n, self._m, self._type = int(r.n), int(r.m), int(r.weight_type)

    @classmethod
    def _make(cls, r, function):
        self = cls.__new__(cls)
        self._init(r, function)
        return self

    @classmethod
    def from_csr(cls, offsets, targets, weights):
        """The same as ``Graph(offsets, targets, weights)``."""
        return cls(offsets, targets, weights)

    @classmethod
    def from_edges(cls, n, sources, targets, weights):
        """``n`` vertices and the arcs ``sources[i] -> targets[i]`` of weight ``weights[i]``."""
        n = _checks.integer("n", n, 0, 2**32 - 1)
        s = _checks.vector("sources", sources, np.uint32)
        tg = _checks.vector("targets", targets, np.uint32, length=s.size)
        w, t = _weights("weights", weights, length=s.size)
        r = _lib.lib().metaopt_graph_from_edges(n, s.size, s.ctypes.data_as(_U32), tg.ctypes.data_as(_U32),
                                                w.ctypes.data_as(ctypes.c_void_p), t)
        return cls._make(r, "metaopt_graph_from_edges")

    @classmethod
    def from_dense(cls, matrix):
        """A square matrix: entry (u, v) is the arc u -> v, 0 means no arc, the diagonal is
        ignored (the thesis's convention)."""
        a = _checks.numeric_array("matrix", matrix)
        if a.ndim != 2 or a.shape[0] != a.shape[1]:
            raise ValueError(f"matrix must be square, got shape {a.shape}")
        n = _checks.integer("n", a.shape[0], 0, 2**32 - 1)
        w, t = _weights("matrix", np.ascontiguousarray(a))
        r = _lib.lib().metaopt_graph_from_dense(n, w.ctypes.data_as(ctypes.c_void_p), t)
        return cls._make(r, "metaopt_graph_from_dense")

    @classmethod
    def from_scipy(cls, a):
        """A square scipy.sparse matrix (or array): every stored entry (i, j), explicit zeros
        included, is the arc i -> j; duplicate entries are summed first (as scipy does)."""
        if not hasattr(a, "tocsr"):
            raise TypeError(f"a must be a scipy.sparse matrix, got {type(a).__name__}")
        csr = a.tocsr(copy=True)
        csr.sum_duplicates()
        if csr.shape[0] != csr.shape[1]:
            raise ValueError(f"a must be square, got shape {csr.shape}")
        return cls(csr.indptr, csr.indices, csr.data)

    @classmethod
    def from_networkx(cls, g, weight="weight", default=1):
        """A networkx graph: vertex i is the i-th node of ``g.nodes`` (``nodes`` gives them
        back), the weight of an edge its ``weight`` attribute (``default`` when absent); an
        undirected graph gives arcs both ways."""
        nodes = list(g.nodes)
        index = {v: i for i, v in enumerate(nodes)}
        src, dst, wts = [], [], []
        for u, v, w in g.edges(data=weight, default=default):
            src.append(index[u])
            dst.append(index[v])
            wts.append(w)
            if not g.is_directed():
                src.append(index[v])
                dst.append(index[u])
                wts.append(w)
        weights = np.asarray(wts) if wts else np.zeros(0, dtype=np.float64)
        self = cls.from_edges(len(nodes), np.asarray(src, dtype=np.uint32), np.asarray(dst, dtype=np.uint32), weights)
        self.nodes = nodes
        return self

    @classmethod
    def from_file(cls, path, format="auto"):  # noqa: A002 - the file format
        """Reads a DIMACS ``.gr``, a MatrixMarket ``.mtx`` (either optionally gzip, ``.gz``) or an
        OpenStreetMap ``.osm.pbf`` file (``format``: ``"auto"`` by the extension, ``"dimacs"``,
        ``"mtx"``, ``"osm"`` (every highway, metres as float64) or ``"osm-roads-rounded"`` (roads,
        whole metres, uint32)). A header must back its vertex count with arcs (at most twice the
        arcs plus 2^20), and NaN, infinite or negative weights are refused naming the line."""
        p = _checks.c_string("path", path, path=True)
        f = _checks.choice("format", format, FORMATS)
        return cls._make(_lib.lib().metaopt_graph_from_file(p, f), "metaopt_graph_from_file")

    @classmethod
    def thesis_random(cls, i, j, seed=0):
        """The thesis's random graph: 2^i vertices, about half the ordered pairs arcs, weights in
        1 .. 2^j - 1 (uint32)."""
        i = _checks.integer("i", i, 0, 2**32 - 1)
        j = _checks.integer("j", j, 0, 2**32 - 1)
        seed = _checks.integer("seed", seed, 0, 2**64 - 1)
        return cls._make(_lib.lib().metaopt_graph_thesis_random(i, j, seed), "metaopt_graph_thesis_random")

    @classmethod
    def grid(cls, width, height, max_weight=1, obstacles=0.0, seed=0):
        """A 4-neighbour grid (cell (x, y) is vertex ``y * width + x``), weights uniform in
        1..max_weight, each cell an obstacle with probability ``obstacles``."""
        w = _checks.integer("width", width, 0, 2**32 - 1)
        h = _checks.integer("height", height, 0, 2**32 - 1)
        mw = _checks.integer("max_weight", max_weight, 0, 2**32 - 1)
        ob = _checks.real("obstacles", obstacles)
        seed = _checks.integer("seed", seed, 0, 2**64 - 1)
        return cls._make(_lib.lib().metaopt_graph_grid(w, h, mw, ob, seed), "metaopt_graph_grid")

    @property
    def n(self):
        return self._n

    @property
    def m(self):
        return self._m

    @property
    def weight_type(self):
        return _WEIGHT_NAMES[self._type]

    def csr(self):
        """Copies of the CSR arrays: ``offsets`` (uint64, n + 1), ``targets`` (uint32, m) and
        ``weights`` (float64, m; uint64 weights above 2^53 round)."""
        L = _lib.lib()
        with self._use("csr") as h:
            d = L.metaopt_graph_data(h)
            try:
                check(d, "metaopt_graph_data")
                n, m = int(d.n), int(d.m)
                off = np.ctypeslib.as_array(d.offsets, shape=(n + 1,)).copy()
                tg = np.ctypeslib.as_array(d.targets, shape=(m,)).copy() if m else np.zeros(0, np.uint32)
                w = np.ctypeslib.as_array(d.weights, shape=(m,)).copy() if m else np.zeros(0, np.float64)
                return off, tg, w
            finally:
                L.metaopt_graph_free_data(ctypes.byref(d))

    def to_scipy(self):
        """The graph as a ``scipy.sparse.csr_array`` of float64 weights (needs scipy)."""
        import scipy.sparse

        off, tg, w = self.csr()
        return scipy.sparse.csr_array((w, tg.astype(np.int64), off.astype(np.int64)), shape=(self._n, self._n))

    def __repr__(self):
        state = "freed" if self.freed else f"n={self._n}, m={self._m}, weights={self.weight_type}"
        return f"Graph({state})"


@dataclass(eq=False)
class SsspResult(ArrayEq):
    """Shortest paths from ``sources``: ``dist`` (float64, ``inf`` for unreachable) and ``pred``
    (int32, -1 for the source and unreachable vertices), of shape (n,) for one source and (k, n)
    for several; ``dist_int`` the exact uint64 distances of an integer-weight graph (unreachable
    2^64 - 1; float64 is exact below 2^53), else None; per source ``reached`` and ``edges``
    (traversed arcs); ``rounds`` (device rounds, 0 on the CPU), ``elapsed`` (s) and
    ``backend``. ``dist, pred = sssp(...)`` unpacks."""

    sources: np.ndarray
    dist: np.ndarray
    pred: np.ndarray
    dist_int: object
    reached: np.ndarray
    edges: np.ndarray
    rounds: int
    elapsed: float = field(compare=False)
    backend: str = field(compare=False)

    def __iter__(self):
        return iter((self.dist, self.pred))


def _time_limit(time_limit):
    """``time_limit=`` as the C field's seconds (0: none)."""
    if time_limit is None:
        return 0.0
    t = _checks.real("time_limit", time_limit)
    if t <= 0:
        raise ValueError(f"time_limit must be positive, got {time_limit}")
    return t


def _stop_word(code):
    """The word of a ``MetaoptStopReason`` (``metaopt_stop_reason_word``)."""
    w = _lib.lib().metaopt_stop_reason_word(int(code))
    return w.decode("ascii") if w else str(int(code))


def _sp_options(method, delta, cpu, rounds_per_check, max_rounds, device=None):
    o = _lib.lib().metaopt_sp_default_options()
    o.method = _checks.choice("method", method, METHODS)
    o.delta = 0.0 if delta is None else _checks.real("delta", delta)
    o.backend = _ffi.METAOPT_BACKEND_CPU if _checks.flag("cpu", cpu) else _ffi.METAOPT_BACKEND_DEVICE
    o.device = _checks.device(device)
    o.rounds_per_check = _checks.integer("rounds_per_check", rounds_per_check, 0, 2**32 - 1)
    o.max_rounds = 0 if max_rounds is None else _checks.integer("max_rounds", max_rounds, 1, 2**64 - 1)
    return o


def sssp(graph, sources, method="near-far", delta=None, cpu=False, rounds_per_check=16, max_rounds=None, device=None,
         time_limit=None, stop_token=None):
    """Exact shortest paths on ``graph`` from ``sources`` (one vertex number: arrays of shape
    (n,); a sequence of k: (k, n), in one device call). ``method``: ``"near-far"`` (the default; with
    ``delta``, None: the library's choice), ``"frontier"`` or ``"bellman-ford"``; ``cpu=True``
    runs Dijkstra per source on the CPU instead of the device in use (``device``: a device number;
    None: the device in use). Returns an ``SsspResult``
    (``dist, pred = sssp(g, s)``).

    ``time_limit`` (seconds, the program build included) and ``stop_token`` (a
    ``metaopt.StopToken``) bound the call; distances that are not final are no result, so a call
    past its limit raises ``MetaoptError`` (code ``ErrorCode.TIME_LIMIT``), and one stopped by Ctrl-C,
    ``metaopt.interrupt()`` or its token raises ``metaopt.Interrupted`` (a ``KeyboardInterrupt``,
    ``.result`` None)."""
    if not isinstance(graph, Graph):
        raise TypeError(f"graph must be a metaopt.Graph, got {type(graph).__name__}")
    single = np.ndim(sources) == 0
    s = _checks.vector("sources", np.atleast_1d(sources), np.uint32)
    if s.size == 0:
        raise ValueError("sources must name at least one vertex")
    o = _sp_options(method, delta, cpu, rounds_per_check, max_rounds, device)
    o.time_limit_s = _time_limit(time_limit)
    stop_token = _interrupt.token_arg(stop_token)
    L = _lib.lib()
    with graph._use("sssp") as h:
        r, caught = _interrupt.run(L.metaopt_sp_sssp_multi, (h, s.ctypes.data_as(_U32), s.size, ctypes.byref(o)), o,
                                   stop_token, "sssp")
        # the k x n tables stay in the library's buffers, which the arrays view (no copy of
        # what can be gigabytes); the result is freed once no array of it is left
        owner = LibraryOwned(r, L.metaopt_sp_free_result)
        try:
            if r.error_code == ErrorCode.INTERRUPTED:
                # stopped: no distances to give (the result is empty)
                take_string(r.error_message)
                r.error_message = None
                _interrupt.raise_interrupted(caught or KeyboardInterrupt(), None, "sssp")
            check(r, "metaopt_sp_sssp_multi")
            k, n = int(r.k), int(r.n)
            shape = (n,) if single else (k, n)
            dist = owner.array(r.dist, shape, np.float64)
            pred = owner.array(r.pred, shape, np.int32)
            dist_int = owner.array(r.dist_int, shape, np.uint64) if r.dist_int else None
            result = SsspResult(
                sources=np.ctypeslib.as_array(r.sources, shape=(k,)).copy(),
                dist=dist,
                pred=pred,
                dist_int=dist_int,
                reached=np.ctypeslib.as_array(r.reached, shape=(k,)).copy(),
                edges=np.ctypeslib.as_array(r.edges, shape=(k,)).copy(),
                rounds=int(r.rounds),
                elapsed=float(r.elapsed_s),
                backend=ctypes.string_at(r.backend).decode("utf-8", errors="replace") if r.backend else "",
            )
        except BaseException:
            owner.free()
            raise
        del owner
    if caught is not None:
        # Ctrl-C came as the call finished: its complete result goes with the exception
        _interrupt.raise_interrupted(caught, result, "sssp")
    return result


@dataclass(eq=False)
class AcoResult(ArrayEq):
    """A run of the ant colony from ``source`` to ``target``: ``path`` (uint32 vertices, None
    when no ant reached the target), its ``length``, ``length_int`` (exact, integer weights,
    else None) and ``gap`` to ``exact_length`` (host Dijkstra; ``inf`` when unreachable);
    ``pheromone_path`` (the walk along the strongest pheromone, or None), ``pheromone_length``,
    ``pheromone_gap``; ``iterations``, ``found_at_iteration`` (1-based, None), ``successful_ants``,
    ``elapsed`` (s), ``backend``; ``stop``, why the run ended: ``"budget"`` (its iterations),
    ``"stagnation"`` (``max_no_improve``), ``"time_limit"``, ``"interrupted"`` or ``"done"`` (no
    iteration needed). ``exact`` says whether ``path`` is a shortest path. ``state``: the run's
    whole state (a ``metaopt.State``: pheromone, best path, counters), which
    ``aco_shortest_path(..., resume=result.state)`` continues; None when the run made no
    iteration. It is not compared and not part of the repr."""

    source: int
    target: int
    path: object
    length: float
    length_int: object
    gap: float
    pheromone_path: object
    pheromone_length: float
    pheromone_gap: float
    exact_length: float
    iterations: int
    found_at_iteration: object
    successful_ants: int
    elapsed: float = field(compare=False)
    backend: str = field(compare=False)
    stop: str = "budget"
    state: object = field(default=None, compare=False, repr=False)

    @property
    def exact(self):
        return self.path is not None and self.gap == 0.0


_ACO_REALS = ("alpha", "beta", "damping", "evaporation", "deposit_exponent")


def aco_shortest_path(graph, source, target, cpu=False, device=None, time_limit=None, stop_token=None,
                      checkpoint=None, checkpoint_every=None, resume=None, **options):
    """The ant colony (docs/specs/ACO.md) on ``graph`` from ``source`` to ``target``, on the
    device in use (or device number ``device``) or (``cpu=True``) the CPU backend (the same result
    for the same seed).
    ``options`` (the library's defaults when absent): ``ants``, ``alpha``, ``beta``, ``damping``,
    ``evaporation``, ``deposit_exponent``, ``initial_pheromone`` (None: MAX-MIN reset),
    ``iterations`` (None: the thesis's rule), ``max_no_improve`` (None: never), ``max_min``
    (None: no bounds), ``deposit`` (``"all"``, ``"iteration-best"``), ``selection``
    (``"roulette"``, ``"gumbel"``), ``max_steps`` (None: no limit), ``seed``, ``group_size``
    (None: tuning), ``local_search`` (True: shortcuts and one- to three-vertex detours of every successful
    ant's path, the library's default; False: the thesis's method), ``restart`` (None: never; else
    iterations without a shorter path before the pheromone is reset). Returns an ``AcoResult``.

    ``time_limit`` (seconds, the program build included) and ``stop_token`` (a
    ``metaopt.StopToken``, or ``metaopt.interrupt()``) end the run between iterations with its
    best path so far (``stop`` says which); Ctrl-C does the same and raises ``metaopt.Interrupted``
    (a ``KeyboardInterrupt``) whose ``.result`` is that ``AcoResult``.

    Checkpoints: ``checkpoint`` a file the run writes its whole state to when it ends
    (interrupted or not) and every ``checkpoint_every`` seconds; ``resume`` (a ``metaopt.State``,
    such as the ``state`` of an earlier result, its bytes, or a checkpoint file's path) continues
    that run as if it had never stopped: the graph, ``source``, ``target`` and the options must be
    the saved run's (``iterations``, ``max_no_improve`` and ``time_limit`` may differ; they count
    the work already done)."""
    if not isinstance(graph, Graph):
        raise TypeError(f"graph must be a metaopt.Graph, got {type(graph).__name__}")
    resume = _state.resume_arg(resume)
    source = _checks.integer("source", source, 0, 2**32 - 1)
    target = _checks.integer("target", target, 0, 2**32 - 1)
    L = _lib.lib()
    o = L.metaopt_aco_default_options()
    o.backend = _ffi.METAOPT_BACKEND_CPU if _checks.flag("cpu", cpu) else _ffi.METAOPT_BACKEND_DEVICE
    o.device = _checks.device(device)
    o.time_limit_s = _time_limit(time_limit)
    stop_token = _interrupt.token_arg(stop_token)
    for key, value in options.items():
        if key in _ACO_REALS:
            setattr(o, key, _checks.real(key, value))
        elif key in ("initial_pheromone", "max_min"):
            setattr(o, key, 0.0 if value is None else _checks.real(key, value))
        elif key in ("ants",):
            o.ants = _checks.integer(key, value, 0, 2**32 - 1)
        elif key == "local_search":
            o.local_search = 1 if _checks.flag(key, value) else 0
        elif key in ("iterations", "max_no_improve", "max_steps", "group_size", "restart"):
            setattr(o, key, 0 if value is None else _checks.integer(key, value, 1, 2**32 - 1))
        elif key == "seed":
            o.seed = _checks.integer(key, value, 0, 2**64 - 1)
        elif key == "deposit":
            o.deposit = _checks.choice(key, value, _DEPOSITS)
        elif key == "selection":
            o.selection = _checks.choice(key, value, _SELECTIONS)
        else:
            raise TypeError(f"aco_shortest_path got an unexpected option {key!r}")

    def path(p, count):
        return np.ctypeslib.as_array(p, shape=(count,)).copy() if p else None

    keep_path = []
    _state.set_checkpoint(o, checkpoint, checkpoint_every, keep_path)
    with graph._use("aco_shortest_path") as h:
        if resume is not None:
            _state.load(L.metaopt_aco_load_state, h, resume, "metaopt_aco_load_state")
        r, caught = _interrupt.run(L.metaopt_aco_run, (h, source, target, ctypes.byref(o)), o, stop_token,
                                   "aco_shortest_path")
        try:
            check(r, "metaopt_aco_run", interrupted_ok=True)
            result = AcoResult(
                source=int(r.source),
                target=int(r.target),
                path=path(r.path, int(r.path_length)) if r.found else None,
                length=float(r.length),
                length_int=int(r.length_int) if r.found and r.length_int != 2**64 - 1 else None,
                gap=float(r.gap),
                pheromone_path=path(r.pheromone_path, int(r.pheromone_path_length)) if r.pheromone_found else None,
                pheromone_length=float(r.pheromone_length),
                pheromone_gap=float(r.pheromone_gap),
                exact_length=float(r.exact_length),
                iterations=int(r.iterations),
                found_at_iteration=int(r.found_at_iteration) or None,
                successful_ants=int(r.successful_ants),
                elapsed=float(r.elapsed_s),
                backend=ctypes.string_at(r.backend).decode("utf-8", errors="replace") if r.backend else "",
                stop=_stop_word(r.stop_reason),
            )
        finally:
            L.metaopt_aco_free_run_result(ctypes.byref(r))
        if result.iterations > 0:
            result.state = _state.saved(L, L.metaopt_aco_save_state, h, "metaopt_aco_save_state")
    if caught is not None:
        _interrupt.raise_interrupted(caught, result, "aco_shortest_path")
    return result
