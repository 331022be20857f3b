/*
 * mex_sp.c: the shortest-path modes of the metaopt MEX gateway: graph-create, graph-edges,
 * graph-file, graph-thesis, graph-grid, graph-data, sssp, aco, and the graph instance kind
 * ('info', 'free'). Vertices are 1-based here (the library's are 0-based).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mex_internal.h"

/* A graph's state (Entry.state): the library graph and its sizes. */
typedef struct {
    MetaoptGraph *g;
    uint32_t n;
    uint64_t m;
    int32_t weight_type;
} GraphState;

static const char *const WEIGHT_TYPES[] = {"uint32", "uint64", "single", "double"};

static void graph_release(void *state) {
    GraphState *st = state;
    if (st->g)
        metaopt_graph_free(st->g);
}

static void graph_new(const char *call, MetaoptGraphResult r, mxArray **out) {
    if (r.error_code != METAOPT_OK)
        fail_library(call, r.error_code, r.error_message);
    GraphState *st = entry_new(&kind_graph, out)->state;
    st->g = r.graph;
    st->n = r.n;
    st->m = r.m;
    st->weight_type = r.weight_type;
}

/* 'graph-create', A: a square matrix, entry (i, j) the arc i -> j. A sparse matrix gives an arc
 * for every stored entry (double weights); a full one an arc for every nonzero off-diagonal
 * entry (the thesis's convention), with uint32, uint64, single or double weights by its class
 * (other classes as double). */
void mode_graph_create(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    const mxArray *a = arg(nrhs, prhs, 1, "A");
    if (mxGetNumberOfDimensions(a) != 2 || mxGetM(a) != mxGetN(a))
        fail("badArgument", "A must be a square matrix, got %zu x %zu", (size_t)mxGetM(a), (size_t)mxGetN(a));
    size_t n = mxGetM(a);
    if (n > 4294967295.0)
        fail("badArgument", "A has %zu vertices; at most 2^32 - 1", n);
    if (mxIsSparse(a)) {
        if (!mxIsDouble(a) && !mxIsLogical(a))
            fail("badArgument", "A must be a real sparse matrix");
        if (mxIsComplex(a))
            fail("badArgument", "A must be real, got a complex matrix");
        const mwIndex *jc = mxGetJc(a), *ir = mxGetIr(a);
        size_t m = jc[n];
        uint32_t *src = mxMalloc((m ? m : 1) * sizeof *src), *dst = mxMalloc((m ? m : 1) * sizeof *dst);
        double *w = mxMalloc((m ? m : 1) * sizeof *w);
        for (size_t j = 0; j < n; ++j)
            for (mwIndex e = jc[j]; e < jc[j + 1]; ++e) {
                src[e] = (uint32_t)ir[e];
                dst[e] = (uint32_t)j;
                w[e] = mxIsLogical(a) ? (double)mxGetLogicals(a)[e] : mxGetPr(a)[e];
            }
        MetaoptGraphResult r = metaopt_graph_from_edges((uint32_t)n, m, src, dst, w, METAOPT_WEIGHT_F64);
        mxFree(src);
        mxFree(dst);
        mxFree(w);
        graph_new("metaopt_graph_from_edges", r, &plhs[0]);
        return;
    }
    check_real_numeric(a, "A", "a real square matrix");
    /* MATLAB is column-major, the library row-major: the transpose */
    size_t nn = n * n;
    int32_t type;
    void *buf;
    if (mxIsUint32(a) || mxIsUint64(a) || mxIsSingle(a)) {
        size_t size = mxIsSingle(a) ? 4 : mxIsUint32(a) ? 4 : 8;
        type = mxIsUint32(a) ? METAOPT_WEIGHT_U32 : mxIsUint64(a) ? METAOPT_WEIGHT_U64 : METAOPT_WEIGHT_F32;
        buf = mxMalloc(nn ? nn * size : 1);
        const char *in = mxGetData(a);
        for (size_t i = 0; i < n; ++i)
            for (size_t j = 0; j < n; ++j)
                memcpy((char *)buf + (i * n + j) * size, in + (i + j * n) * size, size);
    } else {
        type = METAOPT_WEIGHT_F64;
        double *d = mxMalloc((nn ? nn : 1) * sizeof *d);
        for (size_t i = 0; i < n; ++i)
            for (size_t j = 0; j < n; ++j)
                d[i * n + j] = elem(a, i + j * n);
        buf = d;
    }
    MetaoptGraphResult r = metaopt_graph_from_dense((uint32_t)n, buf, type);
    mxFree(buf);
    graph_new("metaopt_graph_from_dense", r, &plhs[0]);
}

