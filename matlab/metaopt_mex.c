/*
 * metaopt_mex: the MATLAB / GNU Octave gateway of libmetaopt (C MEX API, mex.h).
 *
 *   MATLAB: build_matlab          Octave: build_octave  (`make test-octave` builds it too)
 *
 * built with metaopt_mex_trap.cpp, its one C++ part (see "m-function objectives" below).
 *
 * One function whose first argument is a mode string, as in the thesis's Tables 1 (general
 * HC12) and 2 (HC12 for QAP); modes after a colon take options (`run:taboo,consts_reload`).
 *
 *   devices       get-device, set-device, devices, mem-space-valid
 *   QAP (Tab. 2)  params (swaps, nElements, nBitParam, DF, [nSlices, maskOrder, startBit,
 *                 bitLength]), params-file, set-tabu-list, run (instance, initOrder,
 *                 initKernel), solve, info, free
 *   HC12 (Tab. 1) params / params:noR (nParam, nBitParam, dodParam, [maskOrder, startBit,
 *                 bitLength]), set-tabu-list, run / run:taboo,consts_reload (instance, mCode,
 *                 nRuns, startSeed, funName, funOpt, [activationLimit, limitRows], name/value
 *                 options), func-data, func-data-clean, kernel-verbose, profiler-on,
 *                 profiler-output, info, free
 *   SAT           sat-parse, sat-clauses, sat-evaluate, sat-solve, info, free
 *   island DE     de-params (islands, members, dims, limits, bounds, [opts]), de-init
 *   (5.2.1)       (instance, objective, [mutation, migration, period]), de-iteration, de-run
 *                 (instance, generations, [stop conditions]), de-bests, de-best, de-x,
 *                 de-func-data, info, free
 *
 * `params` makes a QAP instance when it has a fourth argument (DF) that cannot be HC12's
 * maskOrder (a scalar or []) or a third that cannot be HC12's dodParam (2 or 2*nParam values),
 * else a general HC12 instance; with options (`params:noR`) always HC12. The modes that take an
 * instance dispatch on the instance's kind.
 *
 * Instances are uint8 arrays of a fixed layout (struct Token): a magic header, the kind, a
 * slot in this gateway's table and the instance's serial number. No pointer travels through
 * MATLAB: every use checks the size, the magic, the kind and that the slot still holds that
 * serial, so a forged, edited, freed or foreign array is a clear error, never a crash.
 * Clearing the MEX function (or leaving MATLAB) frees every instance still live.
 *
 * m-function objectives: the library calls mex_objective from inside its own (Rust) frames,
 * which no MATLAB/Octave exception may cross, so the callback's MATLAB work runs inside
 * metaopt_mex_protect (metaopt_mex_trap.cpp), and the objective's error, an exception, or the
 * user's Ctrl-C (`metaopt:interrupted`) is raised once the library call has returned. While
 * such a call runs its instance is busy (call_begin / call_end): the objective may call
 * metaopt_mex, but any use of that instance is `metaopt:busy`, and the MEX file stays locked.
 *
 * Adding a solver: a KIND_ value, its fields in struct Entry, its free in entry_release, its
 * modes in the MODES table (e.g. "de-params", "de-run", with their most outputs and
 * arguments), call_begin / call_end around its library calls that may call an m-function,
 * and its branch in mode_info / mode_free where they apply.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mex.h"
#include "metaopt.h"
#include "metaopt_mex_trap.h"

/* ---------------------------------------------------------------------------------------- */
/* errors                                                                                   */

/* The mode string of the MEX call running now (a nested call, made by an m-function objective,
 * sets its own; mex_objective puts the outer call's back). */
static const char *g_mode = "";

/* Raises a MATLAB error `metaopt:<id>` prefixed with the mode; never returns. */
static void fail(const char *id, const char *fmt, ...) {
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
    default: return "library";
    }
}

/* Raises a library error (`metaopt:<code>`, the code and the library's message), freeing the
 * message first. Whatever else the failed call returned must be freed before this. */
static void fail_library(const char *call, int32_t code, char *message) {
    char msg[4096];
    snprintf(msg, sizeof msg, "%s", message ? message : "(no message)");
    metaopt_free_pointer(message);
    fail(code_name(code), "%s failed: %s (error %d)", call, msg, (int)code);
}

/* Checks an Int32Result; returns its value. */
static int32_t check_int(const char *call, Int32Result r) {
    if (r.error_code != METAOPT_OK)
        fail_library(call, r.error_code, r.error_message);
    return r.result;
}

/* ---------------------------------------------------------------------------------------- */
/* arguments                                                                                */

/* Why `a` is not a real, full numeric or logical array ("a sparse array", ...), or NULL when it
 * is one: the gateway reads such arrays element by element (elem, mxGetData), which a sparse
 * or complex array does not allow. */
