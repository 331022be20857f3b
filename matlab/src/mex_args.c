/*
 * mex_args.c: the helpers every mode of the metaopt MEX gateway uses (declared in
 * mex_internal.h): raising errors (`metaopt:<id>` prefixed with the mode, and the library's
 * errors by their codes), reading and validating arguments (real scalars and vectors, strings,
 * flags, raw bytes, `mode:options`, opts structs) and building results (rows, structs, text).
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mex_internal.h"

/* ---------------------------------------------------------------------------------------- */
/* errors                                                                                   */

/* The mode string of the MEX call running now (a nested call, made by an m-function objective,
 * sets its own; mex_objective puts the outer call's back). */
const char *g_mode = "";

/* Raises a MATLAB error `metaopt:<id>` prefixed with the mode; never returns. */
void fail(const char *id, const char *fmt, ...) {
    char msg[2048];
    char full[2200];
    char ident[96];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(full, sizeof full, "mode '%s': %s", g_mode, msg);
    snprintf(ident, sizeof ident, "metaopt:%s", id);
    mexErrMsgIdAndTxt(ident, "%s", full);
}

static const char *code_name(int32_t code) {
    switch (code) {
    case METAOPT_ERR_INVALID_ARGUMENT: return "invalidArgument";
    case METAOPT_ERR_NULL_POINTER: return "nullPointer";
    case METAOPT_ERR_UNSUPPORTED_TYPE: return "unsupportedType";
    case METAOPT_ERR_OPENCL: return "openCL";
    case METAOPT_ERR_NO_DEVICE: return "noDevice";
    case METAOPT_ERR_KERNEL_BUILD: return "kernelBuild";
    case METAOPT_ERR_OUT_OF_DEVICE_MEMORY: return "outOfDeviceMemory";
    case METAOPT_ERR_UNSUPPORTED: return "unsupported";
    case METAOPT_ERR_IO: return "io";
    case METAOPT_ERR_PARSE: return "parse";
    case METAOPT_ERR_PANIC: return "internal";
    case METAOPT_ERR_INVALID_MEM_SPACE: return "invalidMemSpace";
    case METAOPT_ERR_CALLBACK: return "callback";
    case METAOPT_ERR_BUSY: return "busy";
    case METAOPT_INTERRUPTED: return "interrupted";
    case METAOPT_ERR_TIME_LIMIT: return "timeLimit";
    default: return "library";
    }
}

/* Raises a library error (`metaopt:<code>`, the code and the library's message), freeing the
 * message first. Whatever else the failed call returned must be freed before this. */
void fail_library(const char *call, int32_t code, char *message) {
    char msg[4096];
    snprintf(msg, sizeof msg, "%s", message ? message : "(no message)");
    metaopt_pointer_free(message);
    fail(code_name(code), "%s failed: %s (error %d)", call, msg, (int)code);
}

/* Checks an MetaoptInt32Result; returns its value. */
int32_t check_int(const char *call, MetaoptInt32Result r) {
    if (r.error_code != METAOPT_OK)
        fail_library(call, r.error_code, r.error_message);
    return r.result;
}

/* ---------------------------------------------------------------------------------------- */
/* arguments                                                                                */

/* Why `a` is not a real, full numeric or logical array ("a sparse array", ...), or NULL when it
 * is one: the gateway reads such arrays element by element (elem, mxGetData), which a sparse
 * or complex array does not allow. */
const char *not_real_numeric(const mxArray *a) {
    static char what[96];
    if (mxIsSparse(a))
        return "a sparse array (use full(...))";
    if (mxIsComplex(a))
        return "a complex array";
    if (!mxIsNumeric(a) && !mxIsLogical(a)) {
        snprintf(what, sizeof what, "a %s array", mxGetClassName(a));
        return what;
    }
    return NULL;
}

/* What `a` is, for a message: "a 1 x 1 double array", "a sparse array (use full(...))", ... */
const char *array_kind(const mxArray *a) {
    static char what[96];
    const char *why = not_real_numeric(a);
    if (why)
        return why;
    if (mxGetNumberOfDimensions(a) == 2)
        snprintf(what, sizeof what, "a %zu x %zu %s array", (size_t)mxGetM(a), (size_t)mxGetN(a), mxGetClassName(a));
    else
        snprintf(what, sizeof what, "a %zu-dimensional %s array", (size_t)mxGetNumberOfDimensions(a),
                 mxGetClassName(a));
    return what;
}

/* Fails unless `a` is a real, full numeric or logical array; `expected` says what `name` must be. */
void check_real_numeric(const mxArray *a, const char *name, const char *expected) {
    const char *why = not_real_numeric(a);
    if (why)
        fail("badArgument", "%s must be %s, got %s", name, expected, why);
}