/* A vector of 1-based vertex numbers in 1..n as 0-based uint32 (mxMalloc'd), its length in *k. */
static uint32_t *vertices(const mxArray *a, const char *name, double n, size_t *k) {
    double *v = real_vector(a, name, k, 1);
    uint32_t *out = mxMalloc((*k ? *k : 1) * sizeof *out);
    for (size_t i = 0; i < *k; ++i) {
        if (v[i] != floor(v[i]) || v[i] < 1 || v[i] > n)
            fail("badArgument", "%s(%zu) is %g; expected a vertex number in 1..%.0f", name, i + 1, v[i], n);
        out[i] = (uint32_t)(v[i] - 1);
    }
    mxFree(v);
    return out;
}

/* 'graph-edges', n, s, t, w: n vertices and the arcs s(i) -> t(i) (1-based) of weight w(i)
 * (double; w of class uint32, uint64 or single keeps its type) */
void mode_graph_edges(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    double n = int_scalar(arg(nrhs, prhs, 1, "n"), "n", 0, 4294967295.0);
    size_t ks, kt, kw;
    uint32_t *s = vertices(arg(nrhs, prhs, 2, "s"), "s", n, &ks);
    uint32_t *t = vertices(arg(nrhs, prhs, 3, "t"), "t", n, &kt);
    const mxArray *wa = arg(nrhs, prhs, 4, "w");
    check_real_numeric(wa, "w", "a vector of weights");
    kw = mxGetNumberOfElements(wa);
    if (kt != ks || kw != ks)
        fail("badArgument", "s, t and w must have the same length, got %zu, %zu and %zu", ks, kt, kw);
    int32_t type = mxIsUint32(wa) ? METAOPT_WEIGHT_U32 : mxIsUint64(wa) ? METAOPT_WEIGHT_U64 : mxIsSingle(wa) ? METAOPT_WEIGHT_F32
                                                                                                           : METAOPT_WEIGHT_F64;
    void *w;
    if (type == METAOPT_WEIGHT_F64) {
        double *d = mxMalloc((kw ? kw : 1) * sizeof *d);
        for (size_t i = 0; i < kw; ++i)
            d[i] = elem(wa, i);
        w = d;
    } else {
        size_t size = type == METAOPT_WEIGHT_U64 ? 8 : 4;
        w = mxMalloc(kw ? kw * size : 1);
        if (kw)
            memcpy(w, mxGetData(wa), kw * size);
    }
    MetaoptGraphResult r = metaopt_graph_from_edges((uint32_t)n, ks, s, t, w, type);
    mxFree(s);
    mxFree(t);
    mxFree(w);
    graph_new("metaopt_graph_from_edges", r, &plhs[0]);
}

static const char *const FORMATS[] = {"auto", "dimacs", "mtx", "osm", "osm-roads-rounded", NULL};

/* A string option: its index in `names` (NULL-terminated), or a badOption error. */
static int32_t named(const mxArray *v, const char *what, const char *const *names) {
    char *s = string_arg(v, what);
    for (int32_t i = 0; names[i]; ++i)
        if (strcmp(s, names[i]) == 0)
            return i;
    char list[160] = "";
    for (int i = 0; names[i]; ++i) {
        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, names[i], sizeof list - strlen(list) - 1);
    }
    fail("badOption", "%s '%s' is not one of %s", what, s, list);
    return -1;
}

/* 'graph-file', path, [format: 'auto' (by the extension), 'dimacs', 'mtx', 'osm', 'osm-roads-rounded'] */
void mode_graph_file(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    char *path = string_arg(arg(nrhs, prhs, 1, "path"), "path");
    int32_t f = given(nrhs, prhs, 2) ? named(prhs[2], "format", FORMATS) : 0;
    graph_new("metaopt_graph_from_file", metaopt_graph_from_file(path, f), &plhs[0]);
}

