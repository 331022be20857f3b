/*
 * mex_de.c: the island DE modes of the metaopt MEX gateway (thesis 5.2.1, DEMultiPop):
 * de-params, de-init, de-iteration, de-run, de-bests, de-best, de-x, de-func-data, and the DE
 * instance kind ('info', 'free').
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mex_internal.h"

/* An island DE instance's state (Entry.state): the library instance (made by 'de-params') and
 * its sizes; the m-function objective of the last successful 'de-init' (a persistent copy: the
 * library calls it in later 'de-iteration' and 'de-run' calls), NULL for a device objective;
 * the instance's current options (a 'de-init' opts update starts from them) and its per-island
 * CR values (malloc'ed, islands values) or NULL. */
typedef struct {
    MetaoptDeInstance *de;
    uint32_t islands, members, dims;
    mxArray *fun;
    mxArray *viol; /* the violation m-function of the constraints (persistent), or NULL */
    MetaoptDeOptions opts;
    double *cr;
} DeState;

static void de_release(void *state) {
    DeState *d = state;
    if (d->de)
        metaopt_de_free(d->de);
    if (d->fun)
        mxDestroyArray(d->fun);
    if (d->viol)
        mxDestroyArray(d->viol);
    free(d->cr);
}

/* The DE option fields, lowerCamelCase (the thesis's Table 3 names, F_coefs_min, CR,
 * init_rng_seed, ..., are aliases: canonical_option); `double` (true/false) is the earlier
 * form of `precision`. */
static const char *const de_option_fields[] = {"fCoefsMode", "fCoefsMin", "fCoefsMax", "cr", "initRngSeed",
                                              "mutationRngSeed", "crossoverRngSeed", "migrationRngSeed",
                                              "precision", "double", "sharedRandom", "fused", "cpu", "device", "crCoefsMode",
                                              "selection", "fitnessPrecision", "algorithm", "lshadeBudget", "jdeSmall",
                                              "jdeEps", "jdeAge", "x0", "init", "integrality", "constraints", "eqTol",
                                              "constraintHandling", "violation", "repair", NULL};

/* de-init's constraint options (constraints_arg: constraints [NG NH] of a source objective or
 * violation of an m-function objective, eqTol, constraintHandling, repair). Sets the
 * instance's constraints (none when no field is given: the earlier ones are cleared) and keeps
 * the violation m-function the library will call. */
static void de_constraints(Entry *e, DeState *d, const mxArray *s, int callback) {
    MetaoptConstraints c;
    mxArray *viol;
    int given = constraints_arg(s, e, callback, CONSTRAINTS_EPSILON | CONSTRAINTS_REPAIR, &c, &viol);
    MetaoptInt32Result r = metaopt_de_set_constraints(d->de, given ? &c : NULL);
    if (r.error_code != METAOPT_OK) {
        if (viol)
            mxDestroyArray(viol);
        fail_call(e, "metaopt_de_set_constraints", r.error_code, r.error_message);
    }
    if (d->viol)
        mxDestroyArray(d->viol);
    d->viol = viol;
}

/* Applies the fields of the canonical opts struct `s` (NULL: none) to *o; CR values given per
 * island are left in mxMalloc'ed memory that *o points to (freed with the MEX call). The
 * precision asked for (opts.precision or opts.double) is written to *precision
 * (PRECISION_AUTO when neither is given); o->precision is not changed. */
