"""The base of every class that owns a library handle: ``free()``, context manager, a finalizer
that frees the handle when the object is collected (or at interpreter exit), and the guard that
every library call on the handle goes through.

A subclass calls ``self._adopt(handle, free_function_name, keep=...)`` once it has a handle;
``keep`` holds objects the library still uses through the handle (e.g. the ctypes callback of
a Python objective) and lives exactly as long as the handle.

Every call on the handle runs inside ``with self._use("method") as h:``. It holds the
instance's lock (a ``threading.RLock``), so that threads sharing an instance are serialised:
a second thread waits until the running call returns. The same thread entering again while a
call is running can only come from the instance's own Python objective (the library calls it
on the thread that called it); that is refused with ``MetaoptError`` code ``BUSY`` before the
library is touched, and so is ``free()``: the handle, and the callback objects kept with it,
stay valid until the running call returns.
"""

import contextlib
import threading
import weakref

from . import _interrupt, _lib
from ._errors import ErrorCode, MetaoptError, check


def _free(free_name, handle, keep):
    # `keep` is only held until here: the handle (and with it the library's last use of
    # whatever `keep` holds) is released first.
    getattr(_lib.lib(), free_name)(handle)
    del keep


class Instance:
    """A library instance. Use ``with Cls(...) as x:`` or call ``x.free()``; an instance that
    is collected without either is freed then.

    An instance may be shared by threads: its calls run one at a time (a call waits for the
    one running). A Python objective must not call its own instance (``run``, ``init``,
    ``free``, ...): such a call raises ``MetaoptError`` with code ``ErrorCode.BUSY``, which ends
    the running call and is re-raised by it, like any exception of the objective."""

    _handle = None
    _finalizer = None
    # the CallbackState of a Python objective (HC12, IslandDE): its pending error is cleared
    # before each call and re-raised by `_check`
    _callback = None

    def __new__(cls, *args, **kwargs):
        # here rather than in __init__: the alternative constructors make instances with
        # cls.__new__(cls)
        self = super().__new__(cls)
        self._lock = threading.RLock()
        self._running = None  # the method whose library call is running, else None
        self._running_for = None  # the ident of the thread it runs for (_interrupt.caller_ident)
        return self

    def _adopt(self, handle, free_name, keep=None):
        self._handle = handle
        self._finalizer = weakref.finalize(self, _free, free_name, handle, keep)

    def _h(self):
        """The live handle; a ValueError once freed."""
        if self._handle is None:
            raise ValueError(f"{type(self).__name__}: the instance was freed (or never made)")
        return self._handle

    def _refuse_reentry(self, method):
        """A ``BUSY`` MetaoptError when a call of this instance is running for this thread: the
        objective re-entering it, on this thread or on the worker thread that makes the call
        for it (``_interrupt.run``). Checked before the lock too: the worker would wait forever
        for the lock that its launching thread holds."""
        if self._running is not None and self._running_for == _interrupt.caller_ident():
            name = type(self).__name__
            raise MetaoptError(
                ErrorCode.BUSY,
                f"the instance is busy: this call came from inside its running {name}.{self._running}() "
                f"(from its objective); an objective must not use its own instance",
                f"{name}.{method}",
            )

    @contextlib.contextmanager
    def _use(self, method):
        """Holds the instance for one library call of ``method`` and gives its live handle."""
        self._refuse_reentry(method)
        with self._lock:
            self._refuse_reentry(method)
            h = self._h()
            if self._callback is not None:
                self._callback.error = None
            self._running = method
            self._running_for = _interrupt.caller_ident()
            try:
                yield h
            finally:
                self._running = None

    def _check(self, r, function, interrupted_ok=False):
        """``check``, re-raising the Python objective's own exception when the call failed
        through it."""
        try:
            return check(r, function, interrupted_ok)
        except MetaoptError as err:
            if self._callback is not None:
                self._callback.raise_pending(err)
            violation = getattr(self, "_violation", None)
            if violation is not None:
                violation.raise_pending(err)
            raise

    @property
    def freed(self):
        return self._handle is None

    def free(self):
        """Releases the library instance and its device buffers; a second call does nothing.
        From another thread it waits for a running call; from the instance's own objective it
        is refused (``MetaoptError``, code ``BUSY``) and the instance stays as it was."""
        self._refuse_reentry("free")
        with self._lock:
            self._refuse_reentry("free")
            self._handle = None
            if self._finalizer is not None:
                self._finalizer()

    def __enter__(self):
        self._h()
        return self

    def __exit__(self, *exc):
        self.free()
        return False
