/*
 * mex_hc12.c: the general HC12 modes of the metaopt MEX gateway (thesis Table 1): 'params' in
 * its HC12 form (params:noR[,binary][,double]), 'run' (run:taboo,consts_reload) and
 * 'set-tabu-list' on an HC12 instance, func-data, func-data-clean, kernel-verbose, profiler-on,
 * profiler-output, and the HC12 instance kind ('info', 'free'). 'params', 'run' and
 * 'set-tabu-list' are dispatched to hc12_params, hc12_run and hc12_set_tabu_list by mex_main.c.
 *
 * 'params' only keeps the settings: the library instance is made by the first 'run', when the
 * objective (funName) is known, and made again when the objective changes (or with
 * consts_reload); the settings of set-tabu-list, kernel-verbose, profiler-on and func-data are
 * kept here and applied to every instance made (hc12_apply_settings).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mex_internal.h"

/* A general HC12 instance's state (Entry.state): the settings of `params`, the library
 * instance made by `run` for the objective it was made for, and the settings that carry over
 * to a remade instance. */
typedef struct {
    MetaoptHc12Instance *hc12;
    uint32_t n_param, n_bits_len, n_dod_len, mask_order;
    uint32_t *n_bits;
    double *dod;
    int32_t start_bit, bit_length, domain;
    int precision;          /* asked for: PRECISION_AUTO (the library's choice), _SINGLE, _DOUBLE */
    char *objective_key;    /* the funName the instance was made for ("<...>": an m-function) */
    uint32_t tabu_length;   /* 0: none */
    MetaoptTabuOptions tabu;
    int verbose, profiler;
    char *func_data_name;   /* func-data: the bytes and the function they are for */
    void *func_data;
    size_t func_data_bytes;
} Hc12State;

/* Frees the library instance (the settings stay: the next `run` makes it again). */
static void hc12_release_instance(Hc12State *h) {
    if (h->hc12)
        metaopt_hc12_free(h->hc12);
    h->hc12 = NULL;
    free(h->objective_key);
    h->objective_key = NULL;
}

static void hc12_release(void *state) {
    Hc12State *h = state;
    hc12_release_instance(h);
    free(h->n_bits);
    free(h->dod);
    free(h->func_data_name);
    free(h->func_data);
}

/* 'params' / 'params:noR[,binary][,double|,single]', nParam, nBitParam, dodParam,
 * [maskOrder=2, startBit=0, bitLength=0]; without double or single: double where the device
 * has it (README.md, "Precision") */