static void de_options(const mxArray *s, uint32_t np, MetaoptDeOptions *o, int *precision) {
    const mxArray *v;
    *precision = PRECISION_AUTO;
    if ((v = opt(s, "fCoefsMode"))) {
        char *m = string_arg(v, "opts.fCoefsMode");
        if (strcmp(m, "linspace") == 0)
            o->f_const = 0;
        else if (strcmp(m, "const_min") == 0 || strcmp(m, "const") == 0)
            o->f_const = 1;
        else if (strcmp(m, "dither") == 0)
            o->f_const = 2; /* each generation, each island draws F in [F_coefs_min, F_coefs_max) */
        else
            fail("badArgument",
                 "opts.fCoefsMode (F_coefs_mode) must be 'linspace', 'const_min' (alias 'const') or 'dither', got '%s'",
                 m);
    }
    /* the thesis's CR_coefs_mode has one mode, 'const' (CR_coef_const, or CR per island) */
    if ((v = opt(s, "crCoefsMode"))) {
        char *m = string_arg(v, "opts.crCoefsMode");
        if (strcmp(m, "const") != 0)
            fail("badArgument", "opts.crCoefsMode (CR_coefs_mode) must be 'const', the thesis's only mode, got '%s'", m);
    }
    if ((v = opt(s, "selection"))) {
        char *m = string_arg(v, "opts.selection");
        if (strcmp(m, "ties") == 0)
            o->selection = METAOPT_DE_SELECTION_TIES;
        else if (strcmp(m, "strict") == 0)
            o->selection = METAOPT_DE_SELECTION_STRICT;
        else
            fail("badArgument", "opts.selection must be 'ties' (f(trial) <= f(target)) or 'strict' (<), got '%s'", m);
    }
    /* the DE algorithm (docs/specs/DE.md, "Adaptive DE"): the thesis's DE or a self-adapting
     * variant with its paper's defaults */
    if ((v = opt(s, "algorithm"))) {
        static const char *const names[] = {"de", "jade", "shade", "lshade", "jso", "jde100"};
        char *m = string_arg(v, "opts.algorithm");
        int found = -1;
        for (int i = 0; i < 6; ++i)
            if (strcmp(m, names[i]) == 0)
                found = i;
        if (found < 0)
            fail("badArgument", "opts.algorithm must be 'de', 'jade', 'shade', 'lshade', 'jso' or 'jde100', got '%s'", m);
        o->algorithm = found; /* MetaoptDeAlgorithm: 0 de .. 5 jde100, in this order */
    }
    if ((v = opt(s, "lshadeBudget")))
        o->lshade_budget = (uint64_t)int_scalar(v, "opts.lshadeBudget", 0, 9007199254740992.0);
    /* jDE100 (docs/specs/DE.md, "jDE100"): the small population, the restart eps, the age limit */
    if ((v = opt(s, "jdeSmall")))
        o->jde_small = (uint32_t)int_scalar(v, "opts.jdeSmall", 0, 4294967295.0);
    if ((v = opt(s, "jdeEps")))
        o->jde_eps = real_scalar(v, "opts.jdeEps");
    if ((v = opt(s, "jdeAge")))
        o->jde_age = (uint64_t)int_scalar(v, "opts.jdeAge", 0, 9007199254740992.0);
    if ((v = opt(s, "fCoefsMin")))
        o->f_min = real_scalar(v, "opts.fCoefsMin");
    if ((v = opt(s, "fCoefsMax")))
        o->f_max = real_scalar(v, "opts.fCoefsMax");
    if ((v = opt(s, "cr"))) {
        size_t n;
        double *cr = real_vector(v, "opts.cr", &n, 0);
        if (n == 1) {
            o->cr = cr[0];
            o->cr_per_island = NULL;
        } else if (n == np)
            o->cr_per_island = cr; /* the library reads `islands` values: the length is checked here */
        else
            fail("badArgument", "opts.cr (CR) must hold 1 or islands = %u values, got %zu", np, n);
    }
    if ((v = opt(s, "initRngSeed")))
        o->init_seed = (uint64_t)int_scalar(v, "opts.initRngSeed", 0, 9007199254740992.0);
    if ((v = opt(s, "mutationRngSeed")))
        o->mutation_seed = (uint64_t)int_scalar(v, "opts.mutationRngSeed", 0, 9007199254740992.0);
    if ((v = opt(s, "crossoverRngSeed")))
        o->crossover_seed = (uint64_t)int_scalar(v, "opts.crossoverRngSeed", 0, 9007199254740992.0);
    if ((v = opt(s, "migrationRngSeed")))
        o->migration_seed = (uint64_t)int_scalar(v, "opts.migrationRngSeed", 0, 9007199254740992.0);
    if ((v = opt(s, "precision")))
        *precision = precision_arg(v, "opts.precision");
    if ((v = opt(s, "double"))) {
        if (*precision != PRECISION_AUTO)
            fail("badOption", "opts.double and opts.precision both set the precision; give opts.precision alone");
        *precision = flag_arg(v, "opts.double") ? PRECISION_DOUBLE : PRECISION_SINGLE;
    }
    /* the fitness precision (the thesis's FPf): 'single' or 'double'; unset: the storage precision */
    if ((v = opt(s, "fitnessPrecision")))
        o->fitness_precision = resolve_precision(precision_arg(v, "opts.fitnessPrecision"));
    if ((v = opt(s, "sharedRandom")))
        o->shared_random = (uint8_t)flag_arg(v, "opts.sharedRandom");
    if ((v = opt(s, "cpu")))
        o->backend = flag_arg(v, "opts.cpu") ? METAOPT_BACKEND_CPU : METAOPT_BACKEND_DEVICE;
    if ((v = opt(s, "device")))
        o->device = (int32_t)int_scalar(v, "opts.device", -1, 2147483647.0);
    if ((v = opt(s, "fused")))
        o->fused = (uint8_t)flag_arg(v, "opts.fused");
}

