/*
 * mex_qap.c: the QAP modes of the metaopt MEX gateway (HC12 qapswap2, thesis Table 2):
 * 'params' in its QAP form, params-file, 'run' and 'set-tabu-list' on a QAP instance, solve,
 * and the QAP instance kind ('info', 'free'). 'params', 'run' and 'set-tabu-list' are
 * dispatched to qap_params, qap_run and qap_set_tabu_list by mex_main.c.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mex_internal.h"

/* A QAP instance's state (Entry.state): the library instance and its sizes. */
typedef struct {
    MetaoptQapInstance *qap;
    uint32_t n, swaps;
} QapState;

static void qap_release(void *state) {
    QapState *q = state;
    if (q->qap)
        metaopt_qap_free(q->qap);
}

static const char *qap_type_name(const mxArray *df) {
    switch (mxGetClassID(df)) {
    case mxINT32_CLASS: return "int32";
    case mxINT64_CLASS: return "int64";
    case mxUINT32_CLASS: return "uint32";
    case mxUINT64_CLASS: return "uint64";
    case mxSINGLE_CLASS: return "single";
    case mxDOUBLE_CLASS: return "double";
    default: return NULL;
    }
}

static double cost_of(int32_t type, int64_t t1, uint64_t t2, float t3, double t4) {
    switch (type) {
    case METAOPT_QAP_RESULT_INT64: return (double)t1;
    case METAOPT_QAP_RESULT_UINT64: return (double)t2;
    case METAOPT_QAP_RESULT_FLOAT: return t3;
    default: return t4;
    }
}

/* A new QAP instance holding the library instance `qap`, its token in *out. */
static void qap_new(MetaoptQapInstance *qap, mxArray **out) {
    QapState *q = entry_new(&kind_qap, out)->state;
    q->qap = qap;
    MetaoptQapInfo info;
    check_int("metaopt_qap_info", metaopt_qap_info(q->qap, &info));
    q->n = info.n_elements;
    q->swaps = info.swaps;
}

