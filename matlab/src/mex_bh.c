/*
 * mex_bh.c: the basin-hopping modes of the metaopt MEX gateway (docs/specs/DE.md, "Basin
 * hopping"): bh-create, bh-solve, bh-save-state, and the instance kind ('info', 'free').
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mex_internal.h"

/* A basin-hopping instance's state (Entry.state): the library instance, its dimensions, and the
 * m-function objective (a persistent copy: the library calls it in later 'bh-solve' calls),
 * NULL for a device objective. */
typedef struct {
    MetaoptBhInstance *bh;
    uint32_t dims;
    mxArray *fun;
    mxArray *viol; /* the violation m-function of the constraints (persistent), or NULL */
} BhState;

static void bh_release(void *state) {
    BhState *b = state;
    if (b->bh)
        metaopt_bh_free(b->bh);
    if (b->fun)
        mxDestroyArray(b->fun);
    if (b->viol)
        mxDestroyArray(b->viol);
}

static const char *const bh_option_fields[] = {"chains",    "hopMin",     "hopMax", "hopScales", "step0",
                                              "stepStop",  "maxSearch",  "seed",   "launchSteps", "share",
                                              "precision", "cpu",        "device", "data",     "constraints",
                                              "violation", "eqTol",      NULL};

/* bounds: a dims x 2 matrix of [lower upper] rows, into mxMalloc'ed lo and hi (the library
 * checks finite lo < hi) -> dims */
static uint32_t bounds_arg(const mxArray *b, double **lo, double **hi) {
    check_real_numeric(b, "bounds", "a dims x 2 matrix of [lower upper] rows");
    if (mxGetNumberOfDimensions(b) != 2 || mxGetN(b) != 2 || mxGetM(b) == 0 || mxGetM(b) > 4294967295.0)
        fail("badArgument", "bounds must be a dims x 2 matrix of [lower upper] rows, got %zu x %zu", (size_t)mxGetM(b),
             (size_t)mxGetN(b));
    uint32_t dims = (uint32_t)mxGetM(b);
    *lo = mxMalloc(dims * sizeof **lo);
    *hi = mxMalloc(dims * sizeof **hi);
    for (uint32_t j = 0; j < dims; ++j)
        (*lo)[j] = elem(b, j), (*hi)[j] = elem(b, j + dims);
    return dims;
}

/* The objective `fun` into *obj and the constraint options of `s` into *cons (constraints_arg:
 * Deb's rules; *given says whether any was), read before the instance
 * is made so that an error leaves nothing behind; then a new basin-hopping instance (its array
 * in *out) holding persistent copies of the m-functions, which is the callbacks' user data.
 * `label` (cap bytes) names an m-function objective and must outlive the library calls. */
static Entry *bh_entry(const mxArray *fun, const mxArray *s, uint32_t dims, MetaoptObjective *obj,
                       MetaoptConstraints *cons, int *given, char *label, size_t cap, mxArray **out) {
    int callback = objective_arg(fun, NULL, obj, label, cap);
    mxArray *viol;
    *given = constraints_arg(s, NULL, callback, 0, cons, &viol);
    Entry *e = entry_new(&kind_bh, out);
    BhState *st = e->state;
    st->dims = dims;
    st->viol = viol;
    if (callback) {
        obj->user_data = e;
        st->fun = mxDuplicateArray(fun);
        mexMakeArrayPersistent(st->fun);
    }
    if (viol)
        cons->user_data = e;
    return e;
}

/* 'bh-create', objective, bounds (a dims x 2 matrix of [lower upper] rows), [opts: chains,
 * hopMin, hopMax, hopScales, step0, stepStop, maxSearch, seed, launchSteps, share (false: the
 * chains stay independent), precision ('single' | 'double'; unset: the library's choice), cpu,
 * device, data (the data buffer of an OpenCL source objective: a numeric array's raw bytes),
 * constraints [NG NH] (an OpenCL source objective's) or violation (an m-function objective's),
 * eqTol: compared by Deb's feasibility rules (constraints_arg)]
 * objective: as in de-init (a function handle or m-function name, called on the CPU backend
 * with the chains x dims trial points of a step; '@NAME'; '@FILE.cl'; a struct with field
 * source) -> instance */