void hc12_params(mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    static const char *known[] = {"noR", "binary", "double", "single", NULL};
    check_options(options, known);
    if (has_option(options, "double") && has_option(options, "single"))
        fail("badOption", "give one of the options double and single");
    uint32_t n = (uint32_t)int_scalar(arg(nrhs, prhs, 1, "nParam"), "nParam", 1, 1e7);
    size_t nb, nd;
    double *bits = real_vector(arg(nrhs, prhs, 2, "nBitParam"), "nBitParam", &nb, 1);
    const mxArray *dod_a = arg(nrhs, prhs, 3, "dodParam");
    if (not_real_numeric(dod_a) || mxGetNumberOfDimensions(dod_a) != 2)
        fail("badArgument", "dodParam must be a real [a b] pair or an nParam x 2 matrix of [a b] rows, got %s%s",
             array_kind(dod_a), PARAMS_FORMS);
    size_t rows = mxGetM(dod_a), cols = mxGetN(dod_a);
    nd = rows * cols;
    if (!((rows == 1 && cols == 2) || (rows == 2 && cols == 1) || (rows == n && cols == 2)))
        fail("badArgument", "dodParam must be [a b] or an nParam x 2 matrix (nParam = %u), got %zu x %zu%s", n, rows,
             cols, PARAMS_FORMS);
    if (nb != 1 && nb != n)
        fail("badArgument", "nBitParam must hold 1 or nParam = %u values, got %zu", n, nb);
    uint32_t mask = given(nrhs, prhs, 4) ? (uint32_t)int_scalar(prhs[4], "maskOrder", 1, 3) : 2;
    int32_t start_bit = given(nrhs, prhs, 5) ? (int32_t)int_scalar(prhs[5], "startBit", 0, 2147483647.0) : 0;
    int32_t bit_length = given(nrhs, prhs, 6) ? (int32_t)int_scalar(prhs[6], "bitLength", 0, 2147483647.0) : 0;
    if (nrhs > 7)
        fail("tooManyArguments", "HC12 params takes nParam, nBitParam, dodParam, maskOrder, startBit, bitLength");
    uint32_t *nbits = malloc(nb * sizeof *nbits);
    double *dod = malloc(nd * sizeof *dod);
    if (!nbits || !dod) {
        free(nbits);
        free(dod);
        fail("outOfMemory", "cannot allocate the parameters");
    }
    for (size_t i = 0; i < nb; ++i) {
        if (bits[i] != floor(bits[i]) || bits[i] < 1 || bits[i] > 32) {
            free(nbits);
            free(dod);
            fail("badArgument", "nBitParam(%zu) must be an integer in 1..32, got %g", i + 1, bits[i]);
        }
        nbits[i] = (uint32_t)bits[i];
    }
    /* the library takes the pairs a, b consecutively: row p of an nParam x 2 matrix */
    for (size_t p = 0; p < nd / 2; ++p) {
        double a = rows == 2 && cols == 1 ? elem(dod_a, 0) : elem(dod_a, p);
        double b = rows == 2 && cols == 1 ? elem(dod_a, 1) : elem(dod_a, p + rows);
        if (!isfinite(a) || !isfinite(b) || !(a < b)) {
            free(nbits);
            free(dod);
            fail("badArgument", "dodParam row %zu is [%g %g]; expected finite a < b", p + 1, a, b);
        }
        dod[2 * p] = a;
        dod[2 * p + 1] = b;
    }
    Hc12State *h = entry_new(&kind_hc12, &plhs[0])->state;
    h->n_param = n;
    h->n_bits = nbits;
    h->n_bits_len = (uint32_t)nb;
    h->dod = dod;
    h->n_dod_len = (uint32_t)nd;
    h->mask_order = mask;
    h->start_bit = start_bit;
    h->bit_length = bit_length;
    /* noR: no real matrix R; the objective reads the integers I, or with `binary` the bits B */
    h->domain = has_option(options, "binary") ? METAOPT_DOMAIN_BINARY
                : has_option(options, "noR")  ? METAOPT_DOMAIN_INTEGER
                                              : METAOPT_DOMAIN_REAL;
    h->precision = has_option(options, "double")   ? PRECISION_DOUBLE
                   : has_option(options, "single") ? PRECISION_SINGLE
                                                   : PRECISION_AUTO;
    h->tabu = metaopt_tabu_default_options();
}

/* Checks the result of a call that sets up the library instance of `h`: on failure the instance
 * is released (the next `run` makes it again from the stored settings, so it is never left
 * half set up) and the error raised. */
static void hc12_check(Hc12State *h, const char *call, MetaoptInt32Result r) {
    if (r.error_code != METAOPT_OK) {
        hc12_release_instance(h);
        fail_library(call, r.error_code, r.error_message);
    }
}

/* Applies the stored settings to a newly made instance. */
static void hc12_apply_settings(Hc12State *h) {
    if (h->tabu_length) {
        hc12_check(h, "metaopt_hc12_init_tabu_list", metaopt_hc12_init_tabu_list(h->hc12, h->tabu_length));
        hc12_check(h, "metaopt_hc12_set_tabu_options", metaopt_hc12_set_tabu_options(h->hc12, &h->tabu));
    }
    if (h->verbose)
        hc12_check(h, "metaopt_hc12_kernel_verbose", metaopt_hc12_kernel_verbose(h->hc12, 1));
    if (h->profiler)
        hc12_check(h, "metaopt_hc12_profiler_on", metaopt_hc12_profiler_on(h->hc12));
    if (h->func_data && h->objective_key && strcmp(h->objective_key, h->func_data_name) == 0)
        hc12_check(h, "metaopt_hc12_func_data", metaopt_hc12_func_data(h->hc12, h->func_data, h->func_data_bytes));
}

/* Makes the library instance for objective `fun` unless the one there was made for it.
 * `fun` is a function handle or an m-function name (host callback), '@NAME' (a catalogue
 * function, computed on the device) or '@FILE.cl' (OpenCL C source read from FILE.cl). */