static const char *not_real_numeric(const mxArray *a) {
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
static const char *array_kind(const mxArray *a) {
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
static void check_real_numeric(const mxArray *a, const char *name, const char *expected) {
    const char *why = not_real_numeric(a);
    if (why)
        fail("badArgument", "%s must be %s, got %s", name, expected, why);
}

/* Element i of a real numeric or logical array as double. */
static double elem(const mxArray *a, size_t i) {
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

static const mxArray *arg(int nrhs, const mxArray **prhs, int i, const char *name) {
    if (i >= nrhs)
        fail("missingArgument", "%s is missing (argument %d)", name, i + 1);
    return prhs[i];
}

static int given(int nrhs, const mxArray **prhs, int i) {
    return i < nrhs && !mxIsEmpty(prhs[i]);
}

static double real_scalar(const mxArray *a, const char *name) {
    check_real_numeric(a, name, "a real scalar");
    if (mxGetNumberOfElements(a) != 1)
        fail("badArgument", "%s must be a real scalar, got %zu values", name, (size_t)mxGetNumberOfElements(a));
    double v = elem(a, 0);
    if (isnan(v))
        fail("badArgument", "%s is NaN", name);
    return v;
}

static double int_scalar(const mxArray *a, const char *name, double lo, double hi) {
    double v = real_scalar(a, name);
    if (v != floor(v) || v < lo || v > hi)
        fail("badArgument", "%s must be an integer in %.0f..%.0f, got %g", name, lo, hi, v);
    return v;
}

/* A real vector (any orientation) as an mxMalloc'd double array of `*n` values. */
static double *real_vector(const mxArray *a, const char *name, size_t *n, int finite) {
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
static size_t nul_at(const mxArray *a) {
    const mxChar *c = mxGetChars(a);
    for (size_t i = 0; c && i < mxGetNumberOfElements(a); ++i)
        if (c[i] == 0)
            return i + 1;
    return 0;
}

static char *string_arg(const mxArray *a, const char *name) {
    if (!mxIsChar(a) || mxGetNumberOfDimensions(a) != 2 || (mxGetM(a) > 1 && mxGetN(a) > 0))
        fail("badArgument", "%s must be a string (a 1 x n char array)", name);
    if (nul_at(a))
        fail("badArgument", "%s holds a NUL character (at %zu)", name, nul_at(a));
    char *s = mxArrayToString(a);
    if (!s)
        fail("badArgument", "%s must be a string (a 1 x n char array)", name);
    return s;
}

static int flag_arg(const mxArray *a, const char *name) {
    double v = real_scalar(a, name);
    if (v != 0 && v != 1)
        fail("badArgument", "%s must be true or false (1 or 0), got %g", name, v);
    return v != 0;
}

/* The bytes of a real numeric array, passed as they are (func-data, de-func-data). */
static const void *data_bytes(const mxArray *a, const char *name, size_t *bytes) {
    check_real_numeric(a, name, "a real numeric array (its bytes are passed as they are)");
    if (mxIsLogical(a))
        fail("badArgument", "%s must be a real numeric array (its bytes are passed as they are), got a logical array", name);
    *bytes = mxGetNumberOfElements(a) * mxGetElementSize(a);
    return mxGetData(a);
}

/* Whether the comma/semicolon/bar separated `options` holds `word`. */
static int has_option(const char *options, const char *word) {
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
static void check_options(const char *options, const char *const *known) {
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
/* instances                                                                                */

enum { KIND_QAP = 1, KIND_HC12 = 2, KIND_SAT = 3, KIND_DE = 4 };

/* The longest tabu list the library takes (its MAX_TABU_LENGTH, 2^24 strings). */
#define TABU_MAX_LENGTH 16777216.0

static const char *kind_name(uint32_t k) {
    switch (k) {
    case KIND_QAP: return "QAP (HC12 qapswap2)";
    case KIND_HC12: return "general HC12";
    case KIND_SAT: return "SAT";
    case KIND_DE: return "differential evolution (island DE)";
    default: return "unknown";
    }
}

/* What MATLAB holds: a uint8 array of exactly this struct. */
typedef struct {
    char magic[8];   /* "metaopt\x01" */
    uint32_t kind;   /* KIND_* */
    uint32_t slot;   /* index in g_entries */
    uint64_t serial; /* the instance's number, never reused while the MEX is loaded */
    uint64_t check;  /* serial ^ kind ^ slot ^ TOKEN_KEY: an edited token is caught */
} Token;

static const char TOKEN_MAGIC[8] = {'m', 'e', 't', 'a', 'o', 'p', 't', 1};
#define TOKEN_KEY 0x9e3779b97f4a7c15ull

typedef struct {
    uint64_t serial; /* 0: the slot is free */
    uint32_t kind;
    /* QAP */
    ParamsInstance *qap;
    uint32_t n, swaps;
    /* SAT */
    SatInstance *sat;
    uint32_t num_vars, num_clauses;
    /* general HC12: the settings of `params`; the library instance is made by the first `run`,
     * when the objective (funName) is known, and made again when the objective changes */
    Hc12Instance *hc12;
    uint32_t n_param, n_bits_len, n_dod_len, mask_order;
    uint32_t *n_bits;
    double *dod;
    int32_t start_bit, bit_length, domain;
    uint8_t double_precision;
    char *objective_key;    /* the funName the instance was made for */
    uint32_t tabu_length;   /* 0: none */
    MetaoptTabuOptions tabu;
    int verbose, profiler;
    char *func_data_name;   /* func-data: the bytes and the function they are for */
    void *func_data;
    size_t func_data_bytes;
    /* island DE: the library instance (made by 'de-params') and its sizes; the m-function
     * objective of the last successful 'de-init' (a persistent copy: the library calls it in
     * later 'de-iteration' and 'de-run' calls), NULL for a device objective */
    DeInstance *de;
    uint32_t de_islands, de_members, de_dims;
    mxArray *de_fun;
    /* the instance's current options (a 'de-init' opts update starts from them) and its
     * per-island CR values (malloc'ed, de_islands values) or NULL */
    MetaoptDeOptions de_opts;
    double *de_cr;
    /* the running library call that may call an m-function objective (call_begin .. call_end):
     * its mode (NULL when none runs: any use of the instance meanwhile, from the objective, is
     * refused), the objective, its calls, and how a failed objective call ended: its error
     * (raised once the library has returned), an exception caught around it (rethrown then, see
     * metaopt_mex_trap.cpp) or an interruption by the user (Ctrl-C) */
    const char *busy;
    const mxArray *fun;
    uint32_t fun_calls;
    mxArray *fun_error;
    void *fun_exception;
    int fun_interrupted;
} Entry;

/* The table of instances: g_capacity pointers, each NULL or an Entry that stays where it is
 * for as long as the MEX file is loaded (a freed slot is reused), because the library keeps
 * an Entry's address as the user data of an m-function objective: growing the table must not
 * move the entries. */
static Entry **g_entries;
static uint32_t g_capacity;
/* Serial numbers start at a value drawn when the MEX file is loaded, so that an instance array
 * kept from before a `clear metaopt_mex` never matches an instance made after it. */
static uint64_t g_first_serial, g_next_serial;
static int g_atexit;
/* Library calls running now (nested through m-function objectives); while any runs the MEX
 * file is locked (mexLock, if the user had not locked it), so that `clear metaopt_mex` from an
 * objective cannot free the instances in use. */
static uint32_t g_running;
static int g_locked;

static void hc12_release(Entry *e) {
    if (e->hc12)
        metaopt_hc12_free(e->hc12);
    e->hc12 = NULL;
    free(e->objective_key);
    e->objective_key = NULL;
}

static void entry_release(Entry *e) {
    if (e->qap)
        metaopt_free_params(e->qap);
    if (e->sat)
        metaopt_sat_free(e->sat);
    if (e->de)
        metaopt_de_free(e->de);
    if (e->de_fun)
        mxDestroyArray(e->de_fun);
    free(e->de_cr);
    hc12_release(e);
    free(e->n_bits);
    free(e->dod);
    free(e->func_data_name);
    free(e->func_data);
    memset(e, 0, sizeof *e);
}

static void free_all(void) {
    for (uint32_t i = 0; i < g_capacity; ++i) {
        if (g_entries[i] && g_entries[i]->serial)
            entry_release(g_entries[i]);
        free(g_entries[i]);
    }
    free(g_entries);
    g_entries = NULL;
    g_capacity = 0;
}

/* A new entry of `kind`; its token is written to *out. */
static Entry *entry_new(uint32_t kind, mxArray **out) {
    if (!g_atexit) {
        mexAtExit(free_all);
        g_atexit = 1;
        g_first_serial = g_next_serial = ((uint64_t)time(NULL) << 20) ^ ((uint64_t)clock() << 40) ^ (uint64_t)(uintptr_t)&g_mode;
        g_first_serial = g_next_serial = (g_next_serial & 0x7fffffffffffffffull) | 1;
    }
    uint32_t slot = 0;
    while (slot < g_capacity && g_entries[slot] && g_entries[slot]->serial)
        ++slot;
    if (slot == g_capacity) {
        uint32_t cap = g_capacity ? 2 * g_capacity : 16;
        Entry **p = realloc(g_entries, cap * sizeof *p);
        if (!p)
            fail("outOfMemory", "cannot grow the instance table");
        memset(p + g_capacity, 0, (cap - g_capacity) * sizeof *p);
        g_entries = p;
        g_capacity = cap;
    }
    if (!g_entries[slot] && !(g_entries[slot] = calloc(1, sizeof(Entry))))
        fail("outOfMemory", "cannot allocate an instance");
    Entry *e = g_entries[slot];
    memset(e, 0, sizeof *e);
    e->serial = g_next_serial++;
    e->kind = kind;
    Token t;
    memcpy(t.magic, TOKEN_MAGIC, sizeof t.magic);
    t.kind = kind;
    t.slot = slot;
    t.serial = e->serial;
    t.check = t.serial ^ t.kind ^ t.slot ^ TOKEN_KEY;
    *out = mxCreateNumericMatrix(1, sizeof t, mxUINT8_CLASS, mxREAL);
    memcpy(mxGetData(*out), &t, sizeof t);
    return e;
}

/* The entry behind an instance array, checked; `kind` 0 accepts every kind. */
static Entry *entry_get(const mxArray *a, uint32_t kind) {
    Token t;
    if (!mxIsUint8(a) || mxIsComplex(a))
        fail("badHandle", "instance must be the uint8 array that 'params' (or 'sat-parse', ...) returned, got a %s array",
             mxGetClassName(a));
    if (mxGetNumberOfElements(a) != sizeof t)
        fail("badHandle", "instance has %zu bytes; an instance has %zu", (size_t)mxGetNumberOfElements(a), sizeof t);
    memcpy(&t, mxGetData(a), sizeof t);
    if (memcmp(t.magic, TOKEN_MAGIC, sizeof t.magic) != 0)
        fail("badHandle", "instance has no metaopt magic header (not an instance, or corrupted)");
    if (t.check != (t.serial ^ t.kind ^ t.slot ^ TOKEN_KEY))
        fail("badHandle", "instance is corrupted (its check word does not match)");
    if (t.slot >= g_capacity || !g_entries[t.slot] || g_entries[t.slot]->serial != t.serial) {
        if (t.serial >= g_first_serial && t.serial < g_next_serial)
            fail("freedHandle", "instance was freed already");
        fail("freedHandle", "instance was not made by this session of the MEX function (it was cleared, or the array is forged)");
    }
    Entry *e = g_entries[t.slot];
    if (t.kind != e->kind)
        fail("badHandle", "instance is forged: it says %s, but instance %u is a %s instance", kind_name(t.kind), t.slot + 1,
             kind_name(e->kind));
    if (kind && e->kind != kind)
        fail("wrongKind", "instance is a %s instance; this mode needs a %s instance", kind_name(e->kind), kind_name(kind));
    if (e->busy)
        fail("busy",
             "instance %u (%s) is in use by the call '%s' still running: its m-function objective cannot use "
             "it (nor free it) until that call returns",
             t.slot + 1, kind_name(e->kind), e->busy);
    return e;
}

/* Marks `e` in use by a library call that may call the m-function objective `fun` (NULL: none).
 * Nothing may raise an error between call_begin and call_end: the library call alone. */
static void call_begin(Entry *e, const mxArray *fun) {
    e->busy = g_mode;
    e->fun = fun;
    e->fun_calls = 0;
    e->fun_error = NULL;
    e->fun_exception = NULL;
    e->fun_interrupted = 0;
    if (g_running++ == 0 && !mexIsLocked()) {
        mexLock();
        g_locked = 1;
    }
}

static void call_end(Entry *e) {
    e->busy = NULL;
    e->fun = NULL;
    if (--g_running == 0 && g_locked) {
        mexUnlock();
        g_locked = 0;
    }
}

/* ---------------------------------------------------------------------------------------- */
/* mxArray builders                                                                         */

static mxArray *row_u32(const uint32_t *v, size_t n) {
    mxArray *a = mxCreateNumericMatrix(1, n, mxUINT32_CLASS, mxREAL);
    if (n)
        memcpy(mxGetData(a), v, n * sizeof *v);
    return a;
}

static mxArray *row_double(const double *v, size_t n) {
    mxArray *a = mxCreateDoubleMatrix(1, n, mxREAL);
    if (n)
        memcpy(mxGetData(a), v, n * sizeof *v);
    return a;
}

static void set_field(mxArray *s, const char *name, mxArray *v) {
    int k = mxGetFieldNumber(s, name);
    if (k < 0)
        k = mxAddField(s, name);
    mxSetFieldByNumber(s, 0, k, v);
}

static void set_num(mxArray *s, const char *name, double v) {
    set_field(s, name, mxCreateDoubleScalar(v));
}

static mxArray *empty_struct(void) {
    return mxCreateStructMatrix(1, 1, 0, NULL);
}

/* A field of an options struct, or NULL. */
static const mxArray *opt(const mxArray *s, const char *name) {
    if (!s)
        return NULL;
    const mxArray *v = mxGetField(s, 0, name);
    return v && !mxIsEmpty(v) ? v : NULL;
}

/* Fails for a field of the 1x1 struct `s` that is not among the NULL-terminated `known`. */
static void check_fields(const mxArray *s, const char *what, const char *const *known) {
    if (!s)
        return;
    for (int i = 0; i < mxGetNumberOfFields(s); ++i) {
        const char *f = mxGetFieldNameByNumber(s, i);
        int ok = 0;
        for (const char *const *k = known; *k && !ok; ++k)
            ok = strcmp(*k, f) == 0;
        if (!ok) {
            char list[512] = "";
            for (const char *const *k = known; *k; ++k)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k == known ? "" : ", ", *k);
            fail("badOption", "unknown field %s.%s (known: %s)", what, f, list);
        }
    }
}

static const mxArray *options_struct(int nrhs, const mxArray **prhs, int i) {
    if (!given(nrhs, prhs, i))
        return NULL;
    if (!mxIsStruct(prhs[i]) || mxGetNumberOfElements(prhs[i]) != 1)
        fail("badArgument", "opts must be a 1x1 struct");
    return prhs[i];
}

/* ---------------------------------------------------------------------------------------- */
/* devices                                                                                  */

static void mode_get_device(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)nrhs, (void)prhs, (void)options;
    plhs[0] = mxCreateDoubleScalar(check_int("metaopt_get_device_number", metaopt_get_device_number()));
}

static void mode_set_device(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    int32_t n = (int32_t)int_scalar(arg(nrhs, prhs, 1, "deviceNumber"), "deviceNumber", 0, 2147483647.0);
    plhs[0] = mxCreateDoubleScalar(check_int("metaopt_set_device_number", metaopt_set_device_number(n)));
}

static void mode_devices(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)nrhs, (void)prhs, (void)options;
    int32_t count = check_int("metaopt_device_count", metaopt_device_count());
    static const char *fields[] = {"index", "kind", "platform", "name", "vendor", "version", "globalMemBytes",
                                   "computeUnits", "maxWorkGroupSize", "fp64"};
    static const char *kinds[] = {"gpu", "accelerator", "cpu", "other"};
    mxArray *s = mxCreateStructMatrix(1, (size_t)count, 10, fields);
    for (int32_t i = 0; i < count; ++i) {
        MetaoptDeviceInfo d;
        memset(&d, 0, sizeof d);
        Int32Result r = metaopt_device_info(i, &d);
        if (r.error_code != METAOPT_OK) {
            metaopt_free_device_info(&d);
            fail_library("metaopt_device_info", r.error_code, r.error_message);
        }
        mxSetField(s, i, "index", mxCreateDoubleScalar(d.index));
        mxSetField(s, i, "kind", mxCreateString(d.kind >= 0 && d.kind <= 3 ? kinds[d.kind] : "other"));
        mxSetField(s, i, "platform", mxCreateString(d.platform ? d.platform : ""));
        mxSetField(s, i, "name", mxCreateString(d.name ? d.name : ""));
        mxSetField(s, i, "vendor", mxCreateString(d.vendor ? d.vendor : ""));
        mxSetField(s, i, "version", mxCreateString(d.version ? d.version : ""));
        mxSetField(s, i, "globalMemBytes", mxCreateDoubleScalar((double)d.global_mem_bytes));
        mxSetField(s, i, "computeUnits", mxCreateDoubleScalar(d.compute_units));
        mxSetField(s, i, "maxWorkGroupSize", mxCreateDoubleScalar(d.max_work_group_size));
        mxSetField(s, i, "fp64", mxCreateLogicalScalar(d.fp64 != 0));
        metaopt_free_device_info(&d);
    }
    plhs[0] = s;
}

static void mode_mem_space_valid(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)nrhs, (void)prhs, (void)options;
    plhs[0] = mxCreateLogicalScalar(metaopt_is_mem_space_valid() != 0);
}

/* ---------------------------------------------------------------------------------------- */
/* QAP (thesis Table 2)                                                                     */

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
    case METAOPT_RESULT_INT64: return (double)t1;
    case METAOPT_RESULT_UINT64: return (double)t2;
    case METAOPT_RESULT_FLOAT: return t3;
    default: return t4;
    }
}

