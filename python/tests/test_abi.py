"""The ctypes declarations against the C header: every function and struct of
include/metaopt.h is declared (except those not wrapped yet: PENDING_PREFIXES, PENDING_NAMES),
and every declared struct has the size and field offsets that a C compiler gives it."""

import ctypes
import re
import shutil
import subprocess

import pytest

from conftest import REPO
from metaopt import ErrorCode, _lib

HEADER = REPO / "include" / "metaopt.h"


def header_functions():
    text = HEADER.read_text()
    return set(re.findall(r"^[A-Za-z_][\w\s\*]*?\b(metaopt_\w+)\(", text, flags=re.M))


def test_every_header_function_is_declared():
    funcs = header_functions()
    assert len(funcs) >= 45, funcs
    missing = sorted(
        f for f in funcs
        if f not in _lib.SIGNATURES and not f.startswith(_lib.PENDING_PREFIXES) and f not in _lib.PENDING_NAMES
    )
    assert not missing, f"declare these in metaopt/_lib.py: {missing}"
    extra = sorted(set(_lib.SIGNATURES) - funcs)
    assert not extra, f"declared but not in the header: {extra}"


def test_every_header_struct_is_declared():
    structs = set(re.findall(r"^typedef struct (\w+) \{", HEADER.read_text(), flags=re.M))
    assert set(_lib.STRUCTS) <= structs, set(_lib.STRUCTS) - structs
    missing = structs - set(_lib.STRUCTS) - _lib.PENDING_NAMES
    assert not missing, f"declare these in metaopt/_lib.py: {sorted(missing)}"


def test_error_codes_match_the_header():
    enum = re.search(r"typedef enum MetaoptErrorCode \{(.*?)\} MetaoptErrorCode;", HEADER.read_text(), flags=re.S)
    header = {name: int(value) for name, value in re.findall(r"METAOPT_(?:ERR_)?(\w+) = (\d+),", enum.group(1))}
    assert header["OK"] == 0 and header["BUSY"] == 15, header
    assert {c.name: int(c) for c in ErrorCode} == header


def test_struct_layouts_match_the_c_compiler(tmp_path):
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    lines = ["#include <stddef.h>", "#include <stdio.h>", '#include "metaopt.h"', "int main(void) {"]
    expected = []
    for name, cls in _lib.STRUCTS.items():
        lines.append(f'    printf("{name} %zu\\n", sizeof({name}));')
        expected.append(f"{name} {ctypes.sizeof(cls)}")
        for field, _ in cls._fields_:
            lines.append(f'    printf("{name}.{field} %zu\\n", offsetof({name}, {field}));')
            expected.append(f"{name}.{field} {getattr(cls, field).offset}")
    lines += ["    return 0;", "}"]
    src = tmp_path / "layout.c"
    src.write_text("\n".join(lines) + "\n")
    exe = tmp_path / "layout"
    subprocess.run([cc, "-std=c11", "-I", str(REPO / "include"), str(src), "-o", str(exe)], check=True)
    got = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.split("\n")
    assert [l for l in got if l] == expected


def test_signatures_are_set_on_the_loaded_library():
    L = _lib.lib()
    for name, (restype, argtypes) in _lib.SIGNATURES.items():
        f = getattr(L, name)
        assert f.restype is restype, name
        assert list(f.argtypes) == list(argtypes), name


def header_struct_fields():
    """name -> [field names in order] of every ``typedef struct X { ... } X;`` of the header."""
    text = re.sub(r"/\*.*?\*/", "", HEADER.read_text(), flags=re.S)
    out = {}
    for name, body in re.findall(r"typedef struct (\w+) \{(.*?)\} \1;", text, flags=re.S):
        fields = []
        for decl in body.split(";"):
            decl = " ".join(decl.split())
            if decl:
                fields.append(re.search(r"(\w+)(?:\[\w*\])?$", decl).group(1))
        out[name] = fields
    return out


def test_struct_fields_match_the_header_in_name_and_order():
    """Every field of every struct, in the header's order (new fields are appended at the end of
    the C structs: a Python struct without them is too small for the by-value returns)."""
    header = header_struct_fields()
    assert "MetaoptDeStop" in header and header["MetaoptDeStop"][-1] == "stop_token"
    for name, cls in _lib.STRUCTS.items():
        assert [f for f, _ in cls._fields_] == header[name], name


def test_struct_sizes_match_the_c_compiler(tmp_path):
    """ctypes.sizeof of every struct equals the C sizeof (the by-value returns of the default
    options and of the results write that many bytes)."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    src = tmp_path / "sizes.c"
    src.write_text('#include <stdio.h>\n#include "metaopt.h"\nint main(void) {\n'
                   + "".join(f'    printf("%zu\\n", sizeof({n}));\n' for n in _lib.STRUCTS)
                   + "    return 0;\n}\n")
    exe = tmp_path / "sizes"
    subprocess.run([cc, "-std=c11", "-I", str(REPO / "include"), str(src), "-o", str(exe)], check=True)
    got = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.split()
    sizes = {n: int(v) for n, v in zip(_lib.STRUCTS, got)}
    assert sizes == {n: ctypes.sizeof(c) for n, c in _lib.STRUCTS.items()}
