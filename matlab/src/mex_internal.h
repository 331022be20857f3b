/*
 * mex_internal.h: what the C sources of the metaopt MEX gateway share (see mex_main.c for the
 * overview and README.md for the modes). One MEX function, metaopt_mex, is built from:
 *
 *   mex_main.c       mexFunction, the MODES table, the registry of instance kinds, and the
 *                    modes that several kinds share (params, run, set-tabu-list, info, free)
 *   mex_args.c       errors (fail, fail_library), argument readers and validators, opts
 *                    structs, result builders: the helpers of every mode
 *   mex_handles.c    instances: the uint8 tokens (magic, check word, serial), the table of
 *                    entries, the busy flag of a running call, free
 *   mex_objective.c  m-function objectives: the host callback, how its failure is raised,
 *                    objective source files
 *   mex_device.c     get-device, set-device, devices, mem-space-valid
 *   mex_qap.c        QAP (HC12 qapswap2, thesis Table 2): params, params-file, run, solve
 *   mex_hc12.c       general HC12 (thesis Table 1): params, run, func-data, kernel-verbose,
 *                    profiler-on, profiler-output
 *   mex_sat.c        SAT: sat-parse, sat-clauses, sat-evaluate, sat-solve
 *   mex_bde.c        batched DE: bde-create, bde-run
 *   mex_de.c         island DE (thesis 5.2.1): de-params, de-init, de-iteration, de-run,
 *                    de-bests, de-best, de-x, de-func-data
 *   mex_cancel.c     Ctrl-C during long library calls: the worker thread, the stop token,
 *                    metaopt:interrupted; the mode 'interrupt'
 *   mex_trap.cpp     the one C++ part: stops MATLAB's and Octave's exceptions, polls for
 *                    Ctrl-C around a worker thread (mex_trap.h)
 *
 * Everything declared here is internal to the MEX file (hidden, where the compiler knows
 * visibility): only mexFunction is exported, so that none of these short names can meet
 * another library's.
 */
#ifndef METAOPT_MEX_INTERNAL_H
#define METAOPT_MEX_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "mex.h"
#include "metaopt.h"

#if defined(__GNUC__)
#pragma GCC visibility push(hidden)
#endif

/* ---------------------------------------------------------------------------------------- */
/* errors (mex_args.c)                                                                      */

/* The mode string of the MEX call running now (a nested call, made by an m-function objective,
 * sets its own; mex_objective puts the outer call's back). */
extern const char *g_mode;

/* Raises a MATLAB error `metaopt:<id>` prefixed with the mode; never returns. */
void fail(const char *id, const char *fmt, ...);

/* Raises a library error (`metaopt:<code>`, the code and the library's message), freeing the
 * message first. Whatever else the failed call returned must be freed before this. */
void fail_library(const char *call, int32_t code, char *message);

/* Checks an MetaoptInt32Result; returns its value. */
int32_t check_int(const char *call, MetaoptInt32Result r);

/* ---------------------------------------------------------------------------------------- */
/* arguments (mex_args.c)                                                                   */

/* Why `a` is not a real, full numeric or logical array ("a sparse array", ...), or NULL when it
 * is one: the gateway reads such arrays element by element (elem, mxGetData), which a sparse
 * or complex array does not allow. */
const char *not_real_numeric(const mxArray *a);

/* What `a` is, for a message: "a 1 x 1 double array", "a sparse array (use full(...))", ... */
const char *array_kind(const mxArray *a);

/* Fails unless `a` is a real, full numeric or logical array; `expected` says what `name` must be. */
void check_real_numeric(const mxArray *a, const char *name, const char *expected);

/* Element i of a real numeric or logical array as double. */
double elem(const mxArray *a, size_t i);

/* Argument i (0 is the mode), or `metaopt:missingArgument` naming it. */
const mxArray *arg(int nrhs, const mxArray **prhs, int i, const char *name);

/* Whether argument i is there and not [] (an optional argument given). */
int given(int nrhs, const mxArray **prhs, int i);

double real_scalar(const mxArray *a, const char *name);
double int_scalar(const mxArray *a, const char *name, double lo, double hi);

