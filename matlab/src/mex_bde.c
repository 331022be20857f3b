/*
 * mex_bde.c: the batched DE modes of the metaopt MEX gateway: 'bde-create' makes a batch of
 * independent DE problems (metaopt_batch_de_create) as an instance; 'bde-run' runs one
 * (metaopt_batch_de_run, again to go on; Ctrl-C stops it), or makes, runs and frees a batch in
 * one call when given the problems; the batch instance kind ('info', 'free').
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mex_internal.h"

/* The fields a problem may have (struct array elements); `CR`, `maxGenerations` and `jdeSmall`
 * are the aliases of `cr`, `generations` and `jde_small`. */
static const char *const PROBLEM_FIELDS[] = {"function", "source", "data", "dims", "lower", "upper", "members", "f", "F",
                                             "cr", "CR", "mutation", "bounds", "seed", "generations", "maxGenerations",
                                             "target", "algorithm", "jde_small", "jdeSmall", "integrality",
                                             "constraints", "eqTol", NULL};

/* Field `name` of problem i (0-based), or NULL when absent or []. */
static const mxArray *pfield(const mxArray *p, size_t i, const char *name) {
    const mxArray *v = mxGetField(p, i, name);
    return v && !mxIsEmpty(v) ? v : NULL;
}

/* The first present of two spellings of a field. */
static const mxArray *pfield2(const mxArray *p, size_t i, const char *a, const char *b, char *what, size_t cap) {
    const mxArray *v = pfield(p, i, a), *w = pfield(p, i, b);
    if (v && w)
        fail("badOption", "problems(%zu) sets both %s and %s; give one", i + 1, a, b);
    snprintf(what, cap, "problems(%zu).%s", i + 1, w ? b : a);
    return v ? v : w;
}

/* A bounds field: a scalar or one value per dimension (mx memory), its length in *n. */
static double *bound_field(const mxArray *v, const char *what, uint32_t *n) {
    size_t k;
    double *d = real_vector(v, what, &k, 0);
    for (size_t j = 0; j < k; ++j)
        if (isnan(d[j]))
            fail("badArgument", "%s(%zu) is NaN", what, j + 1);
    *n = (uint32_t)k;
    return d;
}

typedef struct {
    MetaoptBatchDeInstance *h;
    const MetaoptBatchDeStop *s;
    MetaoptBatchDeRunResult r;
} BdeCall;

static void bde_body(void *arg) {
    BdeCall *c = arg;
    c->r = metaopt_batch_de_run(c->h, c->s);
}

static const char *bde_stop_name(int32_t s) {
    switch (s) {
    case METAOPT_BATCH_DE_STOP_RUNNING: return "running";
    case METAOPT_BATCH_DE_STOP_TARGET: return "target";
    case METAOPT_BATCH_DE_STOP_BUDGET: return "budget";
    case METAOPT_BATCH_DE_STOP_TIME_LIMIT: return "time_limit";
    case METAOPT_BATCH_DE_STOP_INTERRUPTED: return "interrupted";
    default: return "unknown";
    }
}

/* A batch instance's state (Entry.state): the library instance and each problem's dims. */
typedef struct {
    MetaoptBatchDeInstance *h;
    uint32_t n;
    uint32_t *dims; /* malloc'd */
} BdeState;

static void bde_release(void *state) {
    BdeState *st = state;
    if (st->h)
        metaopt_batch_de_free(st->h);
    free(st->dims);
}

static mxArray *bde_info(Entry *e) {
    BdeState *st = e->state;
    mxArray *s = empty_struct();
    set_field(s, "kind", mxCreateString("batch DE"));
    set_num(s, "problems", st->n);
    mxArray *d = mxCreateDoubleMatrix(st->n, 1, mxREAL);
    for (uint32_t i = 0; i < st->n; ++i)
        ((double *)mxGetData(d))[i] = st->dims[i];
    set_field(s, "dims", d);
    return s;
}

const EntryKind kind_bde = {KIND_BDE, "batched DE", sizeof(BdeState), bde_release, bde_info};