void mode_bh_create(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    const mxArray *fun = arg(nrhs, prhs, 1, "objective");
    double *lo, *hi;
    uint32_t dims = bounds_arg(arg(nrhs, prhs, 2, "bounds"), &lo, &hi);
    const mxArray *s = options_struct(nrhs, prhs, 3, bh_option_fields);
    MetaoptBhOptions o = metaopt_bh_default_options();
    const mxArray *v;
    if ((v = opt(s, "chains")))
        o.chains = (uint32_t)int_scalar(v, "opts.chains", 0, 4294967295.0);
    if ((v = opt(s, "hopMin")))
        o.hop_min = real_scalar(v, "opts.hopMin");
    if ((v = opt(s, "hopMax")))
        o.hop_max = real_scalar(v, "opts.hopMax");
    if ((v = opt(s, "hopScales")))
        o.hop_scales = (uint32_t)int_scalar(v, "opts.hopScales", 0, 4294967295.0);
    if ((v = opt(s, "step0")))
        o.step0 = real_scalar(v, "opts.step0");
    if ((v = opt(s, "stepStop")))
        o.step_stop = real_scalar(v, "opts.stepStop");
    if ((v = opt(s, "maxSearch")))
        o.max_search = (uint32_t)int_scalar(v, "opts.maxSearch", 0, 4294967295.0);
    if ((v = opt(s, "seed")))
        o.seed = (uint64_t)int_scalar(v, "opts.seed", 0, 9007199254740992.0);
    if ((v = opt(s, "launchSteps")))
        o.launch_steps = (uint32_t)int_scalar(v, "opts.launchSteps", 0, 4294967295.0);
    if ((v = opt(s, "share")))
        o.share = (uint8_t)flag_arg(v, "opts.share");
    o.precision = resolve_precision((v = opt(s, "precision")) ? precision_arg(v, "opts.precision") : PRECISION_AUTO);
    if ((v = opt(s, "cpu")))
        o.backend = flag_arg(v, "opts.cpu") ? METAOPT_BACKEND_CPU : METAOPT_BACKEND_DEVICE;
    if ((v = opt(s, "device")))
        o.device = (int32_t)int_scalar(v, "opts.device", -1, 2147483647.0);
    size_t bytes = 0;
    const void *data = (v = opt(s, "data")) ? data_bytes(v, "opts.data", &bytes) : NULL;
    MetaoptObjective obj;
    MetaoptConstraints cons;
    char label[512];
    mxArray *out = NULL;
    int given;
    Entry *e = bh_entry(fun, s, dims, &obj, &cons, &given, label, sizeof label, &out);
    BhState *st = e->state;
    if (given)
        o.constraints = &cons;
    /* the starting point is evaluated by 'bh-solve' (opts.x0), not here */
    MetaoptBhCreateResult r = metaopt_bh_create(&obj, lo, hi, dims, bytes ? data : NULL, bytes, &o);
    if (r.error_code != METAOPT_OK) {
        entry_free(e);
        mxDestroyArray(out);
        fail_library("metaopt_bh_create", r.error_code, r.error_message);
    }
    st->bh = r.instance;
    plhs[0] = out;
}

/* One metaopt_bh_solve (run_cancellable's body: no mx call). */
typedef struct {
    MetaoptBhInstance *bh;
    const MetaoptBhStop *stop;
    MetaoptBhSolveResult r;
} BhSolveCall;

static void bh_solve_body(void *arg) {
    BhSolveCall *c = arg;
    c->r = metaopt_bh_solve(c->bh, c->stop);
}