/* Element i of a real numeric or logical array as double. */
double elem(const mxArray *a, size_t i) {
    const void *p = mxGetData(a);
    switch (mxGetClassID(a)) {
    case mxDOUBLE_CLASS: return ((const double *)p)[i];
    case mxSINGLE_CLASS: return ((const float *)p)[i];
    case mxINT8_CLASS: return ((const int8_t *)p)[i];
    case mxUINT8_CLASS: return ((const uint8_t *)p)[i];
    case mxINT16_CLASS: return ((const int16_t *)p)[i];
    case mxUINT16_CLASS: return ((const uint16_t *)p)[i];
    case mxINT32_CLASS: return ((const int32_t *)p)[i];
    case mxUINT32_CLASS: return ((const uint32_t *)p)[i];
    case mxINT64_CLASS: return (double)((const int64_t *)p)[i];
    case mxUINT64_CLASS: return (double)((const uint64_t *)p)[i];
    case mxLOGICAL_CLASS: return ((const mxLogical *)p)[i] ? 1.0 : 0.0;
    default: return NAN;
    }
}

const mxArray *arg(int nrhs, const mxArray **prhs, int i, const char *name) {
    if (i >= nrhs)
        fail("missingArgument", "%s is missing (argument %d)", name, i + 1);
    return prhs[i];
}

int given(int nrhs, const mxArray **prhs, int i) {
    return i < nrhs && !mxIsEmpty(prhs[i]);
}

double real_scalar(const mxArray *a, const char *name) {
    check_real_numeric(a, name, "a real scalar");
    if (mxGetNumberOfElements(a) != 1)
        fail("badArgument", "%s must be a real scalar, got %zu values", name, (size_t)mxGetNumberOfElements(a));
    double v = elem(a, 0);
    if (isnan(v))
        fail("badArgument", "%s is NaN", name);
    return v;
}

double int_scalar(const mxArray *a, const char *name, double lo, double hi) {
    double v = real_scalar(a, name);
    if (v != floor(v) || v < lo || v > hi)
        fail("badArgument", "%s must be an integer in %.0f..%.0f, got %g", name, lo, hi, v);
    return v;
}

/* A real vector (any orientation) as an mxMalloc'd double array of `*n` values. */
double *real_vector(const mxArray *a, const char *name, size_t *n, int finite) {
    check_real_numeric(a, name, "a real numeric vector");
    size_t len = mxGetNumberOfElements(a);
    if (mxGetNumberOfDimensions(a) > 2 || (mxGetM(a) != 1 && mxGetN(a) != 1 && len > 0))
        fail("badArgument", "%s must be a vector, got a %zu x %zu matrix", name, (size_t)mxGetM(a), (size_t)mxGetN(a));
    double *v = mxMalloc((len ? len : 1) * sizeof *v);
    for (size_t i = 0; i < len; ++i) {
        v[i] = elem(a, i);
        if (isnan(v[i]) || (finite && isinf(v[i])))
            fail("badArgument", "%s(%zu) is %s", name, i + 1, isnan(v[i]) ? "NaN" : "infinite");
    }
    *n = len;
    return v;
}

/* Where the char array `a` holds its first NUL character (1-based), 0 where none: a C string
 * would end there. */
size_t nul_at(const mxArray *a) {
    const mxChar *c = mxGetChars(a);
    for (size_t i = 0; c && i < mxGetNumberOfElements(a); ++i)
        if (c[i] == 0)
            return i + 1;
    return 0;
}

char *string_arg(const mxArray *a, const char *name) {
    if (!mxIsChar(a) || mxGetNumberOfDimensions(a) != 2 || (mxGetM(a) > 1 && mxGetN(a) > 0))
        fail("badArgument", "%s must be a string (a 1 x n char array)", name);
    if (nul_at(a))
        fail("badArgument", "%s holds a NUL character (at %zu)", name, nul_at(a));
    char *s = mxArrayToString(a);
    if (!s)
        fail("badArgument", "%s must be a string (a 1 x n char array)", name);
    return s;
}

int flag_arg(const mxArray *a, const char *name) {
    double v = real_scalar(a, name);
    if (v != 0 && v != 1)
        fail("badArgument", "%s must be true or false (1 or 0), got %g", name, v);
    return v != 0;
}

/* A run's state (a checkpoint): the uint8 vector a '*-save-state' mode returned, or the path of
 * a checkpoint file, read whole (mxMalloc'ed: freed with the call). */
uint8_t *state_bytes(const mxArray *a, const char *name, size_t *len) {
    if (mxIsChar(a))
        return read_bytes(string_arg(a, name), name, len);
    if (mxGetClassID(a) != mxUINT8_CLASS || mxIsComplex(a) || mxIsSparse(a))
        fail("badArgument", "%s must be a checkpoint file's path or the uint8 vector of a state", name);
    *len = mxGetNumberOfElements(a);
    return (uint8_t *)mxGetData(a);
}

