"""The base of every class that owns a library handle: ``free()``, context manager, and a
finalizer that frees the handle when the object is collected (or at interpreter exit).

A subclass calls ``self._adopt(handle, free_function_name, keep=...)`` once it has a handle;
``keep`` holds objects the library still uses through the handle (e.g. the ctypes callback of
a Python objective) and lives exactly as long as the handle.
"""

import weakref

from . import _lib


def _free(free_name, handle, keep):
    # `keep` is only held until here: the handle (and with it the library's last use of
    # whatever `keep` holds) is released first.
    getattr(_lib.lib(), free_name)(handle)
    del keep


class Instance:
    """A library instance. Use ``with Cls(...) as x:`` or call ``x.free()``; an instance that
    is collected without either is freed then."""

    _handle = None
    _finalizer = None

    def _adopt(self, handle, free_name, keep=None):
        self._handle = handle
        self._finalizer = weakref.finalize(self, _free, free_name, handle, keep)

    def _h(self):
        """The live handle; a ValueError once freed."""
        if self._handle is None:
            raise ValueError(f"{type(self).__name__}: the instance was freed (or never made)")
        return self._handle

    @property
    def freed(self):
        return self._handle is None

    def free(self):
        """Releases the library instance and its device buffers; a second call does nothing."""
        self._handle = None
        if self._finalizer is not None:
            self._finalizer()

    def __enter__(self):
        self._h()
        return self

    def __exit__(self, *exc):
        self.free()
        return False