/* 'params', swaps, nElements, nBitParam, DF, [nSlices=1, maskOrder=2, startBit=0, bitLength=0] */
void qap_params(mxArray **plhs, int nrhs, const mxArray **prhs) {
    uint32_t swaps = (uint32_t)int_scalar(arg(nrhs, prhs, 1, "swaps"), "swaps", 1, 64);
    uint32_t n = (uint32_t)int_scalar(arg(nrhs, prhs, 2, "nElements"), "nElements", 2, 65535);
    const mxArray *df = arg(nrhs, prhs, 4, "DF");
    uint32_t slices = given(nrhs, prhs, 5) ? (uint32_t)int_scalar(prhs[5], "nSlices", 1, 4294967295.0) : 1;
    uint32_t mask = given(nrhs, prhs, 6) ? (uint32_t)int_scalar(prhs[6], "maskOrder", 1, 3) : 2;
    int32_t start_bit = given(nrhs, prhs, 7) ? (int32_t)int_scalar(prhs[7], "startBit", 0, 2147483647.0) : 0;
    int32_t bit_length = given(nrhs, prhs, 8) ? (int32_t)int_scalar(prhs[8], "bitLength", 0, 2147483647.0) : 0;
    if (nrhs > 9)
        fail("tooManyArguments", "QAP params takes at most 8 arguments after the mode");
    uint32_t bits = 0;
    while ((1u << bits) < n)
        ++bits;
    /* nBitParam (the thesis's): [] or ceil(log2(nElements)) is the default; more bits (up to 32)
     * are a longer string whose parameters name position I mod nElements, as the thesis's
     * kernel; fewer are refused by the library, naming nBitParam */
    uint32_t want = given(nrhs, prhs, 3) ? (uint32_t)int_scalar(prhs[3], "nBitParam", 0, 4294967295.0) : 0;
    const char *type = qap_type_name(df);
    if (not_real_numeric(df) || !type)
        fail("badArgument", "DF must be a real int32, int64, uint32, uint64, single or double array, got %s%s",
             array_kind(df), PARAMS_FORMS);
    mwSize nd = mxGetNumberOfDimensions(df);
    const mwSize *dims = mxGetDimensions(df);
    size_t df_slices = nd >= 3 ? dims[2] : 1;
    if (nd > 3 || dims[0] != n || dims[1] != n || df_slices != slices)
        fail("badArgument", "DF must be nElements x nElements x nSlices = %u x %u x %u, got %zu x %zu x %zu%s", n, n,
             slices, (size_t)dims[0], (size_t)dims[1], df_slices, PARAMS_FORMS);
    /* MATLAB stores columns first; the library reads rows first: transpose every slice, so DF(i,j)
     * below the diagonal is the flow and above it the distance, as the thesis writes them */
    size_t elem_size = mxGetElementSize(df), nn = (size_t)n * n;
    const char *src = mxGetData(df);
    char *rows = mxMalloc(nn * slices * elem_size);
    for (size_t s = 0; s < slices; ++s)
        for (size_t i = 0; i < n; ++i)
            for (size_t j = 0; j < n; ++j)
                memcpy(rows + (s * nn + i * n + j) * elem_size, src + (s * nn + j * n + i) * elem_size, elem_size);
    MetaoptQapParamsResult r = metaopt_qap_params(swaps, n, slices, rows, type, mask, start_bit, bit_length);
    mxFree(rows);
    if (r.error_code != METAOPT_OK)
        fail_library("metaopt_qap_params", r.error_code, r.error_message);
    if (want != 0 && want != bits) {
        MetaoptInt32Result b = metaopt_qap_set_bits_per_param(r.instance, want);
        if (b.error_code != METAOPT_OK) {
            metaopt_qap_free(r.instance);
            fail_library("metaopt_qap_set_bits_per_param", b.error_code, b.error_message);
        }
    }
    qap_new(r.instance, &plhs[0]);
}

/* 'params-file', path, swaps, [maskOrder=2, startBit=0, bitLength=0] */
void mode_params_file(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    char *path = string_arg(arg(nrhs, prhs, 1, "path"), "path");
    uint32_t swaps = (uint32_t)int_scalar(arg(nrhs, prhs, 2, "swaps"), "swaps", 1, 64);
    uint32_t mask = given(nrhs, prhs, 3) ? (uint32_t)int_scalar(prhs[3], "maskOrder", 1, 3) : 2;
    int32_t start_bit = given(nrhs, prhs, 4) ? (int32_t)int_scalar(prhs[4], "startBit", 0, 2147483647.0) : 0;
    int32_t bit_length = given(nrhs, prhs, 5) ? (int32_t)int_scalar(prhs[5], "bitLength", 0, 2147483647.0) : 0;
    MetaoptQapParamsResult r = metaopt_qap_params_from_file(path, swaps, mask, start_bit, bit_length);
    if (r.error_code != METAOPT_OK)
        fail_library("metaopt_qap_params_from_file", r.error_code, r.error_message);
    qap_new(r.instance, &plhs[0]);
}

/* opts.seed and opts.target, read alike by the HC12 solve and the tabu search solve */
static void read_seed_target(const mxArray *s, uint64_t *seed, uint8_t *has_target, double *target)
{
    const mxArray *v;
    if ((v = opt(s, "seed")))
        *seed = (uint64_t)int_scalar(v, "opts.seed", 0, 9007199254740992.0);
    if ((v = opt(s, "target"))) {
        *has_target = 1;
        *target = real_scalar(v, "opts.target");
        if (!isfinite(*target))
            fail("badArgument", "opts.target must be finite, got %g", *target);
    }
}

