"""Cancellation: ``interrupt()``, ``StopToken``, the ``Interrupted`` exception and the runner that
makes long library calls answer Ctrl-C (docs/specs/API.md, "Cancellation").

A ctypes call holds the main thread inside C until it returns, and Python runs its SIGINT handler
only between bytecodes of the main thread: a long solve would ignore Ctrl-C. ``run`` therefore
makes a long call from the main thread in a worker thread (ctypes releases the GIL) and waits
for it in a join loop with a short timeout, where ``KeyboardInterrupt`` arrives. Then it
requests the call's stop token (made for the call and passed in the options' ``stop_token``
field), or calls ``metaopt_interrupt`` for a call without a token field, and waits for the
worker: the library stops within about one kernel launch and fills the result with the best so
far (``METAOPT_INTERRUPTED``). The caller builds its result object from it and raises
``Interrupted`` (a ``KeyboardInterrupt``) carrying it. From other threads the call is made
directly: signals reach only the main thread.
"""

import itertools
import threading
import time
import weakref

from . import _lib
from ._errors import ErrorCode, check_int

# the join loop's timeout: how long a Ctrl-C may wait before the stop is requested
_POLL_S = 0.05
# a thread that makes a call for another (the worker of `run`) records that thread's ident here,
# so that an instance sees its own objective re-entering it from the worker (_handle.Instance)
_tls = threading.local()
# bumped by interrupt(): loops written in Python (minimize) check it between library calls,
# which metaopt_interrupt cannot stop once they have returned
_epoch = itertools.count(1)
_epoch_now = [0]


def caller_ident():
    """The thread a library call is made for: the worker's launching thread, else this one."""
    return getattr(_tls, "caller", None) or threading.get_ident()


def interrupt():
    """Stops every library call running at this moment, in any thread (``metaopt_interrupt``):
    each returns its best so far with ``stop == "interrupted"``; calls started afterwards run
    normally. Also stops ``minimize``'s Python loops at their next step. From a signal handler,
    the library's own ``metaopt_interrupt`` is safe too."""
    _epoch_now[0] = next(_epoch)
    _lib.lib().metaopt_interrupt()


def epoch():
    """How many times ``interrupt()`` was called (minimize compares it before and after)."""
    return _epoch_now[0]


class StopToken:
    """A stop request for the calls that carry it: pass it as ``stop_token=`` to ``IslandDE.run``,
    ``HC12.run``, ``HC12QAP.solve``/``solve_ts``, ``SAT.solve``, ``QIGA.run``, ``qap.solve``,
    ``sat.solve`` or ``minimize``, and call ``request()`` from any thread (not from a signal handler: use
    ``interrupt()`` there); the calls return their best so far with ``stop == "interrupted"``.
    A requested token stays requested (later calls carrying it stop at once) until ``reset()``.

    ``with StopToken() as t:`` frees it at the end of the block; otherwise ``free()`` or garbage
    collection does."""

    def __init__(self):
        L = _lib.lib()
        p = L.metaopt_stop_token_create()
        if not p:
            raise MemoryError("metaopt_stop_token_create returned NULL")
        self._ptr = p
        self._finalizer = weakref.finalize(self, L.metaopt_stop_token_free, p)

    def _p(self):
        if self._ptr is None:
            raise ValueError("StopToken: the token was freed")
        return self._ptr

    def request(self):
        """Asks every call carrying this token to stop (from any thread)."""
        check_int(_lib.lib().metaopt_stop_token_request(self._p()), "metaopt_stop_token_request")

    def reset(self):
        """Clears the request, so the token can serve later calls."""
        check_int(_lib.lib().metaopt_stop_token_reset(self._p()), "metaopt_stop_token_reset")

    @property
    def requested(self) -> bool:
        """Whether ``request()`` was called (and not ``reset()`` since)."""
        return bool(_lib.lib().metaopt_stop_token_is_requested(self._p()))

    def free(self):
        """Releases the library's token (a call carrying it keeps its own reference until it
        returns); a second call does nothing."""
        self._ptr = None
        self._finalizer()

    @property
    def freed(self) -> bool:
        return self._ptr is None

    def __enter__(self):
        self._p()
        return self

    def __exit__(self, *exc):
        self.free()
        return False

    def __repr__(self):
        state = "freed" if self._ptr is None else ("requested" if self.requested else "not requested")
        return f"<metaopt.StopToken {state}>"


