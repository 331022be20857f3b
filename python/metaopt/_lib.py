"""ctypes declarations of ``libmetaopt.so`` (``include/metaopt.h``) and the library loader.

Every struct of the header is a ``ctypes.Structure`` here and every function has its
``argtypes`` and ``restype``.  Strings the library returns are declared ``POINTER(c_char)``,
never ``c_char_p``: ctypes would turn a ``c_char_p`` into a Python ``bytes`` and lose the
pointer that must go back to ``metaopt_pointer_free``.

Adding a solver: declare its structs below and its functions in ``_SIGNATURES``; until then
its names may be listed in ``PENDING_PREFIXES`` / ``PENDING_NAMES`` (the test suite checks that
every function and struct of the header is declared here, except those).
"""

import ctypes
import os
import platform
from ctypes import (
    CFUNCTYPE,
    POINTER,
    Structure,
    c_char,
    c_char_p,
    c_double,
    c_float,
    c_int32,
    c_int64,
    c_uint8,
    c_uint16,
    c_uint32,
    c_uint64,
    c_void_p,
)
from pathlib import Path

# Header functions and structs this package does not wrap yet: the test of the declarations
# skips them. Every solver of the header is wrapped now, so both are empty.
PENDING_PREFIXES = ()
PENDING_NAMES = frozenset()

c_char_ptr = POINTER(c_char)


# --- opaque handles -------------------------------------------------------------------------
class MetaoptQapInstance(Structure):
    """Opaque QAP instance (``metaopt_qap_params``)."""


class MetaoptHc12Instance(Structure):
    """Opaque general HC12 instance (``metaopt_hc12_params``)."""


class MetaoptSatInstance(Structure):
    """Opaque SAT instance (``metaopt_sat_parse``)."""


class MetaoptDeInstance(Structure):
    """Opaque island DE instance (``metaopt_de_create``)."""


class MetaoptStopToken(Structure):
    """Opaque per-call stop request (``metaopt_stop_token_create``)."""


class MetaoptKnapsack(Structure):
    """Opaque 0/1 knapsack instance (``metaopt_knapsack_from_file``)."""


class MetaoptBatchDeInstance(Structure):
    """Opaque batch of DE problems (``metaopt_batch_de_create``)."""


class MetaoptGraph(Structure):
    """Opaque directed graph (``metaopt_graph_from_csr``, ...)."""


MetaoptQapInstance_p = POINTER(MetaoptQapInstance)
MetaoptHc12Instance_p = POINTER(MetaoptHc12Instance)
MetaoptSatInstance_p = POINTER(MetaoptSatInstance)
MetaoptDeInstance_p = POINTER(MetaoptDeInstance)
MetaoptStopToken_p = POINTER(MetaoptStopToken)
MetaoptKnapsack_p = POINTER(MetaoptKnapsack)
MetaoptBatchDeInstance_p = POINTER(MetaoptBatchDeInstance)
MetaoptGraph_p = POINTER(MetaoptGraph)


class MetaoptAwvd(Structure):
    """Opaque additively weighted Voronoi diagram (``metaopt_awvd_build``, ...)."""


MetaoptAwvd_p = POINTER(MetaoptAwvd)


# --- batched DE structs ---------------------------------------------------------------------
class MetaoptBatchDeProblem(Structure):
    _fields_ = [
        ("function", c_char_p),
        ("source", c_char_p),
        ("data", c_void_p),
        ("data_bytes", c_uint64),
        ("dims", c_uint32),
        ("lower", POINTER(c_double)),
        ("lower_length", c_uint32),
        ("upper", POINTER(c_double)),
        ("upper_length", c_uint32),
        ("members", c_uint32),
        ("f", c_double),
        ("cr", c_double),
        ("mutation", c_char_p),
        ("bounds", c_char_p),
        ("seed", c_uint64),
        ("max_generations", c_uint64),
        ("has_target", c_uint8),
        ("target", c_double),
        ("algorithm", c_int32),
        ("jde_small", c_uint32),
    ]


class MetaoptBatchDeOptions(Structure):
    _fields_ = [("backend", c_int32), ("precision", c_int32), ("generations_per_launch", c_uint32), ("placement", c_int32),
                ("device", c_int32)]


class MetaoptBatchDeStop(Structure):
    _fields_ = [("time_limit", c_double), ("stop_token", MetaoptStopToken_p)]


class MetaoptBatchDeCreateResult(Structure):
    _fields_ = [("error_code", c_int32), ("error_message", c_char_ptr), ("instance", MetaoptBatchDeInstance_p)]


class MetaoptBatchDeRunResult(Structure):
    _fields_ = [
        ("count", c_uint32),
        ("best_value", POINTER(c_double)),
        ("generations", POINTER(c_uint64)),
        ("stop_reason", POINTER(c_int32)),
        ("seconds", c_double),
        ("precision", c_int32),
        ("local_memory", c_int32),
        ("error_code", c_int32),
        ("error_message", c_char_ptr),
    ]


# --- structs, in the order of the header ----------------------------------------------------
class MetaoptDeOptions(Structure):
    _fields_ = [
        ("f_const", c_uint8),
        ("f_min", c_double),
        ("f_max", c_double),
        ("cr", c_double),
        ("cr_per_island", POINTER(c_double)),
        ("init_seed", c_uint64),
        ("mutation_seed", c_uint64),
        ("crossover_seed", c_uint64),
        ("migration_seed", c_uint64),
        ("double_precision", c_uint8),
        ("shared_random", c_uint8),
        ("backend", c_int32),
        ("precision", c_int32),  # MetaoptPrecision: 0 auto, 1 single, 2 double
        ("fused", c_uint8),  # the fused kernel between migrations (default 1)
        ("selection", c_int32),  # MetaoptDeSelection: 0 ties (f(y) <= f(x), default), 1 strict (<)
        ("fitness_precision", c_int32),  # MetaoptPrecision of Fx, Fy: 0 the storage precision, 1, 2
        ("algorithm", c_int32),  # MetaoptDeAlgorithm: 0 de, 1 jade, 2 shade, 3 lshade, 4 jso, 5 jde100
        ("lshade_budget", c_uint64),  # L-SHADE's and jSO's evaluations per population
        ("device", c_int32),  # -1: the device in use (metaopt_device_set_number)
        ("jde_small", c_uint32),  # jDE100: members of the small population (default 25)
        ("jde_eps", c_double),  # jDE100: restart when > 25 % are within eps of the best (1e-16)
        ("jde_age", c_uint64),  # jDE100: age limit of the big population (0: none)
    ]