/* Keeps *o as the instance's current options (with a malloc'ed copy of per-island CR). */
static void de_keep_options(DeState *d, const MetaoptDeOptions *o) {
    double *cr = NULL;
    if (o->cr_per_island) {
        cr = malloc(d->islands * sizeof *cr);
        if (!cr)
            fail("outOfMemory", "cannot keep %u CR values", d->islands);
        memcpy(cr, o->cr_per_island, d->islands * sizeof *cr);
    }
    free(d->cr);
    d->cr = cr;
    d->opts = *o;
    d->opts.cr_per_island = cr;
    d->opts.integrality = NULL; /* fixed with the instance */
}

/* 'de-params', islands, members, dims, limits ([a b] or dims x 2), bounds (a name or a cell
 * array of dims names), [opts: F_coefs_mode ('linspace' | 'const_min', alias 'const' | 'dither'), F_coefs_min,
 * F_coefs_max, CR_coefs_mode ('const'), CR (alias CR_coef_const; one value or one per island),
 * init_rng_seed, mutation_rng_seed, crossover_rng_seed, migration_rng_seed, double,
 * shared_random, cpu, selection ('ties' | 'strict'), fitness_precision ('single' | 'double'; unset:
 * the storage precision), algorithm ('de' | 'jade' | 'shade' | 'lshade' | 'jso' | 'jde100'), lshade_budget,
 * jde_small, jde_eps, jde_age]
 * -> instance */