static void qap_record(Entry *e) {
    MetaoptParamsInfo info;
    check_int("metaopt_params_info", metaopt_params_info(e->qap, &info));
    e->n = info.n_elements;
    e->swaps = info.swaps;
}

/* The two forms of 'params', for messages where a call may have meant the other. */
static const char PARAMS_FORMS[] = " (QAP: 'params', swaps, nElements, nBitParam, DF, [nSlices, maskOrder, startBit, "
                                   "bitLength]; general HC12: 'params', nParam, nBitParam, dodParam, [maskOrder, "
                                   "startBit, bitLength])";

/* 'params', swaps, nElements, nBitParam, DF, [nSlices=1, maskOrder=2, startBit=0, bitLength=0] */
static void qap_params(mxArray **plhs, int nrhs, const mxArray **prhs) {
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
    if (given(nrhs, prhs, 3)) {
        double b = int_scalar(prhs[3], "nBitParam", 1, 16);
        if ((uint32_t)b != bits)
            fail("badArgument", "nBitParam is %g; nElements = %u needs ceil(log2(nElements)) = %u (or pass [])", b, n, bits);
    }
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
    ParamsResult r = metaopt_params(swaps, n, slices, rows, type, mask, start_bit, bit_length);
    mxFree(rows);
    if (r.error_code != METAOPT_OK)
        fail_library("metaopt_params", r.error_code, r.error_message);
    Entry *e = entry_new(KIND_QAP, &plhs[0]);
    e->qap = r.instance;
    qap_record(e);
}

/* 'params-file', path, swaps, [maskOrder=2, startBit=0, bitLength=0] */
static void mode_params_file(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    char *path = string_arg(arg(nrhs, prhs, 1, "path"), "path");
    uint32_t swaps = (uint32_t)int_scalar(arg(nrhs, prhs, 2, "swaps"), "swaps", 1, 64);
    uint32_t mask = given(nrhs, prhs, 3) ? (uint32_t)int_scalar(prhs[3], "maskOrder", 1, 3) : 2;
    int32_t start_bit = given(nrhs, prhs, 4) ? (int32_t)int_scalar(prhs[4], "startBit", 0, 2147483647.0) : 0;
    int32_t bit_length = given(nrhs, prhs, 5) ? (int32_t)int_scalar(prhs[5], "bitLength", 0, 2147483647.0) : 0;
    ParamsResult r = metaopt_params_from_file(path, swaps, mask, start_bit, bit_length);
    if (r.error_code != METAOPT_OK)
        fail_library("metaopt_params_from_file", r.error_code, r.error_message);
    Entry *e = entry_new(KIND_QAP, &plhs[0]);
    e->qap = r.instance;
    qap_record(e);
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

/* 'run', instance, initOrder (1-based, [] = identity), initKernel ([] = zeros)
 * -> [cost, order (1-based), K (uint32, Gray-coded), lastIteration] */
static void qap_run(Entry *e, int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs) {
    uint16_t *order = given(nrhs, prhs, 2) ? permutation_arg(prhs[2], "initOrder", e->n) : NULL;
    uint32_t *k = NULL;
    if (given(nrhs, prhs, 3)) {
        size_t len;
        double *v = real_vector(prhs[3], "initKernel", &len, 1);
        if (len != 2u * e->swaps)
            fail("badArgument", "initKernel must have 2 * swaps = %u entries, got %zu", 2u * e->swaps, len);
        k = mxMalloc(len * sizeof *k);
        for (size_t i = 0; i < len; ++i) {
            if (v[i] != floor(v[i]) || v[i] < 0 || v[i] > 4294967295.0)
                fail("badArgument", "initKernel(%zu) must be a nonnegative integer, got %g", i + 1, v[i]);
            k[i] = (uint32_t)v[i];
        }
    }
    if (nrhs > 4)
        fail("tooManyArguments", "QAP run takes instance, initOrder, initKernel");
    call_begin(e, NULL);
    RunResult r = metaopt_run(e->qap, order, k);
    call_end(e);
    if (r.error_code != METAOPT_OK) {
        char *m = r.error_message;
        r.error_message = NULL;
        metaopt_free_run_result(&r);
        fail_library("metaopt_run", r.error_code, m);
    }
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
    metaopt_free_run_result(&r);
}

/* 'solve', instance, [opts: runs, timeLimit, seed, start ('random' | 'identity' | 'glb' | a
 * 1-based permutation), restart ('rebase' | 'random'), target] -> result struct */
static void mode_solve(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), KIND_QAP);
    static const char *known[] = {"runs", "timeLimit", "seed", "start", "restart", "target", NULL};
    const mxArray *s = options_struct(nrhs, prhs, 2);
    check_fields(s, "opts", known);
    MetaoptSolveOptions o = metaopt_default_solve_options();
    const mxArray *v;
    if ((v = opt(s, "runs")))
        o.runs = (uint32_t)int_scalar(v, "opts.runs", 0, 4294967295.0);
    if ((v = opt(s, "timeLimit")))
        o.time_limit_s = real_scalar(v, "opts.timeLimit");
    /* runs = 0 is no limit on the runs: only a time limit surely ends the solve (a target may
     * never be reached) */
    if (o.runs == 0 && !(o.time_limit_s > 0 && isfinite(o.time_limit_s)))
        fail("badArgument", "opts.runs = 0 (no limit on the runs) needs a finite opts.timeLimit > 0");
    if ((v = opt(s, "seed")))
        o.seed = (uint64_t)int_scalar(v, "opts.seed", 0, 9007199254740992.0);
    if ((v = opt(s, "target"))) {
        o.has_target = 1;
        o.target = real_scalar(v, "opts.target");
        if (!isfinite(o.target))
            fail("badArgument", "opts.target must be finite, got %g", o.target);
    }
    if ((v = opt(s, "restart"))) {
        char *r = string_arg(v, "opts.restart");
        if (strcmp(r, "rebase") == 0)
            o.restart = METAOPT_RESTART_REBASE;
        else if (strcmp(r, "random") == 0)
            o.restart = METAOPT_RESTART_RANDOM;
        else
            fail("badArgument", "opts.restart must be 'rebase' or 'random', got '%s'", r);
    }
    if ((v = opt(s, "start"))) {
        if (mxIsChar(v)) {
            char *st = string_arg(v, "opts.start");
            if (strcmp(st, "random") == 0)
                o.start = METAOPT_START_RANDOM;
            else if (strcmp(st, "identity") == 0)
                o.start = METAOPT_START_IDENTITY;
            else if (strcmp(st, "glb") == 0)
                o.start = METAOPT_START_GLB;
            else
                fail("badArgument", "opts.start must be 'random', 'identity', 'glb' or a permutation, got '%s'", st);
        } else {
            o.start = METAOPT_START_GIVEN;
            o.start_order = permutation_arg(v, "opts.start", e->n);
        }
    }
    call_begin(e, NULL);
    MetaoptSolveResult r = metaopt_solve(e->qap, &o);
    call_end(e);
    if (r.error_code != METAOPT_OK) {
        char *m = r.error_message;
        r.error_message = NULL;
        metaopt_free_solve_result(&r);
        fail_library("metaopt_solve", r.error_code, m);
    }
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
    metaopt_free_solve_result(&r);
    plhs[0] = out;
}

