/*
 * mex_sat.c: the SAT modes of the metaopt MEX gateway: sat-parse, sat-clauses, sat-evaluate,
 * sat-solve, and the SAT instance kind ('info', 'free').
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mex_internal.h"

/* A SAT instance's state (Entry.state): the library instance and its sizes. */
typedef struct {
    MetaoptSatInstance *sat;
    uint32_t num_vars, num_clauses;
} SatState;

static void sat_release(void *state) {
    SatState *st = state;
    if (st->sat)
        metaopt_sat_free(st->sat);
}

/* A new SAT instance holding the library instance of `r`, its token in *out. */
static void sat_new(MetaoptSatParseResult r, mxArray **out) {
    SatState *st = entry_new(&kind_sat, out)->state;
    st->sat = r.instance;
    st->num_vars = r.num_vars;
    st->num_clauses = r.num_clauses;
}

/* 'sat-parse', path */
void mode_sat_parse(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    char *path = string_arg(arg(nrhs, prhs, 1, "path"), "path");
    MetaoptSatParseResult r = metaopt_sat_parse(path);
    if (r.error_code != METAOPT_OK)
        fail_library("metaopt_sat_parse", r.error_code, r.error_message);
    sat_new(r, &plhs[0]);
}

/* 'sat-clauses', numVars, clauses (a cell array of literal vectors, or one vector of DIMACS
 * literals with each clause ended by 0) */
void mode_sat_clauses(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    uint32_t nv = (uint32_t)int_scalar(arg(nrhs, prhs, 1, "numVars"), "numVars", 0, 2147483647.0);
    const mxArray *c = arg(nrhs, prhs, 2, "clauses");
    int32_t *lits = NULL;
    size_t len = 0;
    if (mxIsCell(c)) {
        size_t k = mxGetNumberOfElements(c), total = 0;
        for (size_t i = 0; i < k; ++i) {
            const mxArray *cl = mxGetCell(c, i);
            if (!cl || not_real_numeric(cl))
                fail("badArgument", "clauses{%zu} must be a real numeric vector of literals, got %s", i + 1,
                     cl ? array_kind(cl) : "nothing");
            if (mxIsEmpty(cl))
                fail("badArgument", "clauses{%zu} is empty", i + 1);
            total += mxGetNumberOfElements(cl) + 1;
        }
        lits = mxMalloc((total ? total : 1) * sizeof *lits);
        for (size_t i = 0; i < k; ++i) {
            const mxArray *cl = mxGetCell(c, i);
            for (size_t j = 0; j < mxGetNumberOfElements(cl); ++j) {
                double v = elem(cl, j);
                if (v != floor(v) || v == 0 || fabs(v) > nv)
                    fail("badArgument", "clauses{%zu}(%zu) is %g; literals are +-1..+-numVars (numVars = %u)", i + 1, j + 1, v, nv);
                lits[len++] = (int32_t)v;
            }
            lits[len++] = 0;
        }
    } else {
        size_t n;
        double *v = real_vector(c, "clauses", &n, 1);
        lits = mxMalloc((n ? n : 1) * sizeof *lits);
        for (size_t i = 0; i < n; ++i) {
            if (v[i] != floor(v[i]) || fabs(v[i]) > 2147483647.0)
                fail("badArgument", "clauses(%zu) is %g; literals are integers", i + 1, v[i]);
            lits[len++] = (int32_t)v[i];
        }
    }
    MetaoptSatParseResult r = metaopt_sat_from_clauses(nv, lits, len);
    mxFree(lits);
    if (r.error_code != METAOPT_OK)
        fail_library("metaopt_sat_from_clauses", r.error_code, r.error_message);
    sat_new(r, &plhs[0]);
}

/* 'sat-evaluate', instance, assignments (count x numVars, logical or 0/1), [useCpu=false]
 * -> count x 1 satisfied clauses */
