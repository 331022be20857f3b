"""Library errors as Python exceptions, and the helpers that read and free C messages."""

import ctypes
import enum

from . import _lib


class ErrorCode(enum.IntEnum):
    """``MetaoptErrorCode`` of ``include/metaopt.h``: stable numbers, 0 is success."""

    OK = 0
    STD_EXCEPTION = 1
    INVALID_ARGUMENT = 2
    NULL_POINTER = 3
    UNSUPPORTED_TYPE = 4
    OPENCL = 5
    NO_DEVICE = 6
    KERNEL_BUILD = 7
    OUT_OF_DEVICE_MEMORY = 8
    UNSUPPORTED = 9
    IO = 10
    PARSE = 11
    PANIC = 12
    INVALID_MEM_SPACE = 13
    CALLBACK = 14
    BUSY = 15
    INTERRUPTED = 16
    OUT_OF_HOST_MEMORY = 17
    NON_FINITE_OBJECTIVE = 18


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