def token_arg(stop_token):
    """The ``stop_token=`` argument checked: a StopToken or None."""
    if stop_token is None or isinstance(stop_token, StopToken):
        if stop_token is not None:
            stop_token._p()
        return stop_token
    raise TypeError(f"stop_token must be a metaopt.StopToken or None, got {type(stop_token).__name__}")


class Interrupted(KeyboardInterrupt):
    """A Ctrl-C (``KeyboardInterrupt``) during a library call, after the call stopped: ``result``
    is what the call found so far (a ``DEResult``, ``HC12Result``, ``QAPTsSolution``,
    ``QAPSolution``, ``SATResult``, ``QIGAResult``, ``QAPRun`` or ``OptimizeResult``, with ``stop ==
    "interrupted"``), or None when the call had nothing to give. ``except KeyboardInterrupt``
    catches it."""

    def __init__(self, result=None, where=None):
        self.result = result
        self.where = where
        what = f" in {where}" if where else ""
        super().__init__(f"interrupted{what}; the best so far is in the exception's .result")


def run(fn, args, options=None, stop_token=None, where=None):
    """Calls ``fn(*args)`` (a ctypes function of the library); returns ``(its value,
    interrupted)`` where ``interrupted`` is the exception (``KeyboardInterrupt``, or another
    exception of a signal handler) that arrived meanwhile, else None.

    ``options``: the options struct passed in ``args`` when it has a ``stop_token`` field, else
    None (then a Ctrl-C calls ``metaopt_interrupt``). ``stop_token``: the user's ``StopToken``
    or None; it is put into ``options`` here, and a Ctrl-C requests it; without one, a token is
    made for the call."""
    L = _lib.lib()
    if options is not None and stop_token is not None:
        options.stop_token = stop_token._p()
    if threading.current_thread() is not threading.main_thread():
        return fn(*args), None
    own = None
    if options is not None and stop_token is None:
        own = L.metaopt_stop_token_create()
        options.stop_token = own
    token = stop_token._p() if stop_token is not None else own
    box = {}
    caller = threading.get_ident()
    # held while the call runs; released by the worker at its end. Waiting on a plain lock rather
    # than Thread.join: a KeyboardInterrupt inside join can leave the Thread marked as ended.
    running = threading.Lock()
    running.acquire()

    def work():
        _tls.caller = caller
        try:
            box["value"] = fn(*args)
        except BaseException as e:  # noqa: BLE001 - re-raised in the calling thread
            box["error"] = e
        finally:
            running.release()

    t = threading.Thread(target=work, name=f"metaopt {where or 'call'}", daemon=True)
    caught = None
    last_stop = 0.0
    try:
        t.start()
        done = False
        while not done:
            try:
                done = running.acquire(timeout=_POLL_S)
                # a call without a token may have snapshotted the interrupt epoch after the
                # first metaopt_interrupt: ask again every half second until it returns
                if caught is not None and not token and time.monotonic() - last_stop > 0.5:
                    L.metaopt_interrupt()
                    last_stop = time.monotonic()
            except BaseException as e:  # noqa: BLE001 - KeyboardInterrupt or a signal handler's
                if caught is None:
                    caught = e
                if token:
                    L.metaopt_stop_token_request(token)
                else:
                    L.metaopt_interrupt()
                last_stop = time.monotonic()
    finally:
        if own:
            options.stop_token = None
            L.metaopt_stop_token_free(own)
    if "error" in box:
        raise box["error"]
    return box["value"], caught


def raise_interrupted(caught, result, where):
    """Raises ``Interrupted(result)`` for a KeyboardInterrupt that ``run`` caught (another
    exception of a signal handler is raised as it is, with ``.result`` set)."""
    if isinstance(caught, KeyboardInterrupt):
        raise Interrupted(result, where) from None
    try:
        caught.result = result
    except AttributeError:
        pass
    raise caught


def stop_word(code):
    """The library's word of a ``MetaoptStopReason`` (``metaopt_stop_reason_word``), the one
    vocabulary of every front end: ``budget`` (the solver's own count: runs, iterations,
    generations, flips), ``evaluations``, ``time_limit``, ``target``, ``stagnation``,
    ``interrupted``, ``converged`` or ``done``; a number the library does not know, as text."""
    word = _lib.lib().metaopt_stop_reason_word(int(code))
    return word.decode("ascii") if word else str(int(code))


def result_stop(r):
    """The ``stop`` of a library result with a ``stop_reason`` field: its word, ``interrupted``
    for a result returned with ``METAOPT_INTERRUPTED``."""
    if r.error_code == ErrorCode.INTERRUPTED:
        return "interrupted"
    return stop_word(r.stop_reason)