/* opts.checkpoint (a file the run writes its state to; empty: none) and opts.checkpointEvery
 * (seconds) of an iterative mode, into its C options; the library checks both. */
void checkpoint_opts(const mxArray *s, const char **path, double *every_s) {
    const mxArray *v;
    if ((v = opt(s, "checkpoint")) && !mxIsEmpty(v))
        *path = string_arg(v, "opts.checkpoint");
    if ((v = opt(s, "checkpointEvery")))
        *every_s = real_scalar(v, "opts.checkpointEvery");
}

/* A uint8 column vector holding the n bytes at p (a run's state). */
mxArray *bytes_column(const uint8_t *p, size_t n) {
    mxArray *out = mxCreateNumericMatrix(n, 1, mxUINT8_CLASS, mxREAL);
    if (n)
        memcpy(mxGetData(out), p, n);
    return out;
}

/* The bytes of a real numeric array, passed as they are (func-data, de-func-data). */
const void *data_bytes(const mxArray *a, const char *name, size_t *bytes) {
    check_real_numeric(a, name, "a real numeric array (its bytes are passed as they are)");
    if (mxIsLogical(a))
        fail("badArgument", "%s must be a real numeric array (its bytes are passed as they are), got a logical array", name);
    *bytes = mxGetNumberOfElements(a) * mxGetElementSize(a);
    return mxGetData(a);
}

/* Whether the comma/semicolon/bar separated `options` holds `word`. */
int has_option(const char *options, const char *word) {
    size_t n = strlen(word);
    for (const char *p = options; p && *p;) {
        size_t len = strcspn(p, ",;|");
        if (len == n && strncmp(p, word, n) == 0)
            return 1;
        p += len;
        if (*p)
            ++p;
    }
    return 0;
}

/* Fails for an option of `options` not among the NULL-terminated `known`. */
void check_options(const char *options, const char *const *known) {
    for (const char *p = options; p && *p;) {
        size_t len = strcspn(p, ",;|");
        int ok = len == 0;
        for (const char *const *k = known; *k && !ok; ++k)
            ok = strlen(*k) == len && strncmp(p, *k, len) == 0;
        if (!ok)
            fail("badOption", "unknown option `%.*s`", (int)len, p);
        p += len;
        if (*p)
            ++p;
    }
}

/* ---------------------------------------------------------------------------------------- */
/* option names: one style (lowerCamelCase), one alias table                                */

/* The one alias table of the gateway (README.md, "Option names"): names that the snake_case
 * rule of canonical_option does not turn into their lowerCamelCase name, the thesis's and
 * earlier releases' among them. Every opts struct and name/value option of every mode, and the
 * .m wrappers and classes (through the 'options' mode), read names through it. */
static const struct {
    const char *alias, *name;
} OPTION_ALIASES[] = {
    {"CR", "cr"},                       /* thesis Table 3 */
    {"CR_coef_const", "cr"},            /* thesis Table 3: the constant CR */
    {"crCoefConst", "cr"},
    {"generations", "maxGenerations"},  /* de-run's stop conditions before lowerCamelCase */
    {"evaluations", "maxEvaluations"},
    {"max_no_improve", "noImprove"},    /* the library's stop vocabulary (HC12 run) */
    {"maxNoImprove", "noImprove"},
    {"tabu_iterations", "tabuIterations"},
    {"time_limit_s", "timeLimit"},      /* the C ABI's field name */
};

/* The lowerCamelCase name of the option `name` into out (cap bytes): its entry in
 * OPTION_ALIASES, else, for a snake_case name, its words joined with the first lower-cased and
 * the others capitalised (`time_limit` -> `timeLimit`, `F_coefs_min` -> `fCoefsMin`,
 * `init_rng_seed` -> `initRngSeed`), else the name itself. */
const char *canonical_option(const char *name, char *out, size_t cap) {
    for (size_t i = 0; i < sizeof OPTION_ALIASES / sizeof OPTION_ALIASES[0]; ++i)
        if (strcmp(name, OPTION_ALIASES[i].alias) == 0) {
            snprintf(out, cap, "%s", OPTION_ALIASES[i].name);
            return out;
        }
    if (!strchr(name, '_')) {
        snprintf(out, cap, "%s", name);
        return out;
    }
    size_t n = 0;
    int word = 0, start = 1;
    for (const char *p = name; *p && n + 1 < cap; ++p) {
        if (*p == '_') {
            start = 1;
            continue;
        }
        if (start && n > 0)
            ++word;
        char c = *p;
        if (word == 0)
            c = (char)tolower((unsigned char)c);
        else if (start)
            c = (char)toupper((unsigned char)c);
        out[n++] = c;
        start = 0;
    }
    out[n] = '\0';
    /* a name of underscores alone stays itself (and is unknown wherever it is read) */
    if (n == 0)
        snprintf(out, cap, "%s", name);
    return out;
}

