"""metaopt: GPU metaheuristics over OpenCL, from Python.

A ctypes wrapper of ``libmetaopt.so`` (no compiled extension). The library is found as the copy
inside this package (an installed wheel bundles one), else through the ``METAOPT_LIB``
environment variable (the file or its folder), else in the source tree's ``target/release``
(``library_path()`` says which).

Functions in the shape of scipy.optimize (each makes and frees its solver):

- ``minimize(fun, bounds, method="de" | "hc12", ...)``: island DE or HC12 over a box, for a
  Python function ``fun(x, *args) -> float`` (or ``vectorized=True``), a catalogue name or a
  ``Source``; returns an ``OptimizeResult`` (``x``, ``fun``, ``nfev``, ``nit``, ``success``,
  ``message``, ``precision``, ``device``, ``stop``, ...).
- ``qap.solve(...)`` (also ``qap_solve``): the QAP robust tabu search (or HC12); ``.cost``,
  ``.permutation``, ``.gap``.
- ``sat.solve(...)``: a model of a CNF formula; ``.satisfied``, ``.assignment``, ``.model``.

Classes (each owns a library handle: free it with ``free()``, a ``with`` block, or let it be
collected): ``HC12QAP`` (QAP, the thesis's class, with ``solve_ts``: the robust tabu search),
``HC12`` (general HC12, with catalogue, OpenCL C or Python objectives), ``IslandDE`` (island
differential evolution, the thesis's ``DEMultiPop``, with the same objectives), ``SAT`` and
``Knapsack`` (0/1 knapsack instances, solved by ``QIGA``: many quantum-inspired GA populations),
``BatchDE`` (many independent DE problems in one batch, per-problem settings as NumPy arrays),
``BasinHopping`` (chains of monotonic basin hopping over a box; ``bh.solve`` in one call),
``Graph`` (a directed graph from CSR arrays, scipy.sparse, networkx, a dense matrix or a
``.gr``/``.mtx``/``.osm.pbf`` file) with ``sssp(graph, sources)`` (exact shortest paths, NumPy
``dist`` and ``pred``) and ``aco_shortest_path(graph, s, t, ...)`` (the ant colony).

``evaluate(name, X, cpu=False)``: the catalogue function ``name`` (``"F1"``, ``"CEC05t"``, ...) at
the rows of a NumPy matrix ``X`` on the device or the host (the thesis's ``geatbx_cec_bundle``).

``awvd(balls_or_path, ...)``: the additively weighted Voronoi diagram of balls (an (n, 4) array or
a PDB / mmCIF / balls file; ``read_balls``): NumPy vertex quadruples, spheres, edges, contacts
and counters in an ``AwvdResult``.

Precision (DE, HC12): ``precision="auto"`` by default: the library computes in double where the
device has fp64 (``devices()`` reports ``fp64``) and on the CPU backend, else in single;
``"double"`` or ``"single"`` on request (``"double"`` is refused by a device without fp64).
Instances and results say which was used (``precision``).

Stopping: Ctrl-C during a long call (``IslandDE.run``, ``HC12.run``, the QAP and SAT solves,
``minimize``) stops it within about a second and raises ``Interrupted`` (a ``KeyboardInterrupt``)
whose ``result`` is the best so far; instances keep their state. ``interrupt()`` stops every
call running at that moment and a ``StopToken`` (``stop_token=``) the calls that carry it, from
any thread: those calls return their best so far with ``stop == "interrupted"``.

Library errors raise ``MetaoptError`` with ``code`` and ``message``; bad arguments raise
``TypeError``/``ValueError`` naming the argument. Threads may share an instance: its calls run
one at a time. A Python objective must not call its own instance (``free`` included): that raises
``MetaoptError`` with code ``ErrorCode.BUSY``.
"""

from . import batch_de, bh, catalogue, cec2006, knapsack, qap, qiga, sat, sp, voronoi
from ._errors import ErrorCode, MetaoptError
from ._interrupt import Interrupted, StopToken, interrupt
from ._lib import library_path
from ._objective import Source
from ._state import State
from .catalogue import evaluate, geatbx_cec_bundle
from .de import DEResult, IslandDE
from .device import (
    DeviceInfo,
    device_count,
    device_info,
    devices,
    get_cuda_device_number,
    get_device_number,
    is_device_valid,
    is_mem_space_valid,
    reset_device,
    set_cuda_device_number,
    set_device_number,
)
from .hc12 import HC12, HC12Result
from .optimize import OptimizeResult, minimize
from .qap import (
    HC12QAP,
    QAPRun,
    QAPSolution,
    QAPTsSolution,
    df_from_ab,
    qap_cost,
    qap_solve,
    read_qaplib,
    read_solution,
)
from .sat import SAT, SATResult, read_dimacs, unsatisfied_clauses
from .knapsack import Knapsack, KnapsackEvaluation, KnapsackOptimum
from .qiga import QIGA, QIGAResult, QIGAStats
from .batch_de import BatchDE, BatchDEResult
from .bh import BasinHopping, BHResult
from .sp import AcoResult, Graph, SsspResult, aco_shortest_path, sssp
from .voronoi import AwvdResult, awvd, read_balls

__version__ = "0.1.0"

__all__ = [
    "minimize", "OptimizeResult", "qap", "sat",
    "ErrorCode", "MetaoptError", "library_path", "Source", "State",
    "interrupt", "StopToken", "Interrupted",
    "DeviceInfo", "device_count", "device_info", "devices", "get_device_number", "is_device_valid", "is_mem_space_valid",
    "reset_device", "set_device_number", "get_cuda_device_number", "set_cuda_device_number",
    "HC12", "HC12Result",
    "IslandDE", "DEResult",
    "HC12QAP", "QAPRun", "QAPSolution", "QAPTsSolution", "qap_solve", "df_from_ab", "qap_cost", "read_qaplib", "read_solution",
    "SAT", "SATResult", "read_dimacs", "unsatisfied_clauses",
    "knapsack", "qiga", "Knapsack", "KnapsackOptimum", "KnapsackEvaluation", "QIGA", "QIGAResult", "QIGAStats",
    "batch_de", "BatchDE", "BatchDEResult",
    "bh", "BasinHopping", "BHResult",
    "sp", "Graph", "SsspResult", "AcoResult", "sssp", "aco_shortest_path",
    "catalogue", "evaluate", "geatbx_cec_bundle",
]
