/*
 * mex_trap.cpp: the one C++ part of the metaopt MEX gateway (see mex_trap.h).
 *
 * Octave and MATLAB raise errors and user interrupts (Ctrl-C) as C++ exceptions. The gateway's
 * host callback runs inside libmetaopt's Rust frames, which abort the process when a foreign
 * exception unwinds into them, so everything the callback does in Octave or MATLAB (the mx
 * calls and the call of the m-function) runs inside metaopt_mex_protect, which stops every
 * exception there. Octave's interrupt is recognised when the gateway is built by build_octave
 * (METAOPT_MEX_OCTAVE, with Octave's headers); any other exception, and MATLAB's interrupt, is
 * kept and thrown again once the library call has returned.
 */
#include <exception>
#include <new>

#ifdef METAOPT_MEX_OCTAVE
#include <octave/quit.h>
#endif

#include "mex_trap.h"

extern "C" int metaopt_mex_protect(void (*body)(void *), void *arg, void **exception) {
    try {
        body(arg);
        return METAOPT_MEX_TRAP_OK;
#ifdef METAOPT_MEX_OCTAVE
    } catch (const octave::interrupt_exception &) {
        return METAOPT_MEX_TRAP_INTERRUPTED;
#endif
    } catch (...) {
        *exception = new (std::nothrow) std::exception_ptr(std::current_exception());
        return METAOPT_MEX_TRAP_EXCEPTION;
    }
}

extern "C" void metaopt_mex_rethrow(void *exception) {
    std::exception_ptr *kept = static_cast<std::exception_ptr *>(exception);
    std::exception_ptr e = *kept;
    delete kept;
    std::rethrow_exception(e);
}

extern "C" void metaopt_mex_discard(void *exception) {
    delete static_cast<std::exception_ptr *>(exception);
}

/* The seam for Ctrl-C during a long library call (issue 15): whether the user has asked to
 * interrupt. Today only an m-function objective sees Ctrl-C (metaopt_mex_protect, above); a
 * call on a catalogue or OpenCL C objective (or a QAP or SAT solve) runs to its own stop
 * condition. When the library's cancel API lands, the gateway passes it a check that calls this
 * function (and nothing else polls for interrupts). Octave keeps a pending interrupt in
 * octave_interrupt_state; MATLAB has no documented way to ask, so there this says no. */
extern "C" int metaopt_mex_interrupt_pending(void) {
#ifdef METAOPT_MEX_OCTAVE
    return octave_interrupt_state > 0;
#else
    return 0;
#endif
}