/* 'bh-solve', instance, [opts: x0 (every chain starts anew there: a row of dims values; needed
 * before the first solve), maxSteps (steps of every chain since the start), maxEvaluations,
 * target, timeLimit (at least one of the four), checkpoint, checkpointEvery, resume (a
 * checkpoint file or the bytes of bh-save-state: the solve continues the saved one)]
 * -> struct value, x, steps, launches, evaluations, seconds, secondsToBest, violation (of x
 * under bh-create's constraints: 0 feasible; 0 without), stopReason, precision. Ctrl-C stops it within one launch (mex_cancel.c): `metaopt:interrupted`, the
 * instance keeping its chains. */
/* Seconds of the calendar clock (C11, on every platform MATLAB runs on). */
static double now_seconds(void) {
    struct timespec ts;
    if (!timespec_get(&ts, TIME_UTC))
        return 0.0;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void mode_bh_solve(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    /* the time limit counts from this call: the start at x0 or the loading of a state included */
    double called = now_seconds();
    static const char *known[] = {"x0",        "maxSteps",   "maxEvaluations",  "target", "timeLimit",
                                  "checkpoint", "checkpointEvery", "resume", NULL};
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), &kind_bh);
    BhState *b = e->state;
    const mxArray *s = options_struct(nrhs, prhs, 2, known);
    MetaoptBhStop st = metaopt_bh_default_stop();
    const mxArray *v;
    if ((v = opt(s, "maxSteps")))
        st.steps = (uint64_t)int_scalar(v, "opts.maxSteps", 1, 9007199254740992.0);
    if ((v = opt(s, "maxEvaluations")))
        st.evaluations = (uint64_t)int_scalar(v, "opts.maxEvaluations", 1, 9007199254740992.0);
    if ((v = opt(s, "target"))) {
        st.has_target = 1;
        st.target = real_scalar(v, "opts.target");
    }
    if ((v = opt(s, "timeLimit"))) {
        st.time_limit = real_scalar(v, "opts.timeLimit");
        if (!(st.time_limit > 0))
            fail("badArgument", "opts.timeLimit must be positive, got %g", st.time_limit);
    }
    checkpoint_opts(s, &st.checkpoint_path, &st.checkpoint_every_s);
    const mxArray *x0 = opt(s, "x0"), *resume = opt(s, "resume");
    if (x0 && resume)
        fail("badOption", "opts.x0 and opts.resume both say where the chains start; give one");
    if (resume) {
        size_t len;
        uint8_t *bytes = state_bytes(resume, "opts.resume", &len);
        check_call(e, "metaopt_bh_load_state", metaopt_bh_load_state(b->bh, bytes, len));
    }
    if (x0) {
        size_t n;
        double *x = real_vector(x0, "opts.x0", &n, 1);
        if (n != b->dims)
            fail("badArgument", "opts.x0 must hold dims = %u values, got %zu", b->dims, n);
        call_begin_with(e, b->fun, b->viol);
        MetaoptInt32Result sr = metaopt_bh_start(b->bh, x, b->dims);
        call_end(e);
        check_call(e, "metaopt_bh_start", sr);
    }
    if (st.time_limit > 0) {
        double left = st.time_limit - (now_seconds() - called);
        st.time_limit = left > 1e-9 ? left : 1e-9;
    }
    /* an m-function objective runs on this thread (it sees Ctrl-C itself); else a worker */
    MetaoptStopToken *token = b->fun ? NULL : cancel_token();
    st.stop_token = token;
    BhSolveCall c = {.bh = b->bh, .stop = &st};
    call_begin_with(e, b->fun, b->viol);
    int user = run_cancellable(b->fun != NULL, bh_solve_body, &c, token);
    call_end(e);
    metaopt_stop_token_free(token);
    MetaoptBhSolveResult r = c.r;
    int outcome = cancel_outcome(user, &r.error_code, &r.error_message);
    if (outcome == CANCEL_USER) {
        char best[160];
        snprintf(best, sizeof best, "%.10g after %llu steps", r.value, (unsigned long long)r.steps);
        metaopt_bh_free_solve_result(&r);
        fail_interrupted(best);
    }
    CHECK_RESULT(e, "metaopt_bh_solve", r, metaopt_bh_free_solve_result);
    mxArray *out = empty_struct();
    set_num(out, "value", r.value);
    set_field(out, "x", row_double(r.x, r.dims));
    set_num(out, "steps", (double)r.steps);
    set_num(out, "launches", (double)r.launches);
    set_num(out, "evaluations", (double)r.evaluations);
    set_num(out, "seconds", r.seconds);
    set_num(out, "secondsToBest", r.seconds_to_best);
    set_num(out, "violation", r.violation);
    set_field(out, "stopReason", mxCreateString(stop_reason_name(r.stop_reason)));
    set_field(out, "precision", mxCreateString(precision_name(r.precision)));
    metaopt_bh_free_solve_result(&r);
    plhs[0] = out;
    if (outcome == CANCEL_STOPPED)
        warn_stopped();
}

