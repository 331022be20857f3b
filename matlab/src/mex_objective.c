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
int32_t mex_objective(const double *x, uint32_t rows, uint32_t dims, double *f, void *user_data) {
    ObjectiveCall c = {user_data, x, rows, dims, f, 1};
    const char *mode = g_mode; /* a nested MEX call from the objective sets its own */
    int trap = metaopt_mex_protect(objective_body, &c, &c.e->fun_exception);
    g_mode = mode;
    if (trap == METAOPT_MEX_TRAP_INTERRUPTED)
        c.e->fun_interrupted = 1;
    return trap == METAOPT_MEX_TRAP_OK ? c.status : 3;
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