/* The specs of the problems struct array (argument 1), in mx memory; their count in *count. */
static MetaoptBatchDeProblem *problem_specs(const mxArray *p, size_t *count) {
    if (!mxIsStruct(p))
        fail("badArgument", "problems must be a struct array (one element per problem), got %s", array_kind(p));
    size_t n = mxGetNumberOfElements(p);
    if (n == 0 || n > 4294967295.0)
        fail("badArgument", "problems is empty; give at least one problem");
    for (int f = 0; f < mxGetNumberOfFields(p); ++f) {
        const char *name = mxGetFieldNameByNumber(p, f);
        int known = 0;
        for (int k = 0; PROBLEM_FIELDS[k]; ++k)
            known |= strcmp(name, PROBLEM_FIELDS[k]) == 0;
        if (!known)
            fail("badOption", "problems has the unknown field '%s'; the fields are function, source, data, dims, lower, "
                 "upper, members, f, cr, mutation, bounds, seed, generations, target, algorithm, jde_small, integrality, "
                 "constraints, eqTol", name);
    }
    MetaoptBatchDeProblem *specs = mxCalloc(n, sizeof *specs);
    char what[64];
    const mxArray *v;
    for (size_t i = 0; i < n; ++i) {
        MetaoptBatchDeProblem q = metaopt_batch_de_default_problem();
        if ((v = pfield(p, i, "function"))) {
            snprintf(what, sizeof what, "problems(%zu).function", i + 1);
            q.function = string_arg(v, what);
        }
        if ((v = pfield(p, i, "source"))) {
            snprintf(what, sizeof what, "problems(%zu).source", i + 1);
            q.source = string_arg(v, what);
        }
        if ((v = pfield(p, i, "data"))) {
            size_t bytes;
            snprintf(what, sizeof what, "problems(%zu).data", i + 1);
            q.data = data_bytes(v, what, &bytes);
            q.data_bytes = bytes;
        }
        snprintf(what, sizeof what, "problems(%zu).dims", i + 1);
        if (!(v = pfield(p, i, "dims")))
            fail("badArgument", "%s is missing", what);
        q.dims = (uint32_t)int_scalar(v, what, 1, 4294967295.0);
        snprintf(what, sizeof what, "problems(%zu).lower", i + 1);
        if (!(v = pfield(p, i, "lower")))
            fail("badArgument", "%s is missing", what);
        q.lower = bound_field(v, what, &q.lower_length);
        snprintf(what, sizeof what, "problems(%zu).upper", i + 1);
        if (!(v = pfield(p, i, "upper")))
            fail("badArgument", "%s is missing", what);
        q.upper = bound_field(v, what, &q.upper_length);
        if ((v = pfield(p, i, "members"))) {
            snprintf(what, sizeof what, "problems(%zu).members", i + 1);
            q.members = (uint32_t)int_scalar(v, what, 0, 4294967295.0);
        }
        if ((v = pfield2(p, i, "f", "F", what, sizeof what)))
            q.f = real_scalar(v, what);
        if ((v = pfield2(p, i, "cr", "CR", what, sizeof what)))
            q.cr = real_scalar(v, what);
        if ((v = pfield(p, i, "mutation"))) {
            snprintf(what, sizeof what, "problems(%zu).mutation", i + 1);
            q.mutation = string_arg(v, what);
        }
        if ((v = pfield(p, i, "bounds"))) {
            snprintf(what, sizeof what, "problems(%zu).bounds", i + 1);
            q.bounds = string_arg(v, what);
        }
        if ((v = pfield(p, i, "seed"))) {
            snprintf(what, sizeof what, "problems(%zu).seed", i + 1);
            q.seed = (uint64_t)int_scalar(v, what, 0, 9007199254740992.0);
        }
        if ((v = pfield2(p, i, "generations", "maxGenerations", what, sizeof what)))
            q.max_generations = (uint64_t)int_scalar(v, what, 0, 9007199254740992.0);
        if ((v = pfield(p, i, "target"))) {
            snprintf(what, sizeof what, "problems(%zu).target", i + 1);
            q.has_target = 1;
            q.target = real_scalar(v, what);
        }
        if ((v = pfield(p, i, "algorithm"))) {
            /* a MetaoptDeAlgorithm by name: 'de' 0, 'jade' 1, 'shade' 2, 'lshade' 3, 'jso' 4,
               'jde100' 5; docs/specs/DE.md */
            static const char *const names[] = {"de", "jade", "shade", "lshade", "jso", "jde100"};
            snprintf(what, sizeof what, "problems(%zu).algorithm", i + 1);
            char *m = string_arg(v, what);
            int code = -1;
            for (int k = 0; k < 6; ++k)
                if (strcmp(m, names[k]) == 0) code = k;
            if (code < 0)
                fail("badArgument", "%s must be 'de', 'jade', 'shade', 'lshade', 'jso' or 'jde100', got '%s'", what, m);
            q.algorithm = code;
        }
        if ((v = pfield2(p, i, "jde_small", "jdeSmall", what, sizeof what)))
            q.jde_small = (uint32_t)int_scalar(v, what, 0, 4294967295.0);
        if ((v = pfield(p, i, "integrality"))) {
            /* one flag for every dimension or one per dimension (the library checks the count) */
            snprintf(what, sizeof what, "problems(%zu).integrality", i + 1);
            check_real_numeric(v, what, "one flag or one per dimension (logical or 0/1)");
            size_t k = mxGetNumberOfElements(v);
            if (k != 1 && k != q.dims)
                fail("badArgument", "%s must hold 1 or dims = %u flags, got %zu", what, q.dims, k);
            uint8_t *flags = mxMalloc(q.dims);
            for (uint32_t j = 0; j < q.dims; ++j)
                flags[j] = elem(v, k == 1 ? 0 : j) != 0;
            q.integrality = flags;
            q.integrality_length = q.dims;
        }
        const mxArray *tol = pfield(p, i, "eqTol");
        if ((v = pfield(p, i, "constraints"))) {
            /* [NG NH]: the counts of what the source's `constraints` writes, by Deb's rules */
            snprintf(what, sizeof what, "problems(%zu).constraints", i + 1);
            MetaoptConstraints *c = mxMalloc(sizeof *c);
            *c = metaopt_default_constraints();
            constraint_counts(v, what, c);
            if (tol) {
                snprintf(what, sizeof what, "problems(%zu).eqTol", i + 1);
                c->eq_tol = real_scalar(tol, what);
            }
            q.constraints = c;
        } else if (tol) {
            fail("badOption", "problems(%zu).eqTol goes with problems(%zu).constraints [NG NH]", i + 1, i + 1);
        }
        specs[i] = q;
    }
    *count = n;
    return specs;
}