/* 'bh-save-state', instance -> uint8 column: the whole state (every chain, the counters, the
 * solve's course), for 'bh-solve' opts.resume */
void mode_bh_save_state(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), &kind_bh);
    BhState *b = e->state;
    MetaoptBytesResult r = metaopt_bh_save_state(b->bh);
    CHECK_RESULT(e, "metaopt_bh_save_state", r, metaopt_bytes_free_result);
    plhs[0] = bytes_column(r.data, r.length);
    metaopt_bytes_free_result(&r);
}

/* One metaopt_bh_polish (run_cancellable's body: no mx call). */
typedef struct {
    const MetaoptObjective *obj;
    const double *lo, *hi, *x;
    uint32_t dims;
    const void *data;
    size_t bytes;
    const MetaoptPolishOptions *o;
    MetaoptPolishResult r;
} PolishCall;

static void polish_body(void *arg) {
    PolishCall *c = arg;
    c->r = metaopt_bh_polish(c->obj, c->lo, c->hi, c->dims, c->data, c->bytes, c->x, c->o);
}

static const char *const polish_option_fields[] = {"chains", "steps",       "seed",      "precision", "cpu",
                                                   "device", "data",        "timeLimit", "constraints",
                                                   "violation", "eqTol",    NULL};

/* 'bh-polish', objective, bounds, x, [opts: chains (8), steps (1000 + 200 dims), seed (1),
 * precision, cpu, device, data (as bh-create), timeLimit (seconds; 0: none), constraints [NG NH]
 * or violation, eqTol (constraints_arg: compared by Deb's rules)]: the library's polish, basin
 * hopping's (1+1)-ES searching from x within the bounds, which keeps x unless it finds a better
 * point (metaopt_bh_polish) -> struct value, x, violation, startValue, startViolation, improved,
 * evaluations, seconds, stopReason, precision. Ctrl-C stops it: `metaopt:interrupted`. */
