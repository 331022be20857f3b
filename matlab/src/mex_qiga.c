/*
 * mex_qiga.c: the knapsack and QIGA modes of the metaopt MEX gateway: knapsack-file,
 * knapsack-arrays, knapsack-generate, knapsack-data, knapsack-optimum, knapsack-evaluate,
 * qiga-run, and the knapsack instance kind ('info', 'free').
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mex_internal.h"

/* A knapsack instance's state (Entry.state): the library instance and its size. */
typedef struct {
    MetaoptKnapsack *k;
    uint32_t n;
} KnapState;

static void knap_release(void *state) {
    KnapState *st = state;
    if (st->k)
        metaopt_knapsack_free(st->k);
}

static void knap_new(const char *call, MetaoptKnapsackResult r, mxArray **out) {
    if (r.error_code != METAOPT_OK)
        fail_library(call, r.error_code, r.error_message);
    KnapState *st = entry_new(&kind_knapsack, out)->state;
    st->k = r.knapsack;
    st->n = r.n;
}

/* 'knapsack-file', path */
void mode_knapsack_file(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    char *path = string_arg(arg(nrhs, prhs, 1, "path"), "path");
    knap_new("metaopt_knapsack_from_file", metaopt_knapsack_from_file(path), &plhs[0]);
}

/* 'knapsack-arrays', weights, profits, capacity */
void mode_knapsack_arrays(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    size_t nw, np;
    double *w = real_vector(arg(nrhs, prhs, 1, "weights"), "weights", &nw, 0);
    double *p = real_vector(arg(nrhs, prhs, 2, "profits"), "profits", &np, 0);
    double cap = real_scalar(arg(nrhs, prhs, 3, "capacity"), "capacity");
    if (nw != np)
        fail("badArgument", "profits must have as many entries as weights (%zu), got %zu", nw, np);
    if (nw == 0 || nw > 4294967295.0)
        fail("badArgument", "weights must hold 1 or more items, got %zu", nw);
    MetaoptKnapsackResult r = metaopt_knapsack_from_arrays((uint32_t)nw, w, p, cap);
    mxFree(w);
    mxFree(p);
    knap_new("metaopt_knapsack_from_arrays", r, &plhs[0]);
}

static const char *const KINDS[] = {"hankim", "uncorrelated", "weak", "strong", "subset-sum", NULL};

/* 'knapsack-generate', kind, items, [range=1000, seed=1] */
void mode_knapsack_generate(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    char *kind = string_arg(arg(nrhs, prhs, 1, "kind"), "kind");
    int k = -1;
    for (int i = 0; KINDS[i]; ++i)
        if (strcmp(kind, KINDS[i]) == 0)
            k = i;
    if (k < 0)
        fail("badArgument", "kind '%s' is not one of hankim, uncorrelated, weak, strong, subset-sum", kind);
    uint32_t items = (uint32_t)int_scalar(arg(nrhs, prhs, 2, "items"), "items", 1, 4294967295.0);
    uint64_t range = given(nrhs, prhs, 3) ? (uint64_t)int_scalar(prhs[3], "range", 1, 9007199254740992.0) : 1000;
    uint64_t seed = given(nrhs, prhs, 4) ? (uint64_t)int_scalar(prhs[4], "seed", 0, 9007199254740992.0) : 1;
    knap_new("metaopt_knapsack_generate", metaopt_knapsack_generate(k, items, range, seed), &plhs[0]);
}

/* 'knapsack-data', instance -> struct n, weights, profits (rows), capacity, scale, name */
void mode_knapsack_data(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    KnapState *st = entry_get(arg(nrhs, prhs, 1, "instance"), &kind_knapsack)->state;
    MetaoptKnapsackData d = metaopt_knapsack_data(st->k);
    CHECK_RESULT(NULL, "metaopt_knapsack_data", d, metaopt_knapsack_free_data);
    mxArray *s = empty_struct();
    set_num(s, "n", d.n);
    set_field(s, "weights", row_double(d.weights, d.n));
    set_field(s, "profits", row_double(d.profits, d.n));
    set_num(s, "capacity", d.capacity);
    set_num(s, "scale", (double)d.scale);
    set_field(s, "name", mxCreateString(d.name ? d.name : ""));
    metaopt_knapsack_free_data(&d);
    plhs[0] = s;
}