static mxArray *qap_info(Entry *e) {
    MetaoptParamsInfo info;
    check_int("metaopt_params_info", metaopt_params_info(e->qap, &info));
    mxArray *s = empty_struct();
    set_field(s, "kind", mxCreateString("qap"));
    set_num(s, "nElements", info.n_elements);
    set_num(s, "nSlices", info.n_slices);
    set_num(s, "swaps", info.swaps);
    set_num(s, "kLength", info.k_length);
    set_num(s, "nBitParam", info.bits_per_param);
    set_num(s, "rows", (double)info.rows);
    set_field(s, "backend", mxCreateString(info.backend == METAOPT_BACKEND_CPU ? "cpu" : "device"));
    set_field(s, "costForm", mxCreateString(info.cost_form == METAOPT_COST_FULL ? "full" : "delta"));
    set_num(s, "maxIterations", info.max_iterations);
    return s;
}

/* ---------------------------------------------------------------------------------------- */
/* general HC12 (thesis Table 1)                                                            */

/* 'params' / 'params:noR[,binary][,double]', nParam, nBitParam, dodParam,
 * [maskOrder=2, startBit=0, bitLength=0] */
static void hc12_params(mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    static const char *known[] = {"noR", "binary", "double", NULL};
    check_options(options, known);
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
    Entry *e = entry_new(KIND_HC12, &plhs[0]);
    e->n_param = n;
    e->n_bits = nbits;
    e->n_bits_len = (uint32_t)nb;
    e->dod = dod;
    e->n_dod_len = (uint32_t)nd;
    e->mask_order = mask;
    e->start_bit = start_bit;
    e->bit_length = bit_length;
    /* noR: no real matrix R; the objective reads the integers I, or with `binary` the bits B */
    e->domain = has_option(options, "binary") ? METAOPT_DOMAIN_BINARY
                : has_option(options, "noR")  ? METAOPT_DOMAIN_INTEGER
                                              : METAOPT_DOMAIN_REAL;
    e->double_precision = has_option(options, "double") ? 1 : 0;
    e->tabu = metaopt_default_tabu_options();
}

/* A struct error {message, identifier} for `rethrow`. */
static mxArray *error_struct(const char *identifier, const char *message) {
    const char *fields[] = {"message", "identifier"};
    mxArray *err = mxCreateStructMatrix(1, 1, 2, fields);
    mxSetField(err, 0, "message", mxCreateString(message));
    mxSetField(err, 0, "identifier", mxCreateString(identifier));
    return err;
}

/* One call of the m-function objective: the library's arguments and what the call ended with. */
typedef struct {
    Entry *e;
    const double *x;
    uint32_t rows, dims;
    double *f;
    int32_t status; /* the callback's: 0 the values are in f, else failed (e->fun_error says why) */
} ObjectiveCall;

/* Calls the m-function of the running call on the rows x dims matrix through
 * metaopt_call_objective.m, which returns the m-function's error instead of raising it, and
 * copies its rows values back; an error is kept in e->fun_error. Runs inside
 * metaopt_mex_protect: whatever Octave or MATLAB throws here (Ctrl-C, an mx allocation error)
 * stops there, never unwinding through the library. */
static void objective_body(void *arg) {
    ObjectiveCall *c = arg;
    Entry *e = c->e;
    uint32_t rows = c->rows, dims = c->dims;
    c->status = 1;
    e->fun_calls++;
    if (!e->fun) {
        e->fun_error = error_struct("metaopt:objective", "the m-function objective is not set (internal error)");
        return;
    }
    mxArray *X = mxCreateDoubleMatrix(rows, dims, mxREAL);
    double *xd = mxGetData(X);
    for (uint32_t r = 0; r < rows; ++r)
        for (uint32_t j = 0; j < dims; ++j)
            xd[r + (size_t)j * rows] = c->x[(size_t)r * dims + j];
    mxArray *in[2] = {(mxArray *)e->fun, X};
    mxArray *out[2] = {NULL, NULL};
    mxArray *trapped = mexCallMATLABWithTrap(2, out, 2, in, "metaopt_call_objective");
    mxDestroyArray(X);
    if (trapped) {
        e->fun_error = error_struct("metaopt:objective", "cannot call the objective through metaopt_call_objective.m "
                                                         "(it must lie on the path beside metaopt_mex)");
        return;
    }
    if (out[1] && !mxIsEmpty(out[1])) {
        e->fun_error = out[1]; /* the m-function's own error, rethrown by raise_objective_failure */
        if (out[0])
            mxDestroyArray(out[0]);
        return;
    }
    if (out[1])
        mxDestroyArray(out[1]);
    const mxArray *F = out[0];
    const char *why = F ? not_real_numeric(F) : "nothing";
    char msg[512] = "";
    if (why || mxGetNumberOfElements(F) != rows) {
        char got[128];
        if (why)
            snprintf(got, sizeof got, "%s", why);
        else
            snprintf(got, sizeof got, "%zu values", (size_t)mxGetNumberOfElements(F));
        snprintf(msg, sizeof msg,
                 "the objective must return %u real values (a real numeric vector, one value per row of its %u x %u "
                 "argument), got %s",
                 rows, rows, dims, got);
    } else {
        for (uint32_t r = 0; r < rows; ++r) {
            c->f[r] = elem(F, r);
            if (isnan(c->f[r])) {
                snprintf(msg, sizeof msg, "the objective returned NaN for row %u", r + 1);
                break;
            }
        }
    }
    if (out[0])
        mxDestroyArray(out[0]);
    if (msg[0]) {
        e->fun_error = error_struct("metaopt:objective", msg);
        c->status = 2;
        return;
    }
    c->status = 0;
}

/* The host callback the library calls (user_data: the Entry). */
static int32_t mex_objective(const double *x, uint32_t rows, uint32_t dims, double *f, void *user_data) {
    ObjectiveCall c = {user_data, x, rows, dims, f, 1};
    const char *mode = g_mode; /* a nested MEX call from the objective sets its own */
    int trap = metaopt_mex_protect(objective_body, &c, &c.e->fun_exception);
    g_mode = mode;
    if (trap == METAOPT_MEX_TRAP_INTERRUPTED)
        c.e->fun_interrupted = 1;
    return trap == METAOPT_MEX_TRAP_OK ? c.status : 3;
}

/* Raises how the objective failed in the library call that has just returned on `e`: the
 * user's interruption (`metaopt:interrupted`), the exception caught around it (rethrown as
 * it was), or the error it kept (the m-function's own, with its identifier, message and
 * stack, by `rethrow`, or ours). Returns when the objective did not fail. */