/* The creation options of an opts struct (NULL: the defaults). */
static MetaoptBatchDeOptions create_options(const mxArray *s) {
    const mxArray *v;
    MetaoptBatchDeOptions o = metaopt_batch_de_default_options();
    if ((v = opt(s, "cpu")))
        o.backend = flag_arg(v, "opts.cpu") ? METAOPT_BACKEND_CPU : METAOPT_BACKEND_DEVICE;
    if ((v = opt(s, "device")))
        o.device = (int32_t)int_scalar(v, "opts.device", -1, 2147483647.0);
    if ((v = opt(s, "precision")))
        o.precision = resolve_precision(precision_arg(v, "opts.precision"));
    if ((v = opt(s, "generationsPerLaunch")))
        o.generations_per_launch = (uint32_t)int_scalar(v, "opts.generationsPerLaunch", 1, 4294967295.0);
    if ((v = opt(s, "placement"))) {
        char *w = string_arg(v, "opts.placement");
        if (strcmp(w, "auto") == 0)
            o.placement = METAOPT_BATCH_DE_PLACEMENT_AUTO;
        else if (strcmp(w, "local") == 0)
            o.placement = METAOPT_BATCH_DE_PLACEMENT_LOCAL;
        else if (strcmp(w, "global") == 0)
            o.placement = METAOPT_BATCH_DE_PLACEMENT_GLOBAL;
        else
            fail("badOption", "opts.placement '%s' is not one of auto, local, global", w);
    }
    return o;
}

/* A new batch instance of the problems; its token in *out. */
static Entry *bde_new(const mxArray *problems, const mxArray *opts, mxArray **out) {
    size_t n;
    MetaoptBatchDeProblem *specs = problem_specs(problems, &n);
    MetaoptBatchDeOptions o = create_options(opts);
    MetaoptBatchDeCreateResult c = metaopt_batch_de_create(specs, (uint32_t)n, &o);
    if (c.error_code != METAOPT_OK)
        fail_library("metaopt_batch_de_create", c.error_code, c.error_message);
    uint32_t *dims = malloc(n * sizeof *dims);
    if (!dims) {
        metaopt_batch_de_free(c.instance);
        fail("outOfMemory", "no memory for %zu problems", n);
    }
    for (size_t i = 0; i < n; ++i)
        dims[i] = specs[i].dims;
    mxFree(specs);
    Entry *e = entry_new(&kind_bde, out);
    BdeState *st = e->state;
    st->h = c.instance;
    st->n = (uint32_t)n;
    st->dims = dims;
    return e;
}