/* 'graph-thesis', i, j, [seed=0]: the thesis's random graph of 2^i vertices, weights < 2^j */
void mode_graph_thesis(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    uint32_t i = (uint32_t)int_scalar(arg(nrhs, prhs, 1, "i"), "i", 0, 4294967295.0);
    uint32_t j = (uint32_t)int_scalar(arg(nrhs, prhs, 2, "j"), "j", 0, 4294967295.0);
    uint64_t seed = given(nrhs, prhs, 3) ? (uint64_t)int_scalar(prhs[3], "seed", 0, 9007199254740992.0) : 0;
    graph_new("metaopt_graph_thesis_random", metaopt_graph_thesis_random(i, j, seed), &plhs[0]);
}

/* 'graph-grid', width, height, [maxWeight=1, obstacles=0, seed=0]: cell (x, y) is vertex
 * y * width + x + 1 */
void mode_graph_grid(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    uint32_t w = (uint32_t)int_scalar(arg(nrhs, prhs, 1, "width"), "width", 0, 4294967295.0);
    uint32_t h = (uint32_t)int_scalar(arg(nrhs, prhs, 2, "height"), "height", 0, 4294967295.0);
    uint32_t mw = given(nrhs, prhs, 3) ? (uint32_t)int_scalar(prhs[3], "maxWeight", 0, 4294967295.0) : 1;
    double ob = given(nrhs, prhs, 4) ? real_scalar(prhs[4], "obstacles") : 0.0;
    uint64_t seed = given(nrhs, prhs, 5) ? (uint64_t)int_scalar(prhs[5], "seed", 0, 9007199254740992.0) : 0;
    graph_new("metaopt_graph_grid", metaopt_graph_grid(w, h, mw, ob, seed), &plhs[0]);
}

/* 'graph-data', graph -> struct n, m, weightType, s, t, w (columns; 1-based arcs in CSR order:
 * sparse(s, t, w, n, n) rebuilds the matrix unless weights are 0) */
void mode_graph_data(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    GraphState *st = entry_get(arg(nrhs, prhs, 1, "graph"), &kind_graph)->state;
    MetaoptGraphData d = metaopt_graph_data(st->g);
    CHECK_RESULT(NULL, "metaopt_graph_data", d, metaopt_graph_free_data);
    size_t m = d.m;
    mxArray *s = mxCreateDoubleMatrix(m, 1, mxREAL), *t = mxCreateDoubleMatrix(m, 1, mxREAL);
    mxArray *w = mxCreateDoubleMatrix(m, 1, mxREAL);
    for (uint32_t u = 0; u < d.n; ++u)
        for (uint64_t e = d.offsets[u]; e < d.offsets[u + 1]; ++e) {
            ((double *)mxGetData(s))[e] = u + 1.0;
            ((double *)mxGetData(t))[e] = d.targets[e] + 1.0;
            ((double *)mxGetData(w))[e] = d.weights[e];
        }
    mxArray *out = empty_struct();
    set_num(out, "n", d.n);
    set_num(out, "m", (double)d.m);
    set_field(out, "weightType", mxCreateString(WEIGHT_TYPES[d.weight_type & 3]));
    set_field(out, "s", s);
    set_field(out, "t", t);
    set_field(out, "w", w);
    metaopt_graph_free_data(&d);
    plhs[0] = out;
}

static const char *const METHODS[] = {"bellman-ford", "frontier", "near-far", NULL};

/* One metaopt_sp_sssp_multi (run_cancellable's body: no mx call). */
typedef struct {
    MetaoptGraph *g;
    const uint32_t *sources;
    uint32_t k;
    const MetaoptSpOptions *o;
    MetaoptSpResult r;
} SsspCall;

static void sssp_body(void *arg) {
    SsspCall *c = arg;
    c->r = metaopt_sp_sssp_multi(c->g, c->sources, c->k, c->o);
}

/* 'sssp', graph, sources (1-based), [opts: method ('frontier', 'bellman-ford', 'near-far'), delta,
 * cpu, roundsPerCheck, maxRounds, timeLimit] -> [dist, pred, info]: dist and pred k x n (row i
 * for sources(i)); dist Inf where unreachable, pred 1-based with 0 for the source and
 * unreachable vertices; info: reached, edges (k x 1), rounds, elapsed, backend. Exact: past
 * timeLimit the error metaopt:timeLimit, after Ctrl-C metaopt:interrupted, with no result. */
