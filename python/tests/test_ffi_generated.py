"""metaopt/_ffi.py is scripts/gen_python_ffi.py's output for include/metaopt.h, byte for byte (as
tests/it/abi/header.rs checks the header against cbindgen), the generator refuses what it does not
understand, every C function the package names is one of the header's, and the MEX gateway's
tables of enum names match the header's enums."""

import ast
import importlib.util
import re

import pytest

from conftest import PYDIR, REPO
from metaopt import _ffi

SCRIPT = REPO / "scripts" / "gen_python_ffi.py"
HEADER = REPO / "include" / "metaopt.h"
FFI = PYDIR / "metaopt" / "_ffi.py"


def generator():
    spec = importlib.util.spec_from_file_location("gen_python_ffi", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_ffi_module_is_the_generators_output():
    gen = generator()
    assert gen.HEADER == HEADER and gen.OUTPUT == FFI
    fresh = gen.generate(HEADER.read_text()).encode()
    assert FFI.read_bytes() == fresh, (
        "python/metaopt/_ffi.py differs from what include/metaopt.h gives: "
        "run `python3 scripts/gen_python_ffi.py` and commit the result"
    )


def test_the_generated_module_covers_the_header():
    text = HEADER.read_text()
    assert len(_ffi.SIGNATURES) >= 100 and len(_ffi.STRUCTS) >= 40 and len(_ffi.OPAQUE) >= 5
    for name in list(_ffi.SIGNATURES) + list(_ffi.STRUCTS) + list(_ffi.OPAQUE) + list(_ffi.ENUMS):
        assert name in text, name
    assert _ffi.ENUMS["MetaoptErrorCode"]["METAOPT_ERR_BUSY"] == _ffi.METAOPT_ERR_BUSY == 15
    assert _ffi.METAOPT_VERSION_STRING == "%d.%d.%d" % (
        _ffi.METAOPT_VERSION_MAJOR, _ffi.METAOPT_VERSION_MINOR, _ffi.METAOPT_VERSION_PATCH)
    # the header's compatibility names are the header's only: the library exports the current ones
    assert "metaopt_qap_solve" in _ffi.SIGNATURES and "metaopt_solve" not in _ffi.SIGNATURES
    assert not hasattr(_ffi, "MetaoptSolveOptions")


MINIMAL = """\
#ifndef METAOPT_H
#define METAOPT_H
#include <stdint.h>
typedef enum MetaoptE {{
  METAOPT_E_A = 0,
}} MetaoptE;
typedef struct MetaoptH MetaoptH;
typedef struct MetaoptS {{
  {field};
}} MetaoptS;
#ifdef __cplusplus
extern "C" {{
#endif // __cplusplus
struct MetaoptS metaopt_s(const struct MetaoptH *h);
#ifdef __cplusplus
}}  // extern "C"
#endif  // __cplusplus
#endif  /* METAOPT_H */
{compat}
"""


def test_the_generator_reads_each_form_of_the_header():
    gen = generator()
    out = gen.generate(MINIMAL.format(field="uint8_t tag[16]; char *text; const char *const *names; "
                                            "struct MetaoptH *h; double **rows",
                                      compat="#define metaopt_old metaopt_s\ntypedef MetaoptS MetaoptOld;"))
    assert '        ("tag", c_uint8 * 16),' in out
    assert '        ("text", c_char_ptr),' in out
    assert '        ("names", POINTER(c_char_p)),' in out
    assert '        ("h", MetaoptH_p),' in out
    assert '        ("rows", POINTER(POINTER(c_double))),' in out
    assert '    "metaopt_s": (MetaoptS, [\n        MetaoptH_p,  # h\n    ]),' in out
    assert "METAOPT_E_A = 0" in out and "metaopt_old" not in out and "MetaoptOld" not in out
    namespace = {}
    exec(compile(out, "<generated>", "exec"), namespace)
    assert [f for f, _ in namespace["MetaoptS"]._fields_] == ["tag", "text", "names", "h", "rows"]


@pytest.mark.parametrize("field, compat, message", [
    ("unsigned long n", "", "MetaoptS.n: the type 'unsigned long' is not a fixed-width type"),
    ("MetaoptE e", "", "MetaoptS.e: the enum type MetaoptE"),
    ("struct MetaoptH h", "", "MetaoptS.h: the opaque MetaoptH passed by value"),
    ("struct MetaoptLater *p", "", "struct MetaoptLater is not declared before its use"),
    ("uint32_t n", "#define metaopt_old metaopt_gone", "metaopt_old aliases metaopt_gone, which the header does not declare"),
    ("uint32_t n", "#pragma once", "#pragma once after the header proper is not a compatibility name"),
])
def test_the_generator_refuses_what_it_does_not_understand(field, compat, message):
    gen = generator()
    with pytest.raises(gen.HeaderError) as e:
        gen.generate(MINIMAL.format(field=field, compat=compat))
    assert message in str(e.value) and "metaopt.h:" in str(e.value), str(e.value)


def package_sources():
    files = sorted(p for p in (PYDIR / "metaopt").glob("*.py") if p.name != "_ffi.py")
    assert len(files) >= 15
    return [(p.name, ast.parse(p.read_text(), str(p))) for p in files]


def test_every_c_function_the_package_names_is_in_the_header():
    """``lib().metaopt_x(...)``, the function names given to ``check`` and ``_adopt`` (strings),
    and the f-string templates of ``getattr(lib, f"metaopt_awvd_{what}")`` name functions of the
    header (a function outside ``_ffi.SIGNATURES`` would be called without its argtypes)."""
    functions = set(_ffi.SIGNATURES)
    seen, unknown = set(), []
    for name, tree in package_sources():
        in_fstrings = {id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for v in node.values}
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr.startswith("metaopt_"):
                seen.add(node.attr)
                if node.attr not in functions:
                    unknown.append(f"{name}:{node.lineno}: .{node.attr}")
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in in_fstrings:
                if node.value.startswith("metaopt_") and node.value.isidentifier():
                    seen.add(node.value)
                    if node.value not in functions:
                        unknown.append(f"{name}:{node.lineno}: {node.value!r}")
            elif isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant) \
                    and str(node.values[0].value).startswith("metaopt_"):
                parts = [str(v.value) if isinstance(v, ast.Constant) else "*" for v in node.values]
                template = "".join(parts)
                if " " in template:
                    continue  # a message, not a name
                prefix, _, suffix = template.partition("*")
                if not any(f.startswith(prefix) and f.endswith(suffix.replace("*", "")) for f in functions):
                    unknown.append(f"{name}:{node.lineno}: f{template!r}")
    assert not unknown, f"not functions of include/metaopt.h: {unknown}"
    assert {"metaopt_pointer_free", "metaopt_qap_solve", "metaopt_de_run", "metaopt_interrupt"} <= seen