/* A 1-based permutation of 1..n as a 0-based uint16 array (mxMalloc'd). */
static uint16_t *permutation_arg(const mxArray *a, const char *name, uint32_t n) {
    size_t len;
    double *v = real_vector(a, name, &len, 1);
    if (len != n)
        fail("badArgument", "%s must have nElements = %u entries, got %zu", name, n, len);
    uint16_t *p = mxMalloc(n * sizeof *p);
    char *seen = mxCalloc(n, 1);
    for (uint32_t i = 0; i < n; ++i) {
        if (v[i] != floor(v[i]) || v[i] < 1 || v[i] > n || seen[(size_t)v[i] - 1])
            fail("badArgument", "%s must be a permutation of 1..%u (1-based), entry %u is %g", name, n, i + 1, v[i]);
        seen[(size_t)v[i] - 1] = 1;
        p[i] = (uint16_t)(v[i] - 1);
    }
    mxFree(v);
    mxFree(seen);
    return p;
}

/* One metaopt_qap_run (run_cancellable's body: no mx call). */
typedef struct {
    MetaoptQapInstance *qap;
    const uint16_t *order;
    const uint32_t *k;
    MetaoptQapRunResult r;
} QapRunCall;

static void qap_run_body(void *arg) {
    QapRunCall *c = arg;
    c->r = metaopt_qap_run(c->qap, c->order, c->k);
}

/* 'run', instance, initOrder (1-based, [] = identity), initKernel ([] = zeros)
 * -> [cost, order (1-based), K (uint32, Gray-coded), lastIteration]. One climb: Ctrl-C stops it
 * through metaopt_interrupt (the call has no stop token) with `metaopt:interrupted`. */
void qap_run(Entry *e, int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs) {
    QapState *q = e->state;
    uint16_t *order = given(nrhs, prhs, 2) ? permutation_arg(prhs[2], "initOrder", q->n) : NULL;
    uint32_t *k = NULL;
    if (given(nrhs, prhs, 3)) {
        size_t len;
        double *v = real_vector(prhs[3], "initKernel", &len, 1);
        if (len != 2u * q->swaps)
            fail("badArgument", "initKernel must have 2 * swaps = %u entries, got %zu", 2u * q->swaps, len);
        k = mxMalloc(len * sizeof *k);
        for (size_t i = 0; i < len; ++i) {
            if (v[i] != floor(v[i]) || v[i] < 0 || v[i] > 4294967295.0)
                fail("badArgument", "initKernel(%zu) must be a nonnegative integer, got %g", i + 1, v[i]);
            k[i] = (uint32_t)v[i];
        }
    }
    if (nrhs > 4)
        fail("tooManyArguments", "QAP run takes instance, initOrder, initKernel");
    QapRunCall c = {.qap = q->qap, .order = order, .k = k};
    call_begin(e, NULL);
    int user = run_cancellable(0, qap_run_body, &c, NULL);
    call_end(e);
    MetaoptQapRunResult r = c.r;
    int outcome = cancel_outcome(user, &r.error_code, &r.error_message);
    if (outcome == CANCEL_USER) {
        char best[96];
        snprintf(best, sizeof best, "cost %.17g after %u iterations", cost_of(r.result_type, r.f_t1, r.f_t2, r.f_t3, r.f_t4),
                 r.lastIteration);
        metaopt_qap_free_run_result(&r);
        fail_interrupted(best);
    }
    CHECK_RESULT(NULL, "metaopt_qap_run", r, metaopt_qap_free_run_result);
    plhs[0] = mxCreateDoubleScalar(cost_of(r.result_type, r.f_t1, r.f_t2, r.f_t3, r.f_t4));
    if (nlhs > 1) {
        plhs[1] = mxCreateDoubleMatrix(1, r.orderLength, mxREAL);
        double *o = mxGetData(plhs[1]);
        for (uint32_t i = 0; i < r.orderLength; ++i)
            o[i] = r.order[i] + 1.0;
    }
    if (nlhs > 2)
        plhs[2] = row_u32(r.K_GC, r.K_GCLength);
    if (nlhs > 3)
        plhs[3] = mxCreateDoubleScalar(r.lastIteration);
    metaopt_qap_free_run_result(&r);
    if (outcome == CANCEL_STOPPED)
        warn_stopped();
}