/* 'knapsack-optimum', instance -> struct value, weight, bits (logical row), items (1-based) */
void mode_knapsack_optimum(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    KnapState *st = entry_get(arg(nrhs, prhs, 1, "instance"), &kind_knapsack)->state;
    MetaoptKnapsackOptimumResult r = metaopt_knapsack_optimum(st->k);
    CHECK_RESULT(NULL, "metaopt_knapsack_optimum", r, metaopt_knapsack_free_optimum_result);
    mxArray *s = empty_struct();
    set_num(s, "value", r.value);
    set_num(s, "weight", r.weight);
    mxArray *bits = mxCreateLogicalMatrix(1, r.n);
    mxArray *items = mxCreateDoubleMatrix(1, r.items_taken, mxREAL);
    for (uint32_t i = 0, j = 0; i < r.n; ++i) {
        mxGetLogicals(bits)[i] = r.bits[i] != 0;
        if (r.bits[i] && j < r.items_taken)
            ((double *)mxGetData(items))[j++] = i + 1;
    }
    set_field(s, "bits", bits);
    set_field(s, "items", items);
    metaopt_knapsack_free_optimum_result(&r);
    plhs[0] = s;
}

/* 'knapsack-evaluate', instance, bits (n logical or 0/1) -> struct profit, weight, feasible */
void mode_knapsack_evaluate(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    KnapState *st = entry_get(arg(nrhs, prhs, 1, "instance"), &kind_knapsack)->state;
    const mxArray *a = arg(nrhs, prhs, 2, "bits");
    check_real_numeric(a, "bits", "a logical or 0/1 vector of n entries");
    size_t n = mxGetNumberOfElements(a);
    if (n != st->n)
        fail("badArgument", "bits must have %u entries (the items), got %zu", st->n, n);
    uint8_t *b = mxMalloc(n ? n : 1);
    for (size_t i = 0; i < n; ++i) {
        double v = elem(a, i);
        if (v != 0 && v != 1)
            fail("badArgument", "bits(%zu) is %g; expected 0 or 1", i + 1, v);
        b[i] = (uint8_t)v;
    }
    MetaoptKnapsackEvaluation r = metaopt_knapsack_evaluate(st->k, b, (uint32_t)n);
    mxFree(b);
    if (r.error_code != METAOPT_OK)
        fail_library("metaopt_knapsack_evaluate", r.error_code, r.error_message);
    mxArray *s = empty_struct();
    set_num(s, "profit", r.profit);
    set_num(s, "weight", r.weight);
    set_field(s, "feasible", mxCreateLogicalScalar(r.feasible != 0));
    plhs[0] = s;
}

/* One metaopt_qiga_run (run_cancellable's body: no mx call). */
typedef struct {
    MetaoptKnapsack *k;
    const MetaoptQigaOptions *o;
    MetaoptQigaRunResult r;
} QigaCall;

static void qiga_body(void *arg) {
    QigaCall *c = arg;
    c->r = metaopt_qiga_run(c->k, c->o);
}

static mxArray *stats_struct(const MetaoptQigaStats *s) {
    mxArray *o = empty_struct();
    set_num(o, "count", (double)s->count);
    set_num(o, "mean", s->mean);
    set_num(o, "variance", s->variance);
    set_num(o, "median", s->median);
    set_num(o, "min", s->min);
    set_num(o, "max", s->max);
    return o;
}

/* A string option: its index in `names` (NULL-terminated), or a badOption error. */
static int32_t named(const mxArray *v, const char *what, const char *const *names) {
    char *s = string_arg(v, what);
    for (int32_t i = 0; names[i]; ++i)
        if (strcmp(s, names[i]) == 0)
            return i;
    char list[128] = "";
    for (int i = 0; names[i]; ++i) {
        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, names[i], sizeof list - strlen(list) - 1);
    }
    fail("badOption", "%s '%s' is not one of %s", what, s, list);
    return -1;
}

/* 'qiga-run', instance, [opts: populations, individuals, generations, table (a name, a table's
 * text, or a cell array of those), popsPerTable, poleSigns ('fixed', 'random'), repair ('index',
 * 'random', 'greedy'), seed, target, timeLimit, devices, cpu, groupSize, launchPopulations,
 * start (count x items best strings), checkpoint (a file), checkpointEvery (seconds), resume (a
 * checkpoint file)]
 * -> result struct: bestValue, bestBits (populations x items logical), bestGeneration,
 * generationsRun, population (column vectors), stats, tableStats, bestIndex (1-based), best,
 * stopReason, elapsed, runsPerSecond, backend. Ctrl-C stops it (mex_cancel.c). */