def test_every_ffi_name_the_package_uses_is_generated():
    """``_ffi.X`` in the package names a declaration of the generated module."""
    missing = [f"{name}:{node.lineno}: _ffi.{node.attr}"
               for name, tree in package_sources() for node in ast.walk(tree)
               if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "_ffi"
               and not hasattr(_ffi, node.attr)]
    assert not missing, missing


# The MEX gateway (matlab/src) includes the header, so the compiler checks its structs; it restates
# no struct layout. It does spell some enums as tables of names whose position is the value
# (``o.method = named(v, "opts.method", SAT_METHODS)``, ``kinds[d.kind]``): each such table is
# listed here with its enum, and an enum that gains, loses or renumbers a value fails this test.
GATEWAY_ENUM_TABLES = [
    ("mex_device.c", "kinds", "MetaoptDeviceKind"),
    ("mex_de.c", "names", "MetaoptDeAlgorithm"),
    ("mex_bde.c", "names", "MetaoptDeAlgorithm"),
    ("mex_qiga.c", "KINDS", "MetaoptKnapsackKind"),
    ("mex_qiga.c", "tables", "MetaoptQigaTable"),
    ("mex_qiga.c", "repairs", "MetaoptQigaRepair"),
    ("mex_sat.c", "SAT_METHODS", "MetaoptSatMethod"),
    ("mex_sp.c", "WEIGHT_TYPES", "MetaoptWeightType"),
    ("mex_sp.c", "FORMATS", "MetaoptGraphFormat"),
    ("mex_sp.c", "METHODS", "MetaoptSpMethod"),
    ("mex_sp.c", "DEPOSITS", "MetaoptAcoDeposit"),
    ("mex_sp.c", "SELECTIONS", "MetaoptAcoSelection"),
]


@pytest.mark.parametrize("source, table, enum", GATEWAY_ENUM_TABLES)
def test_the_gateways_enum_tables_have_one_name_per_value_of_the_header(source, table, enum):
    text = (REPO / "matlab" / "src" / source).read_text()
    found = re.findall(r"static const char \*(?:const )?" + table + r"\[\] = \{(.*?)\};", text, flags=re.S)
    assert len(found) == 1, f"{source}: one table {table}[] expected, found {len(found)}"
    # a table's position is the enum value; "" holds the place of a number that is no value
    positions = {i for i, n in enumerate(re.findall(r'"([^"]*)"', found[0])) if n}
    values = set(_ffi.ENUMS[enum].values())
    assert positions == values, (
        f"matlab/src/{source}: {table}[] names the positions {sorted(positions)}, but {enum} has the values "
        f"{sorted(values)}: update the table to the header")
