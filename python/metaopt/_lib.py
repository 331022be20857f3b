"""The loader of ``libmetaopt.so``: finds the library, loads it and declares its functions.

The ctypes declarations of the C ABI (every struct, callback, enum and function signature of
``include/metaopt.h``) are generated into ``_ffi.py`` by ``scripts/gen_python_ffi.py``; this module
holds only what is written by hand: where the library is looked for and how it is loaded.
Strings the library returns are ``POINTER(c_char)`` there, never ``c_char_p``: ctypes would turn a
``c_char_p`` into a Python ``bytes`` and lose the pointer that must go back to
``metaopt_pointer_free``.

After a change of the header, rerun ``python3 scripts/gen_python_ffi.py``
(``python/tests/test_ffi_generated.py`` fails until then).
"""

import atexit
import ctypes
import os
import platform
from pathlib import Path

from . import _ffi

_LIB_NAMES = {"Linux": "libmetaopt.so", "Darwin": "libmetaopt.dylib", "Windows": "metaopt.dll"}
LIB_FILE = _LIB_NAMES.get(platform.system(), "libmetaopt.so")

_lib = None
_lib_path = None


def candidate_paths():
    """Where the library is looked for, in order: the copy inside this package (an installed
    wheel bundles one), ``METAOPT_LIB`` (the file, or a folder that holds it), the source tree's
    ``target/release``."""
    here = Path(__file__).resolve().parent
    out = []
    bundled = here / LIB_FILE
    if bundled.is_file():
        out.append(("package copy", bundled))
    env = os.environ.get("METAOPT_LIB")
    if env:
        p = Path(env)
        out.append(("METAOPT_LIB", p / LIB_FILE if p.is_dir() else p))
    if not bundled.is_file():
        out.append(("package copy", bundled))
    out.append(("build tree", here.parents[1] / "target" / "release" / LIB_FILE))
    return out


def _declare(lib):
    for name, (restype, argtypes) in _ffi.SIGNATURES.items():
        f = getattr(lib, name)
        f.restype = restype
        f.argtypes = argtypes


def _finish_builds(handle):
    """Waits for the device program builds still running (``metaopt_device_finish_builds``)."""
    r = handle.metaopt_device_finish_builds()
    if r.error_message:
        handle.metaopt_pointer_free(r.error_message)


def lib():
    """The loaded library (loaded and declared on first use)."""
    global _lib, _lib_path
    if _lib is not None:
        return _lib
    tried = []
    for origin, path in candidate_paths():
        if path.is_file():
            try:
                handle = ctypes.CDLL(str(path))
            except OSError as e:
                raise OSError(f"metaopt: cannot load {path} ({origin}): {e}") from e
            try:
                _declare(handle)
            except AttributeError as e:
                raise OSError(f"metaopt: {path} ({origin}) lacks a function of this package: {e}; is it an older build?") from e
            _lib, _lib_path = handle, path
            # a call cut in its device program's build leaves the compiler running; the process
            # must not end under it (the library's own exit handler runs too late for that)
            atexit.register(_finish_builds, handle)
            return _lib
        tried.append(f"{path} ({origin})")
        if origin == "METAOPT_LIB":
            raise OSError(f"metaopt: METAOPT_LIB names {path}, which is not a file")
    raise OSError(
        "metaopt: cannot find " + LIB_FILE + "; tried " + ", ".join(tried)
        + ". Build it with `cargo build --release` or set METAOPT_LIB to its path."
    )


def library_path():
    """The path of the loaded library (loading it if needed)."""
    lib()
    return _lib_path