static void raise_objective_failure(Entry *e) {
    void *exception = e->fun_exception;
    mxArray *err = e->fun_error;
    int interrupted = e->fun_interrupted;
    e->fun_exception = NULL;
    e->fun_error = NULL;
    e->fun_interrupted = 0;
    if (interrupted) {
        metaopt_mex_discard(exception);
        fail("interrupted", "interrupted by the user (Ctrl-C) in the m-function objective");
    }
    if (exception)
        metaopt_mex_rethrow(exception);
    if (err) {
        mexCallMATLAB(0, NULL, 1, &err, "rethrow");
        mexErrMsgIdAndTxt("metaopt:objective", "the objective failed"); /* not reached */
    }
}

/* Raises the error of a failed library call on `e`: the objective's failure, if it failed,
 * else the library's (freeing its message). */
static void fail_call(Entry *e, const char *call, int32_t code, char *message) {
    if (e->fun_interrupted || e->fun_exception || e->fun_error) {
        metaopt_free_pointer(message);
        raise_objective_failure(e);
    }
    fail_library(call, code, message);
}

/* Checks the result of a call that sets up the library instance of `e`: on failure the instance
 * is released (the next `run` makes it again from the stored settings, so it is never left
 * half set up) and the error raised. */
static void hc12_check(Entry *e, const char *call, Int32Result r) {
    if (r.error_code != METAOPT_OK) {
        hc12_release(e);
        fail_library(call, r.error_code, r.error_message);
    }
}

/* Applies the stored settings to a newly made instance. */
static void hc12_apply_settings(Entry *e) {
    if (e->tabu_length) {
        hc12_check(e, "metaopt_hc12_init_tabu_list", metaopt_hc12_init_tabu_list(e->hc12, e->tabu_length));
        hc12_check(e, "metaopt_hc12_set_tabu_options", metaopt_hc12_set_tabu_options(e->hc12, &e->tabu));
    }
    if (e->verbose)
        hc12_check(e, "metaopt_hc12_kernel_verbose", metaopt_hc12_kernel_verbose(e->hc12, 1));
    if (e->profiler)
        hc12_check(e, "metaopt_hc12_profiler_on", metaopt_hc12_profiler_on(e->hc12));
    if (e->func_data && e->objective_key && strcmp(e->objective_key, e->func_data_name) == 0)
        hc12_check(e, "metaopt_hc12_func_data", metaopt_hc12_func_data(e->hc12, e->func_data, e->func_data_bytes));
}

/* Reads a whole file into an mxMalloc'd NUL-terminated string. */
static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f)
        fail("io", "cannot open the objective source %s", path);
    size_t cap = 4096, len = 0, got;
    char *s = mxMalloc(cap);
    while ((got = fread(s + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (len + 1 == cap)
            s = mxRealloc(s, cap *= 2);
    }
    fclose(f);
    s[len] = '\0';
    return s;
}

/* Makes the library instance for objective `fun` unless the one there was made for it.
 * `fun` is a function handle or an m-function name (host callback), '@NAME' (a catalogue
 * function, computed on the device) or '@FILE.cl' (OpenCL C source read from FILE.cl). */
static void hc12_ensure_instance(Entry *e, const mxArray *fun, int reload) {
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
    if (e->hc12 && e->objective_key && strcmp(e->objective_key, key) == 0 && !reload)
        return;
    hc12_release(e);
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
    Hc12ParamsResult r = metaopt_hc12_params(e->n_param, e->n_bits, e->n_bits_len, e->dod, e->n_dod_len, e->mask_order,
                                             e->start_bit, e->bit_length, e->domain, e->double_precision, &o);
    if (source)
        mxFree(source);
    if (r.error_code != METAOPT_OK)
        fail_library("metaopt_hc12_params", r.error_code, r.error_message);
    e->hc12 = r.instance;
    e->objective_key = malloc(strlen(key) + 1);
    if (!e->objective_key) {
        hc12_release(e);
        fail("outOfMemory", "cannot allocate the objective's name");
    }
    strcpy(e->objective_key, key);
    hc12_apply_settings(e);
}

/* 'run' / 'run:taboo,consts_reload', instance, mCode, nRuns, startSeed, funName, funOpt,
 * [activationLimit, limitRows], then name/value options 'seed', 'maxIterations', 'aspiration',
 * 'tabuIterations', 'noImprove' -> [value, x, result] */
static void hc12_run(Entry *e, int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
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
        fail("unsupported", "mCode 'GCi' (Gray code over the whole string) is not supported by this library; use 'GC' or 'BC'");
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
        if (len != e->n_param)
            fail("badArgument", "startSeed must hold nParam = %u values, got %zu", e->n_param, len);
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
    MetaoptTabuOptions tabu = e->tabu;
    uint32_t limit_rows = 0;
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
        char *name = string_arg(prhs[i], "option name");
        if (i + 1 >= nrhs)
            fail("badArgument", "option '%s' has no value", name);
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
        else
            fail("badOption", "unknown option '%s' (seed, maxIterations, aspiration, tabuIterations, noImprove)", name);
    }
    hc12_ensure_instance(e, fun, has_option(options, "consts_reload"));
    if (has_option(options, "taboo")) {
        /* limitRows, else the list there, else the thesis's default of 100 strings; kept only
         * once the instance has taken it */
        uint32_t length = limit_rows ? limit_rows : e->tabu_length ? e->tabu_length : 100;
        hc12_check(e, "metaopt_hc12_init_tabu_list", metaopt_hc12_init_tabu_list(e->hc12, length));
        hc12_check(e, "metaopt_hc12_set_tabu_options", metaopt_hc12_set_tabu_options(e->hc12, &tabu));
        e->tabu_length = length;
        e->tabu = tabu;
        o.taboo = 1;
    }
    call_begin(e, fun);
    MetaoptHc12Result r = metaopt_hc12_run(e->hc12, &o);
    call_end(e);
    if (r.error_code != METAOPT_OK) {
        char *m = r.error_message;
        r.error_message = NULL;
        metaopt_hc12_free_result(&r);
        fail_call(e, "metaopt_hc12_run", r.error_code, m);
    }
    plhs[0] = mxCreateDoubleScalar(r.value);
    if (nlhs > 1) {
        if (e->domain == METAOPT_DOMAIN_REAL) {
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
        plhs[2] = s;
    }
    metaopt_hc12_free_result(&r);
}

/* 'func-data', instance, funcName ('@FILE.cl' as given to run), data (numeric array: its raw
 * bytes, e.g. single(10) for one float) */
static void mode_func_data(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)plhs, (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), KIND_HC12);
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
    free(e->func_data);
    free(e->func_data_name);
    e->func_data = copy;
    e->func_data_bytes = bytes;
    e->func_data_name = name_copy;
    if (e->hc12 && e->objective_key && strcmp(e->objective_key, name) == 0)
        hc12_check(e, "metaopt_hc12_func_data", metaopt_hc12_func_data(e->hc12, copy, bytes));
}

/* 'func-data-clean', instance, funcName */
static void mode_func_data_clean(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)plhs, (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), KIND_HC12);
    char *name = string_arg(arg(nrhs, prhs, 2, "funcName"), "funcName");
    if (!e->func_data_name || strcmp(e->func_data_name, name) != 0)
        fail("badArgument", "no func-data is set for '%s'", name);
    free(e->func_data);
    free(e->func_data_name);
    e->func_data = NULL;
    e->func_data_name = NULL;
    e->func_data_bytes = 0;
    if (e->hc12 && e->objective_key && strcmp(e->objective_key, name) == 0)
        hc12_check(e, "metaopt_hc12_func_data_clean", metaopt_hc12_func_data_clean(e->hc12));
}

static void mode_kernel_verbose(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)plhs, (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), KIND_HC12);
    e->verbose = flag_arg(arg(nrhs, prhs, 2, "verbose"), "verbose");
    if (e->hc12)
        hc12_check(e, "metaopt_hc12_kernel_verbose", metaopt_hc12_kernel_verbose(e->hc12, (uint8_t)e->verbose));
}

static void mode_profiler_on(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)plhs, (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), KIND_HC12);
    e->profiler = 1;
    if (e->hc12)
        hc12_check(e, "metaopt_hc12_profiler_on", metaopt_hc12_profiler_on(e->hc12));
}

static mxArray *string_result(const char *call, MetaoptStringResult r) {
    if (r.error_code != METAOPT_OK)
        fail_library(call, r.error_code, r.error_message);
    mxArray *s = mxCreateString(r.text ? r.text : "");
    metaopt_free_pointer(r.text);
    return s;
}

static void mode_profiler_output(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), KIND_HC12);
    if (!e->profiler)
        fail("badArgument", "the profiler is off: call 'profiler-on' first");
    plhs[0] = e->hc12 ? string_result("metaopt_hc12_profiler_output", metaopt_hc12_profiler_output(e->hc12))
                      : mxCreateString("");
}

static mxArray *hc12_info(Entry *e) {
    if (e->hc12)
        return string_result("metaopt_hc12_info", metaopt_hc12_info(e->hc12));
    char text[512];
    snprintf(text, sizeof text,
             "general HC12 instance, %u parameters; the objective is given to the first 'run', which "
             "makes the device instance\n",
             e->n_param);
    return mxCreateString(text);
}

/* ---------------------------------------------------------------------------------------- */
/* SAT                                                                                      */

