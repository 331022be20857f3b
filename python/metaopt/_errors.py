"""Library errors as Python exceptions, and the helpers that read and free C messages."""

import ctypes
import enum

from . import _ffi, _lib


class ErrorCode(enum.IntEnum):
    """``MetaoptErrorCode`` of ``include/metaopt.h``: stable numbers, 0 is success."""

    OK = _ffi.METAOPT_OK
    STD_EXCEPTION = _ffi.METAOPT_ERR_STD_EXCEPTION
    INVALID_ARGUMENT = _ffi.METAOPT_ERR_INVALID_ARGUMENT
    NULL_POINTER = _ffi.METAOPT_ERR_NULL_POINTER
    UNSUPPORTED_TYPE = _ffi.METAOPT_ERR_UNSUPPORTED_TYPE
    OPENCL = _ffi.METAOPT_ERR_OPENCL
    NO_DEVICE = _ffi.METAOPT_ERR_NO_DEVICE
    KERNEL_BUILD = _ffi.METAOPT_ERR_KERNEL_BUILD
    OUT_OF_DEVICE_MEMORY = _ffi.METAOPT_ERR_OUT_OF_DEVICE_MEMORY
    UNSUPPORTED = _ffi.METAOPT_ERR_UNSUPPORTED
    IO = _ffi.METAOPT_ERR_IO
    PARSE = _ffi.METAOPT_ERR_PARSE
    PANIC = _ffi.METAOPT_ERR_PANIC
    INVALID_MEM_SPACE = _ffi.METAOPT_ERR_INVALID_MEM_SPACE
    CALLBACK = _ffi.METAOPT_ERR_CALLBACK
    BUSY = _ffi.METAOPT_ERR_BUSY
    INTERRUPTED = _ffi.METAOPT_INTERRUPTED
    OUT_OF_HOST_MEMORY = _ffi.METAOPT_ERR_OUT_OF_HOST_MEMORY
    NON_FINITE_OBJECTIVE = _ffi.METAOPT_ERR_NON_FINITE_OBJECTIVE
    TIME_LIMIT = _ffi.METAOPT_ERR_TIME_LIMIT


class MetaoptError(RuntimeError):
    """An error reported by ``libmetaopt``: ``code`` (an ``ErrorCode`` where the number is
    known, else the int), ``message`` (the library's text) and ``function`` (the C function)."""

    def __init__(self, code, message, function=None):
        try:
            code = ErrorCode(code)
        except ValueError:
            pass
        self.code = code
        self.message = message
        self.function = function
        name = code.name if isinstance(code, ErrorCode) else "UNKNOWN"
        where = f"{function}: " if function else ""
        super().__init__(f"{where}{message} (error {int(code)}, {name})")


def take_string(p):
    """Reads a library-owned C string (``POINTER(c_char)``) and frees it with
    ``metaopt_pointer_free``; None for NULL."""
    if not p:
        return None
    try:
        return ctypes.string_at(p).decode("utf-8", errors="replace")
    finally:
        _lib.lib().metaopt_pointer_free(ctypes.cast(p, ctypes.c_void_p))


def check(result, function, interrupted_ok=False):
    """Raises ``MetaoptError`` when ``result.error_code`` is not OK, freeing the message
    (the caller frees any arrays of the struct). Returns ``result`` otherwise. With
    ``interrupted_ok``, ``METAOPT_INTERRUPTED`` (a filled result: the best so far) is no error:
    its message is freed and the code stays in the struct."""
    if interrupted_ok and result.error_code == ErrorCode.INTERRUPTED:
        take_string(result.error_message)
        result.error_message = None
        return result
    if result.error_code != 0:
        message = take_string(result.error_message) or "(no message)"
        result.error_message = None
        raise MetaoptError(result.error_code, message, function)
    return result


def check_int(result, function):
    """``check`` for a ``MetaoptInt32Result``: its ``result``."""
    return check(result, function).result