class MetaoptDeStop(Structure):
    _fields_ = [
        ("generations", c_uint64),
        ("evaluations", c_uint64),
        ("has_target", c_uint8),
        ("target", c_double),
        ("time_limit", c_double),
        ("stop_token", MetaoptStopToken_p),
    ]


class MetaoptDeCreateResult(Structure):
    _fields_ = [("error_code", c_int32), ("error_message", c_char_ptr), ("instance", MetaoptDeInstance_p)]


class MetaoptInt32Result(Structure):
    _fields_ = [("result", c_int32), ("error_code", c_int32), ("error_message", c_char_ptr)]


class MetaoptDeviceInfo(Structure):
    _fields_ = [
        ("index", c_int32),
        ("kind", c_int32),
        ("platform", c_char_ptr),
        ("name", c_char_ptr),
        ("vendor", c_char_ptr),
        ("version", c_char_ptr),
        ("global_mem_bytes", c_uint64),
        ("local_mem_bytes", c_uint64),
        ("max_alloc_bytes", c_uint64),
        ("compute_units", c_uint32),
        ("max_work_group_size", c_uint32),
        ("fp64", c_uint8),
    ]


class MetaoptHc12ParamsResult(Structure):
    _fields_ = [("error_code", c_int32), ("error_message", c_char_ptr), ("instance", MetaoptHc12Instance_p)]


# int32_t (*)(const double *x, uint32_t rows, uint32_t dims, double *f, void *user_data)
MetaoptObjectiveCallback = CFUNCTYPE(c_int32, POINTER(c_double), c_uint32, c_uint32, POINTER(c_double), c_void_p)


class MetaoptObjective(Structure):
    _fields_ = [
        ("kind", c_int32),
        ("function_name", c_char_p),
        ("source", c_char_p),
        ("callback", MetaoptObjectiveCallback),
        ("user_data", c_void_p),
    ]


class MetaoptDeRunResult(Structure):
    _fields_ = [
        ("value", c_double),
        ("x", POINTER(c_double)),
        ("dims", c_uint32),
        ("island", c_uint32),
        ("generations", c_uint64),
        ("evaluations", c_uint64),
        ("seconds", c_double),
        ("stopped_by", c_int32),
        ("error_code", c_int32),
        ("error_message", c_char_ptr),
        ("precision", c_int32),
        ("fitness_precision", c_int32),
    ]


class MetaoptDoubleArrayResult(Structure):
    _fields_ = [
        ("values", POINTER(c_double)),
        ("length", c_uint32),
        ("error_code", c_int32),
        ("error_message", c_char_ptr),
    ]


class MetaoptTabuOptions(Structure):
    _fields_ = [
        ("has_activation_limit", c_uint8),
        ("activation_limit", c_double),
        ("aspiration", c_uint8),
        ("max_iterations", c_uint32),
        ("max_no_improve", c_uint32),
    ]


class MetaoptHc12RunOptions(Structure):
    _fields_ = [
        ("coding", c_int32),
        ("sense", c_int32),
        ("runs", c_uint32),
        ("start", c_int32),
        ("start_vector", POINTER(c_double)),
        ("seed", c_uint64),
        ("max_iterations", c_uint32),
        ("taboo", c_uint8),
        ("stop_token", MetaoptStopToken_p),
    ]


class MetaoptHc12RunResult(Structure):
    _fields_ = [
        ("value", c_double),
        ("string", POINTER(c_uint32)),
        ("integers", POINTER(c_uint32)),
        ("reals", POINTER(c_double)),
        ("nParam", c_uint32),
        ("iterations", c_uint32),
        ("evaluations", c_uint64),
        ("seconds", c_double),
        ("run_values", POINTER(c_double)),
        ("run_iterations", POINTER(c_uint32)),
        ("runs", c_uint32),
        ("error_code", c_int32),
        ("error_message", c_char_ptr),
        ("stop_reason", c_int32),  # MetaoptStopReason
        ("precision", c_int32),
    ]


class MetaoptStringResult(Structure):
    _fields_ = [("text", c_char_ptr), ("error_code", c_int32), ("error_message", c_char_ptr)]


class MetaoptQapParamsResult(Structure):
    _fields_ = [("error_code", c_int32), ("error_message", c_char_ptr), ("instance", MetaoptQapInstance_p)]


class MetaoptQapInfo(Structure):
    _fields_ = [
        ("n_elements", c_uint32),
        ("n_slices", c_uint32),
        ("swaps", c_uint32),
        ("k_length", c_uint32),
        ("bits_per_param", c_uint32),
        ("rows", c_uint64),
        ("result_type", c_int32),
        ("backend", c_int32),
        ("cost_form", c_int32),
        ("max_iterations", c_uint32),
    ]


class MetaoptQapRunResult(Structure):
    _fields_ = [
        ("result_type", c_int32),
        ("f_t1", c_int64),
        ("f_t2", c_uint64),
        ("f_t3", c_float),
        ("f_t4", c_double),
        ("order", POINTER(c_uint16)),
        ("orderLength", c_uint16),
        ("lastIteration", c_uint32),
        ("K_GC", POINTER(c_uint32)),
        ("K_GCLength", c_uint32),
        ("error_code", c_int32),
        ("error_message", c_char_ptr),
    ]


class MetaoptQapSolveOptions(Structure):
    _fields_ = [
        ("runs", c_uint32),
        ("time_limit_s", c_double),
        ("seed", c_uint64),
        ("start", c_int32),
        ("start_order", POINTER(c_uint16)),
        ("restart", c_int32),
        ("has_target", c_uint8),
        ("target", c_double),
        ("stop_token", MetaoptStopToken_p),
    ]


