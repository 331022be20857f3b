"""Objectives of the solvers that take one (general HC12 now, island DE later): a catalogue
function by name, OpenCL C source (``Source``), or a Python callable called through the host
callback ``MetaoptObjectiveCallback``.

``make_objective`` returns the C struct and a ``CallbackState``; the owner keeps the state (it
holds the ctypes callback object, which must outlive the library handle) and calls
``state.raise_pending(err)`` after a run that failed with ``METAOPT_ERR_CALLBACK`` so that the
callable's own exception reaches the caller.
"""

from dataclasses import dataclass
from typing import Optional

import numpy as np

from . import _checks, _ffi
from ._errors import ErrorCode

KIND_CATALOGUE, KIND_SOURCE, KIND_CALLBACK = (
    _ffi.METAOPT_OBJECTIVE_CATALOGUE, _ffi.METAOPT_OBJECTIVE_SOURCE, _ffi.METAOPT_OBJECTIVE_HOST_CALLBACK)


@dataclass(frozen=True)
class Source:
    """A user objective in OpenCL C: ``code`` defines
    ``FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)``
    (real domain; component j of the point is ``x[j * stride]``) or ``objective_u`` over
    ``__global const uint *`` (integer and binary domains). ``name`` labels it in ``info``."""

    code: str
    name: Optional[str] = None


class CallbackState:
    """What the ctypes callback shares with its owner: the callable, the callback object and
    the exception of the last failed call. It holds no reference to the owner, so the owner
    can still be collected (and its handle freed)."""

    def __init__(self, fn, what="objective"):
        self.fn = fn
        self.what = what
        self.error = None
        self.calls = 0
        self.c_callback = _ffi.MetaoptObjectiveCallback(self._call)

    def _call(self, x, rows, dims, f, _user_data):
        try:
            self.calls += 1
            if rows == 0:
                return 0
            X = np.ctypeslib.as_array(x, shape=(rows, dims)).copy()
            # real numbers only: no silent parsing of strings or dropping of imaginary parts
            F = _checks.numeric_array(f"the {self.what}'s return value", self.fn(X)).astype(np.float64)
            if F.shape not in ((rows,), (rows, 1)):
                raise ValueError(f"{self.what} must return {rows} values (one per row of its ({rows}, {dims}) argument), got shape {F.shape}")
            F = F.reshape(rows)
            bad = np.flatnonzero(np.isnan(F))
            if bad.size:
                raise ValueError(f"{self.what} returned NaN for row {int(bad[0])} (x = {X[bad[0]].tolist()})")
            np.ctypeslib.as_array(f, shape=(rows,))[:] = F
            return 0
        except BaseException as e:  # noqa: B036 - re-raised by raise_pending, KeyboardInterrupt included
            self.error = e
            return 1

    def raise_pending(self, err):
        """After ``err`` (a MetaoptError): re-raises the callable's exception, chained to it."""
        e, self.error = self.error, None
        if e is not None and getattr(err, "code", None) == ErrorCode.CALLBACK:
            raise e.with_traceback(e.__traceback__) from err


def violation_state(fn):
    """The ``CallbackState`` of a violation callable ``fn(X) -> V`` (constraints of DE and basin
    hopping): a NaN violation is passed on as +inf, which the library compares as worst."""

    def finite(X):
        v = np.asarray(fn(X), dtype=np.float64)
        return np.where(np.isnan(v), np.inf, v)

    return CallbackState(finite, "violation")


def make_objective(objective):
    """(``MetaoptObjective``, ``CallbackState`` or None, objects to keep alive during the call)."""
    o = _ffi.MetaoptObjective()
    keep = []
    state = None
    if isinstance(objective, str):
        o.kind = KIND_CATALOGUE
        b = _checks.c_string("objective", objective)
        keep.append(b)
        o.function_name = b
    elif isinstance(objective, Source):
        o.kind = KIND_SOURCE
        code = _checks.c_string("objective.code", objective.code)
        keep.append(code)
        o.source = code
        if objective.name is not None:
            name = _checks.c_string("objective.name", str(objective.name))
            keep.append(name)
            o.function_name = name
    elif callable(objective):
        o.kind = KIND_CALLBACK
        state = CallbackState(objective)
        o.callback = state.c_callback
        label = getattr(objective, "__qualname__", None) or type(objective).__name__
        name = _checks.c_string("objective's name", label)
        keep.append(name)
        o.function_name = name
    else:
        raise TypeError(
            "objective must be a catalogue function name (str), metaopt.Source(code) or a callable, "
            f"got {type(objective).__name__}"
        )
    return o, state, keep


def as_bytes(name, data):
    """``bytes`` of a bytes-like object or a NumPy array (its raw memory, C order)."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        return bytes(data)
    if isinstance(data, np.ndarray):
        return np.ascontiguousarray(data).tobytes()
    raise TypeError(f"{name} must be bytes or a NumPy array, got {type(data).__name__}")