/* One metaopt_qap_solve (run_cancellable's body: no mx call). */
typedef struct {
    MetaoptQapInstance *qap;
    const MetaoptQapSolveOptions *o;
    MetaoptQapSolveResult r;
} QapSolveCall;

static void qap_solve_body(void *arg) {
    QapSolveCall *c = arg;
    c->r = metaopt_qap_solve(c->qap, c->o);
}

/* The best so far of an interrupted QAP solve, for the message of metaopt:interrupted. */
static void qap_best(char *out, size_t cap, double cost, uint8_t has_bks, double gap) {
    if (has_bks)
        snprintf(out, cap, "cost %.17g (gap %.3g %%)", cost, gap);
    else
        snprintf(out, cap, "cost %.17g", cost);
}

/* 'solve', instance, [opts: runs, timeLimit, seed, start ('random' | 'identity' | 'glb' |
 * 'hrw' | 'pe' | 'ab' (projected from a lower bound, thesis Table 5) | a 1-based permutation), restart ('rebase' | 'random'), target,
 * checkpoint (a file the solve writes its state to, between runs, when it ends and every
 * checkpointEvery seconds), checkpointEvery, resume (a checkpoint file's path, or the uint8
 * vector of 'qap-save-state': the solve continues it)] -> result struct (stopReason:
 * 'target', 'time_limit', 'budget' (the runs), 'interrupted'). Ctrl-C stops it (mex_cancel.c). */