void mode_bh_polish(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    const mxArray *fun = arg(nrhs, prhs, 1, "objective");
    double *lo, *hi;
    uint32_t dims = bounds_arg(arg(nrhs, prhs, 2, "bounds"), &lo, &hi);
    size_t n;
    double *x = real_vector(arg(nrhs, prhs, 3, "x"), "x", &n, 1);
    if (n != dims)
        fail("badArgument", "x must hold dims = %u values (one per row of bounds), got %zu", dims, n);
    const mxArray *s = options_struct(nrhs, prhs, 4, polish_option_fields);
    MetaoptPolishOptions o = metaopt_bh_default_polish_options(dims);
    const mxArray *v;
    if ((v = opt(s, "chains")))
        o.chains = (uint32_t)int_scalar(v, "opts.chains", 0, 4294967295.0);
    if ((v = opt(s, "steps")))
        o.steps = (uint32_t)int_scalar(v, "opts.steps", 0, 4294967295.0);
    if ((v = opt(s, "seed")))
        o.seed = (uint64_t)int_scalar(v, "opts.seed", 0, 9007199254740992.0);
    o.precision = resolve_precision((v = opt(s, "precision")) ? precision_arg(v, "opts.precision") : PRECISION_AUTO);
    if ((v = opt(s, "cpu")))
        o.backend = flag_arg(v, "opts.cpu") ? METAOPT_BACKEND_CPU : METAOPT_BACKEND_DEVICE;
    if ((v = opt(s, "device")))
        o.device = (int32_t)int_scalar(v, "opts.device", -1, 2147483647.0);
    if ((v = opt(s, "timeLimit")))
        o.time_limit = real_scalar(v, "opts.timeLimit"); /* the library checks it */
    size_t bytes = 0;
    const void *data = (v = opt(s, "data")) ? data_bytes(v, "opts.data", &bytes) : NULL;
    MetaoptObjective obj;
    MetaoptConstraints cons;
    char label[512];
    /* an instance for the call alone: the m-functions' user data and busy mark */
    mxArray *token_array = NULL;
    int given;
    Entry *e = bh_entry(fun, s, dims, &obj, &cons, &given, label, sizeof label, &token_array);
    BhState *st = e->state;
    if (given)
        o.constraints = &cons;
    /* an m-function runs on this thread (it sees Ctrl-C itself); else a worker */
    int here = st->fun || st->viol;
    MetaoptStopToken *token = here ? NULL : cancel_token();
    o.stop_token = token;
    PolishCall c = {.obj = &obj, .lo = lo, .hi = hi, .x = x, .dims = dims, .data = bytes ? data : NULL,
                    .bytes = bytes, .o = &o};
    call_begin_with(e, st->fun, st->viol);
    int user = run_cancellable(here, polish_body, &c, token);
    call_end(e);
    metaopt_stop_token_free(token);
    MetaoptPolishResult r = c.r;
    int outcome = cancel_outcome(user, &r.error_code, &r.error_message);
    if (outcome == CANCEL_USER) {
        char best[96];
        snprintf(best, sizeof best, "%.10g", r.value);
        metaopt_bh_free_polish_result(&r);
        entry_free(e);
        mxDestroyArray(token_array);
        fail_interrupted(best);
    }
    if (r.error_code != METAOPT_OK) {
        int32_t code = r.error_code;
        char *msg = r.error_message;
        r.error_message = NULL;
        metaopt_bh_free_polish_result(&r);
        /* the m-function's failure is raised from the entry's record: taken before it is freed */
        Entry held = *e;
        e->fun_error = NULL, e->fun_exception = NULL, e->fun_interrupted = 0;
        entry_free(e);
        mxDestroyArray(token_array);
        fail_call(&held, "metaopt_bh_polish", code, msg);
    }
    entry_free(e);
    mxDestroyArray(token_array);
    mxArray *out = empty_struct();
    set_num(out, "value", r.value);
    set_field(out, "x", row_double(r.x, r.dims));
    set_num(out, "violation", r.violation);
    set_num(out, "startValue", r.start_value);
    set_num(out, "startViolation", r.start_violation);
    set_field(out, "improved", mxCreateLogicalScalar(r.improved != 0));
    set_num(out, "evaluations", (double)r.evaluations);
    set_num(out, "seconds", r.seconds);
    set_field(out, "stopReason", mxCreateString(stop_reason_name(r.stop_reason)));
    set_field(out, "precision", mxCreateString(precision_name(r.precision)));
    metaopt_bh_free_polish_result(&r);
    plhs[0] = out;
    if (outcome == CANCEL_STOPPED)
        warn_stopped();
}

static mxArray *bh_info(Entry *e) {
    BhState *b = e->state;
    return string_result("metaopt_bh_info", metaopt_bh_info(b->bh));
}

const EntryKind kind_bh = {KIND_BH, "basin hopping", sizeof(BhState), bh_release, bh_info};