class MetaoptQapSolveResult(Structure):
    _fields_ = [
        ("result_type", c_int32),
        ("f_t1", c_int64),
        ("f_t2", c_uint64),
        ("f_t3", c_float),
        ("f_t4", c_double),
        ("permutation", POINTER(c_uint16)),
        ("permutation_length", c_uint32),
        ("runs", c_uint32),
        ("iterations", c_uint64),
        ("best_run_iterations", c_uint32),
        ("evaluations", c_uint64),
        ("seconds", c_double),
        ("seconds_to_best", c_double),
        ("target_reached", c_uint8),
        ("has_bks", c_uint8),
        ("bks", c_int64),
        ("gap_percent", c_double),
        ("error_code", c_int32),
        ("error_message", c_char_ptr),
        ("stop_reason", c_int32),
    ]


class MetaoptQapTsOptions(Structure):
    _fields_ = [
        ("chains", c_uint32),
        ("max_iterations", c_uint64),
        ("launch_iterations", c_uint32),
        ("seed", c_uint64),
        ("tenure", c_int32),
        ("aspiration_horizon", c_uint32),
        ("time_limit_s", c_double),
        ("has_target", c_uint8),
        ("target", c_double),
        ("elite_size", c_uint32),
        ("stagnation", c_int64),
        ("perturbation_min", c_uint32),
        ("perturbation_max", c_uint32),
        ("starts", POINTER(c_uint16)),
        ("starts_count", c_uint32),
        ("stop_token", MetaoptStopToken_p),
    ]


class MetaoptQapTsSolveResult(Structure):
    _fields_ = [
        ("result_type", c_int32),
        ("f_t1", c_int64),
        ("f_t2", c_uint64),
        ("f_t3", c_float),
        ("f_t4", c_double),
        ("permutation", POINTER(c_uint16)),
        ("permutation_length", c_uint32),
        ("chains", c_uint32),
        ("iterations", c_uint64),
        ("launches", c_uint64),
        ("restarts", c_uint64),
        ("seconds", c_double),
        ("seconds_to_best", c_double),
        ("target_reached", c_uint8),
        ("has_bks", c_uint8),
        ("bks", c_int64),
        ("gap_percent", c_double),
        ("backend", c_char_ptr),
        ("error_code", c_int32),
        ("error_message", c_char_ptr),
        ("stop_reason", c_int32),
    ]


class MetaoptSatParseResult(Structure):
    _fields_ = [
        ("error_code", c_int32),
        ("error_message", c_char_ptr),
        ("instance", MetaoptSatInstance_p),
        ("num_vars", c_uint32),
        ("num_clauses", c_uint32),
    ]


class MetaoptSatEvalResult(Structure):
    _fields_ = [
        ("satisfied", POINTER(c_uint32)),
        ("count", c_uint32),
        ("num_clauses", c_uint32),
        ("error_code", c_int32),
        ("error_message", c_char_ptr),
    ]


class MetaoptSatSolveOptions(Structure):
    _fields_ = [
        ("method", c_int32),
        ("walks", c_uint32),
        ("cb", c_double),
        ("eps", c_double),
        ("noise", c_double),
        ("restart_flips", c_uint64),
        ("flips_per_launch", c_uint32),
        ("max_flips", c_uint64),
        ("backend", c_int32),
        ("mask_order", c_uint32),
        ("tabu_length", c_uint32),
        ("tabu_max_iterations", c_uint32),
        ("tabu_max_no_improve", c_uint32),
        ("tenure", c_uint32),
        ("seed", c_uint64),
        ("runs", c_uint32),
        ("time_limit_s", c_double),
        ("stop_token", MetaoptStopToken_p),
        ("device", c_int32),  # -1: the device in use (metaopt_device_set_number)
    ]


class MetaoptSatSolveResult(Structure):
    _fields_ = [
        ("satisfiable", c_uint8),
        ("best_unsatisfied", c_uint32),
        ("assignment", POINTER(c_uint32)),
        ("words", c_uint32),
        ("model_literals", POINTER(c_int32)),
        ("num_vars", c_uint32),
        ("runs", c_uint32),
        ("iterations", c_uint64),
        ("evaluations", c_uint64),
        ("method", c_int32),
        ("walks", c_uint32),
        ("flips", c_uint64),
        ("restarts", c_uint64),
        ("flips_per_second", c_double),
        ("seconds", c_double),
        ("error_code", c_int32),
        ("error_message", c_char_ptr),
        ("stop_reason", c_int32),
    ]


class MetaoptKnapsackResult(Structure):
    _fields_ = [("error_code", c_int32), ("error_message", c_char_ptr), ("knapsack", MetaoptKnapsack_p), ("n", c_uint32)]


class MetaoptKnapsackData(Structure):
    _fields_ = [
        ("n", c_uint32),
        ("weights", POINTER(c_double)),
        ("profits", POINTER(c_double)),
        ("capacity", c_double),
        ("scale", c_uint64),
        ("decimals", c_uint32),
        ("int_capacity", c_uint64),
        ("name", c_char_ptr),
        ("error_code", c_int32),
        ("error_message", c_char_ptr),
    ]


class MetaoptKnapsackOptimumResult(Structure):
    _fields_ = [
        ("value", c_double),
        ("int_value", c_uint64),
        ("weight", c_double),
        ("int_weight", c_uint64),
        ("bits", POINTER(c_uint8)),
        ("n", c_uint32),
        ("items_taken", c_uint32),
        ("error_code", c_int32),
        ("error_message", c_char_ptr),
    ]


class MetaoptKnapsackEvaluation(Structure):
    _fields_ = [
        ("profit", c_double),
        ("weight", c_double),
        ("int_profit", c_uint64),
        ("int_weight", c_uint64),
        ("feasible", c_uint8),
        ("error_code", c_int32),
        ("error_message", c_char_ptr),
    ]


