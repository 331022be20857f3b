"""Builds the wheel with setuptools-rust: ``cargo`` compiles the library crate of the repository
(``../Cargo.toml``, release profile, symbols stripped) and its ``libmetaopt.so`` goes into the
package next to ``_lib.py``. The package itself is ctypes only (no CPython extension), so the wheel
is tagged ``py3-none-<platform>``: one wheel serves every CPython 3 on that platform.

    pip install ./python                          # from the repository root; needs cargo
    python -m build --wheel python                # the same wheel, in python/dist/
    pip wheel --no-build-isolation ./python       # offline, with Debian's python3-setuptools-rust

``CARGO_TARGET_DIR`` is honoured (reuse a build folder). The Rust sources live one level up, so a
wheel is built from the repository, not from an sdist on its own (see python/README.md).
"""

import os
from pathlib import Path

from setuptools import setup

try:  # setuptools >= 70.1 carries bdist_wheel itself
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # older setuptools: the wheel package's
    from wheel.bdist_wheel import bdist_wheel

from setuptools_rust import Binding, RustExtension, Strip, build_rust

HERE = Path(__file__).resolve().parent
MANIFEST = HERE.parent / "Cargo.toml"
LIB_FILE = "libmetaopt.so"

if not MANIFEST.is_file():
    raise SystemExit(
        f"metaopt: {MANIFEST} is missing. The wheel bundles libmetaopt, built by cargo from the "
        "repository root, so it is built from a checkout of the repository: `pip install ./python` "
        "or `python -m build --wheel python` there (not from an sdist of python/ alone)."
    )


class build_rust_named(build_rust):
    """setuptools-rust names a cdylib as a CPython extension module
    (``libmetaopt.cpython-311-x86_64-linux-gnu.so``); this library is loaded by ctypes, for any
    Python, so it keeps its own name: ``metaopt/libmetaopt.so``."""

    def get_dylib_ext_path(self, ext, target_fname):
        path = super().get_dylib_ext_path(ext, target_fname)
        return os.path.join(os.path.dirname(path), LIB_FILE)


class bdist_wheel_py3(bdist_wheel):
    """A platform wheel (it holds a native library) for any Python 3: ``py3-none-<platform>``."""

    def finalize_options(self):
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self):
        _python, _abi, plat = super().get_tag()
        return "py3", "none", plat


setup(
    rust_extensions=[
        RustExtension(
            "metaopt.libmetaopt",
            path=os.path.relpath(MANIFEST),
            binding=Binding.NoBinding,
            # the release profile has no debug info; strip the symbol table as well
            rustc_flags=["-C", "strip=symbols"],
            strip=Strip.All,
            py_limited_api=False,
        )
    ],
    cmdclass={"build_rust": build_rust_named, "bdist_wheel": bdist_wheel_py3},
    zip_safe=False,
)