void mode_solve(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), &kind_qap);
    QapState *q = e->state;
    static const char *known[] = {"runs",   "timeLimit",  "seed",           "start",  "restart",
                                  "target", "checkpoint", "checkpointEvery", "resume", NULL};
    const mxArray *s = options_struct(nrhs, prhs, 2, known);
    MetaoptQapSolveOptions o = metaopt_qap_default_solve_options();
    const mxArray *v;
    if ((v = opt(s, "runs")))
        o.runs = (uint32_t)int_scalar(v, "opts.runs", 0, 4294967295.0);
    if ((v = opt(s, "timeLimit")))
        o.time_limit_s = real_scalar(v, "opts.timeLimit");
    /* runs = 0 is no limit on the runs: only a time limit surely ends the solve (a target may
     * never be reached) */
    if (o.runs == 0 && !(o.time_limit_s > 0 && isfinite(o.time_limit_s)))
        fail("badArgument", "opts.runs = 0 (no limit on the runs) needs a finite opts.timeLimit > 0");
    read_seed_target(s, &o.seed, &o.has_target, &o.target);
    if ((v = opt(s, "restart"))) {
        char *r = string_arg(v, "opts.restart");
        if (strcmp(r, "rebase") == 0)
            o.restart = METAOPT_QAP_RESTART_REBASE;
        else if (strcmp(r, "random") == 0)
            o.restart = METAOPT_QAP_RESTART_RANDOM;
        else
            fail("badArgument", "opts.restart must be 'rebase' or 'random', got '%s'", r);
    }
    if ((v = opt(s, "start"))) {
        if (mxIsChar(v)) {
            char *st = string_arg(v, "opts.start");
            if (strcmp(st, "random") == 0)
                o.start = METAOPT_QAP_START_RANDOM;
            else if (strcmp(st, "identity") == 0)
                o.start = METAOPT_QAP_START_IDENTITY;
            else if (strcmp(st, "glb") == 0)
                o.start = METAOPT_QAP_START_GLB;
            else if (strcmp(st, "hrw") == 0)
                o.start = METAOPT_QAP_START_HRW;
            else if (strcmp(st, "pe") == 0)
                o.start = METAOPT_QAP_START_PE;
            else if (strcmp(st, "ab") == 0)
                o.start = METAOPT_QAP_START_AB;
            else
                fail("badArgument",
                     "opts.start must be 'random', 'identity', 'glb', 'hrw', 'pe', 'ab' or a permutation, got '%s'", st);
        } else {
            o.start = METAOPT_QAP_START_GIVEN;
            o.start_order = permutation_arg(v, "opts.start", q->n);
        }
    }
    checkpoint_opts(s, &o.checkpoint_path, &o.checkpoint_every_s);
    if (o.checkpoint_every_s != 0 && !o.checkpoint_path)
        fail("badArgument", "opts.checkpointEvery needs opts.checkpoint");
    if (!(o.checkpoint_every_s >= 0))
        fail("badArgument", "opts.checkpointEvery must be positive, got %g", o.checkpoint_every_s);
    if ((v = opt(s, "resume"))) {
        size_t len;
        uint8_t *bytes = state_bytes(v, "opts.resume", &len);
        check_int("metaopt_qap_load_state", metaopt_qap_load_state(q->qap, bytes, len));
    }
    MetaoptStopToken *token = cancel_token();
    o.stop_token = token;
    QapSolveCall c = {.qap = q->qap, .o = &o};
    call_begin(e, NULL);
    int user = run_cancellable(0, qap_solve_body, &c, token);
    call_end(e);
    metaopt_stop_token_free(token);
    MetaoptQapSolveResult r = c.r;
    int outcome = cancel_outcome(user, &r.error_code, &r.error_message);
    if (outcome == CANCEL_USER) {
        char best[96];
        qap_best(best, sizeof best, cost_of(r.result_type, r.f_t1, r.f_t2, r.f_t3, r.f_t4), r.has_bks, r.gap_percent);
        metaopt_qap_free_solve_result(&r);
        fail_interrupted(best);
    }
    CHECK_RESULT(NULL, "metaopt_qap_solve", r, metaopt_qap_free_solve_result);
    mxArray *out = empty_struct();
    set_num(out, "cost", cost_of(r.result_type, r.f_t1, r.f_t2, r.f_t3, r.f_t4));
    mxArray *perm = mxCreateDoubleMatrix(1, r.permutation_length, mxREAL);
    for (uint32_t i = 0; i < r.permutation_length; ++i)
        ((double *)mxGetData(perm))[i] = r.permutation[i] + 1.0;
    set_field(out, "permutation", perm);
    set_num(out, "runs", r.runs);
    set_num(out, "iterations", (double)r.iterations);
    set_num(out, "bestRunIterations", r.best_run_iterations);
    set_num(out, "evaluations", (double)r.evaluations);
    set_num(out, "seconds", r.seconds);
    set_num(out, "secondsToBest", r.seconds_to_best);
    set_field(out, "targetReached", mxCreateLogicalScalar(r.target_reached != 0));
    set_num(out, "bks", r.has_bks ? (double)r.bks : NAN);
    set_num(out, "gapPercent", r.has_bks ? r.gap_percent : NAN);
    set_field(out, "stopReason", mxCreateString(stop_reason_name(r.stop_reason)));
    metaopt_qap_free_solve_result(&r);
    plhs[0] = out;
    if (outcome == CANCEL_STOPPED)
        warn_stopped();
}

static mxArray *qap_info(Entry *e) {
    QapState *q = e->state;
    MetaoptQapInfo info;
    check_int("metaopt_qap_info", metaopt_qap_info(q->qap, &info));
    mxArray *s = empty_struct();
    set_field(s, "kind", mxCreateString("qap"));
    set_num(s, "nElements", info.n_elements);
    set_num(s, "nSlices", info.n_slices);
    set_num(s, "swaps", info.swaps);
    set_num(s, "kLength", info.k_length);
    set_num(s, "nBitParam", info.bits_per_param);
    set_num(s, "rows", (double)info.rows);
    set_field(s, "backend", mxCreateString(info.backend == METAOPT_BACKEND_CPU ? "cpu" : "device"));
    set_field(s, "costForm", mxCreateString(info.cost_form == METAOPT_QAP_COST_FULL ? "full" : "delta"));
    set_num(s, "maxIterations", info.max_iterations);
    return s;
}

