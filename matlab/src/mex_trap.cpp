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