void mode_de_params(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    /* the library checks the counts (islands >= 1, members >= 3, dims >= 1) and names them */
    uint32_t np = (uint32_t)int_scalar(arg(nrhs, prhs, 1, "islands"), "islands", 0, 4294967295.0);
    uint32_t nm = (uint32_t)int_scalar(arg(nrhs, prhs, 2, "members"), "members", 0, 4294967295.0);
    uint32_t nn = (uint32_t)int_scalar(arg(nrhs, prhs, 3, "dims"), "dims", 0, 4294967295.0);
    const mxArray *lim = arg(nrhs, prhs, 4, "limits");
    check_real_numeric(lim, "limits", "a real [a b] pair or a dims x 2 matrix of [a b] rows");
    if (mxGetNumberOfDimensions(lim) != 2)
        fail("badArgument", "limits must be a real [a b] pair or a dims x 2 matrix of [a b] rows");
    size_t rows = mxGetM(lim), cols = mxGetN(lim);
    int one = (rows == 1 && cols == 2) || (rows == 2 && cols == 1);
    if (!one && !(rows == nn && cols == 2))
        fail("badArgument", "limits must be [a b] or a dims x 2 matrix of [a b] rows (dims = %u), got %zu x %zu", nn, rows,
             cols);
    /* the library takes the pairs a, b consecutively (and checks finite a < b) */
    size_t pairs = one ? 1 : rows;
    double *limits = mxMalloc(2 * pairs * sizeof *limits);
    for (size_t p = 0; p < pairs; ++p) {
        limits[2 * p] = one ? elem(lim, 0) : elem(lim, p);
        limits[2 * p + 1] = one ? elem(lim, 1) : elem(lim, p + rows);
    }
    /* bounds: one name, or a cell array of names joined by commas (the library checks them) */
    const mxArray *b = arg(nrhs, prhs, 5, "bounds");
    char *bounds;
    if (mxIsCell(b)) {
        size_t k = mxGetNumberOfElements(b), len = 0;
        if (k == 0)
            fail("badArgument", "bounds is an empty cell array; give a name or one name per dimension");
        char **names = mxMalloc(k * sizeof *names);
        for (size_t i = 0; i < k; ++i) {
            const mxArray *c = mxGetCell(b, i);
            char what[32];
            snprintf(what, sizeof what, "bounds{%zu}", i + 1);
            if (!c)
                fail("badArgument", "%s must be a string (char array)", what);
            names[i] = string_arg(c, what);
            if (strchr(names[i], ','))
                fail("badArgument", "%s is '%s'; give one name per cell", what, names[i]);
            len += strlen(names[i]) + 1;
        }
        bounds = mxMalloc(len);
        bounds[0] = '\0';
        for (size_t i = 0; i < k; ++i) {
            if (i)
                strcat(bounds, ",");
            strcat(bounds, names[i]);
        }
    } else if (mxIsChar(b)) {
        bounds = string_arg(b, "bounds");
    } else {
        fail("badArgument", "bounds must be a name ('sat', 'mir', 'tor', 'HVB', 'uni', 'COTN') or a cell array of names");
        return;
    }
    const mxArray *s = options_struct(nrhs, prhs, 6, de_option_fields);
    if (s && (opt(s, "x0") || opt(s, "init")))
        fail("badOption", "x0 and init (a warm start) are options of de-init, which makes the first populations");
    if (has_constraint_fields(s))
        fail("badOption", "constraints, violation, eqTol, constraintHandling and repair are options of de-init, with "
                          "the objective");
    MetaoptDeOptions o = metaopt_de_default_options();
    int precision;
    de_options(s, np, &o, &precision);
    /* integer variables (scipy's integrality): one flag or one per dimension, read by
     * metaopt_de_create only */
    const mxArray *iv = s ? opt(s, "integrality") : NULL;
    if (iv) {
        check_real_numeric(iv, "opts.integrality", "one flag or one per dimension (logical or 0/1)");
        size_t k = mxGetNumberOfElements(iv);
        if (k != 1 && k != nn)
            fail("badArgument", "opts.integrality must hold 1 or dims = %u flags, got %zu", nn, k);
        uint8_t *flags = mxMalloc(nn ? nn : 1);
        for (uint32_t j = 0; j < nn; ++j)
            flags[j] = elem(iv, k == 1 ? 0 : j) != 0;
        o.integrality = flags;
    }
    /* the library's choice (double where the backend has it) unless one is asked for
     * (README.md, "Precision"); de-run reports the one used */
    o.double_precision = 0;
    o.precision = resolve_precision(precision);
    MetaoptDeCreateResult r = metaopt_de_create(np, nm, nn, limits, (uint32_t)(2 * pairs), bounds, &o);
    if (r.error_code != METAOPT_OK)
        fail_library("metaopt_de_create", r.error_code, r.error_message);
    DeState *d = entry_new(&kind_de, &plhs[0])->state;
    d->de = r.instance;
    d->islands = np;
    d->members = nm;
    d->dims = nn;
    de_keep_options(d, &o);
}

/* 'de-init', instance, objective, [mutation='DE/rand/1', migration='None', period=10, opts]
 * opts (the thesis's optionsUpdate): fields as in de-params, applied to the instance's current
 * options for this and later runs; double and cpu cannot change.
 * objective: a function handle or m-function name (called with the (islands * members) x dims
 * trials of a generation, row (p - 1) * members + m for island p and member m, returning their
 * values), '@NAME' (a catalogue function on the device), '@FILE.cl' (OpenCL C read from
 * FILE.cl), or a struct with field `source` (OpenCL C code) and optional `name` (its label).
 * A source's constraints: opts.constraints [NG NH], opts.eqTol, opts.constraintHandling
 * (de_constraints); without them the instance has none. */
