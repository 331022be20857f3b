/*
 * mex_trap.h: the C interface of mex_trap.cpp, the one C++ part of the metaopt MEX gateway
 * (used by mex_objective.c).
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

/* Whether the user has asked to interrupt (Ctrl-C pending): the one place that polls for it,
 * the seam for the library's cancel API (see mex_trap.cpp). Not called yet. */
int metaopt_mex_interrupt_pending(void);

#ifdef __cplusplus
}
#endif

#endif