static void hc12_ensure_instance(Entry *e, const mxArray *fun, int reload) {
    Hc12State *h = e->state;
    char key[4096];
    int callback = mxIsFunctionHandle(fun);
    if (callback) {
        snprintf(key, sizeof key, "<function handle>");
    } else {
        char *name = string_arg(fun, "funName");
        if (!name[0])
            fail("badArgument", "funName is empty");
        snprintf(key, sizeof key, "%s", name);
        callback = name[0] != '@';
        if (callback)
            snprintf(key, sizeof key, "<m-function>");
    }
    if (h->hc12 && h->objective_key && strcmp(h->objective_key, key) == 0 && !reload)
        return;
    hc12_release_instance(h);
    MetaoptObjective o;
    memset(&o, 0, sizeof o);
    char label[512];
    char *source = NULL;
    if (callback) {
        o.kind = METAOPT_OBJECTIVE_HOST_CALLBACK;
        o.callback = mex_objective;
        o.user_data = e;
        o.function_name = "m-function";
    } else {
        const char *name = key + 1;
        size_t len = strlen(name);
        if (len > 3 && strcmp(name + len - 3, ".cl") == 0) {
            source = read_file(name);
            o.kind = METAOPT_OBJECTIVE_SOURCE;
            o.source = source;
            snprintf(label, sizeof label, "%s", name);
            o.function_name = label;
        } else {
            o.kind = METAOPT_OBJECTIVE_CATALOGUE;
            o.function_name = name;
        }
    }
    /* the library resolves an automatic precision on the device it makes the instance on, and
     * run reports the one used */
    MetaoptHc12ParamsResult r =
        metaopt_hc12_params_precision(h->n_param, h->n_bits, h->n_bits_len, h->dod, h->n_dod_len, h->mask_order,
                                      h->start_bit, h->bit_length, h->domain, resolve_precision(h->precision), &o);
    if (source)
        mxFree(source);
    if (r.error_code != METAOPT_OK)
        fail_library("metaopt_hc12_params_precision", r.error_code, r.error_message);
    h->hc12 = r.instance;
    h->objective_key = malloc(strlen(key) + 1);
    if (!h->objective_key) {
        hc12_release_instance(h);
        fail("outOfMemory", "cannot allocate the objective's name");
    }
    strcpy(h->objective_key, key);
    hc12_apply_settings(h);
}

/* One metaopt_hc12_run (run_cancellable's body: no mx call). */
typedef struct {
    MetaoptHc12Instance *hc12;
    const MetaoptHc12RunOptions *o;
    MetaoptHc12RunResult r;
} Hc12RunCall;

static void hc12_run_body(void *arg) {
    Hc12RunCall *c = arg;
    c->r = metaopt_hc12_run(c->hc12, c->o);
}

/* 'run' / 'run:taboo,consts_reload', instance, mCode, nRuns, startSeed, funName, funOpt,
 * [activationLimit, limitRows], then name/value options 'seed', 'maxIterations', 'aspiration',
 * 'tabuIterations', 'noImprove', 'timeLimit' (seconds, checked before every climb step),
 * 'checkpoint' (a file the runs write their state to, between runs, when the call ends and
 * every 'checkpointEvery' seconds), 'checkpointEvery', 'resume' (a checkpoint file's path, or
 * the uint8 vector of 'hc12-save-state': the runs continue it)
 * -> [value, x, result]. Ctrl-C stops it (mex_cancel.c):
 * `metaopt:interrupted` with the best so far in the message; stopped by a request from
 * elsewhere, result.stopReason is 'interrupted'. */