void mode_de_init(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)plhs, (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), &kind_de);
    DeState *d = e->state;
    const mxArray *fun = arg(nrhs, prhs, 2, "objective");
    const char *mutation = given(nrhs, prhs, 3) ? string_arg(prhs[3], "mutation") : "DE/rand/1";
    const char *migration = given(nrhs, prhs, 4) ? string_arg(prhs[4], "migration") : "None";
    uint32_t period = given(nrhs, prhs, 5) ? (uint32_t)int_scalar(prhs[5], "period", 0, 4294967295.0) : 10;
    const mxArray *update = options_struct(nrhs, prhs, 6, de_option_fields);
    MetaoptDeOptions opts = d->opts;
    if (update && opt(update, "integrality"))
        fail("badOption", "integrality is fixed when the instance is created: give it to de-params");
    if (update) {
        int precision;
        de_options(update, d->islands, &opts, &precision);
        if (precision != PRECISION_AUTO)
            opts.precision = resolve_precision(precision); /* the library refuses a change */
    }
    MetaoptObjective o;
    char label[512];
    int callback = objective_arg(fun, e, &o, label, sizeof label);
    /* before the copy below: a refused option raises here */
    de_constraints(e, d, update, callback);
    mxArray *copy = NULL;
    if (callback) {
        /* the library calls it again in later MEX calls ('de-iteration', 'de-run') */
        copy = mxDuplicateArray(fun);
        mexMakeArrayPersistent(copy);
    }
    call_begin_with(e, copy, d->viol);
    MetaoptInt32Result r = metaopt_de_init(d->de, &o, mutation, migration, period, update ? &opts : NULL);
    call_end(e);
    if (r.error_code != METAOPT_OK) {
        /* the previous objective stays (or, after a failed first evaluation, none runs) */
        if (copy)
            mxDestroyArray(copy);
        fail_call(e, "metaopt_de_init", r.error_code, r.error_message);
    }
    if (d->fun)
        mxDestroyArray(d->fun);
    d->fun = copy;
    if (update)
        de_keep_options(d, &opts);
    /* warm starts: opts.init the first members (a rows x dims matrix: islands x members rows, or
     * fewer, island by island; clipped to the limits), then opts.x0 the first member (scipy's
     * x0; within the limits) */
    const char *const warm[] = {"init", "x0"};
    for (int w = 0; w < 2; ++w) {
        const mxArray *v = update ? opt(update, warm[w]) : NULL;
        if (!v)
            continue;
        if (!mxIsDouble(v) || mxIsComplex(v) || mxIsSparse(v))
            fail("badArgument", "opts.%s must be a real double matrix", warm[w]);
        size_t rows = mxGetM(v), cols = mxGetN(v);
        if (w == 1 && (rows == 1 || cols == 1))
            rows = 1, cols = mxGetNumberOfElements(v);
        if (cols != d->dims || rows == 0)
            fail("badArgument", "opts.%s must have %u columns (dims), one point per row; got %zu x %zu", warm[w],
                 d->dims, mxGetM(v), mxGetN(v));
        const double *src = mxGetPr(v);
        double *x = mxMalloc(rows * cols * sizeof *x);
        for (size_t r = 0; r < rows; ++r)
            for (size_t c = 0; c < cols; ++c)
                x[r * cols + c] = w == 1 ? src[c] : src[c * rows + r];
        call_begin_with(e, d->fun, d->viol);
        MetaoptInt32Result sr = metaopt_de_set_population(d->de, -1, x, rows, d->dims, w == 0);
        call_end(e);
        if (sr.error_code != METAOPT_OK) {
            char what[64];
            snprintf(what, sizeof what, "metaopt_de_set_population (opts.%s)", warm[w]);
            fail_call(e, what, sr.error_code, sr.error_message);
        }
    }
}

/* 'de-iteration', instance -> the generation number since 'de-init' */
void mode_de_iteration(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), &kind_de);
    DeState *d = e->state;
    call_begin_with(e, d->fun, d->viol);
    MetaoptInt32Result r = metaopt_de_iteration(d->de);
    call_end(e);
    plhs[0] = mxCreateDoubleScalar(check_call(e, "metaopt_de_iteration", r));
}

/* The stop conditions of 'de-run', lowerCamelCase (the library's stop vocabulary; the earlier
 * names generations, evaluations and time_limit are aliases, canonical_option). */
static const char *const de_stop_fields[] = {"maxGenerations", "maxEvaluations", "target", "timeLimit",
                                            "checkpoint", "checkpointEvery", "resume", NULL};

/* The bytes of a checkpoint file (mxMalloc'ed, freed with the MEX call), its length in *len. */
static uint8_t *read_state_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f)
        fail("io", "resume: cannot open the checkpoint %s", path);
    size_t cap = 1 << 16, got;
    uint8_t *b = mxMalloc(cap);
    *len = 0;
    while ((got = fread(b + *len, 1, cap - *len, f)) > 0) {
        *len += got;
        if (*len == cap)
            b = mxRealloc(b, cap *= 2);
    }
    fclose(f);
    return b;
}

/* One stop condition of 'de-run' by its lowerCamelCase name; `resume` takes the path of a
 * checkpoint to continue from. */
