"""Catalogue functions evaluated by name (``metaopt_function_evaluate``): the thesis's
``geatbx_cec_bundle(X, 'CEC05t')`` from Python.

``evaluate(name, X)`` evaluates the test function ``name`` (``"F1"`` .. ``"F12"``, ``"CEC04"`` ..
``"CEC10"``, ``"CEC04t"`` .. ``"CEC10t"``; case-insensitive) at the rows of ``X`` on the device in
use (the catalogue's OpenCL evaluation kernel) or, with ``cpu=True``, on the host (the library's
f64 reference code).
"""

import ctypes

import numpy as np

from . import _checks, _ffi, _lib, _precision
from ._errors import check

__all__ = ["evaluate", "geatbx_cec_bundle"]


def evaluate(name, X, cpu=False, precision="auto", device=None):
    """The values of catalogue function ``name`` at the points of ``X``.

    ``X``: a 2-D array of shape ``(rows, D)`` (one point per row; any real dtype, converted to
    float64) or a 1-D array of ``D`` values (one point). Returns a float64 array of ``rows``
    values, or a NumPy float64 scalar for a 1-D ``X``.

    ``cpu``: False (the default) evaluates on the device in use (``set_device_number``; ``device``:
    a device number instead) through
    the catalogue's OpenCL kernel; True on the host with the library's f64 reference code.
    ``precision`` (device only): ``"auto"`` (double where the device has fp64, else single),
    ``"double"`` or ``"single"`` (points and data rounded to float); the CPU computes in double
    and refuses ``"single"``.

    Errors: ``X`` that is not 1-D or 2-D, has no rows or no columns, or holds NaN or infinite
    values is a ValueError (TypeError for non-numbers) naming ``X``; an unknown ``name`` or a
    dimension D the function is not defined for (CEC04t..CEC10t: D = 2 or 10; F5 and CEC08:
    D >= 2) raise ``MetaoptError`` with code ``INVALID_ARGUMENT`` and the library's message,
    which names the argument (``function``, ``dims``).
    """
    b = _checks.c_string("name", name)
    cpu = _checks.flag("cpu", cpu)
    want = _precision.requested(precision, None)
    raw = _checks.numeric_array("X", X)
    one = raw.ndim == 1
    if raw.ndim not in (1, 2):
        raise ValueError(f"X must be a 2-D array (rows, D) or a 1-D point, got shape {raw.shape}")
    x = np.ascontiguousarray(raw.reshape(1, -1) if one else raw, dtype=np.float64)
    rows, dims = x.shape
    if rows == 0 or dims == 0:
        raise ValueError(f"X must hold at least one point of at least one coordinate, got shape {raw.shape}")
    if rows > 0xFFFFFFFF or dims > 0xFFFFFFFF:
        raise ValueError(f"X has shape {raw.shape}; at most 2^32 - 1 rows and columns")
    finite = np.isfinite(x)
    if not finite.all():
        r, c = (int(i) for i in np.argwhere(~finite)[0])
        where = f"entry {c}" if one else f"row {r}, column {c}"
        raise ValueError(f"X holds a NaN or infinite value at {where} ({x[r, c]!r})")
    L = _lib.lib()
    r = L.metaopt_function_evaluate_on_device(
        b, x.ctypes.data_as(ctypes.POINTER(ctypes.c_double)), rows, dims,
        _ffi.METAOPT_BACKEND_CPU if cpu else _ffi.METAOPT_BACKEND_DEVICE, _checks.device(device), _precision.code(want)
    )
    try:
        check(r, "metaopt_function_evaluate_on_device")
        values = np.ctypeslib.as_array(r.values, shape=(r.length,)).copy()
    finally:
        L.metaopt_double_array_free_result(ctypes.byref(r))
    return values[0] if one else values


def geatbx_cec_bundle(X, name, cpu=False):
    """The thesis's spelling: ``geatbx_cec_bundle(X, 'CEC05t')`` is ``evaluate('CEC05t', X)``."""
    return evaluate(name, X, cpu=cpu)