void mode_sssp(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "graph"), &kind_graph);
    GraphState *st = e->state;
    size_t k;
    uint32_t *src = vertices(arg(nrhs, prhs, 2, "sources"), "sources", st->n, &k);
    if (k == 0 || k > 4294967295.0)
        fail("badArgument", "sources must name at least one vertex");
    static const char *known[] = {"method", "delta", "cpu", "device", "roundsPerCheck", "maxRounds", "timeLimit", NULL};
    const mxArray *s = options_struct(nrhs, prhs, 3, known), *v;
    MetaoptSpOptions o = metaopt_sp_default_options();
    if ((v = opt(s, "method")))
        o.method = named(v, "opts.method", METHODS);
    if ((v = opt(s, "delta")))
        o.delta = real_scalar(v, "opts.delta");
    if ((v = opt(s, "cpu")))
        o.backend = flag_arg(v, "opts.cpu") ? METAOPT_BACKEND_CPU : METAOPT_BACKEND_DEVICE;
    if ((v = opt(s, "device")))
        o.device = (int32_t)int_scalar(v, "opts.device", -1, 2147483647.0);
    if ((v = opt(s, "roundsPerCheck")))
        o.rounds_per_check = (uint32_t)int_scalar(v, "opts.roundsPerCheck", 1, 4294967295.0);
    if ((v = opt(s, "maxRounds")))
        o.max_rounds = (uint64_t)int_scalar(v, "opts.maxRounds", 0, 9007199254740992.0);
    if ((v = opt(s, "timeLimit")))
        o.time_limit_s = real_scalar(v, "opts.timeLimit");
    MetaoptStopToken *token = cancel_token();
    o.stop_token = token;
    SsspCall c = {.g = st->g, .sources = src, .k = (uint32_t)k, .o = &o};
    call_begin(e, NULL);
    int user = run_cancellable(0, sssp_body, &c, token);
    call_end(e);
    metaopt_stop_token_free(token);
    mxFree(src);
    MetaoptSpResult r = c.r;
    if (user) {
        metaopt_sp_free_result(&r);
        fail_interrupted("none (exact shortest paths give no partial result)");
    }
    CHECK_RESULT(NULL, "metaopt_sp_sssp_multi", r, metaopt_sp_free_result);
    size_t n = r.n;
    mxArray *dist = mxCreateDoubleMatrix(k, n, mxREAL), *pred = mxCreateDoubleMatrix(k, n, mxREAL);
    double *dd = mxGetData(dist), *pd = mxGetData(pred);
    for (size_t i = 0; i < k; ++i)
        for (size_t j = 0; j < n; ++j) {
            dd[i + j * k] = r.dist[i * n + j];
            pd[i + j * k] = r.pred[i * n + j] + 1.0;
        }
    plhs[0] = dist;
    if (nlhs > 1)
        plhs[1] = pred;
    else
        mxDestroyArray(pred);
    if (nlhs > 2) {
        mxArray *info = empty_struct();
        mxArray *reached = mxCreateDoubleMatrix(k, 1, mxREAL), *edges = mxCreateDoubleMatrix(k, 1, mxREAL);
        for (size_t i = 0; i < k; ++i) {
            ((double *)mxGetData(reached))[i] = (double)r.reached[i];
            ((double *)mxGetData(edges))[i] = (double)r.edges[i];
        }
        set_field(info, "reached", reached);
        set_field(info, "edges", edges);
        set_num(info, "rounds", (double)r.rounds);
        set_num(info, "elapsed", r.elapsed_s);
        set_field(info, "backend", mxCreateString(r.backend ? r.backend : ""));
        plhs[2] = info;
    }
    metaopt_sp_free_result(&r);
}

static mxArray *path_row(const uint32_t *p, uint32_t len) {
    mxArray *a = mxCreateDoubleMatrix(1, p ? len : 0, mxREAL);
    for (uint32_t i = 0; p && i < len; ++i)
        ((double *)mxGetData(a))[i] = p[i] + 1.0;
    return a;
}