static void sat_record(Entry *e, SatParseResult r) {
    e->sat = r.instance;
    e->num_vars = r.num_vars;
    e->num_clauses = r.num_clauses;
}

/* 'sat-parse', path */
static void mode_sat_parse(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    char *path = string_arg(arg(nrhs, prhs, 1, "path"), "path");
    SatParseResult r = metaopt_sat_parse(path);
    if (r.error_code != METAOPT_OK)
        fail_library("metaopt_sat_parse", r.error_code, r.error_message);
    sat_record(entry_new(KIND_SAT, &plhs[0]), r);
}

/* 'sat-clauses', numVars, clauses (a cell array of literal vectors, or one vector of DIMACS
 * literals with each clause ended by 0) */
static void mode_sat_clauses(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
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
    SatParseResult r = metaopt_sat_from_clauses(nv, lits, len);
    mxFree(lits);
    if (r.error_code != METAOPT_OK)
        fail_library("metaopt_sat_from_clauses", r.error_code, r.error_message);
    sat_record(entry_new(KIND_SAT, &plhs[0]), r);
}

/* 'sat-evaluate', instance, assignments (count x numVars, logical or 0/1), [useCpu=false]
 * -> count x 1 satisfied clauses */
static void mode_sat_evaluate(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), KIND_SAT);
    const mxArray *a = arg(nrhs, prhs, 2, "assignments");
    int cpu = given(nrhs, prhs, 3) ? flag_arg(prhs[3], "useCpu") : 0;
    check_real_numeric(a, "assignments", "a count x numVars logical or 0/1 matrix");
    if (mxGetNumberOfDimensions(a) != 2 || mxGetN(a) != e->num_vars || mxGetM(a) == 0)
        fail("badArgument", "assignments must be a count x numVars (numVars = %u) logical or 0/1 matrix, got %zu x %zu",
             e->num_vars, (size_t)mxGetM(a), (size_t)mxGetN(a));
    size_t count = mxGetM(a), words = (e->num_vars + 31) / 32;
    uint32_t *packed = mxCalloc(count * words, sizeof *packed);
    for (size_t r = 0; r < count; ++r)
        for (size_t v = 0; v < e->num_vars; ++v) {
            double b = elem(a, r + v * count);
            if (b != 0 && b != 1)
                fail("badArgument", "assignments(%zu,%zu) is %g; expected 0 or 1", r + 1, v + 1, b);
            if (b == 1)
                packed[r * words + v / 32] |= 1u << (v % 32);
        }
    MetaoptSatEvalResult r = metaopt_sat_evaluate(e->sat, packed, (uint32_t)count, (uint8_t)cpu);
    mxFree(packed);
    if (r.error_code != METAOPT_OK) {
        char *m = r.error_message;
        r.error_message = NULL;
        metaopt_sat_free_eval_result(&r);
        fail_library("metaopt_sat_evaluate", r.error_code, m);
    }
    plhs[0] = mxCreateDoubleMatrix(r.count, 1, mxREAL);
    for (uint32_t i = 0; i < r.count; ++i)
        ((double *)mxGetData(plhs[0]))[i] = r.satisfied[i];
    metaopt_sat_free_eval_result(&r);
}

/* 'sat-solve', instance, [opts: timeLimit, runs, seed, maskOrder, tabuLength,
 * tabuMaxIterations, tabuMaxNoImprove, tenure] -> result struct */
static void mode_sat_solve(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), KIND_SAT);
    static const char *known[] = {"timeLimit", "runs", "seed", "maskOrder", "tabuLength", "tabuMaxIterations",
                                  "tabuMaxNoImprove", "tenure", NULL};
    const mxArray *s = options_struct(nrhs, prhs, 2), *v;
    check_fields(s, "opts", known);
    MetaoptSatSolveOptions o = metaopt_sat_default_solve_options();
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
    call_begin(e, NULL);
    MetaoptSatSolveResult r = metaopt_sat_solve(e->sat, &o);
    call_end(e);
    if (r.error_code != METAOPT_OK) {
        char *m = r.error_message;
        r.error_message = NULL;
        metaopt_sat_free_solve_result(&r);
        fail_library("metaopt_sat_solve", r.error_code, m);
    }
    mxArray *out = empty_struct();
    set_field(out, "satisfiable", mxCreateLogicalScalar(r.satisfiable != 0));
    mxArray *best = mxCreateLogicalMatrix(1, e->num_vars);
    for (uint32_t i = 0; i < e->num_vars && i / 32 < r.words; ++i)
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
    set_num(out, "seconds", r.seconds);
    metaopt_sat_free_solve_result(&r);
    plhs[0] = out;
}

/* ---------------------------------------------------------------------------------------- */
/* island DE (thesis 5.2.1, DEMultiPop)                                                     */

/* The DE option fields (thesis Table 3) of the names de-params takes. */
static const char *const de_option_fields[] = {"F_coefs_mode", "F_coefs_min", "F_coefs_max", "CR",
                                              "init_rng_seed", "mutation_rng_seed", "crossover_rng_seed",
                                              "migration_rng_seed", "double", "shared_random", "cpu", NULL};

/* Applies the fields of the opts struct `s` (NULL: none) to *o; CR values given per island are
 * left in mxMalloc'ed memory that *o points to (freed with the MEX call). */
static void de_options(const mxArray *s, uint32_t np, MetaoptDeOptions *o) {
    const mxArray *v;
    check_fields(s, "opts", de_option_fields);
    if ((v = opt(s, "F_coefs_mode"))) {
        char *m = string_arg(v, "opts.F_coefs_mode");
        if (strcmp(m, "linspace") == 0)
            o->f_const = 0;
        else if (strcmp(m, "const") == 0)
            o->f_const = 1;
        else
            fail("badArgument", "opts.F_coefs_mode must be 'linspace' or 'const', got '%s'", m);
    }
    if ((v = opt(s, "F_coefs_min")))
        o->f_min = real_scalar(v, "opts.F_coefs_min");
    if ((v = opt(s, "F_coefs_max")))
        o->f_max = real_scalar(v, "opts.F_coefs_max");
    if ((v = opt(s, "CR"))) {
        size_t n;
        double *cr = real_vector(v, "opts.CR", &n, 0);
        if (n == 1) {
            o->cr = cr[0];
            o->cr_per_island = NULL;
        } else if (n == np)
            o->cr_per_island = cr; /* the library reads `islands` values: the length is checked here */
        else
            fail("badArgument", "opts.CR must hold 1 or islands = %u values, got %zu", np, n);
    }
    if ((v = opt(s, "init_rng_seed")))
        o->init_seed = (uint64_t)int_scalar(v, "opts.init_rng_seed", 0, 9007199254740992.0);
    if ((v = opt(s, "mutation_rng_seed")))
        o->mutation_seed = (uint64_t)int_scalar(v, "opts.mutation_rng_seed", 0, 9007199254740992.0);
    if ((v = opt(s, "crossover_rng_seed")))
        o->crossover_seed = (uint64_t)int_scalar(v, "opts.crossover_rng_seed", 0, 9007199254740992.0);
    if ((v = opt(s, "migration_rng_seed")))
        o->migration_seed = (uint64_t)int_scalar(v, "opts.migration_rng_seed", 0, 9007199254740992.0);
    if ((v = opt(s, "double")))
        o->double_precision = (uint8_t)flag_arg(v, "opts.double");
    if ((v = opt(s, "shared_random")))
        o->shared_random = (uint8_t)flag_arg(v, "opts.shared_random");
    if ((v = opt(s, "cpu")))
        o->backend = flag_arg(v, "opts.cpu") ? METAOPT_BACKEND_CPU : METAOPT_BACKEND_DEVICE;
}

/* Keeps *o as the instance's current options (with a malloc'ed copy of per-island CR). */
static void de_keep_options(Entry *e, const MetaoptDeOptions *o) {
    double *cr = NULL;
    if (o->cr_per_island) {
        cr = malloc(e->de_islands * sizeof *cr);
        if (!cr)
            fail("outOfMemory", "cannot keep %u CR values", e->de_islands);
        memcpy(cr, o->cr_per_island, e->de_islands * sizeof *cr);
    }
    free(e->de_cr);
    e->de_cr = cr;
    e->de_opts = *o;
    e->de_opts.cr_per_island = cr;
}

/* 'de-params', islands, members, dims, limits ([a b] or dims x 2), bounds (a name or a cell
 * array of dims names), [opts: F_coefs_mode ('linspace' | 'const'), F_coefs_min, F_coefs_max,
 * CR (one value or one per island), init_rng_seed, mutation_rng_seed, crossover_rng_seed,
 * migration_rng_seed, double, shared_random, cpu] -> instance */
static void mode_de_params(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
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
    const mxArray *s = options_struct(nrhs, prhs, 6);
    MetaoptDeOptions o = metaopt_de_default_options();
    de_options(s, np, &o);
    DeCreateResult r = metaopt_de_create(np, nm, nn, limits, (uint32_t)(2 * pairs), bounds, &o);
    if (r.error_code != METAOPT_OK)
        fail_library("metaopt_de_create", r.error_code, r.error_message);
    Entry *e = entry_new(KIND_DE, &plhs[0]);
    e->de = r.instance;
    e->de_islands = np;
    e->de_members = nm;
    e->de_dims = nn;
    de_keep_options(e, &o);
}