static void de_stop_option(MetaoptDeStop *st, const char **resume, const char *given_name, const mxArray *v) {
    char name[64];
    canonical_option(given_name, name, sizeof name);
    if (strcmp(name, "checkpoint") == 0) {
        st->checkpoint_path = string_arg(v, "checkpoint");
    } else if (strcmp(name, "checkpointEvery") == 0) {
        st->checkpoint_every_s = real_scalar(v, "checkpointEvery");
    } else if (strcmp(name, "resume") == 0) {
        *resume = string_arg(v, "resume");
    } else if (strcmp(name, "maxGenerations") == 0) {
        st->generations = (uint64_t)int_scalar(v, "maxGenerations", 0, 9007199254740992.0);
    } else if (strcmp(name, "maxEvaluations") == 0) {
        st->evaluations = (uint64_t)int_scalar(v, "maxEvaluations", 0, 9007199254740992.0);
    } else if (strcmp(name, "target") == 0) {
        st->has_target = 1;
        st->target = real_scalar(v, "target");
    } else if (strcmp(name, "timeLimit") == 0) {
        st->time_limit = real_scalar(v, "timeLimit");
    } else {
        fail("badOption",
             "unknown stop condition '%s' (maxGenerations, maxEvaluations, target, timeLimit, checkpoint, "
             "checkpointEvery, resume)",
             given_name);
    }
}

/* One metaopt_de_run (run_cancellable's body: no mx call). */
typedef struct {
    MetaoptDeInstance *de;
    const MetaoptDeStop *stop;
    MetaoptDeRunResult r;
} DeRunCall;

static void de_run_body(void *arg) {
    DeRunCall *c = arg;
    c->r = metaopt_de_run(c->de, c->stop);
}

/* 'de-run', instance, [generations ([] or 0: no limit)], then a struct or name/value pairs of
 * 'maxGenerations', 'maxEvaluations', 'target', 'timeLimit' (at least one condition), and
 * 'checkpoint' (a file the run writes its whole state to when it ends and every
 * 'checkpointEvery' seconds), 'resume' (a checkpoint file: the run continues the saved one,
 * its budget and time limit counting from that run's start)
 * -> [value, x, island (1-based), generations, evaluations, seconds, stoppedBy (the library's
 * word: 'budget' (the generations ran), 'evaluations', 'target', 'time_limit', 'interrupted'),
 * precision, fitnessPrecision].
 * Ctrl-C stops it (mex_cancel.c): `metaopt:interrupted`, the instance keeping its best so far
 * (de-bests, de-best); stopped by a request from elsewhere, stoppedBy is 'interrupted'. */
void mode_de_run(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), &kind_de);
    DeState *d = e->state;
    MetaoptDeStop st = metaopt_de_default_stop();
    const char *resume = NULL;
    int i = 2;
    if (i < nrhs && !mxIsChar(prhs[i]) && !mxIsStruct(prhs[i])) {
        if (!mxIsEmpty(prhs[i]))
            de_stop_option(&st, &resume, "maxGenerations", prhs[i]);
        ++i;
    }
    if (i < nrhs && mxIsStruct(prhs[i])) {
        if (mxGetNumberOfElements(prhs[i]) != 1)
            fail("badArgument", "stop must be a 1x1 struct");
        const mxArray *s = canonical_options(prhs[i], "stop", de_stop_fields);
        for (const char *const *k = de_stop_fields; *k; ++k) {
            const mxArray *v = opt(s, *k);
            if (v)
                de_stop_option(&st, &resume, *k, v);
        }
        ++i;
    }
    for (; i < nrhs; i += 2) {
        char *name = string_arg(prhs[i], "stop condition name");
        if (i + 1 >= nrhs)
            fail("badArgument", "stop condition '%s' has no value", name);
        de_stop_option(&st, &resume, name, prhs[i + 1]);
    }
    if (resume) {
        /* the saved run's state; this run continues it */
        size_t len;
        uint8_t *bytes = read_state_file(resume, &len);
        MetaoptInt32Result lr = metaopt_de_load_state(d->de, bytes, len);
        check_call(e, "metaopt_de_load_state", lr);
    }
    /* an m-function objective runs on this thread (it sees Ctrl-C itself); else a worker */
    MetaoptStopToken *token = d->fun ? NULL : cancel_token();
    st.stop_token = token;
    DeRunCall c = {.de = d->de, .stop = &st};
    call_begin_with(e, d->fun, d->viol);
    int user = run_cancellable(d->fun != NULL, de_run_body, &c, token);
    call_end(e);
    metaopt_stop_token_free(token);
    MetaoptDeRunResult r = c.r;
    int outcome = cancel_outcome(user, &r.error_code, &r.error_message);
    if (outcome == CANCEL_USER) {
        char best[160];
        snprintf(best, sizeof best, "%.10g on island %u after %llu generations (de-bests, de-best give it)", r.value,
                 r.island + 1, (unsigned long long)r.generations);
        metaopt_de_free_run_result(&r);
        fail_interrupted(best);
    }
    CHECK_RESULT(e, "metaopt_de_run", r, metaopt_de_free_run_result);
    plhs[0] = mxCreateDoubleScalar(r.value);
    if (nlhs > 1)
        plhs[1] = row_double(r.x, r.dims);
    if (nlhs > 2)
        plhs[2] = mxCreateDoubleScalar(r.island + 1.0);
    if (nlhs > 3)
        plhs[3] = mxCreateDoubleScalar((double)r.generations);
    if (nlhs > 4)
        plhs[4] = mxCreateDoubleScalar((double)r.evaluations);
    if (nlhs > 5)
        plhs[5] = mxCreateDoubleScalar(r.seconds);
    if (nlhs > 6)
        plhs[6] = mxCreateString(stop_reason_name(r.stop_reason));
    if (nlhs > 7)
        plhs[7] = mxCreateString(precision_name(r.precision));
    if (nlhs > 8)
        plhs[8] = mxCreateString(precision_name(r.fitness_precision));
    if (nlhs > 9)
        plhs[9] = mxCreateDoubleScalar(r.violation);
    metaopt_de_free_run_result(&r);
    if (outcome == CANCEL_STOPPED)
        warn_stopped();
}