void mode_qiga_run(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), &kind_knapsack);
    KnapState *st = e->state;
    static const char *known[] = {"populations", "individuals", "maxGenerations", "table", "popsPerTable", "poleSigns",
                                  "repair", "seed", "target", "timeLimit", "devices", "cpu", "device", "groupSize",
                                  "launchPopulations", "start", "checkpoint", "checkpointEvery", "resume", NULL};
    static const char *const tables[] = {"gqa2000", "qea2002", NULL};
    static const char *const repairs[] = {"index", "random", "greedy", NULL};
    static const char *const signs[] = {"fixed", "random", NULL};
    const mxArray *s = options_struct(nrhs, prhs, 2, known), *v;
    MetaoptQigaOptions o = metaopt_qiga_default_options();
    const char **texts = NULL;
    uint32_t *devices = NULL;
    if ((v = opt(s, "populations")))
        o.populations = (uint32_t)int_scalar(v, "opts.populations", 1, 4294967295.0);
    if ((v = opt(s, "individuals")))
        o.individuals = (uint32_t)int_scalar(v, "opts.individuals", 1, 4294967295.0);
    /* 'generations' is an alias of maxGenerations in the one option table (mex_args.c) */
    if ((v = opt(s, "maxGenerations")))
        o.generations = (uint32_t)int_scalar(v, "opts.generations", 0, 4294967294.0);
    if ((v = opt(s, "table"))) {
        if (mxIsCell(v)) {
            size_t k = mxGetNumberOfElements(v);
            if (k == 0 || k > 4294967295.0)
                fail("badOption", "opts.table must hold at least one table");
            texts = mxMalloc(k * sizeof *texts);
            for (size_t i = 0; i < k; ++i) {
                char what[48];
                snprintf(what, sizeof what, "opts.table{%zu}", i + 1);
                const mxArray *c = mxGetCell(v, i);
                if (!c)
                    fail("badOption", "%s is empty", what);
                texts[i] = string_arg(c, what);
            }
            o.tables = texts;
            o.tables_count = (uint32_t)k;
        } else {
            char *t = string_arg(v, "opts.table");
            if (strcmp(t, "gqa2000") == 0 || strcmp(t, "qea2002") == 0) {
                o.table = named(v, "opts.table", tables);
            } else {
                texts = mxMalloc(sizeof *texts);
                texts[0] = t;
                o.tables = texts;
                o.tables_count = 1;
            }
        }
    }
    if ((v = opt(s, "popsPerTable")))
        o.pops_per_table = (uint32_t)int_scalar(v, "opts.popsPerTable", 0, 4294967295.0);
    if ((v = opt(s, "poleSigns")))
        o.pole_signs_random = (uint8_t)named(v, "opts.poleSigns", signs);
    if ((v = opt(s, "repair")))
        o.repair = named(v, "opts.repair", repairs);
    if ((v = opt(s, "seed")))
        o.seed = (uint64_t)int_scalar(v, "opts.seed", 0, 9007199254740992.0);
    if ((v = opt(s, "target")) && !mxIsEmpty(v)) {
        o.has_target = 1;
        o.target = real_scalar(v, "opts.target");
    }
    if ((v = opt(s, "timeLimit")))
        o.time_limit_s = real_scalar(v, "opts.timeLimit");
    if ((v = opt(s, "cpu")))
        o.backend = flag_arg(v, "opts.cpu") ? METAOPT_BACKEND_CPU : METAOPT_BACKEND_DEVICE;
    if ((v = opt(s, "device")))
        o.device = (int32_t)int_scalar(v, "opts.device", -1, 2147483647.0);
    if ((v = opt(s, "devices")) && !mxIsEmpty(v)) {
        size_t n;
        double *d = real_vector(v, "opts.devices", &n, 1);
        devices = mxMalloc((n ? n : 1) * sizeof *devices);
        for (size_t i = 0; i < n; ++i) {
            if (d[i] != floor(d[i]) || d[i] < 0 || d[i] > 4294967295.0)
                fail("badOption", "opts.devices(%zu) is %g; expected a device number", i + 1, d[i]);
            devices[i] = (uint32_t)d[i];
        }
        o.devices = devices;
        o.devices_count = (uint32_t)n;
    }
    if ((v = opt(s, "groupSize")))
        o.group_size = (uint32_t)int_scalar(v, "opts.groupSize", 0, 4294967295.0);
    if ((v = opt(s, "launchPopulations")))
        o.launch_populations = (uint32_t)int_scalar(v, "opts.launchPopulations", 0, 4294967295.0);
    MetaoptStopToken *token = cancel_token();
    o.stop_token = token;
    /* the warm start: one best string per row (count x items, logical or 0/1) */
    uint8_t *start = NULL;
    if ((v = opt(s, "start")) && !mxIsEmpty(v)) {
        check_real_numeric(v, "opts.start", "a count x items logical or 0/1 matrix");
        size_t count = mxGetM(v), m = mxGetN(v);
        if (mxGetNumberOfDimensions(v) != 2)
            fail("badOption", "opts.start must be a count x items logical or 0/1 matrix");
        start = mxCalloc(count * m + 1, 1);
        for (size_t r = 0; r < count; ++r)
            for (size_t j = 0; j < m; ++j) {
                double b = elem(v, r + j * count);
                if (b != 0 && b != 1)
                    fail("badOption", "opts.start(%zu,%zu) is %g; expected 0 or 1", r + 1, j + 1, b);
                start[r * m + j] = (uint8_t)b;
            }
        MetaoptKnapsackData d = metaopt_knapsack_data(st->k);
        uint32_t items = d.n;
        metaopt_knapsack_free_data(&d);
        if (m != items)
            fail("badOption", "opts.start must have one column per item (%u), got %zu", items, m);
        o.start = start;
        o.start_count = (uint32_t)count;
    }
    checkpoint_opts(s, &o.checkpoint_path, &o.checkpoint_every_s);
    if ((v = opt(s, "resume")) && !mxIsEmpty(v)) {
        size_t n;
        uint8_t *bytes = read_bytes(string_arg(v, "opts.resume"), "opts.resume", &n);
        MetaoptInt32Result lr = metaopt_qiga_load_state(st->k, bytes, n);
        mxFree(bytes);
        if (lr.error_code != METAOPT_OK)
            fail_library("metaopt_qiga_load_state", lr.error_code, lr.error_message);
    }
    QigaCall c = {.k = st->k, .o = &o};
    call_begin(e, NULL);
    int user = run_cancellable(0, qiga_body, &c, token);
    call_end(e);
    metaopt_stop_token_free(token);
    mxFree(texts);
    mxFree(devices);
    MetaoptQigaRunResult r = c.r;
    int outcome = cancel_outcome(user, &r.error_code, &r.error_message);
    if (outcome == CANCEL_USER) {
        char best[96];
        snprintf(best, sizeof best, "%u populations ran, best %.6f", r.count,
                 r.count ? r.best_value[r.best_index] : 0.0);
        metaopt_qiga_free_run_result(&r);
        fail_interrupted(best);
    }
    CHECK_RESULT(NULL, "metaopt_qiga_run", r, metaopt_qiga_free_run_result);
    size_t n = r.count, m = r.items;
    mxArray *out = empty_struct();
    mxArray *value = mxCreateDoubleMatrix(n, 1, mxREAL);
    mxArray *pop = mxCreateDoubleMatrix(n, 1, mxREAL);
    mxArray *bestgen = mxCreateDoubleMatrix(n, 1, mxREAL);
    mxArray *gens = mxCreateDoubleMatrix(n, 1, mxREAL);
    mxArray *bits = mxCreateLogicalMatrix(n, m);
    for (size_t i = 0; i < n; ++i) {
        ((double *)mxGetData(value))[i] = r.best_value[i];
        ((double *)mxGetData(pop))[i] = r.population[i];
        ((double *)mxGetData(bestgen))[i] = r.best_generation[i];
        ((double *)mxGetData(gens))[i] = r.generations_run[i];
        for (size_t j = 0; j < m; ++j)
            mxGetLogicals(bits)[i + j * n] = r.best_bits[i * m + j] != 0;
    }
    set_field(out, "bestValue", value);
    set_field(out, "bestBits", bits);
    set_field(out, "bestGeneration", bestgen);
    set_field(out, "generationsRun", gens);
    set_field(out, "population", pop);
    set_field(out, "stats", stats_struct(&r.stats));
    static const char *sf[] = {"count", "mean", "variance", "median", "min", "max"};
    mxArray *ts = mxCreateStructMatrix(r.tables_count, 1, 6, sf);
    for (uint32_t t = 0; t < r.tables_count; ++t) {
        const MetaoptQigaStats *q = &r.table_stats[t];
        double vals[6] = {(double)q->count, q->mean, q->variance, q->median, q->min, q->max};
        for (int f = 0; f < 6; ++f)
            mxSetFieldByNumber(ts, t, f, mxCreateDoubleScalar(vals[f]));
    }
    set_field(out, "tableStats", ts);
    set_num(out, "bestIndex", n ? r.best_index + 1.0 : 0);
    set_num(out, "best", n ? r.best_value[r.best_index] : mxGetNaN());
    set_field(out, "stopReason", mxCreateString(stop_reason_name(r.stop_reason)));
    set_num(out, "elapsed", r.elapsed_s);
    set_num(out, "runsPerSecond", r.runs_per_second);
    set_field(out, "backend", mxCreateString(r.backend ? r.backend : ""));
    metaopt_qiga_free_run_result(&r);
    plhs[0] = out;
    if (outcome == CANCEL_STOPPED)
        warn_stopped();
}

static mxArray *knap_info(Entry *e) {
    KnapState *st = e->state;
    mxArray *s = empty_struct();
    set_field(s, "kind", mxCreateString("knapsack"));
    set_num(s, "n", st->n);
    return s;
}

const EntryKind kind_knapsack = {KIND_KNAPSACK, "knapsack", sizeof(KnapState), knap_release, knap_info};
