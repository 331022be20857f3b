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
 *
 * Ctrl-C during a long library call with no m-function objective (a DE or HC12 run on a device
 * objective, a QAP or SAT solve): metaopt_mex_run_cancellable runs the library call in a worker
 * thread while the MEX thread (the only one that touches Octave or MATLAB) polls for the
 * interrupt every METAOPT_MEX_POLL_MS and, when there is one, asks the call to stop (its stop
 * token) and waits for it; the call returns its best so far with METAOPT_INTERRUPTED.
 */
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <new>
#include <thread>

#ifdef METAOPT_MEX_OCTAVE
#include <octave/quit.h>
#elif defined(METAOPT_MEX_MATLAB_UT)
/* libut (MATLAB's, undocumented): the pending Ctrl-C */
extern "C" bool utIsInterruptPending(void);
extern "C" bool utSetInterruptPending(bool);
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

/* Whether the user has asked to interrupt (Ctrl-C pending): the one place that polls for it.
 * Octave's watcher thread counts a SIGINT in octave_interrupt_state at once (the interpreter
 * raises it at its next octave_quit, after the MEX call); MATLAB has no documented way to ask:
 * built with METAOPT_MEX_MATLAB_UT (build_matlab(libdir, 'utInterrupt')) this asks libut's
 * undocumented utIsInterruptPending, else it says no. */
extern "C" int metaopt_mex_interrupt_pending(void) {
#if defined(METAOPT_MEX_OCTAVE)
    return octave_interrupt_state > 0;
#elif defined(METAOPT_MEX_MATLAB_UT)
    return utIsInterruptPending() ? 1 : 0;
#else
    return 0;
#endif
}

/* The gateway has taken the pending interrupt and raises its own error (metaopt:interrupted)
 * for it: Octave handles its pending signals here (octave_quit, which throws the interrupt as an
 * octave::interrupt_exception, caught at once) and forgets the interrupt, so that the user sees
 * the gateway's error alone, not that and then Octave's own "interrupted" after the MEX call. */
extern "C" void metaopt_mex_take_interrupt(void) {
#if defined(METAOPT_MEX_OCTAVE)
    try {
        octave_quit();
    } catch (const octave::interrupt_exception &) {
    } catch (...) {
    }
    octave_interrupt_state = 0;
#elif defined(METAOPT_MEX_MATLAB_UT)
    utSetInterruptPending(false);
#endif
}

namespace {

/* What the worker and the polling thread share. */
struct Worker {
    void (*body)(void *);
    void *arg;
    std::mutex lock;
    std::condition_variable finished;
    bool done = false;
};

void work(Worker *w) {
    w->body(w->arg);
    std::lock_guard<std::mutex> hold(w->lock);
    w->done = true;
    w->finished.notify_one();
}

} // namespace

extern "C" int metaopt_mex_run_cancellable(void (*body)(void *), void *arg, void (*stop)(void *), void *stop_arg) {
    Worker w;
    w.body = body;
    w.arg = arg;
    std::thread worker;
    try {
        worker = std::thread(work, &w);
    } catch (...) {
        /* no thread to be had: the call runs here, to its own stop conditions */
        body(arg);
        return 0;
    }
    int interrupted = 0;
    {
        std::unique_lock<std::mutex> hold(w.lock);
        while (!w.done) {
            w.finished.wait_for(hold, std::chrono::milliseconds(METAOPT_MEX_POLL_MS));
            if (!w.done && !interrupted && metaopt_mex_interrupt_pending()) {
                interrupted = 1;
                hold.unlock();
                stop(stop_arg); /* the library call notices it within about one launch */
                hold.lock();
            }
        }
    }
    worker.join();
    return interrupted;
}