/* A MetaoptDoubleArrayResult as a row, freed. */
static mxArray *de_row(Entry *e, const char *call, MetaoptDoubleArrayResult r) {
    CHECK_RESULT(e, call, r, metaopt_double_array_free_result);
    mxArray *a = row_double(r.values, r.length);
    metaopt_double_array_free_result(&r);
    return a;
}

/* 'de-bests', instance -> 1 x islands: the best value of every island (getBestsFitness) */
void mode_de_bests(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), &kind_de);
    DeState *d = e->state;
    plhs[0] = de_row(e, "metaopt_de_bests_fitness", metaopt_de_bests_fitness(d->de));
}

/* 'de-best', instance, island (1-based) -> 1 x dims: the best member of the island */
void mode_de_best(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), &kind_de);
    DeState *d = e->state;
    uint32_t p = (uint32_t)int_scalar(arg(nrhs, prhs, 2, "island"), "island (1-based)", 1, d->islands);
    plhs[0] = de_row(e, "metaopt_de_best", metaopt_de_best(d->de, p - 1));
}

/* 'de-x', instance, island, member (both 1-based) -> 1 x dims */
void mode_de_x(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), &kind_de);
    DeState *d = e->state;
    uint32_t p = (uint32_t)int_scalar(arg(nrhs, prhs, 2, "island"), "island (1-based)", 1, d->islands);
    uint32_t m = (uint32_t)int_scalar(arg(nrhs, prhs, 3, "member"), "member (1-based)", 1, d->members);
    plhs[0] = de_row(e, "metaopt_de_x", metaopt_de_x(d->de, p - 1, m - 1));
}

/* 'de-func-data', instance, data (numeric array: its raw bytes, e.g. 1.5 for one double under
 * opts.double, single(1.5) for one float; [] empties it) */
void mode_de_func_data(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)plhs, (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), &kind_de);
    DeState *d = e->state;
    size_t bytes;
    const void *data = data_bytes(arg(nrhs, prhs, 2, "data"), "data", &bytes);
    /* it evaluates the populations again (with a device objective: no m-function runs) */
    call_begin(e, NULL);
    MetaoptInt32Result r = metaopt_de_func_data(d->de, bytes ? data : NULL, bytes);
    call_end(e);
    check_call(e, "metaopt_de_func_data", r);
}

static mxArray *de_info(Entry *e) {
    DeState *d = e->state;
    return string_result("metaopt_de_info", metaopt_de_info(d->de));
}

const EntryKind kind_de = {KIND_DE, "differential evolution (island DE)", sizeof(DeState), de_release, de_info};
