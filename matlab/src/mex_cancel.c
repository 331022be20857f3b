/*
 * mex_cancel.c: Ctrl-C during the long library calls of the metaopt MEX gateway (DE and HC12
 * runs, the QAP solves, the SAT solve), through the library's cancellation (stop tokens,
 * METAOPT_INTERRUPTED; docs/ARCHITECTURE.md, "Cancellation").
 *
 * A call with no m-function objective runs in a worker thread (mex_trap.cpp) while the MEX
 * thread polls for Ctrl-C and, on one, requests the call's own stop token (made per call and
 * passed in its options' stop_token field; metaopt_interrupt where the call has none); the call
 * returns its best so far with METAOPT_INTERRUPTED and the mode raises `metaopt:interrupted`
 * ("interrupted (Ctrl-C); best so far: ..."), the instance keeping its state. A call with an
 * m-function objective stays on the MEX thread (the library calls the objective from the thread
 * that runs it, and only that thread may call Octave or MATLAB): there the objective sees Ctrl-C
 * (mex_objective.c). METAOPT_INTERRUPTED without the user's Ctrl-C (a stop request from
 * elsewhere: metaopt_interrupt, the mode 'interrupt') is a result, stopReason 'interrupted',
 * with the warning `metaopt:interrupted`.
 */
#include <stdint.h>
#include <stdio.h>

#include "mex_internal.h"
#include "mex_trap.h"

static void request_stop(void *token) {
    if (token) {
        MetaoptInt32Result r = metaopt_stop_token_request(token);
        metaopt_pointer_free(r.error_message);
    } else {
        metaopt_interrupt();
    }
}

MetaoptStopToken *cancel_token(void) {
    return metaopt_stop_token_create();
}

int run_cancellable(int here, void (*body)(void *), void *arg, MetaoptStopToken *token) {
    if (here) {
        body(arg);
        return 0;
    }
    return metaopt_mex_run_cancellable(body, arg, request_stop, token);
}

int cancel_outcome(int user, int32_t *code, char **message) {
    if (user && (*code == METAOPT_OK || *code == METAOPT_INTERRUPTED))
        return CANCEL_USER;
    if (*code == METAOPT_INTERRUPTED) {
        metaopt_pointer_free(*message);
        *message = NULL;
        *code = METAOPT_OK;
        return CANCEL_STOPPED;
    }
    return CANCEL_NONE;
}

void fail_interrupted(const char *best) {
    metaopt_mex_take_interrupt();
    fail("interrupted", "interrupted (Ctrl-C); best so far: %s", best);
}

void warn_stopped(void) {
    mexWarnMsgIdAndTxt("metaopt:interrupted",
                       "mode '%s': stopped by a stop request (metaopt_interrupt or a stop token), not Ctrl-C; the result is "
                       "the best so far (stopReason 'interrupted')",
                       g_mode ? g_mode : "metaopt_mex");
}

const char *stop_reason_name(int32_t reason) {
    switch (reason) {
    case METAOPT_STOP_TARGET: return "target";
    case METAOPT_STOP_TIME_LIMIT: return "timeLimit";
    case METAOPT_STOP_LIMIT: return "limit";
    case METAOPT_STOP_INTERRUPTED: return "interrupted";
    case METAOPT_STOP_EVALUATIONS: return "evaluations";
    case METAOPT_STOP_STAGNATION: return "stagnation";
    case METAOPT_STOP_CONVERGED: return "converged";
    case METAOPT_STOP_DONE: return "done";
    default: return "unknown";
    }
}

/* 'interrupt': metaopt_interrupt, which stops every library call running now (from an
 * m-function objective: the call that runs it, which then returns its best so far with
 * stopReason 'interrupted' and the warning metaopt:interrupted) */
void mode_interrupt(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, const char *options) {
    (void)nlhs, (void)plhs, (void)nrhs, (void)prhs, (void)options;
    metaopt_interrupt();
}