/* A real vector (any orientation) as an mxMalloc'd double array of `*n` values. */
double *real_vector(const mxArray *a, const char *name, size_t *n, int finite);

/* Where the char array `a` holds its first NUL character (1-based), 0 where none: a C string
 * would end there. */
size_t nul_at(const mxArray *a);

/* A 1 x n char array without NUL characters as a C string (mx memory). */
char *string_arg(const mxArray *a, const char *name);
uint8_t *state_bytes(const mxArray *a, const char *name, size_t *len);
mxArray *bytes_column(const uint8_t *p, size_t n);
void checkpoint_opts(const mxArray *s, const char **path, double *every_s);

/* A logical scalar: true or false, 1 or 0. */
int flag_arg(const mxArray *a, const char *name);

/* The bytes of a real numeric array, passed as they are (func-data, de-func-data). */
const void *data_bytes(const mxArray *a, const char *name, size_t *bytes);

/* Whether the comma/semicolon/bar separated `options` (of `mode:options`) holds `word`. */
int has_option(const char *options, const char *word);

/* Fails for an option of `options` not among the NULL-terminated `known`. */
void check_options(const char *options, const char *const *known);

/* The 1x1 opts struct at argument i under its options' lowerCamelCase names
 * (canonical_options; fields not among `known` are `metaopt:badOption`), or NULL when it is
 * missing or []. */
const mxArray *options_struct(int nrhs, const mxArray **prhs, int i, const char *const *known);

/* The lowerCamelCase name of an option (the alias table and the snake_case rule, mex_args.c)
 * written to out (cap bytes); returns out. */
const char *canonical_option(const char *name, char *out, size_t cap);

/* The struct s with its fields under their lowerCamelCase names (a new array); two fields of
 * one option, or one not among `known` (NULL: any), are `metaopt:badOption`. */
mxArray *canonical_options(const mxArray *s, const char *what, const char *const *known);

/* A field of an options struct, or NULL (also for an empty field). */
const mxArray *opt(const mxArray *s, const char *name);

/* Fails for a field of the 1x1 struct `s` that is not among the NULL-terminated `known`. */
void check_fields(const mxArray *s, const char *what, const char *const *known);

/* ---------------------------------------------------------------------------------------- */
/* results: mxArray builders (mex_args.c)                                                   */

mxArray *row_u32(const uint32_t *v, size_t n);
mxArray *row_double(const double *v, size_t n);
void set_field(mxArray *s, const char *name, mxArray *v);
void set_num(mxArray *s, const char *name, double v);
mxArray *empty_struct(void);

/* The text of a MetaoptStringResult as a char array, freed (or its error raised). */
mxArray *string_result(const char *call, MetaoptStringResult r);

/* ---------------------------------------------------------------------------------------- */
/* instances (mex_handles.c)                                                                */

/* The kind an instance array says (struct Token in mex_handles.c): these numbers are part of
 * the array, so they never change. */
enum { KIND_QAP = 1, KIND_HC12 = 2, KIND_SAT = 3, KIND_DE = 4, KIND_KNAPSACK = 5, KIND_BDE = 6, KIND_GRAPH = 7, KIND_BH = 8 };

typedef struct Entry Entry;

/* One kind of instance: what the generic instance code needs to know of it. Each solver's
 * file defines its own (kind_qap in mex_qap.c, ...); mex_main.c lists them in mex_kinds. */
typedef struct EntryKind {
    uint32_t id;                    /* KIND_* */
    const char *name;               /* for messages: "QAP (HC12 qapswap2)", ... */
    size_t state_size;              /* the kind's state (Entry.state), zeroed by entry_new */
    void (*release)(void *state);   /* frees what the state holds (not the state itself) */
    mxArray *(*info)(Entry *e);     /* the result of 'info' */
} EntryKind;

extern const EntryKind kind_qap, kind_hc12, kind_sat, kind_de, kind_knapsack, kind_bde, kind_graph, kind_bh;

/* Every kind, NULL-terminated (mex_main.c). */
extern const EntryKind *const mex_kinds[];