static const char *const DEPOSITS[] = {"all", "iteration-best", NULL};

/* One metaopt_aco_run (run_cancellable's body: no mx call). */
typedef struct {
    MetaoptGraph *g;
    uint32_t s, t;
    const MetaoptAcoOptions *o;
    MetaoptAcoRunResult r;
} AcoCall;

static void aco_body(void *arg) {
    AcoCall *c = arg;
    c->r = metaopt_aco_run(c->g, c->s, c->t, c->o);
}
static const char *const SELECTIONS[] = {"roulette", "gumbel", NULL};

/* The bytes of checkpoint file `path` (opts.resume), mxMalloc'd, and their count. */
static uint8_t *read_state(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f)
        fail("badArgument", "opts.resume: cannot read %s", path);
    size_t cap = 1 << 16, n = 0, got;
    uint8_t *b = mxMalloc(cap);
    while ((got = fread(b + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap)
            b = mxRealloc(b, cap *= 2);
    }
    fclose(f);
    *len = n;
    return b;
}

/* 'aco', graph, source, target (1-based), [opts: ants, alpha, beta, damping, evaporation,
 * depositExponent, initialPheromone ([] or 0: MAX-MIN reset), iterations (0: the thesis's rule),
 * noImprove, maxMin (0: none), deposit ('all', 'iteration-best'), selection ('roulette',
 * 'gumbel'), maxSteps, seed, groupSize, cpu, timeLimit, checkpoint (a file the run's state is
 * written to when it ends and every checkpointEvery seconds), resume (such a file: the run
 * continues it)] -> struct path (1-based row, [] when no
 * ant reached the target), length, gap, exactLength, pheromonePath, pheromoneLength, iterations,
 * foundAtIteration, successfulAnts, elapsed, backend, stopReason ('limit': its iterations,
 * 'stagnation', 'timeLimit', 'interrupted', 'done'). Ctrl-C stops it (mex_cancel.c). */