/* 'de-init', instance, objective, [mutation='DE/rand/1', migration='None', period=10, opts]
 * opts (the thesis's optionsUpdate): fields as in de-params, applied to the instance's current
 * options for this and later runs; double and cpu cannot change.
 * objective: a function handle or m-function name (called with the (islands * members) x dims
 * trials of a generation, row (p - 1) * members + m for island p and member m, returning their
 * values), '@NAME' (a catalogue function on the device), '@FILE.cl' (OpenCL C read from
 * FILE.cl), or a struct with field `source` (OpenCL C code) and optional `name` (its label). */
static void mode_de_init(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)plhs, (void)options;
    static const char *source_fields[] = {"source", "name", NULL};
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), KIND_DE);
    const mxArray *fun = arg(nrhs, prhs, 2, "objective");
    const char *mutation = given(nrhs, prhs, 3) ? string_arg(prhs[3], "mutation") : "DE/rand/1";
    const char *migration = given(nrhs, prhs, 4) ? string_arg(prhs[4], "migration") : "None";
    uint32_t period = given(nrhs, prhs, 5) ? (uint32_t)int_scalar(prhs[5], "period", 0, 4294967295.0) : 10;
    const mxArray *update = options_struct(nrhs, prhs, 6);
    MetaoptDeOptions opts = e->de_opts;
    if (update)
        de_options(update, e->de_islands, &opts);
    MetaoptObjective o;
    memset(&o, 0, sizeof o);
    char label[512] = "";
    int callback = 0;
    if (mxIsFunctionHandle(fun)) {
        callback = 1;
        snprintf(label, sizeof label, "function handle");
    } else if (mxIsStruct(fun)) {
        if (mxGetNumberOfElements(fun) != 1)
            fail("badArgument", "an objective struct must be 1x1 with fields source and name");
        check_fields(fun, "objective", source_fields);
        const mxArray *code = mxGetField(fun, 0, "source");
        if (!code)
            fail("badArgument", "an objective struct needs the field source (OpenCL C code)");
        o.kind = METAOPT_OBJECTIVE_SOURCE;
        o.source = string_arg(code, "objective.source");
        const mxArray *name = mxGetField(fun, 0, "name");
        if (name && !mxIsEmpty(name))
            o.function_name = string_arg(name, "objective.name");
    } else if (mxIsChar(fun)) {
        char *name = string_arg(fun, "objective");
        if (!name[0])
            fail("badArgument", "objective is empty");
        if (name[0] != '@') {
            callback = 1;
            snprintf(label, sizeof label, "m-function %s", name);
        } else {
            size_t len = strlen(name + 1);
            if (len > 3 && strcmp(name + 1 + len - 3, ".cl") == 0) {
                o.kind = METAOPT_OBJECTIVE_SOURCE;
                o.source = read_file(name + 1);
                o.function_name = name + 1;
            } else {
                o.kind = METAOPT_OBJECTIVE_CATALOGUE;
                o.function_name = name + 1;
            }
        }
    } else {
        fail("badArgument", "objective must be a function handle, an m-function name, '@CATALOGUE', '@FILE.cl' or a "
                            "struct with field source (OpenCL C code), got a %s", mxGetClassName(fun));
    }
    mxArray *copy = NULL;
    if (callback) {
        o.kind = METAOPT_OBJECTIVE_HOST_CALLBACK;
        o.callback = mex_objective;
        o.user_data = e;
        o.function_name = label;
        /* the library calls it again in later MEX calls ('de-iteration', 'de-run') */
        copy = mxDuplicateArray(fun);
        mexMakeArrayPersistent(copy);
    }
    call_begin(e, copy);
    Int32Result r = metaopt_de_init(e->de, &o, mutation, migration, period, update ? &opts : NULL);
    call_end(e);
    if (r.error_code != METAOPT_OK) {
        /* the previous objective stays (or, after a failed first evaluation, none runs) */
        if (copy)
            mxDestroyArray(copy);
        fail_call(e, "metaopt_de_init", r.error_code, r.error_message);
    }
    if (e->de_fun)
        mxDestroyArray(e->de_fun);
    e->de_fun = copy;
    if (update)
        de_keep_options(e, &opts);
}

/* 'de-iteration', instance -> the generation number since 'de-init' */
static void mode_de_iteration(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), KIND_DE);
    call_begin(e, e->de_fun);
    Int32Result r = metaopt_de_iteration(e->de);
    call_end(e);
    if (r.error_code != METAOPT_OK)
        fail_call(e, "metaopt_de_iteration", r.error_code, r.error_message);
    plhs[0] = mxCreateDoubleScalar(r.result);
}

/* One stop condition of 'de-run' by name. */
static void de_stop_option(MetaoptDeStop *st, const char *name, const mxArray *v) {
    if (strcmp(name, "generations") == 0) {
        st->generations = (uint64_t)int_scalar(v, "generations", 0, 9007199254740992.0);
    } else if (strcmp(name, "evaluations") == 0) {
        st->evaluations = (uint64_t)int_scalar(v, "evaluations", 0, 9007199254740992.0);
    } else if (strcmp(name, "target") == 0) {
        st->has_target = 1;
        st->target = real_scalar(v, "target");
    } else if (strcmp(name, "time_limit") == 0) {
        st->time_limit = real_scalar(v, "time_limit");
    } else {
        fail("badOption", "unknown stop condition '%s' (generations, evaluations, target, time_limit)", name);
    }
}

/* 'de-run', instance, [generations ([] or 0: no limit)], then a struct or name/value pairs of
 * 'generations', 'evaluations', 'target', 'time_limit' (at least one condition)
 * -> [value, x, island (1-based), generations, evaluations, seconds, stoppedBy] */
static void mode_de_run(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)options;
    static const char *known[] = {"generations", "evaluations", "target", "time_limit", NULL};
    static const char *reasons[] = {"", "generations", "evaluations", "target", "time_limit"};
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), KIND_DE);
    MetaoptDeStop st = metaopt_de_default_stop();
    int i = 2;
    if (i < nrhs && !mxIsChar(prhs[i]) && !mxIsStruct(prhs[i])) {
        if (!mxIsEmpty(prhs[i]))
            de_stop_option(&st, "generations", prhs[i]);
        ++i;
    }
    if (i < nrhs && mxIsStruct(prhs[i])) {
        const mxArray *s = options_struct(nrhs, prhs, i);
        check_fields(s, "stop", known);
        for (const char *const *k = known; *k; ++k) {
            const mxArray *v = opt(s, *k);
            if (v)
                de_stop_option(&st, *k, v);
        }
        ++i;
    }
    for (; i < nrhs; i += 2) {
        char *name = string_arg(prhs[i], "stop condition name");
        if (i + 1 >= nrhs)
            fail("badArgument", "stop condition '%s' has no value", name);
        de_stop_option(&st, name, prhs[i + 1]);
    }
    call_begin(e, e->de_fun);
    MetaoptDeResult r = metaopt_de_run(e->de, &st);
    call_end(e);
    if (r.error_code != METAOPT_OK) {
        char *m = r.error_message;
        r.error_message = NULL;
        metaopt_de_free_result(&r);
        fail_call(e, "metaopt_de_run", r.error_code, m);
    }
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
        plhs[6] = mxCreateString(r.stopped_by >= 1 && r.stopped_by <= 4 ? reasons[r.stopped_by] : "unknown");
    metaopt_de_free_result(&r);
}

/* A MetaoptDoubleArrayResult as a row, freed. */
static mxArray *de_row(Entry *e, const char *call, MetaoptDoubleArrayResult r) {
    if (r.error_code != METAOPT_OK) {
        char *m = r.error_message;
        r.error_message = NULL;
        metaopt_free_double_array(&r);
        fail_call(e, call, r.error_code, m);
    }
    mxArray *a = row_double(r.values, r.length);
    metaopt_free_double_array(&r);
    return a;
}

/* 'de-bests', instance -> 1 x islands: the best value of every island (getBestsFitness) */
static void mode_de_bests(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), KIND_DE);
    plhs[0] = de_row(e, "metaopt_de_bests_fitness", metaopt_de_bests_fitness(e->de));
}

/* 'de-best', instance, island (1-based) -> 1 x dims: the best member of the island */
static void mode_de_best(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), KIND_DE);
    uint32_t p = (uint32_t)int_scalar(arg(nrhs, prhs, 2, "island"), "island (1-based)", 1, e->de_islands);
    plhs[0] = de_row(e, "metaopt_de_best", metaopt_de_best(e->de, p - 1));
}

/* 'de-x', instance, island, member (both 1-based) -> 1 x dims */
static void mode_de_x(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), KIND_DE);
    uint32_t p = (uint32_t)int_scalar(arg(nrhs, prhs, 2, "island"), "island (1-based)", 1, e->de_islands);
    uint32_t m = (uint32_t)int_scalar(arg(nrhs, prhs, 3, "member"), "member (1-based)", 1, e->de_members);
    plhs[0] = de_row(e, "metaopt_de_x", metaopt_de_x(e->de, p - 1, m - 1));
}

/* 'de-func-data', instance, data (numeric array: its raw bytes, e.g. 1.5 for one double under
 * opts.double, single(1.5) for one float; [] empties it) */
