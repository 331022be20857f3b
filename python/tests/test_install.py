"""How the package finds the library (METAOPT_LIB, the package copy, the build tree), and
`pip install ./python` into a fresh venv (from the Debian interpreter, no network) giving a
package that works from anywhere with its own copy of the library."""

import os
import subprocess
import sys
import sysconfig

import pytest

from conftest import DATA, PYDIR, REPO

BUILD_LIB = REPO / "target" / "release" / "libmetaopt.so"


def run_python(code, python=sys.executable, env_extra=None, cwd=None, drop=("METAOPT_LIB",)):
    env = {k: v for k, v in os.environ.items() if k not in drop and k != "PYTHONPATH"}
    env.update(env_extra or {})
    return subprocess.run([str(python), "-c", code], capture_output=True, text=True, env=env, cwd=cwd)


def test_the_build_tree_and_metaopt_lib(tmp_path):
    code = "import sys; sys.path.insert(0, %r); import metaopt; print(metaopt.library_path()); print(metaopt.device_count())" % str(PYDIR)
    r = run_python(code, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split()[0] == str(BUILD_LIB)
    # METAOPT_LIB: a folder holding the library, or the file itself
    for value in (str(BUILD_LIB.parent), str(BUILD_LIB)):
        r = run_python(code, env_extra={"METAOPT_LIB": value}, cwd=tmp_path)
        assert r.returncode == 0 and r.stdout.split()[0] == str(BUILD_LIB), r.stderr
    # a wrong METAOPT_LIB is an error that names it, not a silent fallback
    r = run_python(code, env_extra={"METAOPT_LIB": str(tmp_path / "nothing.so")}, cwd=tmp_path)
    assert r.returncode != 0 and "METAOPT_LIB names" in r.stderr and "nothing.so" in r.stderr


def test_pip_install_into_a_venv(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    py = venv / "bin" / "python"
    pip = subprocess.run(
        [str(py), "-m", "pip", "install", "--no-build-isolation", "--no-index", "--no-deps", "-q", str(PYDIR)],
        capture_output=True, text=True, env={k: v for k, v in os.environ.items() if k != "METAOPT_LIB"},
    )
    assert pip.returncode == 0, pip.stdout + pip.stderr
    code = """
import metaopt, numpy as np
print(metaopt.library_path())
print(metaopt.__file__)
A, B = metaopt.read_qaplib(%r)
with metaopt.HC12QAP(4, metaopt.df_from_ab(A, B)) as q:
    r = q.run()
    assert r.cost == metaopt.qap_cost(A, B, r.order), r
print(r.cost)
""" % str(DATA / "had12.dat")
    r = run_python(code, python=py, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    lib_path, module, cost = r.stdout.split()
    site = str(venv)
    assert module.startswith(site) and lib_path.startswith(site), r.stdout  # the package's own copy
    assert lib_path.endswith("metaopt/libmetaopt.so")
    assert int(cost) >= 1652