static const char *const CREATE_OPTIONS[] = {"cpu", "device", "precision", "generationsPerLaunch", "placement", NULL};

/* 'bde-create', problems, [opts: cpu, precision ('single', 'double'), generationsPerLaunch,
 * placement ('auto', 'local', 'global')] -> instance. problems as 'bde-run' takes them. */
void mode_bde_create(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    const mxArray *problems = arg(nrhs, prhs, 1, "problems");
    const mxArray *s = options_struct(nrhs, prhs, 2, CREATE_OPTIONS);
    bde_new(problems, s, &plhs[0]);
}

/* Runs the batch of `e` under `stop` and returns the result struct; `one_shot`: `e` is freed
 * before an error is raised (the caller frees it after a success). */
static mxArray *bde_run(Entry *e, MetaoptBatchDeStop *stop, int one_shot) {
    BdeState *bs = e->state;
    MetaoptStopToken *token = cancel_token();
    stop->stop_token = token;
    BdeCall call = {.h = bs->h, .s = stop};
    call_begin(e, NULL);
    int user = run_cancellable(0, bde_body, &call, token);
    call_end(e);
    metaopt_stop_token_free(token);
    MetaoptBatchDeRunResult r = call.r;
    int outcome = cancel_outcome(user, &r.error_code, &r.error_message);
    if (outcome == CANCEL_USER) {
        char best[96];
        double b = INFINITY;
        for (uint32_t i = 0; i < r.count; ++i)
            b = r.best_value[i] < b ? r.best_value[i] : b;
        snprintf(best, sizeof best, "the best of %u problems %g", r.count, b);
        metaopt_batch_de_free_run_result(&r);
        if (one_shot)
            entry_free(e);
        fail_interrupted(best);
    }
    if (r.error_code != METAOPT_OK) {
        int32_t code = r.error_code;
        char *msg = r.error_message;
        r.error_message = NULL;
        metaopt_batch_de_free_run_result(&r);
        if (one_shot)
            entry_free(e);
        fail_library("metaopt_batch_de_run", code, msg);
    }
    mxArray *out = empty_struct();
    mxArray *value = mxCreateDoubleMatrix(r.count, 1, mxREAL);
    mxArray *gens = mxCreateDoubleMatrix(r.count, 1, mxREAL);
    mxArray *stopr = mxCreateCellMatrix(r.count, 1);
    mxArray *best = mxCreateCellMatrix(r.count, 1);
    mxArray *viol = mxCreateDoubleMatrix(r.count, 1, mxREAL);
    for (uint32_t i = 0; i < r.count; ++i) {
        ((double *)mxGetData(value))[i] = r.best_value[i];
        ((double *)mxGetData(viol))[i] = r.violation ? r.violation[i] : 0.0;
        ((double *)mxGetData(gens))[i] = (double)r.generations[i];
        mxSetCell(stopr, i, mxCreateString(bde_stop_name(r.stop_reason[i])));
        uint32_t d = bs->dims[i];
        mxArray *x = mxCreateDoubleMatrix(1, d, mxREAL);
        MetaoptInt32Result b = metaopt_batch_de_best(bs->h, i, (double *)mxGetData(x), d);
        if (b.error_code != METAOPT_OK) {
            /* a problem not started (a time limit before its first launch) has no vector */
            metaopt_pointer_free(b.error_message);
            for (uint32_t j = 0; j < d; ++j)
                ((double *)mxGetData(x))[j] = mxGetNaN();
        }
        mxSetCell(best, i, x);
    }
    set_field(out, "bestValue", value);
    set_field(out, "generations", gens);
    set_field(out, "stopReason", stopr);
    set_field(out, "best", best);
    set_field(out, "violation", viol);
    set_field(out, "precision", mxCreateString(precision_name(r.precision)));
    set_num(out, "seconds", r.seconds);
    metaopt_batch_de_free_run_result(&r);
    if (outcome == CANCEL_STOPPED)
        warn_stopped();
    return out;
}