/* 'set-tabu-list', instance, maxLength (checked by the caller) */
void qap_set_tabu_list(Entry *e, uint32_t length) {
    QapState *q = e->state;
    check_int("metaopt_qap_init_tabu_list", metaopt_qap_init_tabu_list(q->qap, length));
}

const EntryKind kind_qap = {KIND_QAP, "QAP (HC12 qapswap2)", sizeof(QapState), qap_release, qap_info};

/* One metaopt_qap_ts_solve (run_cancellable's body: no mx call). */
typedef struct {
    MetaoptQapInstance *qap;
    const MetaoptQapTsOptions *o;
    MetaoptQapTsSolveResult r;
} QapTsCall;

static void qap_ts_body(void *arg) {
    QapTsCall *c = arg;
    c->r = metaopt_qap_ts_solve(c->qap, c->o);
}

/* 'qap-ts-solve', instance, [opts: chains, iterations (per chain; 0 = no limit, needs
 * timeLimit), launchIterations, timeLimit, target, seed, tenure ('cubic' | 'uniform'),
 * eliteSize, stagnation, perturbation ([min max] swaps), start (warm starts: one 1-based
 * permutation per row, for the first chains), cpu (true: the CPU backend for this call),
 * checkpoint (a file the search writes its state to when it ends and every checkpointEvery
 * seconds), checkpointEvery, resume (a checkpoint file's path, or the uint8 vector of
 * 'qap-ts-save-state': the search continues it), fitChains (default true: run as many chains
 * as fit the memory when opts.chains would not; false: refuse)]
 * -> result struct: the robust tabu search (metaopt_qap_ts_solve) on the instance
 * (stopReason: 'target', 'time_limit', 'budget' (the iterations), 'interrupted'). Ctrl-C stops it
 * between launches (mex_cancel.c). */