/* An instance: a slot of the table. It stays where it is for as long as the MEX file is loaded
 * (the library keeps its address as the user data of an m-function objective). */
struct Entry {
    uint64_t serial;         /* 0: the slot is free */
    const EntryKind *kind;
    void *state;             /* the kind's own struct (QapState, Hc12State, SatState, DeState) */
    /* the running library call that may call an m-function objective (call_begin .. call_end):
     * its mode (NULL when none runs: any use of the instance meanwhile, from the objective, is
     * refused), the objective, its calls, and how a failed objective call ended: its error
     * (raised once the library has returned), an exception caught around it (rethrown then, see
     * mex_trap.cpp) or an interruption by the user (Ctrl-C) */
    const char *busy;
    const mxArray *fun;
    const mxArray *viol; /* the m-function violation of the call's constraints (NULL: none) */
    uint32_t fun_calls;
    mxArray *fun_error;
    void *fun_exception;
    int fun_interrupted;
};

/* The name of the kind numbered `id` ("unknown" for a number no kind has). */
const char *kind_name(uint32_t id);

/* A new instance of `kind` with a zeroed state; its instance array (token) is written to *out. */
/* Registers, once, what the gateway does when it is cleared or the interpreter ends: it waits
 * for the device program builds still running, then frees every instance. */
void register_at_exit(void);
Entry *entry_new(const EntryKind *kind, mxArray **out);

/* The entry behind an instance array, checked (size, magic, check word, serial, kind, not
 * busy); `kind` NULL accepts every kind. */
Entry *entry_get(const mxArray *a, const EntryKind *kind);

/* How many instances are live (of `kind`; NULL: of every kind): the 'live' mode, by which the
 * tests see that the classes of +metaopt free their instances. */
uint32_t entry_live_count(const EntryKind *kind);

/* Frees the instance (its kind's release, then the state) and frees its slot. */
void entry_free(Entry *e);

/* Marks `e` in use by a library call that may call the m-function objective `fun` (NULL: none).
 * Nothing may raise an error between call_begin and call_end: the library call alone. */
void call_begin(Entry *e, const mxArray *fun);
/* call_begin for a call that may also call the m-function violation `viol` of its constraints. */
void call_begin_with(Entry *e, const mxArray *fun, const mxArray *viol);
void call_end(Entry *e);

/* ---------------------------------------------------------------------------------------- */
/* m-function objectives and failed calls (mex_objective.c)                                 */

/* The host callback of m-function objectives (MetaoptObjective.callback; user_data: the Entry,
 * whose running call, begun by call_begin, names the m-function). */
int32_t mex_objective(const double *x, uint32_t rows, uint32_t dims, double *f, void *user_data);
/* The host callback of m-function violations (MetaoptConstraints.violation; user_data: the
 * Entry, whose running call, begun by call_begin_with, names the m-function). */
int32_t mex_violation(const double *x, uint32_t rows, uint32_t dims, double *v, void *user_data);
/* The objective `fun` of instance entry e into *o: a function handle or m-function name (a host
 * callback calling it through mex_objective, labelled in `label`, cap bytes), '@NAME' (a
 * catalogue function), '@FILE.cl' (OpenCL C read from FILE.cl) or a struct with field source
 * (OpenCL C code) and optional name (its label). Returns 1 for a host callback (the caller keeps
 * a persistent copy of fun for the calls), else 0; strings are mxMalloc'ed with the MEX call. */
int objective_arg(const mxArray *fun, Entry *e, MetaoptObjective *o, char *label, size_t cap);

/* The constraint options of a solver's opts struct `s` (NULL: none) for instance entry e whose
 * objective is an m-function (`callback` nonzero) or not:
 *   constraints [NG NH]  the counts of what an OpenCL source objective's `constraints` writes
 *                        (NG inequalities g <= 0, then NH equalities |h| <= eqTol);
 *   violation            for an m-function objective: a function handle or m-function name,
 *                        called with the same rows x dims points, returning each row's
 *                        violation (0 feasible, > 0 infeasible);
 *   eqTol                the equalities' tolerance (default 1e-4);
 *   constraintHandling   'deb' (the default), 'epsilon' or [theta tc cp] (when `what` allows
 *                        CONSTRAINTS_EPSILON);
 *   repair               the gradient-based repair: a probability, or [probability rounds]
 *                        (when `what` allows CONSTRAINTS_REPAIR).
 * Fills *c and returns 1 when constraints or violation is given, else 0 (the other fields are
 * then refused). A violation m-function is copied into *viol (persistent: the caller keeps it
 * for the calls, or destroys it), else *viol is NULL. */
