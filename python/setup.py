"""Copies libmetaopt into the package when one is found at build time, so that an installed
package works without METAOPT_LIB: the file named by METAOPT_LIB (or the library in that
folder), else ../target/release of the source tree. Without one the package is pure Python
and finds the library at run time (METAOPT_LIB or the build tree).
"""

import os
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = Path(__file__).resolve().parent
LIB_FILE = "libmetaopt.so"


def built_library():
    env = os.environ.get("METAOPT_LIB")
    if env:
        p = Path(env)
        p = p / LIB_FILE if p.is_dir() else p
        if not p.is_file():
            raise SystemExit(f"METAOPT_LIB names {p}, which is not a file")
        return p
    p = HERE.parent / "target" / "release" / LIB_FILE
    return p if p.is_file() else None


class BuildPyWithLibrary(build_py):
    def run(self):
        super().run()
        lib = built_library()
        if lib is not None:
            dest = Path(self.build_lib) / "metaopt" / LIB_FILE
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(lib, dest)
            print(f"metaopt: bundled {lib}")
        else:
            print("metaopt: no libmetaopt found at build time; the package will look for it at run time")


class MaybeBinaryDistribution(Distribution):
    """A wheel that bundles the shared library is platform-specific."""

    def has_ext_modules(self):
        return built_library() is not None


setup(cmdclass={"build_py": BuildPyWithLibrary}, distclass=MaybeBinaryDistribution)