class MetaoptQigaOptions(Structure):
    _fields_ = [
        ("populations", c_uint32),
        ("individuals", c_uint32),
        ("generations", c_uint32),
        ("table", c_int32),  # MetaoptQigaTable: 0 gqa2000, 1 qea2002
        ("tables", POINTER(c_char_p)),
        ("tables_count", c_uint32),
        ("pops_per_table", c_uint32),
        ("pole_signs_random", c_uint8),
        ("repair", c_int32),  # MetaoptQigaRepair: 0 index, 1 random, 2 greedy
        ("seed", c_uint64),
        ("has_target", c_uint8),
        ("target", c_double),
        ("time_limit_s", c_double),
        ("backend", c_int32),  # MetaoptBackend: 0 device, 1 cpu
        ("devices", POINTER(c_uint32)),
        ("devices_count", c_uint32),
        ("group_size", c_uint32),
        ("launch_populations", c_uint32),
        ("stop_token", MetaoptStopToken_p),
        ("device", c_int32),  # -1: the device in use (metaopt_device_set_number); used when devices_count is 0
    ]


class MetaoptQigaStats(Structure):
    _fields_ = [
        ("count", c_uint64),
        ("mean", c_double),
        ("variance", c_double),
        ("median", c_double),
        ("min", c_double),
        ("max", c_double),
    ]


class MetaoptQigaRunResult(Structure):
    _fields_ = [
        ("count", c_uint32),
        ("items", c_uint32),
        ("population", POINTER(c_uint32)),
        ("best_value", POINTER(c_double)),
        ("best_value_int", POINTER(c_uint64)),
        ("best_bits", POINTER(c_uint8)),
        ("best_generation", POINTER(c_uint32)),
        ("generations_run", POINTER(c_uint32)),
        ("stats", MetaoptQigaStats),
        ("table_stats", POINTER(MetaoptQigaStats)),
        ("tables_count", c_uint32),
        ("best_index", c_uint32),
        ("stop_reason", c_int32),
        ("elapsed_s", c_double),
        ("runs_per_second", c_double),
        ("backend", c_char_ptr),
        ("error_code", c_int32),
        ("error_message", c_char_ptr),
    ]


# --- graphs, exact shortest paths, ACO ------------------------------------------------------
class MetaoptGraphResult(Structure):
    _fields_ = [
        ("error_code", c_int32),
        ("error_message", c_char_ptr),
        ("graph", MetaoptGraph_p),
        ("n", c_uint32),
        ("m", c_uint64),
        ("weight_type", c_int32),  # MetaoptWeightType: 0 u32, 1 u64, 2 f32, 3 f64
    ]


class MetaoptGraphData(Structure):
    _fields_ = [
        ("n", c_uint32),
        ("m", c_uint64),
        ("offsets", POINTER(c_uint64)),
        ("targets", POINTER(c_uint32)),
        ("weights", POINTER(c_double)),
        ("weight_type", c_int32),
        ("error_code", c_int32),
        ("error_message", c_char_ptr),
    ]


class MetaoptSpOptions(Structure):
    _fields_ = [
        ("method", c_int32),  # MetaoptSpMethod: 0 bellman-ford, 1 frontier, 2 near-far
        ("delta", c_double),
        ("backend", c_int32),  # MetaoptBackend: 0 device, 1 cpu
        ("rounds_per_check", c_uint32),
        ("max_rounds", c_uint64),
        ("device", c_int32),  # -1: the device in use (metaopt_device_set_number)
    ]


class MetaoptSpResult(Structure):
    _fields_ = [
        ("k", c_uint32),
        ("n", c_uint32),
        ("sources", POINTER(c_uint32)),
        ("dist", POINTER(c_double)),
        ("dist_int", POINTER(c_uint64)),
        ("pred", POINTER(c_int32)),
        ("reached", POINTER(c_uint64)),
        ("edges", POINTER(c_uint64)),
        ("rounds", c_uint64),
        ("elapsed_s", c_double),
        ("backend", c_char_ptr),
        ("error_code", c_int32),
        ("error_message", c_char_ptr),
    ]


class MetaoptAcoOptions(Structure):
    _fields_ = [
        ("ants", c_uint32),
        ("alpha", c_double),
        ("beta", c_double),
        ("damping", c_double),
        ("evaporation", c_double),
        ("deposit_exponent", c_double),
        ("initial_pheromone", c_double),
        ("iterations", c_uint32),
        ("max_no_improve", c_uint32),
        ("max_min", c_double),
        ("deposit", c_int32),  # MetaoptAcoDeposit: 0 all, 1 iteration-best
        ("selection", c_int32),  # MetaoptAcoSelection: 0 roulette, 1 gumbel
        ("max_steps", c_uint32),
        ("seed", c_uint64),
        ("group_size", c_uint32),
        ("backend", c_int32),
        ("local_search", c_uint8),
        ("restart", c_uint32),
        ("device", c_int32),  # -1: the device in use (metaopt_device_set_number)
    ]


class MetaoptAcoRunResult(Structure):
    _fields_ = [
        ("source", c_uint32),
        ("target", c_uint32),
        ("found", c_uint8),
        ("path", POINTER(c_uint32)),
        ("path_length", c_uint32),
        ("length", c_double),
        ("length_int", c_uint64),
        ("gap", c_double),
        ("pheromone_found", c_uint8),
        ("pheromone_path", POINTER(c_uint32)),
        ("pheromone_path_length", c_uint32),
        ("pheromone_length", c_double),
        ("pheromone_gap", c_double),
        ("exact_length", c_double),
        ("iterations", c_uint32),
        ("found_at_iteration", c_uint32),
        ("successful_ants", c_uint64),
        ("elapsed_s", c_double),
        ("backend", c_char_ptr),
        ("error_code", c_int32),
        ("error_message", c_char_ptr),
    ]


# --- the additively weighted Voronoi diagram of balls ---------------------------------------
class MetaoptAwvdOptions(Structure):
    _fields_ = [
        ("cell", c_double),
        ("suspect_bound", c_double),
        ("backend", c_int32),  # MetaoptBackend: 0 device, 1 cpu
        ("device", c_int32),  # -1: the device in use
        ("double_precision", c_uint8),
    ]