enum { CONSTRAINTS_EPSILON = 1, CONSTRAINTS_REPAIR = 2 };
int constraints_arg(const mxArray *s, Entry *e, int callback, unsigned what, MetaoptConstraints *c, mxArray **viol);
/* The counts [NG NH] of `v` (named `what` in errors) into c->inequalities, c->equalities. */
void constraint_counts(const mxArray *v, const char *what, MetaoptConstraints *c);
/* Whether opts struct s (NULL: none) has any field of constraints_arg. */
int has_constraint_fields(const mxArray *s);

/* Raises the error of a failed library call on `e`: the objective's failure, if it failed,
 * else the library's (freeing its message). `e` NULL: the library's error (fail_library). */
void fail_call(Entry *e, const char *call, int32_t code, char *message);

/* check_int for a call on `e` that may have run its m-function objective (fail_call). */
int32_t check_call(Entry *e, const char *call, MetaoptInt32Result r);

/* Checks the result struct `r` of a library call that owns memory (a message and arrays): on
 * failure takes its message out, frees the rest with free_result(&r) and raises the error by
 * fail_call (e: the instance whose call may have run an m-function objective; NULL where the
 * call runs none). Nothing happens when the call succeeded. */
#define CHECK_RESULT(e, call, r, free_result)                                                    \
    do {                                                                                         \
        if ((r).error_code != METAOPT_OK) {                                                      \
            int32_t check_code_ = (r).error_code;                                                \
            char *check_message_ = (r).error_message;                                            \
            (r).error_message = NULL;                                                            \
            free_result(&(r));                                                                   \
            fail_call((e), (call), check_code_, check_message_);                                 \
        }                                                                                        \
    } while (0)

/* ---------------------------------------------------------------------------------------- */
/* Ctrl-C during long library calls (mex_cancel.c)                                          */

/* A new stop token for one library call (its options' stop_token), or NULL should the library
 * fail (then Ctrl-C stops the call through metaopt_interrupt); metaopt_stop_token_free after. */
MetaoptStopToken *cancel_token(void);

/* Runs body(arg), one library call that carries `token`, so that Ctrl-C stops it: in a worker
 * thread while the MEX thread polls for Ctrl-C (mex_trap.h) and, on one, requests `token`
 * (NULL: metaopt_interrupt). `here` nonzero runs it on the MEX thread instead (a call that may
 * call an m-function objective: the objective sees Ctrl-C). body must call no mx function.
 * Returns 1 when the user interrupted. Runs between call_begin and call_end: raises nothing. */
int run_cancellable(int here, void (*body)(void *), void *arg, MetaoptStopToken *token);

/* What a cancellable call's status means (cancel_outcome). */
enum {
    CANCEL_NONE = 0,    /* as it is: a success, or an error for CHECK_RESULT */
    CANCEL_USER = 1,    /* the user's Ctrl-C: free the result, then fail_interrupted */
    CANCEL_STOPPED = 2  /* METAOPT_INTERRUPTED by a stop request from elsewhere: *code is now
                           METAOPT_OK and *message freed; a result with stopReason 'interrupted',
                           then warn_stopped() once the result is freed */
};
int cancel_outcome(int user, int32_t *code, char **message);

/* Raises `metaopt:interrupted` ("interrupted (Ctrl-C); best so far: <best>"), marking the
 * pending interrupt handled (Octave then raises no interrupt of its own). */
void fail_interrupted(const char *best);

/* The warning `metaopt:interrupted` of a call stopped by a request from elsewhere. */
void warn_stopped(void);

