/*
 * mex_objective.c: m-function objectives of the metaopt MEX gateway (HC12 'run', 'de-init',
 * 'de-iteration', 'de-run'), and how a failed library call on an instance is raised.
 *
 * The library calls mex_objective from inside its own (Rust) frames, which no MATLAB/Octave
 * exception may cross, so the callback's MATLAB work runs inside metaopt_mex_protect
 * (mex_trap.cpp), and the objective's error, an exception, or the user's Ctrl-C
 * (`metaopt:interrupted`) is kept in the instance's Entry and raised once the library call has
 * returned (fail_call). While such a call runs its instance is busy (call_begin / call_end in
 * mex_handles.c): the objective may call metaopt_mex, but any use of that instance is
 * `metaopt:busy`, and the MEX file stays locked.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mex_internal.h"
#include "mex_trap.h"

/* ---------------------------------------------------------------------------------------- */
/* an objective argument                                                                    */

int objective_arg(const mxArray *fun, Entry *e, MetaoptObjective *o, char *label, size_t cap) {
    static const char *source_fields[] = {"source", "name", NULL};
    memset(o, 0, sizeof *o);
    label[0] = '\0';
    int callback = 0;
    if (mxIsFunctionHandle(fun)) {
        callback = 1;
        snprintf(label, cap, "function handle");
    } else if (mxIsStruct(fun)) {
        if (mxGetNumberOfElements(fun) != 1)
            fail("badArgument", "an objective struct must be 1x1 with fields source and name");
        check_fields(fun, "objective", source_fields);
        const mxArray *code = mxGetField(fun, 0, "source");
        if (!code)
            fail("badArgument", "an objective struct needs the field source (OpenCL C code)");
        o->kind = METAOPT_OBJECTIVE_SOURCE;
        o->source = string_arg(code, "objective.source");
        const mxArray *name = mxGetField(fun, 0, "name");
        if (name && !mxIsEmpty(name))
            o->function_name = string_arg(name, "objective.name");
    } else if (mxIsChar(fun)) {
        char *name = string_arg(fun, "objective");
        if (!name[0])
            fail("badArgument", "objective is empty");
        if (name[0] != '@') {
            callback = 1;
            snprintf(label, cap, "m-function %s", name);
        } else {
            size_t len = strlen(name + 1);
            if (len > 3 && strcmp(name + 1 + len - 3, ".cl") == 0) {
                o->kind = METAOPT_OBJECTIVE_SOURCE;
                o->source = read_file(name + 1);
                o->function_name = name + 1;
            } else {
                o->kind = METAOPT_OBJECTIVE_CATALOGUE;
                o->function_name = name + 1;
            }
        }
    } else {
        fail("badArgument", "objective must be a function handle, an m-function name, '@CATALOGUE', '@FILE.cl' or a "
                            "struct with field source (OpenCL C code), got a %s", mxGetClassName(fun));
    }
    if (callback) {
        o->kind = METAOPT_OBJECTIVE_HOST_CALLBACK;
        o->callback = mex_objective;
        o->user_data = e;
        o->function_name = label;
    }
    return callback;
}

/* ---------------------------------------------------------------------------------------- */
/* the host callback                                                                        */

/* A struct error {message, identifier} for `rethrow`. */
static mxArray *error_struct(const char *identifier, const char *message) {
    const char *fields[] = {"message", "identifier"};
    mxArray *err = mxCreateStructMatrix(1, 1, 2, fields);
    mxSetField(err, 0, "message", mxCreateString(message));
    mxSetField(err, 0, "identifier", mxCreateString(identifier));
    return err;
}

/* One call of the m-function objective (or violation): the library's arguments and what the
 * call ended with. */
typedef struct {
    Entry *e;
    const mxArray *fn; /* e->fun or e->viol */
    int violation;     /* 1: fn is the violation (may give NaN, never a negative value) */
    const double *x;
    uint32_t rows, dims;
    double *f;
    int32_t status; /* the callback's: 0 the values are in f, else failed (e->fun_error says why) */
} ObjectiveCall;

/* Calls the m-function of the running call on the rows x dims matrix through
 * metaopt_call_objective.m, which returns the m-function's error instead of raising it, and
 * copies its rows values back; an error is kept in e->fun_error. A violation may be NaN (the
 * library counts it as infinite); an objective may not. Runs inside metaopt_mex_protect:
 * whatever Octave or MATLAB throws here (Ctrl-C, an mx allocation error) stops there, never
 * unwinding through the library. */