static void mode_de_func_data(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)plhs, (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), KIND_DE);
    size_t bytes;
    const void *data = data_bytes(arg(nrhs, prhs, 2, "data"), "data", &bytes);
    /* it evaluates the populations again (with a device objective: no m-function runs) */
    call_begin(e, NULL);
    Int32Result r = metaopt_de_func_data(e->de, bytes ? data : NULL, bytes);
    call_end(e);
    if (r.error_code != METAOPT_OK)
        fail_call(e, "metaopt_de_func_data", r.error_code, r.error_message);
}

/* ---------------------------------------------------------------------------------------- */
/* modes shared by the solvers                                                              */

static void mode_params(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs;
    /* QAP (no options; a 4th argument, DF, of n x n >= 4 values) or HC12 (a 3rd, dodParam, of 2
     * or more values; a 4th, maskOrder, a scalar or []) */
    const mxArray *a4 = nrhs >= 5 ? prhs[4] : NULL;
    if (options[0] || !a4) {
        hc12_params(plhs, nrhs, prhs, options);
    } else if ((!mxIsNumeric(a4) && !mxIsLogical(a4)) || mxGetNumberOfElements(a4) > 1) {
        qap_params(plhs, nrhs, prhs);
    } else if (mxGetNumberOfElements(prhs[3]) >= 2) {
        hc12_params(plhs, nrhs, prhs, options);
    } else {
        char df[96];
        snprintf(df, sizeof df, "%s", array_kind(a4));
        fail("badArgument",
             "neither form fits: DF (the 4th argument of the QAP form) must be an nElements x nElements "
             "[x nSlices] array, got %s; dodParam (the 3rd of the general HC12 form) must be [a b] or an "
             "nParam x 2 matrix, got %s%s",
             df, array_kind(prhs[3]), PARAMS_FORMS);
    }
}

static void mode_run(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), 0);
    if (e->kind == KIND_QAP) {
        if (options && *options)
            fail("badOption", "QAP run takes no options (':%s'); its tabu list is set by 'set-tabu-list'", options);
        qap_run(e, nlhs, plhs, nrhs, prhs);
    } else if (e->kind == KIND_HC12) {
        hc12_run(e, nlhs, plhs, nrhs, prhs, options);
    } else if (e->kind == KIND_DE) {
        fail("wrongKind", "'run' needs a QAP or general HC12 instance; a %s instance runs with 'de-run'", kind_name(e->kind));
    } else {
        fail("wrongKind", "'run' needs a QAP or general HC12 instance; a %s instance is solved by 'sat-solve'", kind_name(e->kind));
    }
}

/* 'set-tabu-list', instance, maxLength */
static void mode_set_tabu_list(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)plhs, (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), 0);
    uint32_t len = (uint32_t)int_scalar(arg(nrhs, prhs, 2, "maxLength"), "maxLength", 0, TABU_MAX_LENGTH);
    if (e->kind == KIND_QAP) {
        check_int("metaopt_init_tabu_list", metaopt_init_tabu_list(e->qap, len));
    } else if (e->kind == KIND_HC12) {
        e->tabu_length = len;
        if (e->hc12) {
            /* as a remade instance would have it (hc12_apply_settings) */
            hc12_check(e, "metaopt_hc12_init_tabu_list", metaopt_hc12_init_tabu_list(e->hc12, len));
            if (len)
                hc12_check(e, "metaopt_hc12_set_tabu_options", metaopt_hc12_set_tabu_options(e->hc12, &e->tabu));
        }
    } else {
        fail("wrongKind", "a %s instance has no tabu list of this kind", kind_name(e->kind));
    }
}

static void mode_info(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)options;
    Entry *e = entry_get(arg(nrhs, prhs, 1, "instance"), 0);
    if (e->kind == KIND_QAP) {
        plhs[0] = qap_info(e);
    } else if (e->kind == KIND_HC12) {
        plhs[0] = hc12_info(e);
    } else if (e->kind == KIND_DE) {
        plhs[0] = string_result("metaopt_de_info", metaopt_de_info(e->de));
    } else {
        mxArray *s = empty_struct();
        set_field(s, "kind", mxCreateString("sat"));
        set_num(s, "numVars", e->num_vars);
        set_num(s, "numClauses", e->num_clauses);
        set_num(s, "words", (e->num_vars + 31) / 32);
        plhs[0] = s;
    }
}

static void mode_free(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)plhs, (void)options;
    entry_release(entry_get(arg(nrhs, prhs, 1, "instance"), 0));
}

/* ---------------------------------------------------------------------------------------- */

typedef void (*ModeFn)(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options);

static const struct {
    const char *name;
    ModeFn fn;
    int outputs;       /* most outputs */
    int args;          /* most arguments after the mode; -1: the mode checks them */
    const char *usage; /* its arguments, for the message when there are too many */
} MODES[] = {
    {"get-device", mode_get_device, 1, 0, NULL},
    {"set-device", mode_set_device, 1, 1, "deviceNumber"},
    {"devices", mode_devices, 1, 0, NULL},
    {"mem-space-valid", mode_mem_space_valid, 1, 0, NULL},
    {"params", mode_params, 1, -1, NULL},
    {"params-file", mode_params_file, 1, 5, "path, swaps, maskOrder, startBit, bitLength"},
    {"set-tabu-list", mode_set_tabu_list, 0, 2, "instance, maxLength"},
    {"run", mode_run, 4, -1, NULL},
    {"solve", mode_solve, 1, 2, "instance, opts"},
    {"func-data", mode_func_data, 0, 3, "instance, funcName, data"},
    {"func-data-clean", mode_func_data_clean, 0, 2, "instance, funcName"},
    {"kernel-verbose", mode_kernel_verbose, 0, 2, "instance, verbose"},
    {"profiler-on", mode_profiler_on, 0, 1, "instance"},
    {"profiler-output", mode_profiler_output, 1, 1, "instance"},
    {"info", mode_info, 1, 1, "instance"},
    {"free", mode_free, 0, 1, "instance"},
    {"sat-parse", mode_sat_parse, 1, 1, "path"},
    {"sat-clauses", mode_sat_clauses, 1, 2, "numVars, clauses"},
    {"sat-evaluate", mode_sat_evaluate, 1, 3, "instance, assignments, useCpu"},
    {"sat-solve", mode_sat_solve, 1, 2, "instance, opts"},
    {"de-params", mode_de_params, 1, 6, "islands, members, dims, limits, bounds, opts"},
    {"de-init", mode_de_init, 0, 6, "instance, objective, mutation, migration, period, opts"},
    {"de-iteration", mode_de_iteration, 1, 1, "instance"},
    {"de-run", mode_de_run, 7, -1, NULL},
    {"de-bests", mode_de_bests, 1, 1, "instance"},
    {"de-best", mode_de_best, 1, 2, "instance, island"},
    {"de-x", mode_de_x, 1, 3, "instance, island, member"},
    {"de-func-data", mode_de_func_data, 0, 2, "instance, data"},
};

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
    /* the mode string lives in this call's frame: a nested call (from an m-function objective)
     * has its own, and the outer call's is put back when the objective returns */
    char mode[256];
    g_mode = "";
    if (nrhs < 1 || !mxIsChar(prhs[0]))
        mexErrMsgIdAndTxt("metaopt:usage", "metaopt_mex(mode, ...): the first argument must be a mode string such as "
                                           "'get-device', 'params', 'run', 'free' (see matlab/README.md)");
    if (mxGetString(prhs[0], mode, sizeof mode) != 0)
        mexErrMsgIdAndTxt("metaopt:usage", "metaopt_mex: the mode string is too long");
    if (nul_at(prhs[0]))
        mexErrMsgIdAndTxt("metaopt:usage", "metaopt_mex: the mode string holds a NUL character");
    g_mode = mode;
    char *colon = strchr(mode, ':');
    const char *options = "";
    char base[256];
    snprintf(base, sizeof base, "%s", mode);
    if (colon) {
        base[colon - mode] = '\0';
        options = colon + 1;
    }
    for (size_t i = 0; i < sizeof MODES / sizeof MODES[0]; ++i) {
        if (strcmp(base, MODES[i].name) != 0)
            continue;
        if (colon && strcmp(base, "run") != 0 && strcmp(base, "params") != 0)
            fail("badOption", "'%s' takes no options", base);
        if (MODES[i].outputs == 0 && nlhs > 0)
            fail("badArgument", "'%s' returns nothing: call it without an output", base);
        if (nlhs > MODES[i].outputs)
            fail("tooManyOutputs", "'%s' returns at most %d output%s", base, MODES[i].outputs,
                 MODES[i].outputs == 1 ? "" : "s");
        if (MODES[i].args >= 0 && nrhs - 1 > MODES[i].args) {
            if (MODES[i].args == 0)
                fail("tooManyArguments", "'%s' takes no arguments after the mode, got %d", base, nrhs - 1);
            fail("tooManyArguments", "'%s' takes at most %d argument%s after the mode (%s), got %d", base,
                 MODES[i].args, MODES[i].args == 1 ? "" : "s", MODES[i].usage, nrhs - 1);
        }
        MODES[i].fn(nlhs, plhs, nrhs, prhs, options);
        return;
    }
    fail("unknownMode", "unknown mode '%s'", base);
}