/* opts.checkpoint (a file the run writes every problem's state to when it ends and every
 * opts.checkpointEvery seconds) into `st`, and opts.resume (a checkpoint file: the batch of `e`
 * continues the saved run) loaded now; `one_shot`: `e` is freed before an error is raised. */
static void bde_checkpoints(const mxArray *s, MetaoptBatchDeStop *st, Entry *e, int one_shot) {
    const mxArray *v;
    if ((v = opt(s, "checkpoint")))
        st->checkpoint_path = string_arg(v, "opts.checkpoint");
    if ((v = opt(s, "checkpointEvery")))
        st->checkpoint_every_s = real_scalar(v, "opts.checkpointEvery");
    if (!(v = opt(s, "resume")))
        return;
    const char *path = string_arg(v, "opts.resume");
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (one_shot)
            entry_free(e);
        fail("io", "opts.resume: cannot open the checkpoint %s", path);
    }
    size_t cap = 1 << 16, len = 0, got;
    uint8_t *b = mxMalloc(cap);
    while ((got = fread(b + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap)
            b = mxRealloc(b, cap *= 2);
    }
    fclose(f);
    MetaoptInt32Result r = metaopt_batch_de_load_state(((BdeState *)e->state)->h, b, len);
    if (r.error_code != METAOPT_OK) {
        if (one_shot)
            entry_free(e);
        fail_library("metaopt_batch_de_load_state", r.error_code, r.error_message);
    }
}

/* 'bde-run', instance, [opts: timeLimit]: runs the batch until every problem reached its target
 * or generations, or the time limit (again: it goes on). 'bde-run', problems, [opts: cpu,
 * precision ('single', 'double'), generationsPerLaunch, placement ('auto', 'local', 'global'),
 * timeLimit]: makes the batch, runs it and frees it in one call. problems: a struct array, one
 * element per problem, with the fields function (a catalogue name; or source: OpenCL C text,
 * and data: a numeric array passed as its bytes), dims, lower, upper (a scalar or one per
 * dimension), members, f, cr, mutation, bounds, seed, generations, target, integrality (one
 * flag or one per dimension), constraints ([NG NH]: the counts of what a source's `constraints`
 * writes, compared by Deb's rules) and eqTol (absent or []: the library's defaults: 50 members,
 * F 0.5, CR 0.9, DE/rand/1, sat, seed 1, 1000 generations, no target, continuous, no
 * constraints). -> result struct: bestValue, generations, violation (of each best point: 0
 * feasible or unconstrained) (column vectors), stopReason (a column cell
 * of 'target', 'budget' (its generations ran), 'time_limit', 'interrupted', 'running'), best (a
 * column cell of row vectors, each of its problem's dims), precision, seconds. Both forms take
 * opts.checkpoint (a file the run writes every problem's state to when it ends and every
 * opts.checkpointEvery seconds) and opts.resume (a checkpoint file of the same problems and
 * options: the run continues the saved one). */
void mode_bde_run(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    const mxArray *first = arg(nrhs, prhs, 1, "instance or problems");
    MetaoptBatchDeStop st = metaopt_batch_de_default_stop();
    if (mxIsStruct(first)) {
        static const char *known[] = {"cpu",       "device",     "precision",       "generationsPerLaunch", "placement",
                                      "timeLimit", "checkpoint", "checkpointEvery", "resume",               NULL};
        const mxArray *s = options_struct(nrhs, prhs, 2, known), *v;
        if ((v = opt(s, "timeLimit")))
            st.time_limit = real_scalar(v, "opts.timeLimit");
        mxArray *token;
        Entry *e = bde_new(first, s, &token);
        bde_checkpoints(s, &st, e, 1);
        plhs[0] = bde_run(e, &st, 1);
        entry_free(e);
        mxDestroyArray(token);
        return;
    }
    if (!mxIsUint8(first))
        fail("badArgument", "the first argument must be a batch instance ('bde-create') or a problems struct array, got %s",
             array_kind(first));
    Entry *e = entry_get(first, &kind_bde);
    static const char *known[] = {"timeLimit", "checkpoint", "checkpointEvery", "resume", NULL};
    const mxArray *s = options_struct(nrhs, prhs, 2, known), *v;
    if ((v = opt(s, "timeLimit")))
        st.time_limit = real_scalar(v, "opts.timeLimit");
    bde_checkpoints(s, &st, e, 0);
    plhs[0] = bde_run(e, &st, 0);
}