void hc12_run(Entry *e, int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    Hc12State *h = e->state;
    static const char *known[] = {"taboo", "consts_reload", NULL};
    check_options(options, known);
    if (nlhs > 3)
        fail("tooManyOutputs", "HC12 run returns [value, x, result]");
    MetaoptHc12RunOptions o = metaopt_hc12_default_run_options();
    char *code = string_arg(arg(nrhs, prhs, 2, "mCode"), "mCode");
    if (strcmp(code, "GC") == 0)
        o.coding = METAOPT_CODING_GRAY;
    else if (strcmp(code, "BC") == 0)
        o.coding = METAOPT_CODING_BINARY;
    else if (strcmp(code, "GCi") == 0)
        fail("unsupported", "mCode 'GCi': the thesis (000, Table 1) lists this coding but does not define it, so the "
                            "library does not implement a guess; use 'GC' (Gray code per parameter) or 'BC' (plain binary)");
    else
        fail("badArgument", "mCode must be 'GC' or 'BC', got '%s'", code);
    o.runs = (uint32_t)int_scalar(arg(nrhs, prhs, 3, "nRuns"), "nRuns", 1, 4294967295.0);
    const mxArray *start = arg(nrhs, prhs, 4, "startSeed");
    double *vec = NULL;
    if (mxIsChar(start)) {
        char *s = string_arg(start, "startSeed");
        if (strcmp(s, "bit-zeros") == 0)
            o.start = METAOPT_HC12_START_ZEROS;
        else if (strcmp(s, "random") == 0)
            o.start = METAOPT_HC12_START_RANDOM;
        else
            fail("badArgument", "startSeed must be a vector of nParam reals, 'bit-zeros', 'random' or [], got '%s'", s);
    } else if (!mxIsEmpty(start)) {
        size_t len;
        vec = real_vector(start, "startSeed", &len, 1);
        if (len != h->n_param)
            fail("badArgument", "startSeed must hold nParam = %u values, got %zu", h->n_param, len);
        o.start = METAOPT_HC12_START_VECTOR;
        o.start_vector = vec;
    }
    const mxArray *fun = arg(nrhs, prhs, 5, "funName");
    if (!mxIsChar(fun) && !mxIsFunctionHandle(fun))
        fail("badArgument", "funName must be a function handle, an m-function name, '@CATALOGUE' or '@FILE.cl'");
    char *sense = string_arg(arg(nrhs, prhs, 6, "funOpt"), "funOpt");
    if (strcmp(sense, "min") == 0)
        o.sense = METAOPT_SENSE_MIN;
    else if (strcmp(sense, "max") == 0)
        o.sense = METAOPT_SENSE_MAX;
    else
        fail("badArgument", "funOpt must be 'min' or 'max', got '%s'", sense);
    int i = 7;
    MetaoptTabuOptions tabu = h->tabu;
    uint32_t limit_rows = 0;
    const mxArray *resume = NULL;
    if (i < nrhs && !mxIsChar(prhs[i])) {
        if (!mxIsEmpty(prhs[i])) {
            double a = real_scalar(prhs[i], "activationLimit");
            tabu.has_activation_limit = isfinite(a) && fabs(a) < 3.0e38 ? 1 : 0;
            tabu.activation_limit = a;
        }
        ++i;
        if (i < nrhs && !mxIsChar(prhs[i])) {
            if (!mxIsEmpty(prhs[i]))
                limit_rows = (uint32_t)int_scalar(prhs[i], "limitRows", 1, TABU_MAX_LENGTH);
            ++i;
        }
    }
    for (; i < nrhs; i += 2) {
        char *given_name = string_arg(prhs[i], "option name"), name[64];
        if (i + 1 >= nrhs)
            fail("badArgument", "option '%s' has no value", given_name);
        canonical_option(given_name, name, sizeof name);
        const mxArray *v = prhs[i + 1];
        if (strcmp(name, "seed") == 0)
            o.seed = (uint64_t)int_scalar(v, "seed", 0, 9007199254740992.0);
        else if (strcmp(name, "maxIterations") == 0)
            o.max_iterations = (uint32_t)int_scalar(v, "maxIterations", 1, 4294967295.0);
        else if (strcmp(name, "aspiration") == 0)
            tabu.aspiration = (uint8_t)flag_arg(v, "aspiration");
        else if (strcmp(name, "tabuIterations") == 0)
            tabu.max_iterations = (uint32_t)int_scalar(v, "tabuIterations", 1, 4294967295.0);
        else if (strcmp(name, "noImprove") == 0)
            tabu.max_no_improve = (uint32_t)int_scalar(v, "noImprove", 1, 4294967295.0);
        else if (strcmp(name, "timeLimit") == 0)
            o.time_limit_s = real_scalar(v, "timeLimit");
        else if (strcmp(name, "checkpoint") == 0)
            o.checkpoint_path = string_arg(v, "checkpoint");
        else if (strcmp(name, "checkpointEvery") == 0)
            o.checkpoint_every_s = real_scalar(v, "checkpointEvery");
        else if (strcmp(name, "resume") == 0)
            resume = v;
        else
            fail("badOption",
                 "unknown option '%s' (seed, maxIterations, aspiration, tabuIterations, noImprove, timeLimit, "
                 "checkpoint, checkpointEvery, resume)",
                 given_name);
    }
    if (o.checkpoint_every_s != 0 && !o.checkpoint_path)
        fail("badArgument", "checkpointEvery needs checkpoint");
    if (!(o.checkpoint_every_s >= 0))
        fail("badArgument", "checkpointEvery must be positive, got %g", o.checkpoint_every_s);
    size_t resume_len = 0;
    uint8_t *resume_bytes = resume ? state_bytes(resume, "resume", &resume_len) : NULL;
    hc12_ensure_instance(e, fun, has_option(options, "consts_reload"));
    if (has_option(options, "taboo")) {
        /* limitRows, else the list there, else the thesis's default of 100 strings; kept only
         * once the instance has taken it */
        uint32_t length = limit_rows ? limit_rows : h->tabu_length ? h->tabu_length : 100;
        hc12_check(h, "metaopt_hc12_init_tabu_list", metaopt_hc12_init_tabu_list(h->hc12, length));
        hc12_check(h, "metaopt_hc12_set_tabu_options", metaopt_hc12_set_tabu_options(h->hc12, &tabu));
        h->tabu_length = length;
        h->tabu = tabu;
        o.taboo = 1;
    }
    if (resume_bytes)
        hc12_check(h, "metaopt_hc12_load_state", metaopt_hc12_load_state(h->hc12, resume_bytes, resume_len));
    /* an m-function objective runs on this thread (it sees Ctrl-C itself); else a worker */
    int callback = h->objective_key && h->objective_key[0] == '<';
    MetaoptStopToken *token = callback ? NULL : cancel_token();
    o.stop_token = token;
    Hc12RunCall c = {.hc12 = h->hc12, .o = &o};
    call_begin(e, fun);
    int user = run_cancellable(callback, hc12_run_body, &c, token);
    call_end(e);
    metaopt_stop_token_free(token);
    MetaoptHc12RunResult r = c.r;
    int outcome = cancel_outcome(user, &r.error_code, &r.error_message);
    if (outcome == CANCEL_USER) {
        char best[128];
        snprintf(best, sizeof best, "%.10g after %u runs", r.value, r.runs);
        metaopt_hc12_free_run_result(&r);
        fail_interrupted(best);
    }
    CHECK_RESULT(e, "metaopt_hc12_run", r, metaopt_hc12_free_run_result);
    plhs[0] = mxCreateDoubleScalar(r.value);
    if (nlhs > 1) {
        if (h->domain == METAOPT_DOMAIN_REAL) {
            plhs[1] = row_double(r.reals, r.nParam);
        } else {
            plhs[1] = mxCreateDoubleMatrix(1, r.nParam, mxREAL);
            for (uint32_t j = 0; j < r.nParam; ++j)
                ((double *)mxGetData(plhs[1]))[j] = r.integers[j];
        }
    }
    if (nlhs > 2) {
        mxArray *s = empty_struct();
        set_num(s, "value", r.value);
        set_field(s, "string", row_u32(r.string, r.nParam));
        set_field(s, "integers", row_u32(r.integers, r.nParam));
        set_field(s, "reals", row_double(r.reals, r.nParam));
        set_num(s, "iterations", r.iterations);
        set_num(s, "evaluations", (double)r.evaluations);
        set_num(s, "seconds", r.seconds);
        set_field(s, "runValues", row_double(r.run_values, r.runs));
        mxArray *it = mxCreateDoubleMatrix(1, r.runs, mxREAL);
        for (uint32_t j = 0; j < r.runs; ++j)
            ((double *)mxGetData(it))[j] = r.run_iterations[j];
        set_field(s, "runIterations", it);
        set_num(s, "objectiveCalls", e->fun_calls);
        set_field(s, "precision", mxCreateString(precision_name(r.precision)));
        set_field(s, "stopReason", mxCreateString(stop_reason_name(r.stop_reason)));
        plhs[2] = s;
    }
    metaopt_hc12_free_run_result(&r);
    if (outcome == CANCEL_STOPPED)
        warn_stopped();
}