void mode_sat_evaluate(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), &kind_sat);
    SatState *st = e->state;
    const mxArray *a = arg(nrhs, prhs, 2, "assignments");
    int cpu = given(nrhs, prhs, 3) ? flag_arg(prhs[3], "useCpu") : 0;
    check_real_numeric(a, "assignments", "a count x numVars logical or 0/1 matrix");
    if (mxGetNumberOfDimensions(a) != 2 || mxGetN(a) != st->num_vars || mxGetM(a) == 0)
        fail("badArgument", "assignments must be a count x numVars (numVars = %u) logical or 0/1 matrix, got %zu x %zu",
             st->num_vars, (size_t)mxGetM(a), (size_t)mxGetN(a));
    size_t count = mxGetM(a), words = (st->num_vars + 31) / 32;
    uint32_t *packed = mxCalloc(count * words, sizeof *packed);
    for (size_t r = 0; r < count; ++r)
        for (size_t v = 0; v < st->num_vars; ++v) {
            double b = elem(a, r + v * count);
            if (b != 0 && b != 1)
                fail("badArgument", "assignments(%zu,%zu) is %g; expected 0 or 1", r + 1, v + 1, b);
            if (b == 1)
                packed[r * words + v / 32] |= 1u << (v % 32);
        }
    MetaoptSatEvalResult r = metaopt_sat_evaluate(st->sat, packed, (uint32_t)count, (uint8_t)cpu);
    mxFree(packed);
    CHECK_RESULT(NULL, "metaopt_sat_evaluate", r, metaopt_sat_free_eval_result);
    plhs[0] = mxCreateDoubleMatrix(r.count, 1, mxREAL);
    for (uint32_t i = 0; i < r.count; ++i)
        ((double *)mxGetData(plhs[0]))[i] = r.satisfied[i];
    metaopt_sat_free_eval_result(&r);
}

/* One metaopt_sat_solve (run_cancellable's body: no mx call). */
typedef struct {
    MetaoptSatInstance *sat;
    const MetaoptSatSolveOptions *o;
    MetaoptSatSolveResult r;
} SatSolveCall;

static void sat_solve_body(void *arg) {
    SatSolveCall *c = arg;
    c->r = metaopt_sat_solve(c->sat, c->o);
}

/* 'sat-solve', instance, [opts: timeLimit, runs, seed, maskOrder, tabuLength,
 * tabuMaxIterations, tabuMaxNoImprove, tenure; the walks' method, walks, cb, eps, noise,
 * restartFlips, flipsPerLaunch, maxFlips, cpu, device, start (count x numVars), checkpoint (a
 * file), checkpointEvery (seconds), resume (a checkpoint file)] -> result struct (stopReason: 'target' (a
 * model), 'time_limit', 'budget' (HC12's runs, the walks' flips), 'interrupted'). Ctrl-C stops it
 * (mex_cancel.c). */
static const char *const SAT_METHODS[] = {"probsat", "walksat", "hc12", NULL};

/* The index of the method named by `v` (a string), else the error metaopt:badOption. */
static int32_t named(const mxArray *v, const char *what, const char *const *names) {
    char *s = string_arg(v, what);
    for (int32_t i = 0; names[i]; ++i)
        if (strcmp(s, names[i]) == 0)
            return i;
    fail("badOption", "%s '%s' is not one of probsat, walksat, hc12", what, s);
    return -1;
}