void mode_aco(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "graph"), &kind_graph);
    GraphState *st = e->state;
    uint32_t s = (uint32_t)(int_scalar(arg(nrhs, prhs, 2, "source"), "source", 1, st->n) - 1);
    uint32_t t = (uint32_t)(int_scalar(arg(nrhs, prhs, 3, "target"), "target", 1, st->n) - 1);
    static const char *known[] = {"ants", "alpha", "beta", "damping", "evaporation", "depositExponent",
                                  "initialPheromone", "iterations", "noImprove", "maxMin", "deposit", "selection",
                                  "maxSteps", "seed", "groupSize", "localSearch", "restart", "cpu", "device",
                                  "timeLimit", "checkpoint", "checkpointEvery", "resume", NULL};
    const mxArray *os = options_struct(nrhs, prhs, 4, known), *v;
    MetaoptAcoOptions o = metaopt_aco_default_options();
    if ((v = opt(os, "ants")))
        o.ants = (uint32_t)int_scalar(v, "opts.ants", 1, 4294967295.0);
    if ((v = opt(os, "alpha")))
        o.alpha = real_scalar(v, "opts.alpha");
    if ((v = opt(os, "beta")))
        o.beta = real_scalar(v, "opts.beta");
    if ((v = opt(os, "damping")))
        o.damping = real_scalar(v, "opts.damping");
    if ((v = opt(os, "evaporation")))
        o.evaporation = real_scalar(v, "opts.evaporation");
    if ((v = opt(os, "depositExponent")))
        o.deposit_exponent = real_scalar(v, "opts.depositExponent");
    if ((v = opt(os, "initialPheromone")))
        o.initial_pheromone = real_scalar(v, "opts.initialPheromone");
    if ((v = opt(os, "iterations")))
        o.iterations = (uint32_t)int_scalar(v, "opts.iterations", 0, 4294967295.0);
    if ((v = opt(os, "noImprove")))
        o.max_no_improve = (uint32_t)int_scalar(v, "opts.noImprove", 0, 4294967295.0);
    if ((v = opt(os, "maxMin")))
        o.max_min = real_scalar(v, "opts.maxMin");
    if ((v = opt(os, "deposit")))
        o.deposit = named(v, "opts.deposit", DEPOSITS);
    if ((v = opt(os, "selection")))
        o.selection = named(v, "opts.selection", SELECTIONS);
    if ((v = opt(os, "maxSteps")))
        o.max_steps = (uint32_t)int_scalar(v, "opts.maxSteps", 0, 4294967295.0);
    if ((v = opt(os, "seed")))
        o.seed = (uint64_t)int_scalar(v, "opts.seed", 0, 9007199254740992.0);
    if ((v = opt(os, "groupSize")))
        o.group_size = (uint32_t)int_scalar(v, "opts.groupSize", 0, 4294967295.0);
    if ((v = opt(os, "localSearch")))
        o.local_search = flag_arg(v, "opts.localSearch") ? 1 : 0;
    if ((v = opt(os, "restart")))
        o.restart = (uint32_t)int_scalar(v, "opts.restart", 0, 4294967295.0);
    if ((v = opt(os, "cpu")))
        o.backend = flag_arg(v, "opts.cpu") ? METAOPT_BACKEND_CPU : METAOPT_BACKEND_DEVICE;
    if ((v = opt(os, "device")))
        o.device = (int32_t)int_scalar(v, "opts.device", -1, 2147483647.0);
    if ((v = opt(os, "timeLimit")))
        o.time_limit_s = real_scalar(v, "opts.timeLimit");
    if ((v = opt(os, "checkpoint")))
        o.checkpoint_path = string_arg(v, "opts.checkpoint");
    if ((v = opt(os, "checkpointEvery")))
        o.checkpoint_every_s = real_scalar(v, "opts.checkpointEvery");
    if ((v = opt(os, "resume"))) {
        size_t len = 0;
        uint8_t *bytes = read_state(string_arg(v, "opts.resume"), &len);
        check_int("metaopt_aco_load_state", metaopt_aco_load_state(st->g, bytes, len));
        mxFree(bytes);
    }
    MetaoptStopToken *token = cancel_token();
    o.stop_token = token;
    AcoCall c = {.g = st->g, .s = s, .t = t, .o = &o};
    call_begin(e, NULL);
    int user = run_cancellable(0, aco_body, &c, token);
    call_end(e);
    metaopt_stop_token_free(token);
    MetaoptAcoRunResult r = c.r;
    int outcome = cancel_outcome(user, &r.error_code, &r.error_message);
    if (outcome == CANCEL_USER) {
        char best[160];
        if (r.found)
            snprintf(best, sizeof best, "length %.17g after %u iterations", r.length, r.iterations);
        else
            snprintf(best, sizeof best, "no path after %u iterations", r.iterations);
        metaopt_aco_free_run_result(&r);
        fail_interrupted(best);
    }
    CHECK_RESULT(NULL, "metaopt_aco_run", r, metaopt_aco_free_run_result);
    mxArray *out = empty_struct();
    set_field(out, "path", path_row(r.found ? r.path : NULL, r.path_length));
    set_num(out, "length", r.length);
    set_num(out, "gap", r.gap);
    set_num(out, "exactLength", r.exact_length);
    set_field(out, "pheromonePath", path_row(r.pheromone_found ? r.pheromone_path : NULL, r.pheromone_path_length));
    set_num(out, "pheromoneLength", r.pheromone_length);
    set_num(out, "iterations", r.iterations);
    set_num(out, "foundAtIteration", r.found_at_iteration);
    set_num(out, "successfulAnts", (double)r.successful_ants);
    set_num(out, "elapsed", r.elapsed_s);
    set_field(out, "backend", mxCreateString(r.backend ? r.backend : ""));
    set_field(out, "stopReason", mxCreateString(stop_reason_name(r.stop_reason)));
    metaopt_aco_free_run_result(&r);
    plhs[0] = out;
    if (outcome == CANCEL_STOPPED)
        warn_stopped();
}

static mxArray *graph_info(Entry *e) {
    GraphState *st = e->state;
    mxArray *s = empty_struct();
    set_field(s, "kind", mxCreateString("graph"));
    set_num(s, "n", st->n);
    set_num(s, "m", (double)st->m);
    set_field(s, "weightType", mxCreateString(WEIGHT_TYPES[st->weight_type & 3]));
    return s;
}

const EntryKind kind_graph = {KIND_GRAPH, "graph", sizeof(GraphState), graph_release, graph_info};