class MetaoptAwvdResult(Structure):
    _fields_ = [
        ("awvd", MetaoptAwvd_p),
        ("vertices", c_uint64),
        ("contacts", c_uint64),
        ("searches", c_uint64),
        ("double_rechecks", c_uint64),
        ("float_replaced", c_uint64),
        ("restarts", c_uint64),
        ("elapsed_s", c_double),
        ("backend", c_char_ptr),
        ("error_code", c_int32),
        ("error_message", c_char_ptr),
    ]


class MetaoptAwvdBalls(Structure):
    _fields_ = [
        ("n", c_uint32),
        ("x", POINTER(c_double)),
        ("y", POINTER(c_double)),
        ("z", POINTER(c_double)),
        ("r", POINTER(c_double)),
        ("error_code", c_int32),
        ("error_message", c_char_ptr),
    ]


class MetaoptAwvdVertices(Structure):
    _fields_ = [
        ("n", c_uint64),
        ("quadruples", POINTER(c_uint32)),
        ("which", POINTER(c_uint8)),
        ("spheres", POINTER(c_double)),
        ("error_code", c_int32),
        ("error_message", c_char_ptr),
    ]


class MetaoptAwvdEdges(Structure):
    _fields_ = [
        ("n", c_uint64),
        ("neighbours", POINTER(c_int64)),
        ("error_code", c_int32),
        ("error_message", c_char_ptr),
    ]


class MetaoptAwvdContacts(Structure):
    _fields_ = [
        ("n", c_uint64),
        ("pairs", POINTER(c_uint32)),
        ("error_code", c_int32),
        ("error_message", c_char_ptr),
    ]


# Every struct of the header, by its C name (the ABI test compares sizes and offsets with C).
STRUCTS = {
    cls.__name__: cls
    for cls in (
        MetaoptBatchDeProblem,
        MetaoptBatchDeOptions,
        MetaoptBatchDeStop,
        MetaoptBatchDeCreateResult,
        MetaoptBatchDeRunResult,
        MetaoptDeOptions,
        MetaoptDeStop,
        MetaoptDeCreateResult,
        MetaoptInt32Result,
        MetaoptDeviceInfo,
        MetaoptHc12ParamsResult,
        MetaoptObjective,
        MetaoptDeRunResult,
        MetaoptDoubleArrayResult,
        MetaoptTabuOptions,
        MetaoptHc12RunOptions,
        MetaoptHc12RunResult,
        MetaoptStringResult,
        MetaoptQapParamsResult,
        MetaoptQapInfo,
        MetaoptQapRunResult,
        MetaoptQapSolveOptions,
        MetaoptQapSolveResult,
        MetaoptQapTsOptions,
        MetaoptQapTsSolveResult,
        MetaoptSatParseResult,
        MetaoptSatEvalResult,
        MetaoptSatSolveOptions,
        MetaoptSatSolveResult,
        MetaoptKnapsackResult,
        MetaoptKnapsackData,
        MetaoptKnapsackOptimumResult,
        MetaoptKnapsackEvaluation,
        MetaoptQigaOptions,
        MetaoptQigaStats,
        MetaoptQigaRunResult,
        MetaoptGraphResult,
        MetaoptGraphData,
        MetaoptSpOptions,
        MetaoptSpResult,
        MetaoptAcoOptions,
        MetaoptAcoRunResult,
        MetaoptAwvdOptions,
        MetaoptAwvdResult,
        MetaoptAwvdBalls,
        MetaoptAwvdVertices,
        MetaoptAwvdEdges,
        MetaoptAwvdContacts,
    )
}