/* A MetaoptStopReason as info.stopReason, the library's word (metaopt_stop_reason_word):
 * 'budget' (the solver's own count), 'evaluations', 'time_limit', 'target', 'stagnation',
 * 'interrupted', 'converged', 'done'; 'unknown' for a number the library does not know. */
const char *stop_reason_name(int32_t reason);

/* Reads a whole file (an objective's OpenCL C source) into an mxMalloc'd NUL-terminated string. */
char *read_file(const char *path);

/* Reads a whole file (a checkpoint) into mxMalloc'd bytes, their count in *n; a file that cannot
 * be opened is the error metaopt:io naming `what`. */
uint8_t *read_bytes(const char *path, const char *what, size_t *n);

/* ---------------------------------------------------------------------------------------- */
/* modes                                                                                    */

/* A mode: nrhs/prhs include the mode string (prhs[0]); options is what follows its colon. */
typedef void (*ModeFn)(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);

/* The longest tabu list the library takes (its MAX_TABU_LENGTH, 2^24 strings). */
#define TABU_MAX_LENGTH 16777216.0

/* The two forms of 'params', for messages where a call may have meant the other (mex_main.c). */
extern const char PARAMS_FORMS[];

/* mex_device.c */

/* Precision of the real-valued solvers (general HC12, island DE) as the MEX front end asks for
 * it: AUTO lets the library choose (double where the device has cl_khr_fp64, and on the CPU
 * backend; README.md, "Precision"); the library reports the one it used. */
enum { PRECISION_AUTO = -1, PRECISION_SINGLE = 0, PRECISION_DOUBLE = 1 };
/* opts.precision: 'single' or 'double' (PRECISION_SINGLE, PRECISION_DOUBLE). */
int precision_arg(const mxArray *v, const char *name);
/* The library's MetaoptPrecision for a request (PRECISION_*): METAOPT_PRECISION_AUTO, _SINGLE,
 * _DOUBLE. */
int32_t resolve_precision(int requested);
/* 'single' or 'double' for the MetaoptPrecision a library call reports (1 or 2). */
const char *precision_name(int32_t precision);
void mode_get_device(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_set_device(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_devices(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_mem_space_valid(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);

/* mex_qap.c; qap_params, qap_run and qap_set_tabu_list are the QAP forms of 'params', 'run' and
 * 'set-tabu-list' (mex_main.c) */
void qap_params(mxArray **plhs, int nrhs, const mxArray **prhs);
void qap_run(Entry *e, int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs);
void qap_set_tabu_list(Entry *e, uint32_t length);
void mode_params_file(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_solve(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_qap_ts_solve(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_qap_ts_save_state(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_qap_save_state(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);

/* mex_hc12.c; hc12_params, hc12_run and hc12_set_tabu_list are the general HC12 forms */
void hc12_params(mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void hc12_run(Entry *e, int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void hc12_set_tabu_list(Entry *e, uint32_t length);
void mode_func_data(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_func_data_clean(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_kernel_verbose(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_profiler_on(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_profiler_output(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_hc12_save_state(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);

/* mex_cancel.c */
void mode_interrupt(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);

/* mex_sat.c */
void mode_sat_parse(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_sat_clauses(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_sat_evaluate(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_sat_solve(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);

/* knapsack and QIGA (mex_qiga.c) */
void mode_knapsack_file(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_knapsack_arrays(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_knapsack_generate(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_knapsack_data(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_knapsack_optimum(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_knapsack_evaluate(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);

/* mex_eval.c */
void mode_evaluate(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_qiga_run(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);

/* graphs, exact shortest paths and ACO (mex_sp.c) */
void mode_graph_create(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_graph_edges(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_graph_file(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_graph_thesis(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_graph_grid(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_graph_data(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_sssp(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_aco(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);

/* the Voronoi diagram of balls (mex_awvd.c) */
void mode_awvd(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);

/* batched DE (mex_bde.c) */
void mode_bde_create(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_bde_run(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_bh_create(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_bh_solve(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_bh_save_state(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_bh_polish(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);

/* mex_de.c */
void mode_de_params(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_de_init(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_de_iteration(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_de_run(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_de_bests(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_de_best(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_de_x(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);
void mode_de_func_data(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
