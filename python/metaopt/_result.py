"""Equality for result dataclasses that hold NumPy arrays (field by field, arrays by value;
fields declared with ``compare=False``, the wall times, are left out), and NumPy arrays over a
library result's own buffers (``LibraryOwned``)."""

import ctypes
import dataclasses
import weakref

import numpy as np


class ArrayEq:
    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        for f in dataclasses.fields(self):
            if not f.compare:  # wall times
                continue
            a, b = getattr(self, f.name), getattr(other, f.name)
            if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
                if a is None or b is None or not np.array_equal(a, b):
                    return False
            elif a != b:
                return False
        return True

    __hash__ = None


class LibraryOwned:
    """A C result struct whose arrays NumPy arrays view without a copy: the struct is freed with
    the library's ``free`` function (passed a pointer to it) once no view of it is left (the
    owner is garbage collected), or at exit."""

    def __init__(self, result, free):
        self._result = result
        self._finalizer = weakref.finalize(self, free, ctypes.byref(result))

    def free(self):
        """Frees the struct now (the views must be gone or unused: for an error path)."""
        self._finalizer()

    def array(self, pointer, shape, dtype):
        """A NumPy array of ``shape`` over ``pointer`` (an array of the struct), keeping this
        owner alive while it lives; an empty array when ``pointer`` is NULL or ``shape`` holds
        0."""
        dtype = np.dtype(dtype)
        count = int(np.prod(shape, dtype=np.int64))
        if not pointer or count == 0:
            return np.zeros(shape, dtype)
        return np.asarray(_View(self, ctypes.cast(pointer, ctypes.c_void_p).value, shape, dtype))


class _View:
    """The ``__array_interface__`` of an array of a ``LibraryOwned`` struct: the array NumPy makes
    of it keeps the view, and so the owner, alive."""

    def __init__(self, owner, address, shape, dtype):
        self._owner = owner
        self.__array_interface__ = {
            "version": 3,
            "shape": tuple(int(d) for d in shape),
            "typestr": dtype.str,
            "data": (address, False),
        }