/* 'func-data', instance, funcName ('@FILE.cl' as given to run), data (numeric array: its raw
 * bytes, e.g. single(10) for one float) */
void mode_func_data(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)plhs, (void)options;
    Hc12State *h = entry_get(arg(nrhs, prhs, 1, "instance"), &kind_hc12)->state;
    char *name = string_arg(arg(nrhs, prhs, 2, "funcName"), "funcName");
    size_t bytes;
    const void *data = data_bytes(arg(nrhs, prhs, 3, "data"), "data", &bytes);
    if (name[0] != '@' || strlen(name) < 5 || strcmp(name + strlen(name) - 3, ".cl") != 0)
        fail("badArgument", "funcName must name an OpenCL C objective as 'run' does ('@FILE.cl'), got '%s'", name);
    void *copy = malloc(bytes ? bytes : 1);
    char *name_copy = malloc(strlen(name) + 1);
    if (!copy || !name_copy) {
        free(copy);
        free(name_copy);
        fail("outOfMemory", "cannot copy the data");
    }
    if (bytes)
        memcpy(copy, data, bytes);
    strcpy(name_copy, name);
    free(h->func_data);
    free(h->func_data_name);
    h->func_data = copy;
    h->func_data_bytes = bytes;
    h->func_data_name = name_copy;
    if (h->hc12 && h->objective_key && strcmp(h->objective_key, name) == 0)
        hc12_check(h, "metaopt_hc12_func_data", metaopt_hc12_func_data(h->hc12, copy, bytes));
}