# --- functions: name -> (restype, argtypes) --------------------------------------------------
_SIGNATURES = {
    # memory and devices
    "metaopt_pointer_free": (None, [c_void_p]),
    "metaopt_device_is_mem_space_valid": (c_uint8, []),
    "metaopt_device_get_number": (MetaoptInt32Result, []),
    "metaopt_device_set_number": (MetaoptInt32Result, [c_int32]),
    "metaopt_device_reset": (MetaoptInt32Result, []),
    "metaopt_device_is_valid": (MetaoptInt32Result, [c_int32]),
    "metaopt_device_count": (MetaoptInt32Result, []),
    "metaopt_device_info": (MetaoptInt32Result, [c_int32, POINTER(MetaoptDeviceInfo)]),
    "metaopt_device_free_info": (None, [POINTER(MetaoptDeviceInfo)]),
    "metaopt_double_array_free_result": (None, [POINTER(MetaoptDoubleArrayResult)]),
    # catalogue functions by name
    "metaopt_function_evaluate": (
        MetaoptDoubleArrayResult,
        [c_char_p, POINTER(c_double), c_uint32, c_uint32, c_int32, c_int32],
    ),
    "metaopt_function_evaluate_on_device": (
        MetaoptDoubleArrayResult,
        [c_char_p, POINTER(c_double), c_uint32, c_uint32, c_int32, c_int32, c_int32],  # ..., backend, device, precision
    ),
    # island DE
    "metaopt_de_default_options": (MetaoptDeOptions, []),
    "metaopt_de_default_stop": (MetaoptDeStop, []),
    "metaopt_de_create": (
        MetaoptDeCreateResult,
        [
            c_uint32,  # islands
            c_uint32,  # members
            c_uint32,  # dims
            POINTER(c_double),  # limits
            c_uint32,  # limitsLength
            c_char_p,  # bounds
            POINTER(MetaoptDeOptions),  # options
        ],
    ),
    "metaopt_de_init": (MetaoptInt32Result, [MetaoptDeInstance_p, POINTER(MetaoptObjective), c_char_p, c_char_p, c_uint32,
                                      POINTER(MetaoptDeOptions)]),
    "metaopt_de_iteration": (MetaoptInt32Result, [MetaoptDeInstance_p]),
    "metaopt_de_run": (MetaoptDeRunResult, [MetaoptDeInstance_p, POINTER(MetaoptDeStop)]),
    "metaopt_de_free_run_result": (None, [POINTER(MetaoptDeRunResult)]),
    "metaopt_de_bests_fitness": (MetaoptDoubleArrayResult, [MetaoptDeInstance_p]),
    "metaopt_de_best": (MetaoptDoubleArrayResult, [MetaoptDeInstance_p, c_uint32]),
    "metaopt_de_x": (MetaoptDoubleArrayResult, [MetaoptDeInstance_p, c_uint32, c_uint32]),
    "metaopt_de_func_data": (MetaoptInt32Result, [MetaoptDeInstance_p, c_void_p, c_uint64]),
    "metaopt_de_info": (MetaoptStringResult, [MetaoptDeInstance_p]),
    "metaopt_de_free": (None, [MetaoptDeInstance_p]),
    # general HC12
    "metaopt_hc12_params": (
        MetaoptHc12ParamsResult,
        [
            c_uint32,  # nParam
            POINTER(c_uint32),  # nBitParam
            c_uint32,  # nBitParamLength
            POINTER(c_double),  # dodParam
            c_uint32,  # dodParamLength
            c_uint32,  # maskOrder
            c_int32,  # startBit
            c_int32,  # bitLength
            c_int32,  # domain
            c_uint8,  # double_precision
            POINTER(MetaoptObjective),  # objective
        ],
    ),
    "metaopt_hc12_params_precision": (
        MetaoptHc12ParamsResult,
        [
            c_uint32,  # nParam
            POINTER(c_uint32),  # nBitParam
            c_uint32,  # nBitParamLength
            POINTER(c_double),  # dodParam
            c_uint32,  # dodParamLength
            c_uint32,  # maskOrder
            c_int32,  # startBit
            c_int32,  # bitLength
            c_int32,  # domain
            c_int32,  # precision (MetaoptPrecision)
            POINTER(MetaoptObjective),  # objective
        ],
    ),
    "metaopt_hc12_params_on_device": (
        MetaoptHc12ParamsResult,
        [
            c_uint32,  # nParam
            POINTER(c_uint32),  # nBitParam
            c_uint32,  # nBitParamLength
            POINTER(c_double),  # dodParam
            c_uint32,  # dodParamLength
            c_uint32,  # maskOrder
            c_int32,  # startBit
            c_int32,  # bitLength
            c_int32,  # domain
            c_int32,  # precision (MetaoptPrecision)
            c_int32,  # device (-1: the device in use)
            POINTER(MetaoptObjective),  # objective
        ],
    ),
    "metaopt_hc12_init_tabu_list": (MetaoptInt32Result, [MetaoptHc12Instance_p, c_uint32]),
    "metaopt_hc12_set_tabu_options": (MetaoptInt32Result, [MetaoptHc12Instance_p, POINTER(MetaoptTabuOptions)]),
    "metaopt_hc12_default_run_options": (MetaoptHc12RunOptions, []),
    "metaopt_hc12_run": (MetaoptHc12RunResult, [MetaoptHc12Instance_p, POINTER(MetaoptHc12RunOptions)]),
    "metaopt_hc12_free_run_result": (None, [POINTER(MetaoptHc12RunResult)]),
    "metaopt_hc12_func_data": (MetaoptInt32Result, [MetaoptHc12Instance_p, c_void_p, c_uint64]),
    "metaopt_hc12_func_data_clean": (MetaoptInt32Result, [MetaoptHc12Instance_p]),
    "metaopt_hc12_kernel_verbose": (MetaoptInt32Result, [MetaoptHc12Instance_p, c_uint8]),
    "metaopt_hc12_profiler_on": (MetaoptInt32Result, [MetaoptHc12Instance_p]),
    "metaopt_hc12_profiler_output": (MetaoptStringResult, [MetaoptHc12Instance_p]),
    "metaopt_hc12_info": (MetaoptStringResult, [MetaoptHc12Instance_p]),
    "metaopt_hc12_free": (None, [MetaoptHc12Instance_p]),
    # QAP
    "metaopt_qap_params": (
        MetaoptQapParamsResult,
        [c_uint32, c_uint32, c_uint32, c_void_p, c_char_p, c_uint32, c_int32, c_int32],
    ),
    "metaopt_qap_params_ab": (
        MetaoptQapParamsResult,
        [c_uint32, c_uint32, c_uint32, c_void_p, c_void_p, c_char_p, c_uint32, c_int32, c_int32],
    ),
    "metaopt_qap_params_from_file": (MetaoptQapParamsResult, [c_char_p, c_uint32, c_uint32, c_int32, c_int32]),
    "metaopt_qap_set_backend": (MetaoptInt32Result, [MetaoptQapInstance_p, c_int32, c_int32]),
    "metaopt_qap_params_on_device": (
        MetaoptQapParamsResult,
        [c_uint32, c_uint32, c_uint32, c_void_p, c_char_p, c_uint32, c_int32, c_int32, c_int32],
    ),
    "metaopt_qap_params_ab_on_device": (
        MetaoptQapParamsResult,
        [c_uint32, c_uint32, c_uint32, c_void_p, c_void_p, c_char_p, c_uint32, c_int32, c_int32, c_int32],
    ),
    "metaopt_qap_params_from_file_on_device": (MetaoptQapParamsResult, [c_char_p, c_uint32, c_uint32, c_int32, c_int32, c_int32]),
    "metaopt_qap_set_backend_on_device": (MetaoptInt32Result, [MetaoptQapInstance_p, c_int32, c_int32, c_int32]),
    "metaopt_qap_set_max_iterations": (MetaoptInt32Result, [MetaoptQapInstance_p, c_uint32]),
    "metaopt_qap_set_bits_per_param": (MetaoptInt32Result, [MetaoptQapInstance_p, c_uint32]),
    "metaopt_qap_init_tabu_list": (MetaoptInt32Result, [MetaoptQapInstance_p, c_uint32]),
    "metaopt_tabu_default_options": (MetaoptTabuOptions, []),
    "metaopt_qap_set_tabu_options": (MetaoptInt32Result, [MetaoptQapInstance_p, POINTER(MetaoptTabuOptions)]),
    "metaopt_qap_info": (MetaoptInt32Result, [MetaoptQapInstance_p, POINTER(MetaoptQapInfo)]),
    "metaopt_qap_run": (MetaoptQapRunResult, [MetaoptQapInstance_p, POINTER(c_uint16), POINTER(c_uint32)]),
    "metaopt_qap_free_run_result": (None, [POINTER(MetaoptQapRunResult)]),
    "metaopt_qap_default_solve_options": (MetaoptQapSolveOptions, []),
    "metaopt_qap_solve": (MetaoptQapSolveResult, [MetaoptQapInstance_p, POINTER(MetaoptQapSolveOptions)]),
    "metaopt_qap_free_solve_result": (None, [POINTER(MetaoptQapSolveResult)]),
    # QAP robust tabu search
    "metaopt_qap_ts_default_options": (MetaoptQapTsOptions, []),
    "metaopt_qap_ts_solve": (MetaoptQapTsSolveResult, [MetaoptQapInstance_p, POINTER(MetaoptQapTsOptions)]),
    "metaopt_qap_ts_free_solve_result": (None, [POINTER(MetaoptQapTsSolveResult)]),
    "metaopt_qap_free": (None, [MetaoptQapInstance_p]),
    # SAT
    "metaopt_sat_parse": (MetaoptSatParseResult, [c_char_p]),
    "metaopt_sat_from_clauses": (MetaoptSatParseResult, [c_uint32, POINTER(c_int32), c_uint64]),
    "metaopt_sat_words_per_assignment": (MetaoptInt32Result, [MetaoptSatInstance_p]),
    "metaopt_sat_evaluate": (MetaoptSatEvalResult, [MetaoptSatInstance_p, POINTER(c_uint32), c_uint32, c_uint8]),
    "metaopt_sat_evaluate_on_device": (MetaoptSatEvalResult, [MetaoptSatInstance_p, POINTER(c_uint32), c_uint32, c_uint8, c_int32]),
    "metaopt_sat_free_eval_result": (None, [POINTER(MetaoptSatEvalResult)]),
    "metaopt_sat_default_solve_options": (MetaoptSatSolveOptions, []),
    "metaopt_sat_solve": (MetaoptSatSolveResult, [MetaoptSatInstance_p, POINTER(MetaoptSatSolveOptions)]),
    "metaopt_sat_free_solve_result": (None, [POINTER(MetaoptSatSolveResult)]),
    "metaopt_sat_free": (None, [MetaoptSatInstance_p]),
    # knapsack instances and QIGA
    "metaopt_knapsack_from_file": (MetaoptKnapsackResult, [c_char_p]),
    "metaopt_knapsack_from_arrays": (MetaoptKnapsackResult, [c_uint32, POINTER(c_double), POINTER(c_double), c_double]),
    "metaopt_knapsack_generate": (MetaoptKnapsackResult, [c_int32, c_uint32, c_uint64, c_uint64]),
    "metaopt_knapsack_data": (MetaoptKnapsackData, [MetaoptKnapsack_p]),
    "metaopt_knapsack_free_data": (None, [POINTER(MetaoptKnapsackData)]),
    "metaopt_knapsack_optimum": (MetaoptKnapsackOptimumResult, [MetaoptKnapsack_p]),
    "metaopt_knapsack_free_optimum_result": (None, [POINTER(MetaoptKnapsackOptimumResult)]),
    "metaopt_knapsack_evaluate": (MetaoptKnapsackEvaluation, [MetaoptKnapsack_p, POINTER(c_uint8), c_uint32]),
    "metaopt_knapsack_free": (None, [MetaoptKnapsack_p]),
    "metaopt_qiga_default_options": (MetaoptQigaOptions, []),
    "metaopt_qiga_run": (MetaoptQigaRunResult, [MetaoptKnapsack_p, POINTER(MetaoptQigaOptions)]),
    "metaopt_qiga_free_run_result": (None, [POINTER(MetaoptQigaRunResult)]),
    # batched DE
    "metaopt_batch_de_default_problem": (MetaoptBatchDeProblem, []),
    "metaopt_batch_de_default_options": (MetaoptBatchDeOptions, []),
    "metaopt_batch_de_default_stop": (MetaoptBatchDeStop, []),
    "metaopt_batch_de_create": (MetaoptBatchDeCreateResult, [POINTER(MetaoptBatchDeProblem), c_uint32,
                                                            POINTER(MetaoptBatchDeOptions)]),
    "metaopt_batch_de_run": (MetaoptBatchDeRunResult, [MetaoptBatchDeInstance_p, POINTER(MetaoptBatchDeStop)]),
    "metaopt_batch_de_results": (MetaoptBatchDeRunResult, [MetaoptBatchDeInstance_p]),
    "metaopt_batch_de_best": (MetaoptInt32Result, [MetaoptBatchDeInstance_p, c_uint32, POINTER(c_double), c_uint32]),
    "metaopt_batch_de_free_run_result": (None, [POINTER(MetaoptBatchDeRunResult)]),
    "metaopt_batch_de_free": (None, [MetaoptBatchDeInstance_p]),
    # graphs, exact shortest paths, ACO
    "metaopt_graph_from_csr": (MetaoptGraphResult, [c_uint32, POINTER(c_uint64), c_uint64, POINTER(c_uint32), c_void_p, c_int32]),
    "metaopt_graph_from_edges": (MetaoptGraphResult, [c_uint32, c_uint64, POINTER(c_uint32), POINTER(c_uint32), c_void_p, c_int32]),
    "metaopt_graph_from_dense": (MetaoptGraphResult, [c_uint32, c_void_p, c_int32]),
    "metaopt_graph_from_file": (MetaoptGraphResult, [c_char_p, c_int32]),
    "metaopt_graph_thesis_random": (MetaoptGraphResult, [c_uint32, c_uint32, c_uint64]),
    "metaopt_graph_grid": (MetaoptGraphResult, [c_uint32, c_uint32, c_uint32, c_double, c_uint64]),
    "metaopt_graph_info": (MetaoptGraphResult, [MetaoptGraph_p]),
    "metaopt_graph_data": (MetaoptGraphData, [MetaoptGraph_p]),
    "metaopt_graph_free_data": (None, [POINTER(MetaoptGraphData)]),
    "metaopt_graph_free": (None, [MetaoptGraph_p]),
    "metaopt_sp_default_options": (MetaoptSpOptions, []),
    "metaopt_sp_sssp": (MetaoptSpResult, [MetaoptGraph_p, c_uint32, POINTER(MetaoptSpOptions)]),
    "metaopt_sp_sssp_multi": (MetaoptSpResult, [MetaoptGraph_p, POINTER(c_uint32), c_uint32, POINTER(MetaoptSpOptions)]),
    "metaopt_sp_free_result": (None, [POINTER(MetaoptSpResult)]),
    "metaopt_aco_default_options": (MetaoptAcoOptions, []),
    "metaopt_aco_run": (MetaoptAcoRunResult, [MetaoptGraph_p, c_uint32, c_uint32, POINTER(MetaoptAcoOptions)]),
    "metaopt_aco_free_run_result": (None, [POINTER(MetaoptAcoRunResult)]),
    "metaopt_awvd_default_options": (MetaoptAwvdOptions, []),
    "metaopt_awvd_build": (MetaoptAwvdResult, [POINTER(c_double)] * 4 + [c_uint32, POINTER(MetaoptAwvdOptions)]),
    "metaopt_awvd_read_balls": (MetaoptAwvdBalls, [c_char_p, c_uint32]),
    "metaopt_awvd_from_file": (MetaoptAwvdResult, [c_char_p, c_uint32, POINTER(MetaoptAwvdOptions)]),
    "metaopt_awvd_info": (MetaoptAwvdResult, [MetaoptAwvd_p]),
    "metaopt_awvd_vertices": (MetaoptAwvdVertices, [MetaoptAwvd_p]),
    "metaopt_awvd_edges": (MetaoptAwvdEdges, [MetaoptAwvd_p]),
    "metaopt_awvd_contacts": (MetaoptAwvdContacts, [MetaoptAwvd_p]),
    "metaopt_awvd_vertices_text": (MetaoptStringResult, [MetaoptAwvd_p]),
    "metaopt_awvd_free": (None, [MetaoptAwvd_p]),
    "metaopt_awvd_free_result": (None, [POINTER(MetaoptAwvdResult)]),
    "metaopt_awvd_free_balls": (None, [POINTER(MetaoptAwvdBalls)]),
    "metaopt_awvd_free_vertices": (None, [POINTER(MetaoptAwvdVertices)]),
    "metaopt_awvd_free_edges": (None, [POINTER(MetaoptAwvdEdges)]),
    "metaopt_awvd_free_contacts": (None, [POINTER(MetaoptAwvdContacts)]),
    # version (metaopt_version's string is static: not freed)
    "metaopt_version": (c_char_p, []),
    "metaopt_version_major": (c_int32, []),
    "metaopt_version_minor": (c_int32, []),
    "metaopt_version_patch": (c_int32, []),
    "metaopt_version_number": (c_int32, []),
    # cancellation: metaopt_interrupt is async-signal-safe; tokens stop the calls that carry them
    "metaopt_interrupt": (None, []),
    "metaopt_stop_token_create": (MetaoptStopToken_p, []),
    "metaopt_stop_token_request": (MetaoptInt32Result, [MetaoptStopToken_p]),
    "metaopt_stop_token_reset": (MetaoptInt32Result, [MetaoptStopToken_p]),
    "metaopt_stop_token_is_requested": (c_uint8, [MetaoptStopToken_p]),
    "metaopt_stop_token_free": (None, [MetaoptStopToken_p]),
}