void mode_sat_solve(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), &kind_sat);
    SatState *st = e->state;
    static const char *known[] = {"timeLimit", "runs", "seed", "maskOrder", "tabuLength", "tabuMaxIterations",
                                  "tabuMaxNoImprove", "tenure", "method", "walks", "cb", "eps", "noise",
                                  "restartFlips", "flipsPerLaunch", "maxFlips", "cpu", "device", "start",
                                  "checkpoint", "checkpointEvery", "resume", NULL};
    const mxArray *s = options_struct(nrhs, prhs, 2, known), *v;
    MetaoptSatSolveOptions o = metaopt_sat_default_solve_options();
    if ((v = opt(s, "method")))
        o.method = named(v, "opts.method", SAT_METHODS);
    if ((v = opt(s, "walks")))
        o.walks = (uint32_t)int_scalar(v, "opts.walks", 0, 4294967295.0);
    if ((v = opt(s, "cb")))
        o.cb = real_scalar(v, "opts.cb");
    if ((v = opt(s, "eps")))
        o.eps = real_scalar(v, "opts.eps");
    if ((v = opt(s, "noise")))
        o.noise = real_scalar(v, "opts.noise");
    if ((v = opt(s, "restartFlips")))
        o.restart_flips = (uint64_t)int_scalar(v, "opts.restartFlips", 0, 9007199254740992.0);
    if ((v = opt(s, "flipsPerLaunch")))
        o.flips_per_launch = (uint32_t)int_scalar(v, "opts.flipsPerLaunch", 0, 4294967295.0);
    if ((v = opt(s, "maxFlips")))
        o.max_flips = (uint64_t)int_scalar(v, "opts.maxFlips", 0, 9007199254740992.0);
    if ((v = opt(s, "cpu")))
        o.backend = flag_arg(v, "opts.cpu") ? METAOPT_BACKEND_CPU : METAOPT_BACKEND_DEVICE;
    if ((v = opt(s, "device")))
        o.device = (int32_t)int_scalar(v, "opts.device", -1, 2147483647.0);
    if ((v = opt(s, "timeLimit")))
        o.time_limit_s = real_scalar(v, "opts.timeLimit");
    if ((v = opt(s, "runs")))
        o.runs = (uint32_t)int_scalar(v, "opts.runs", 0, 4294967295.0);
    if ((v = opt(s, "seed")))
        o.seed = (uint64_t)int_scalar(v, "opts.seed", 0, 9007199254740992.0);
    if ((v = opt(s, "maskOrder")))
        o.mask_order = (uint32_t)int_scalar(v, "opts.maskOrder", 0, 4294967295.0);
    if ((v = opt(s, "tabuLength")))
        o.tabu_length = (uint32_t)int_scalar(v, "opts.tabuLength", 0, 4294967295.0);
    if ((v = opt(s, "tabuMaxIterations")))
        o.tabu_max_iterations = (uint32_t)int_scalar(v, "opts.tabuMaxIterations", 0, 4294967295.0);
    if ((v = opt(s, "tabuMaxNoImprove")))
        o.tabu_max_no_improve = (uint32_t)int_scalar(v, "opts.tabuMaxNoImprove", 0, 4294967295.0);
    if ((v = opt(s, "tenure")))
        o.tenure = (uint32_t)int_scalar(v, "opts.tenure", 0, 4294967295.0);
    /* the walks' warm start: one assignment per row (count x numVars, logical or 0/1) */
    uint32_t *start = NULL;
    if ((v = opt(s, "start")) && !mxIsEmpty(v)) {
        check_real_numeric(v, "opts.start", "a count x numVars logical or 0/1 matrix");
        if (mxGetNumberOfDimensions(v) != 2 || mxGetN(v) != st->num_vars)
            fail("badOption", "opts.start must be a count x numVars (numVars = %u) logical or 0/1 matrix, got %zu x %zu",
                 st->num_vars, (size_t)mxGetM(v), (size_t)mxGetN(v));
        size_t count = mxGetM(v), words = (st->num_vars + 31) / 32;
        start = mxCalloc(count * words + 1, sizeof *start);
        for (size_t r = 0; r < count; ++r)
            for (size_t j = 0; j < st->num_vars; ++j) {
                double b = elem(v, r + j * count);
                if (b != 0 && b != 1)
                    fail("badOption", "opts.start(%zu,%zu) is %g; expected 0 or 1", r + 1, j + 1, b);
                if (b == 1)
                    start[r * words + j / 32] |= 1u << (j % 32);
            }
        o.start = start;
        o.start_count = (uint32_t)count;
    }
    checkpoint_opts(s, &o.checkpoint_path, &o.checkpoint_every_s);
    if ((v = opt(s, "resume")) && !mxIsEmpty(v)) {
        size_t n;
        uint8_t *bytes = read_bytes(string_arg(v, "opts.resume"), "opts.resume", &n);
        MetaoptInt32Result lr = metaopt_sat_load_state(st->sat, bytes, n);
        mxFree(bytes);
        if (lr.error_code != METAOPT_OK)
            fail_library("metaopt_sat_load_state", lr.error_code, lr.error_message);
    }
    MetaoptStopToken *token = cancel_token();
    o.stop_token = token;
    SatSolveCall c = {.sat = st->sat, .o = &o};
    call_begin(e, NULL);
    int user = run_cancellable(0, sat_solve_body, &c, token);
    call_end(e);
    metaopt_stop_token_free(token);
    MetaoptSatSolveResult r = c.r;
    int outcome = cancel_outcome(user, &r.error_code, &r.error_message);
    if (outcome == CANCEL_USER) {
        char best[96];
        if (r.method == METAOPT_SAT_HC12)
            snprintf(best, sizeof best, "%u unsatisfied clauses after %u runs", r.best_unsatisfied, r.runs);
        else
            snprintf(best, sizeof best, "%u unsatisfied clauses after %llu flips", r.best_unsatisfied,
                     (unsigned long long)r.flips);
        metaopt_sat_free_solve_result(&r);
        fail_interrupted(best);
    }
    CHECK_RESULT(NULL, "metaopt_sat_solve", r, metaopt_sat_free_solve_result);
    mxArray *out = empty_struct();
    set_field(out, "satisfiable", mxCreateLogicalScalar(r.satisfiable != 0));
    mxArray *best = mxCreateLogicalMatrix(1, st->num_vars);
    for (uint32_t i = 0; i < st->num_vars && i / 32 < r.words; ++i)
        mxGetLogicals(best)[i] = (r.assignment[i / 32] >> (i % 32)) & 1;
    set_field(out, "assignment", best);
    if (r.model_literals) {
        mxArray *lits = mxCreateDoubleMatrix(1, r.num_vars, mxREAL);
        for (uint32_t i = 0; i < r.num_vars; ++i)
            ((double *)mxGetData(lits))[i] = r.model_literals[i];
        set_field(out, "literals", lits);
        set_field(out, "model", mxDuplicateArray(best));
    } else {
        set_field(out, "literals", mxCreateDoubleMatrix(0, 0, mxREAL));
        set_field(out, "model", mxCreateDoubleMatrix(0, 0, mxREAL));
    }
    set_num(out, "bestUnsatisfied", r.best_unsatisfied);
    set_num(out, "runs", r.runs);
    set_num(out, "iterations", (double)r.iterations);
    set_num(out, "evaluations", (double)r.evaluations);
    set_field(out, "method", mxCreateString(SAT_METHODS[r.method >= 0 && r.method <= 2 ? r.method : 0]));
    set_num(out, "walks", r.walks);
    set_num(out, "flips", (double)r.flips);
    set_num(out, "restarts", (double)r.restarts);
    set_num(out, "flipsPerSecond", r.flips_per_second);
    set_num(out, "seconds", r.seconds);
    set_field(out, "stopReason", mxCreateString(stop_reason_name(r.stop_reason)));
    metaopt_sat_free_solve_result(&r);
    plhs[0] = out;
    if (outcome == CANCEL_STOPPED)
        warn_stopped();
}

static mxArray *sat_info(Entry *e) {
    SatState *st = e->state;
    mxArray *s = empty_struct();
    set_field(s, "kind", mxCreateString("sat"));
    set_num(s, "numVars", st->num_vars);
    set_num(s, "numClauses", st->num_clauses);
    set_num(s, "words", (st->num_vars + 31) / 32);
    return s;
}

const EntryKind kind_sat = {KIND_SAT, "SAT", sizeof(SatState), sat_release, sat_info};
