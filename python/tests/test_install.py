"""How the package finds the library (the package copy, METAOPT_LIB, the build tree), and the
wheel: a fresh clone's `python -m build --wheel python` and `pip install ./python` build
libmetaopt with cargo (setuptools-rust; Debian's interpreter and packages, no network) and give
a py3-none-<platform> wheel that bundles the stripped library and works from anywhere in a
clean venv."""

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile

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


def fresh_copy(dest):
    """The repository as a fresh clone holds it: the files git tracks, and the new ones it does
    not ignore (so the working tree's changes are tested), without target/ or build outputs."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO,
                           capture_output=True, check=True).stdout.split(b"\0")
    for f in files:
        if not f:
            continue
        src = REPO / os.fsdecode(f)
        if src.is_file():
            (dest / os.fsdecode(f)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / os.fsdecode(f))
    return dest


def build_env():
    # cargo reuses the repository's target/ (dependencies already built), so only the crate
    # itself is compiled; no network (--no-build-isolation: Debian's setuptools-rust)
    env = {k: v for k, v in os.environ.items() if k not in ("METAOPT_LIB", "PYTHONPATH")}
    env.setdefault("CARGO_TARGET_DIR", str(REPO / "target"))
    return env


def test_a_fresh_clone_builds_a_wheel_with_the_library_and_pip_installs_it(tmp_path):
    pytest.importorskip("setuptools_rust", reason="python3-setuptools-rust (scripts/install-deps.sh) builds the wheel")
    if shutil.which("cargo") is None:
        pytest.skip("cargo is not on the PATH")
    clone = fresh_copy(tmp_path / "clone")
    assert not (clone / "target").exists() and (clone / "python" / "setup.py").is_file()
    dist = tmp_path / "dist"
    # the wheel: python -m build --wheel python (or pip wheel where python3-build is missing)
    try:
        import build  # noqa: F401
        cmd = [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist), "python"]
    except ImportError:
        cmd = [sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "--no-index",
               "-w", str(dist), "./python"]
    b = subprocess.run(cmd, cwd=clone, capture_output=True, text=True, env=build_env())
    assert b.returncode == 0, b.stdout[-4000:] + b.stderr[-4000:]
    wheels = list(dist.glob("*.whl"))
    assert len(wheels) == 1, wheels
    wheel = wheels[0]
    # one wheel for every CPython 3 on this platform: py3-none-<platform>
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    assert wheel.name == f"metaopt-0.1.0-py3-none-{plat}.whl", wheel.name
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        assert "metaopt/libmetaopt.so" in names and "metaopt/__init__.py" in names and "metaopt/py.typed" in names
        so = z.getinfo("metaopt/libmetaopt.so")
        assert so.file_size > 500_000
        lib_bytes = z.read("metaopt/libmetaopt.so")
        meta = z.read("metaopt-0.1.0.dist-info/METADATA").decode()
        tag = z.read("metaopt-0.1.0.dist-info/WHEEL").decode()
    assert f"Tag: py3-none-{plat}" in tag and "Root-Is-Purelib: false" in tag
    assert "License: MIT" in meta and "Project-URL:" in meta and "Requires-Dist: numpy" in meta
    # stripped: no symbol table (.symtab) and no debug sections, only the dynamic symbols
    sections = elf_sections(lib_bytes)
    assert ".dynsym" in sections and ".symtab" not in sections, sections
    assert not [s for s in sections if s.startswith(".debug")], sections
    if shutil.which("auditwheel"):
        show = subprocess.run(["auditwheel", "show", str(wheel)], capture_output=True, text=True)
        assert show.returncode == 0 and "manylinux" in show.stdout, show.stdout + show.stderr

    # a clean venv (Debian's NumPy from the system, nothing else): the wheel, then
    # `pip install ./python` of the clone as a user would type it
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    py = venv / "bin" / "python"
    pip = [str(py), "-m", "pip", "install", "--no-build-isolation", "--no-index", "--no-deps", "-q"]
    r = subprocess.run(pip + [str(wheel)], capture_output=True, text=True, env=build_env())
    assert r.returncode == 0, r.stdout + r.stderr
    check_installed(py, venv, tmp_path)
    r = subprocess.run(pip + ["--force-reinstall", "./python"], cwd=clone, capture_output=True, text=True,
                       env=build_env())
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-4000:]
    check_installed(py, venv, tmp_path)


def elf_sections(data):
    """The section names of a 64-bit little-endian ELF file."""
    import struct

    assert data[:4] == b"\x7fELF" and data[4] == 2 and data[5] == 1, "a 64-bit little-endian ELF file"
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize) for i in range(shnum)]
    strtab_off, strtab_size = headers[shstrndx][4], headers[shstrndx][5]
    names = data[strtab_off:strtab_off + strtab_size]
    return [names[h[0]:names.index(b"\0", h[0])].decode() for h in headers]


def check_installed(py, venv, cwd):
    code = """
import metaopt, numpy as np
print(metaopt.library_path())
print(metaopt.__file__)
r = metaopt.minimize(lambda x: float(((x - 0.25) ** 2).sum()), [(-1, 1)] * 3, seed=42)
assert r.success and r.precision == "double" and abs(r.x - 0.25).max() < 1e-3, r
A, B = metaopt.read_qaplib(%r)
q = metaopt.qap.solve(A, B, chains=4, time_limit=30, target=1652, bks=1652, cpu=True)
assert q.cost == metaopt.qap_cost(A, B, q.permutation) == 1652 and q.gap == 0.0
print(q.cost)
""" % str(DATA / "had12.dat")
    # METAOPT_LIB pointing elsewhere does not displace the bundled copy
    r = run_python(code, python=py, cwd=cwd, env_extra={"METAOPT_LIB": str(BUILD_LIB)})
    assert r.returncode == 0, r.stderr
    lib_path, module, cost = r.stdout.split()
    site = str(venv)
    assert module.startswith(site) and lib_path.startswith(site), r.stdout  # the package's own copy
    assert lib_path.endswith("metaopt/libmetaopt.so")
    assert int(cost) == 1652