/* Whether `name` is among the NULL-terminated `known`. */
static int known_name(const char *name, const char *const *known) {
    for (const char *const *k = known; *k; ++k)
        if (strcmp(*k, name) == 0)
            return 1;
    return 0;
}

static void fail_unknown(const char *what, const char *name, const char *const *known) {
    char list[768] = "";
    for (const char *const *k = known; *k; ++k)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k == known ? "" : ", ", *k);
    fail("badOption", "unknown field %s.%s (known: %s)", what, name, list);
}

/* The options of `s` (a 1x1 struct) under their lowerCamelCase names: a new struct whose
 * fields are copies of s's, or NULL for NULL. Two fields that name one option (`timeLimit`
 * and `time_limit`) are `metaopt:badOption`; so is a field not among `known` (NULL: any). */
mxArray *canonical_options(const mxArray *s, const char *what, const char *const *known) {
    if (!s)
        return NULL;
    mxArray *out = empty_struct();
    for (int i = 0; i < mxGetNumberOfFields(s); ++i) {
        const char *f = mxGetFieldNameByNumber(s, i);
        char name[64];
        canonical_option(f, name, sizeof name);
        if (known && !known_name(name, known))
            fail_unknown(what, f, known);
        int k = mxGetFieldNumber(out, name);
        if (k >= 0) {
            const char *first = mxGetFieldNameByNumber(s, 0);
            for (int j = 0; j < i; ++j) {
                char other[64];
                if (strcmp(canonical_option(mxGetFieldNameByNumber(s, j), other, sizeof other), name) == 0) {
                    first = mxGetFieldNameByNumber(s, j);
                    break;
                }
            }
            fail("badOption", "%s.%s and %s.%s name the same option (%s); give one", what, first, what, f, name);
        }
        k = mxAddField(out, name);
        const mxArray *v = mxGetFieldByNumber(s, 0, i);
        mxSetFieldByNumber(out, 0, k, v ? mxDuplicateArray(v) : mxCreateDoubleMatrix(0, 0, mxREAL));
    }
    return out;
}

/* ---------------------------------------------------------------------------------------- */
/* opts structs                                                                            */

/* A field of an options struct, or NULL. */
const mxArray *opt(const mxArray *s, const char *name) {
    if (!s)
        return NULL;
    const mxArray *v = mxGetField(s, 0, name);
    return v && !mxIsEmpty(v) ? v : NULL;
}

/* Fails for a field of the 1x1 struct `s` that is not among the NULL-terminated `known`. */
void check_fields(const mxArray *s, const char *what, const char *const *known) {
    if (!s)
        return;
    for (int i = 0; i < mxGetNumberOfFields(s); ++i) {
        const char *f = mxGetFieldNameByNumber(s, i);
        if (!known_name(f, known))
            fail_unknown(what, f, known);
    }
}

const mxArray *options_struct(int nrhs, const mxArray **prhs, int i, const char *const *known) {
    if (!given(nrhs, prhs, i))
        return NULL;
    if (!mxIsStruct(prhs[i]) || mxGetNumberOfElements(prhs[i]) != 1)
        fail("badArgument", "opts must be a 1x1 struct");
    return canonical_options(prhs[i], "opts", known);
}

/* ---------------------------------------------------------------------------------------- */
/* results: mxArray builders                                                               */

mxArray *row_u32(const uint32_t *v, size_t n) {
    mxArray *a = mxCreateNumericMatrix(1, n, mxUINT32_CLASS, mxREAL);
    if (n)
        memcpy(mxGetData(a), v, n * sizeof *v);
    return a;
}

mxArray *row_double(const double *v, size_t n) {
    mxArray *a = mxCreateDoubleMatrix(1, n, mxREAL);
    if (n)
        memcpy(mxGetData(a), v, n * sizeof *v);
    return a;
}

void set_field(mxArray *s, const char *name, mxArray *v) {
    int k = mxGetFieldNumber(s, name);
    if (k < 0)
        k = mxAddField(s, name);
    mxSetFieldByNumber(s, 0, k, v);
}

void set_num(mxArray *s, const char *name, double v) {
    set_field(s, name, mxCreateDoubleScalar(v));
}

mxArray *empty_struct(void) {
    return mxCreateStructMatrix(1, 1, 0, NULL);
}

/* The text of a MetaoptStringResult as a char array, freed (or its error raised). */
mxArray *string_result(const char *call, MetaoptStringResult r) {
    if (r.error_code != METAOPT_OK)
        fail_library(call, r.error_code, r.error_message);
    mxArray *s = mxCreateString(r.text ? r.text : "");
    metaopt_pointer_free(r.text);
    return s;
}
