/*
 * mex_trap.h: the C interface of mex_trap.cpp, the one C++ part of the metaopt MEX gateway
 * (used by mex_objective.c and mex_cancel.c).
 */
#ifndef METAOPT_MEX_TRAP_H
#define METAOPT_MEX_TRAP_H

#ifdef __cplusplus
extern "C" {
#endif

/* How metaopt_mex_protect's body ended. */
enum {
    METAOPT_MEX_TRAP_OK = 0,          /* it returned */
    METAOPT_MEX_TRAP_INTERRUPTED = 1, /* Octave's interrupt (Ctrl-C) stopped it */
    METAOPT_MEX_TRAP_EXCEPTION = 2    /* another exception stopped it: *exception keeps it */
};

/* Calls body(arg), catching every exception that leaves it (Octave's and MATLAB's errors and
 * interrupts are C++ exceptions), so that none unwinds through the caller's frames: the host
 * callback runs the m-function objective this way, inside libmetaopt's Rust frames, through
 * which no foreign exception may pass. An exception other than Octave's interrupt is kept in a
 * new *exception (NULL if it could not be kept), for metaopt_mex_rethrow or
 * metaopt_mex_discard; *exception is not touched otherwise. */
int metaopt_mex_protect(void (*body)(void *), void *arg, void **exception);

/* Throws the exception that metaopt_mex_protect kept, as it was (once the library call has
 * returned), and frees its copy; does not return. */
void metaopt_mex_rethrow(void *exception);

/* Frees a kept exception without throwing it (NULL: nothing). */
void metaopt_mex_discard(void *exception);

/* Whether the user has asked to interrupt (Ctrl-C pending): the one place that polls for it
 * (Octave's pending interrupt; MATLAB's only where built with METAOPT_MEX_MATLAB_UT). */
int metaopt_mex_interrupt_pending(void);

/* Marks the pending interrupt handled, before the gateway raises metaopt:interrupted for it (in
 * Octave: processed and cleared, so that Octave does not raise its own as well). */
void metaopt_mex_take_interrupt(void);

/* How often the MEX thread looks for Ctrl-C while a library call runs in the worker. */
#define METAOPT_MEX_POLL_MS 50

/* Runs body(arg) in a worker thread while this thread polls metaopt_mex_interrupt_pending every
 * METAOPT_MEX_POLL_MS; on an interrupt it calls stop(stop_arg) once (which asks the library call
 * to stop: its stop token) and keeps waiting for body to return. body must not call any mx or
 * mex function, nor an m-function objective (it runs outside the MEX thread). Returns 1 when
 * stop was called (the user interrupted), else 0; without a thread, body runs here (0). */
int metaopt_mex_run_cancellable(void (*body)(void *), void *arg, void (*stop)(void *), void *stop_arg);

#ifdef __cplusplus
}
#endif

#endif