void mode_qap_ts_solve(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), &kind_qap);
    QapState *q = e->state;
    static const char *known[] = {"chains",      "iterations",   "launchIterations", "timeLimit",
                                  "target",      "seed",         "tenure",           "eliteSize",
                                  "stagnation",  "perturbation", "cpu",              "start",
                                  "checkpoint",  "checkpointEvery", "resume",        "fitChains",
                                  "crossover",   NULL};
    const mxArray *s = options_struct(nrhs, prhs, 2, known);
    MetaoptQapTsOptions o = metaopt_qap_ts_default_options();
    const mxArray *v;
    if ((v = opt(s, "chains")))
        o.chains = (uint32_t)int_scalar(v, "opts.chains", 1, 1048576);
    if ((v = opt(s, "fitChains")))
        o.fit_chains = (uint8_t)flag_arg(v, "opts.fitChains");
    if ((v = opt(s, "timeLimit"))) {
        o.time_limit_s = real_scalar(v, "opts.timeLimit");
        if (!(o.time_limit_s > 0))
            fail("badArgument", "opts.timeLimit must be positive, got %g", o.time_limit_s);
        if (!opt(s, "iterations"))
            o.max_iterations = 0; /* a time limit alone: no count */
    }
    if ((v = opt(s, "iterations")))
        o.max_iterations = (uint64_t)int_scalar(v, "opts.iterations", 0, 9007199254740992.0);
    if (o.max_iterations == 0 && !(o.time_limit_s > 0 && isfinite(o.time_limit_s)))
        fail("badArgument", "opts.iterations = 0 (no limit) needs a finite opts.timeLimit > 0");
    if ((v = opt(s, "launchIterations")))
        o.launch_iterations = (uint32_t)int_scalar(v, "opts.launchIterations", 1, 4294967295.0);
    read_seed_target(s, &o.seed, &o.has_target, &o.target);
    if ((v = opt(s, "tenure"))) {
        char *t = string_arg(v, "opts.tenure");
        if (strcmp(t, "cubic") == 0)
            o.tenure = METAOPT_QAP_TS_TENURE_CUBIC;
        else if (strcmp(t, "uniform") == 0)
            o.tenure = METAOPT_QAP_TS_TENURE_UNIFORM;
        else
            fail("badArgument", "opts.tenure must be 'cubic' or 'uniform', got '%s'", t);
    }
    if ((v = opt(s, "eliteSize")))
        o.elite_size = (uint32_t)int_scalar(v, "opts.eliteSize", 0, 4294967295.0);
    if ((v = opt(s, "stagnation")))
        o.stagnation = (int64_t)int_scalar(v, "opts.stagnation", 0, 9007199254740992.0);
    if ((v = opt(s, "perturbation"))) {
        size_t len;
        double *p = real_vector(v, "opts.perturbation", &len, 1);
        if (len != 2 || p[0] < 1 || p[1] < p[0] || p[1] > 4294967295.0 || p[0] != floor(p[0]) || p[1] != floor(p[1]))
            fail("badArgument", "opts.perturbation must be [min max] whole numbers with 1 <= min <= max");
        o.perturbation_min = (uint32_t)p[0];
        o.perturbation_max = (uint32_t)p[1];
    }
    if ((v = opt(s, "crossover"))) {
        o.crossover = real_scalar(v, "opts.crossover");
        if (!(o.crossover >= 0 && o.crossover <= 1))
            fail("badArgument", "opts.crossover must be a share in [0, 1], got %g", o.crossover);
    }
    if ((v = opt(s, "start"))) {
        /* warm starts: a k x nElements matrix, one 1-based permutation per row, for the first k
         * chains (the library checks that each row is a permutation and k <= chains) */
        check_real_numeric(v, "opts.start", "a k x nElements matrix of 1-based permutations");
        size_t k = mxGetM(v);
        if (mxGetNumberOfDimensions(v) > 2 || mxGetN(v) != q->n || k == 0)
            fail("badArgument", "opts.start must be a k x nElements = %u matrix (one 1-based permutation per row), got %zu x %zu",
                 q->n, k, (size_t)mxGetN(v));
        uint16_t *starts = mxMalloc(k * q->n * sizeof *starts);
        for (size_t r = 0; r < k; ++r)
            for (uint32_t j = 0; j < q->n; ++j) {
                double x = elem(v, r + (size_t)j * k);
                if (!(x == floor(x) && x >= 1 && x <= q->n))
                    fail("badArgument", "opts.start(%zu, %u) is %g; expected a whole number in 1..%u", r + 1, j + 1, x, q->n);
                starts[r * q->n + j] = (uint16_t)(x - 1);
            }
        o.starts = starts;
        o.starts_count = (uint32_t)k;
    }
    checkpoint_opts(s, &o.checkpoint_path, &o.checkpoint_every_s);
    if (o.checkpoint_every_s != 0 && !o.checkpoint_path)
        fail("badArgument", "opts.checkpointEvery needs opts.checkpoint");
    if (!(o.checkpoint_every_s >= 0))
        fail("badArgument", "opts.checkpointEvery must be positive, got %g", o.checkpoint_every_s);
    if ((v = opt(s, "resume"))) {
        size_t len;
        uint8_t *bytes = state_bytes(v, "opts.resume", &len);
        check_int("metaopt_qap_ts_load_state", metaopt_qap_ts_load_state(q->qap, bytes, len));
    }
    int cpu = (v = opt(s, "cpu")) ? flag_arg(v, "opts.cpu") : 0;
    MetaoptQapInfo info;
    check_int("metaopt_qap_info", metaopt_qap_info(q->qap, &info));
    int switch_backend = cpu && info.backend != METAOPT_BACKEND_CPU;
    if (switch_backend)
        check_int("metaopt_qap_set_backend", metaopt_qap_set_backend(q->qap, METAOPT_BACKEND_CPU, info.cost_form));
    MetaoptStopToken *token = cancel_token();
    o.stop_token = token;
    QapTsCall c = {.qap = q->qap, .o = &o};
    call_begin(e, NULL);
    int user = run_cancellable(0, qap_ts_body, &c, token);
    call_end(e);
    metaopt_stop_token_free(token);
    MetaoptQapTsSolveResult r = c.r;
    if (switch_backend) {
        /* back to the instance's own backend; a failure here is reported after the result's */
        MetaoptInt32Result back = metaopt_qap_set_backend(q->qap, info.backend, info.cost_form);
        if (back.error_code != METAOPT_OK && r.error_code == METAOPT_OK) {
            metaopt_qap_ts_free_solve_result(&r);
            check_int("metaopt_qap_set_backend", back);
        }
        metaopt_pointer_free(back.error_message);
    }
    int outcome = cancel_outcome(user, &r.error_code, &r.error_message);
    if (outcome == CANCEL_USER) {
        char best[96];
        qap_best(best, sizeof best, cost_of(r.result_type, r.f_t1, r.f_t2, r.f_t3, r.f_t4), r.has_bks, r.gap_percent);
        metaopt_qap_ts_free_solve_result(&r);
        fail_interrupted(best);
    }
    CHECK_RESULT(NULL, "metaopt_qap_ts_solve", r, metaopt_qap_ts_free_solve_result);
    mxArray *out = empty_struct();
    set_num(out, "cost", cost_of(r.result_type, r.f_t1, r.f_t2, r.f_t3, r.f_t4));
    mxArray *perm = mxCreateDoubleMatrix(1, r.permutation_length, mxREAL);
    for (uint32_t i = 0; i < r.permutation_length; ++i)
        ((double *)mxGetData(perm))[i] = r.permutation[i] + 1.0;
    set_field(out, "permutation", perm);
    set_num(out, "chains", r.chains);
    set_num(out, "chainsRequested", r.chains_requested);
    set_num(out, "iterations", (double)r.iterations);
    set_num(out, "launches", (double)r.launches);
    set_num(out, "restarts", (double)r.restarts);
    set_num(out, "seconds", r.seconds);
    set_num(out, "secondsToBest", r.seconds_to_best);
    set_field(out, "targetReached", mxCreateLogicalScalar(r.target_reached != 0));
    set_num(out, "bks", r.has_bks ? (double)r.bks : NAN);
    set_num(out, "gapPercent", r.has_bks ? r.gap_percent : NAN);
    set_field(out, "backend", mxCreateString(r.backend ? r.backend : ""));
    set_field(out, "stopReason", mxCreateString(stop_reason_name(r.stop_reason)));
    metaopt_qap_ts_free_solve_result(&r);
    plhs[0] = out;
    if (outcome == CANCEL_STOPPED)
        warn_stopped();
}

/* 'qap-save-state', instance -> uint8 column vector: the whole state of the instance's last
 * iterated solve ('solve', metaopt_qap_save_state), for opts.resume of a later 'solve'. */
void mode_qap_save_state(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), &kind_qap);
    QapState *q = e->state;
    MetaoptBytesResult r = metaopt_qap_save_state(q->qap);
    CHECK_RESULT(NULL, "metaopt_qap_save_state", r, metaopt_bytes_free_result);
    plhs[0] = bytes_column(r.data, r.length);
    metaopt_bytes_free_result(&r);
}

/* 'qap-ts-save-state', instance -> uint8 column vector: the whole state of the instance's last
 * tabu search (metaopt_qap_ts_save_state), for opts.resume of a later 'qap-ts-solve'. */
void mode_qap_ts_save_state(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), &kind_qap);
    QapState *q = e->state;
    MetaoptBytesResult r = metaopt_qap_ts_save_state(q->qap);
    CHECK_RESULT(NULL, "metaopt_qap_ts_save_state", r, metaopt_bytes_free_result);
    plhs[0] = bytes_column(r.data, r.length);
    metaopt_bytes_free_result(&r);
}