/* 'func-data-clean', instance, funcName */
void mode_func_data_clean(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)plhs, (void)options;
    Hc12State *h = entry_get(arg(nrhs, prhs, 1, "instance"), &kind_hc12)->state;
    char *name = string_arg(arg(nrhs, prhs, 2, "funcName"), "funcName");
    if (!h->func_data_name || strcmp(h->func_data_name, name) != 0)
        fail("badArgument", "no func-data is set for '%s'", name);
    free(h->func_data);
    free(h->func_data_name);
    h->func_data = NULL;
    h->func_data_name = NULL;
    h->func_data_bytes = 0;
    if (h->hc12 && h->objective_key && strcmp(h->objective_key, name) == 0)
        hc12_check(h, "metaopt_hc12_func_data_clean", metaopt_hc12_func_data_clean(h->hc12));
}

void mode_kernel_verbose(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)plhs, (void)options;
    Hc12State *h = entry_get(arg(nrhs, prhs, 1, "instance"), &kind_hc12)->state;
    h->verbose = flag_arg(arg(nrhs, prhs, 2, "verbose"), "verbose");
    if (h->hc12)
        hc12_check(h, "metaopt_hc12_kernel_verbose", metaopt_hc12_kernel_verbose(h->hc12, (uint8_t)h->verbose));
}

void mode_profiler_on(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)plhs, (void)options;
    Hc12State *h = entry_get(arg(nrhs, prhs, 1, "instance"), &kind_hc12)->state;
    h->profiler = 1;
    if (h->hc12)
        hc12_check(h, "metaopt_hc12_profiler_on", metaopt_hc12_profiler_on(h->hc12));
}

void mode_profiler_output(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    Hc12State *h = entry_get(arg(nrhs, prhs, 1, "instance"), &kind_hc12)->state;
    if (!h->profiler)
        fail("badArgument", "the profiler is off: call 'profiler-on' first");
    plhs[0] = h->hc12 ? string_result("metaopt_hc12_profiler_output", metaopt_hc12_profiler_output(h->hc12))
                      : mxCreateString("");
}

/* 'hc12-save-state', instance -> uint8 column vector: the whole state of the instance's last
 * 'run' (metaopt_hc12_save_state), for the 'resume' option of a later 'run'. */
void mode_hc12_save_state(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    Hc12State *h = entry_get(arg(nrhs, prhs, 1, "instance"), &kind_hc12)->state;
    if (!h->hc12)
        fail("badArgument", "no run has been made on this instance: nothing to save");
    MetaoptBytesResult r = metaopt_hc12_save_state(h->hc12);
    CHECK_RESULT(NULL, "metaopt_hc12_save_state", r, metaopt_bytes_free_result);
    plhs[0] = bytes_column(r.data, r.length);
    metaopt_bytes_free_result(&r);
}

static mxArray *hc12_info(Entry *e) {
    Hc12State *h = e->state;
    if (h->hc12)
        return string_result("metaopt_hc12_info", metaopt_hc12_info(h->hc12));
    char text[512];
    snprintf(text, sizeof text,
             "general HC12 instance, %u parameters; the objective is given to the first 'run', which "
             "makes the device instance\n",
             h->n_param);
    return mxCreateString(text);
}

/* 'set-tabu-list', instance, maxLength (checked by the caller) */
void hc12_set_tabu_list(Entry *e, uint32_t length) {
    Hc12State *h = e->state;
    h->tabu_length = length;
    if (h->hc12) {
        /* as a remade instance would have it (hc12_apply_settings) */
        hc12_check(h, "metaopt_hc12_init_tabu_list", metaopt_hc12_init_tabu_list(h->hc12, length));
        if (length)
            hc12_check(h, "metaopt_hc12_set_tabu_options", metaopt_hc12_set_tabu_options(h->hc12, &h->tabu));
    }
}

const EntryKind kind_hc12 = {KIND_HC12, "general HC12", sizeof(Hc12State), hc12_release, hc12_info};