SIGNATURES = _SIGNATURES  # public name for tests and tools

# --- loading --------------------------------------------------------------------------------
_LIB_NAMES = {"Linux": "libmetaopt.so", "Darwin": "libmetaopt.dylib", "Windows": "metaopt.dll"}
LIB_FILE = _LIB_NAMES.get(platform.system(), "libmetaopt.so")

_lib = None
_lib_path = None


def candidate_paths():
    """Where the library is looked for, in order: the copy inside this package (an installed
    wheel bundles one), ``METAOPT_LIB`` (the file, or a folder that holds it), the source tree's
    ``target/release``."""
    here = Path(__file__).resolve().parent
    out = []
    bundled = here / LIB_FILE
    if bundled.is_file():
        out.append(("package copy", bundled))
    env = os.environ.get("METAOPT_LIB")
    if env:
        p = Path(env)
        out.append(("METAOPT_LIB", p / LIB_FILE if p.is_dir() else p))
    if not bundled.is_file():
        out.append(("package copy", bundled))
    out.append(("build tree", here.parents[1] / "target" / "release" / LIB_FILE))
    return out


def _declare(lib):
    for name, (restype, argtypes) in _SIGNATURES.items():
        f = getattr(lib, name)
        f.restype = restype
        f.argtypes = argtypes


def lib():
    """The loaded library (loaded and declared on first use)."""
    global _lib, _lib_path
    if _lib is not None:
        return _lib
    tried = []
    for origin, path in candidate_paths():
        if path.is_file():
            try:
                handle = ctypes.CDLL(str(path))
            except OSError as e:
                raise OSError(f"metaopt: cannot load {path} ({origin}): {e}") from e
            try:
                _declare(handle)
            except AttributeError as e:
                raise OSError(f"metaopt: {path} ({origin}) lacks a function of this package: {e}; is it an older build?") from e
            _lib, _lib_path = handle, path
            return _lib
        tried.append(f"{path} ({origin})")
        if origin == "METAOPT_LIB":
            raise OSError(f"metaopt: METAOPT_LIB names {path}, which is not a file")
    raise OSError(
        "metaopt: cannot find " + LIB_FILE + "; tried " + ", ".join(tried)
        + ". Build it with `cargo build --release` or set METAOPT_LIB to its path."
    )


def library_path():
    """The path of the loaded library (loading it if needed)."""
    lib()
    return _lib_path