static void objective_body(void *arg) {
    ObjectiveCall *c = arg;
    Entry *e = c->e;
    uint32_t rows = c->rows, dims = c->dims;
    int violation = c->violation;
    const char *what = violation ? "violation" : "objective";
    c->status = 1;
    e->fun_calls++;
    if (!c->fn) {
        char msg[128];
        snprintf(msg, sizeof msg, "the m-function %s is not set (internal error)", what);
        e->fun_error = error_struct("metaopt:objective", msg);
        return;
    }
    mxArray *X = mxCreateDoubleMatrix(rows, dims, mxREAL);
    double *xd = mxGetData(X);
    for (uint32_t r = 0; r < rows; ++r)
        for (uint32_t j = 0; j < dims; ++j)
            xd[r + (size_t)j * rows] = c->x[(size_t)r * dims + j];
    mxArray *in[2] = {(mxArray *)c->fn, X};
    mxArray *out[2] = {NULL, NULL};
    mxArray *trapped = mexCallMATLABWithTrap(2, out, 2, in, "metaopt_call_objective");
    mxDestroyArray(X);
    if (trapped) {
        char msg[192];
        snprintf(msg, sizeof msg, "cannot call the %s through metaopt_call_objective.m (it must lie on the path beside "
                                  "metaopt_mex)", what);
        e->fun_error = error_struct("metaopt:objective", msg);
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
                 "the %s must return %u real values (a real numeric vector, one value per row of its %u x %u "
                 "argument), got %s",
                 what, rows, rows, dims, got);
    } else {
        for (uint32_t r = 0; r < rows; ++r) {
            c->f[r] = elem(F, r);
            if (isnan(c->f[r]) && !violation) {
                snprintf(msg, sizeof msg, "the objective returned NaN for row %u", r + 1);
                break;
            }
            if (c->f[r] < 0 && violation) {
                snprintf(msg, sizeof msg, "the violation returned %g for row %u; a violation is >= 0 (0: feasible)",
                         c->f[r], r + 1);
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

static int32_t call_m_function(const mxArray *fn, int violation, const double *x, uint32_t rows, uint32_t dims,
                               double *f, void *user_data) {
    ObjectiveCall c = {user_data, fn, violation, x, rows, dims, f, 1};
    const char *mode = g_mode; /* a nested MEX call from the objective sets its own */
    int trap = metaopt_mex_protect(objective_body, &c, &c.e->fun_exception);
    g_mode = mode;
    if (trap == METAOPT_MEX_TRAP_INTERRUPTED)
        c.e->fun_interrupted = 1;
    return trap == METAOPT_MEX_TRAP_OK ? c.status : 3;
}

/* The host callback the library calls (user_data: the Entry). */
int32_t mex_objective(const double *x, uint32_t rows, uint32_t dims, double *f, void *user_data) {
    return call_m_function(((Entry *)user_data)->fun, 0, x, rows, dims, f, user_data);
}

int32_t mex_violation(const double *x, uint32_t rows, uint32_t dims, double *v, void *user_data) {
    return call_m_function(((Entry *)user_data)->viol, 1, x, rows, dims, v, user_data);
}

/* ---------------------------------------------------------------------------------------- */
/* constraint options                                                                       */

void constraint_counts(const mxArray *v, const char *what, MetaoptConstraints *c) {
    check_real_numeric(v, what, "[NG NH]");
    if (mxGetNumberOfElements(v) != 2)
        fail("badArgument", "%s must be [NG NH] (two counts), got %zu values", what, mxGetNumberOfElements(v));
    double ng = elem(v, 0), nh = elem(v, 1);
    if (!(ng >= 0 && ng <= 4294967295.0 && ng == floor(ng) && nh >= 0 && nh <= 4294967295.0 && nh == floor(nh)))
        fail("badArgument", "%s must be two whole counts >= 0, got [%g %g]", what, ng, nh);
    c->inequalities = (uint32_t)ng;
    c->equalities = (uint32_t)nh;
}

int has_constraint_fields(const mxArray *s) {
    static const char *const names[] = {"constraints", "violation", "eqTol", "constraintHandling", "repair", NULL};
    for (int k = 0; s && names[k]; ++k)
        if (opt(s, names[k]))
            return 1;
    return 0;
}

int constraints_arg(const mxArray *s, Entry *e, int callback, unsigned what, MetaoptConstraints *c, mxArray **viol) {
    const mxArray *counts = s ? opt(s, "constraints") : NULL;
    const mxArray *vfun = s ? opt(s, "violation") : NULL;
    const mxArray *tol = s ? opt(s, "eqTol") : NULL;
    const mxArray *rule = s ? opt(s, "constraintHandling") : NULL;
    const mxArray *repair = s ? opt(s, "repair") : NULL;
    *viol = NULL;
    *c = metaopt_default_constraints();
    if (!counts && !vfun) {
        if (tol || rule || repair)
            fail("badOption", "eqTol, constraintHandling and repair go with constraints [NG NH] (an OpenCL source) or "
                              "violation (an m-function objective)");
        return 0;
    }
    if (counts && vfun)
        fail("badOption", "give constraints [NG NH] (an OpenCL source objective's) or violation (an m-function "
                          "objective's), not both");
    if (counts && callback)
        fail("badOption", "constraints [NG NH] are computed by an OpenCL source objective's constraints function; an "
                          "m-function objective gives opts.violation");
    if (vfun && !callback)
        fail("badOption", "opts.violation goes with an m-function objective; an OpenCL source objective defines "
                          "constraints and gives their counts, opts.constraints [NG NH]");
    if (counts) {
        constraint_counts(counts, "opts.constraints", c);
    } else {
        if (!mxIsFunctionHandle(vfun) && !(mxIsChar(vfun) && mxGetNumberOfElements(vfun) > 0))
            fail("badArgument", "opts.violation must be a function handle or an m-function name, got a %s",
                 mxGetClassName(vfun));
        if (tol)
            fail("badOption", "opts.eqTol goes with constraints [NG NH]; opts.violation gives the violations itself");
        c->violation = mex_violation;
        c->user_data = e;
    }
    if (tol)
        c->eq_tol = real_scalar(tol, "opts.eqTol");
    if (rule) {
        if (!(what & CONSTRAINTS_EPSILON))
            fail("badOption", "opts.constraintHandling: this solver compares by Deb's feasibility rules only");
        if (mxIsChar(rule)) {
            char *w = string_arg(rule, "opts.constraintHandling");
            if (strcmp(w, "deb") == 0)
                c->handling = 0;
            else if (strcmp(w, "epsilon") == 0)
                c->handling = 1;
            else
                fail("badOption", "opts.constraintHandling must be 'deb', 'epsilon' or [theta tc cp], got '%s'", w);
        } else {
            check_real_numeric(rule, "opts.constraintHandling", "[theta tc cp]");
            if (mxGetNumberOfElements(rule) != 3)
                fail("badArgument", "opts.constraintHandling must be 'deb', 'epsilon' or [theta tc cp]");
            double tc = elem(rule, 1);
            if (!(tc >= 0 && tc <= 1.8e19 && tc == floor(tc)))
                fail("badArgument", "opts.constraintHandling: tc must be a whole number of generations, got %g", tc);
            c->handling = 1;
            c->epsilon_theta = elem(rule, 0);
            c->epsilon_tc = (uint64_t)tc;
            c->epsilon_cp = elem(rule, 2);
        }
    }
    if (repair) {
        if (!(what & CONSTRAINTS_REPAIR))
            fail("badOption", "opts.repair: only island DE (de-init) takes the gradient-based repair");
        check_real_numeric(repair, "opts.repair", "a probability, or [probability rounds]");
        size_t k = mxGetNumberOfElements(repair);
        if (k != 1 && k != 2)
            fail("badArgument", "opts.repair must be a probability or [probability rounds], got %zu values", k);
        c->repair_probability = elem(repair, 0); /* the library checks (0, 1] */
        if (k == 2) {
            double r = elem(repair, 1);
            if (!(r >= 0 && r <= 4294967295.0 && r == floor(r)))
                fail("badArgument", "opts.repair: rounds must be a whole number, got %g", r);
            c->repair_rounds = (uint32_t)r;
        }
    }
    if (vfun) {
        *viol = mxDuplicateArray(vfun);
        mexMakeArrayPersistent(*viol);
    }
    return 1;
}

/* ---------------------------------------------------------------------------------------- */
/* failed calls                                                                             */

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
        metaopt_mex_take_interrupt(); /* caught in the objective: the gateway's error is the one raised */
        fail("interrupted", "interrupted by the user (Ctrl-C) in the m-function objective");
    }
    if (exception)
        metaopt_mex_rethrow(exception);
    if (err) {
        mexCallMATLAB(0, NULL, 1, &err, "rethrow");
        mexErrMsgIdAndTxt("metaopt:objective", "the objective failed"); /* not reached */
    }
}

void fail_call(Entry *e, const char *call, int32_t code, char *message) {
    if (e && (e->fun_interrupted || e->fun_exception || e->fun_error)) {
        metaopt_pointer_free(message);
        raise_objective_failure(e);
    }
    fail_library(call, code, message);
}

int32_t check_call(Entry *e, const char *call, MetaoptInt32Result r) {
    if (r.error_code != METAOPT_OK)
        fail_call(e, call, r.error_code, r.error_message);
    return r.result;
}

/* ---------------------------------------------------------------------------------------- */
/* objective sources                                                                        */

uint8_t *read_bytes(const char *path, const char *what, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f)
        fail("io", "%s: cannot open %s", what, path);
    size_t cap = 4096, len = 0, got;
    uint8_t *s = mxMalloc(cap);
    while ((got = fread(s + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap)
            s = mxRealloc(s, cap *= 2);
    }
    fclose(f);
    *n = len;
    return s;
}

char *read_file(const char *path) {
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
