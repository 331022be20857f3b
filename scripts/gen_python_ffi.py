#!/usr/bin/env python3
"""Generates python/metaopt/_ffi.py, the ctypes declarations of the C ABI, from include/metaopt.h.

    python3 scripts/gen_python_ffi.py            # rewrites python/metaopt/_ffi.py
    python3 scripts/gen_python_ffi.py --check    # exit 1 when the committed file is stale

The header is cbindgen's output (build.rs), which is regular; this parser reads exactly that
subset of C and stops with the header's line number on anything else, rather than guessing:

- ``#define NAME <integer>`` and ``#define NAME "<string>"`` constants;
- ``typedef enum X { A = <integer>, ... } X;`` (every enumerator with its value);
- ``typedef struct X X;`` opaque handles, declared as empty ``Structure`` subclasses with an
  ``X_p = POINTER(X)`` alias;
- ``typedef struct X { <type> <name>; ... } X;`` with fixed-width integers, ``float``,
  ``double``, ``bool``, ``size_t``, ``char``/``void`` pointers, pointers to the header's structs,
  callback fields and fixed arrays (``uint8_t x[16]``);
- ``typedef R (*X)(<params>);`` callbacks, declared with ``CFUNCTYPE``;
- ``R name(<params>);`` functions, in ``SIGNATURES`` as ``name: (restype, argtypes)``;
- the include guard, ``#include <std*.h>`` and the ``#ifdef __cplusplus`` ``extern "C"`` blocks.

Strings: ``const char *`` is ``c_char_p`` (borrowed: the caller's input, or a static string);
``char *`` is ``POINTER(c_char)`` (``c_char_ptr``), a string the library returns and the caller
frees with ``metaopt_pointer_free``: ctypes would turn a ``c_char_p`` into ``bytes`` and lose the
pointer. An enum-typed field or parameter is refused (its C size is the compiler's choice; the
ABI passes enums as ``int32_t``).

The compatibility names after the header proper (``#ifndef METAOPT_NO_COMPAT_NAMES`` and
``METAOPT_THESIS_NAMES``: macros and typedefs that alias the current names) are checked to name
a declared function, type or constant, and are not declared in Python: they are names of the
header only, and the library exports the current symbols.

Python 3 standard library only.
"""

import argparse
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
HEADER = REPO / "include" / "metaopt.h"
OUTPUT = REPO / "python" / "metaopt" / "_ffi.py"

SCALARS = {
    "int8_t": "c_int8",
    "int16_t": "c_int16",
    "int32_t": "c_int32",
    "int64_t": "c_int64",
    "uint8_t": "c_uint8",
    "uint16_t": "c_uint16",
    "uint32_t": "c_uint32",
    "uint64_t": "c_uint64",
    "float": "c_float",
    "double": "c_double",
    "bool": "c_bool",
    "size_t": "c_size_t",
    "char": "c_char",
}

GUARD = "METAOPT_H"
STD_INCLUDES = {"<stdint.h>", "<stdbool.h>", "<stddef.h>", "<stdlib.h>"}


class HeaderError(Exception):
    """A construct of the header this generator does not understand."""

    def __init__(self, line, message):
        super().__init__(f"{HEADER.name}:{line}: {message}")


# --- reading ------------------------------------------------------------------------------------
def strip_comments(text):
    """The text with every comment replaced by spaces (newlines kept, so line numbers stay)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                if text[j] == "\\":
                    j += 1
                if text[j] == "\n":
                    raise HeaderError(text.count("\n", 0, i) + 1, "unterminated string literal")
                j += 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            if j < 0:
                raise HeaderError(text.count("\n", 0, i) + 1, "unterminated comment")
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:j + 2]))
            i = j + 2
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


class Header:
    """The declarations of the header, each list in header order."""

    def __init__(self):
        self.items = []  # (kind, name, data, line) in header order
        self.names = {}  # name -> kind
        self.compat = []  # (line, alias, target)

    def add(self, line, kind, name, data):
        if name in self.names:
            raise HeaderError(line, f"{name} is declared twice")
        self.names[name] = kind
        self.items.append((kind, name, data, line))

    def of(self, kind):
        return [(name, data, line) for k, name, data, line in self.items if k == kind]


def parse(text):
    lines = strip_comments(text).split("\n")
    header = Header()
    state = "before"  # before -> guard (#ifndef seen) -> guarded -> after (the compatibility names)
    cplusplus = None  # the line of an open #ifdef __cplusplus
    stmt, stmt_line, depth = [], None, 0
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if stmt:
                raise HeaderError(number, "a preprocessor line inside a declaration")
            directive = " ".join(line[1:].split())
            if state == "after":
                compat_directive(header, number, directive)
            elif cplusplus is not None:
                if directive != "endif":
                    raise HeaderError(number, f"#{directive} inside #ifdef __cplusplus")
                cplusplus = None
            elif state == "before":
                if directive != f"ifndef {GUARD}":
                    raise HeaderError(number, f"expected #ifndef {GUARD}, found #{directive}")
                state = "guard"
            elif state == "guard":
                if directive != f"define {GUARD}":
                    raise HeaderError(number, f"expected #define {GUARD}, found #{directive}")
                state = "guarded"
            elif directive == "ifdef __cplusplus":
                cplusplus = number
            elif directive == "endif":
                state = "after"
            elif directive.startswith("include "):
                if directive[len("include "):] not in STD_INCLUDES:
                    raise HeaderError(number, f"#{directive}: only {sorted(STD_INCLUDES)} are known")
            elif directive.startswith("define "):
                define(header, number, directive)
            else:
                raise HeaderError(number, f"#{directive} is not understood")
            continue
        if cplusplus is not None:
            if line not in ('extern "C" {', '}'):
                raise HeaderError(number, f"{line!r} inside #ifdef __cplusplus")
            continue
        if state == "after":
            m = re.fullmatch(r"typedef (\w+) (\w+);", line)
            if not m:
                raise HeaderError(number, f"{line!r} after the header proper is not a compatibility typedef")
            header.compat.append((number, m.group(2), m.group(1)))
            continue
        if state != "guarded":
            raise HeaderError(number, f"{line!r} outside the include guard")
        if not stmt:
            stmt_line = number
        stmt.append(line)
        depth += line.count("{") - line.count("}")
        if depth < 0:
            raise HeaderError(number, "unbalanced '}'")
        if depth == 0 and line.endswith(";"):
            declaration(header, stmt_line, " ".join(stmt))
            stmt = []
    if stmt:
        raise HeaderError(stmt_line, "a declaration without its ';'")
    if state != "after" or cplusplus is not None:
        raise HeaderError(len(lines), f"the header ends inside #ifndef {GUARD} or #ifdef __cplusplus")
    for number, alias, target in header.compat:
        if target not in header.names:
            raise HeaderError(number, f"the compatibility name {alias} aliases {target}, which the header does not declare")
    return header


def define(header, number, directive):
    m = re.fullmatch(r'define (\w+) (-?\d+|"[^"\\]*")', directive)
    if not m:
        raise HeaderError(number, f"#{directive}: only integer and string constants are understood")
    value = m.group(2)
    header.add(number, "constant", m.group(1), value if value.startswith('"') else int(value))


def compat_directive(header, number, directive):
    if re.fullmatch(r"(ifndef|ifdef|define) \w+|endif|if .*", directive):
        return
    m = re.fullmatch(r"define (\w+) (\w+)", directive)
    if not m:
        raise HeaderError(number, f"#{directive} after the header proper is not a compatibility name")
    header.compat.append((number, m.group(1), m.group(2)))


def declaration(header, line, text):
    text = " ".join(text.replace("(", " ( ").replace(")", " ) ").replace("*", " * ").split())
    text = text.replace(" ( ", "(").replace(" ) ", ")").replace("( ", "(").replace(" )", ")")
    m = re.fullmatch(r"typedef enum (\w+) \{(.*)\} (\w+);", text)
    if m:
        name, body, alias = m.groups()
        same(line, name, alias)
        values = {}
        for item in body.split(","):
            item = item.strip()
            if not item:
                continue
            e = re.fullmatch(r"(\w+) = (-?\d+)", item)
            if not e:
                raise HeaderError(line, f"enum {name}: {item!r} is not NAME = <integer>")
            if e.group(1) in values:
                raise HeaderError(line, f"enum {name}: {e.group(1)} twice")
            values[e.group(1)] = int(e.group(2))
        header.add(line, "enum", name, values)
        for constant, value in values.items():
            header.add(line, "enumerator", constant, value)
        return
    m = re.fullmatch(r"typedef struct (\w+) (\w+);", text)
    if m:
        same(line, *m.groups())
        header.add(line, "opaque", m.group(1), None)
        return
    m = re.fullmatch(r"typedef struct (\w+) \{(.*)\} (\w+);", text)
    if m:
        name, body, alias = m.groups()
        same(line, name, alias)
        fields = []
        for decl in body.split(";"):
            decl = decl.strip()
            if not decl:
                continue
            f = re.fullmatch(r"(.+?) (\w+)(?: ?\[ ?(\d+) ?\])?", decl)
            if not f:
                raise HeaderError(line, f"struct {name}: the field {decl!r} is not understood")
            ctype, field, length = f.groups()
            if field in (n for n, _, _ in fields):
                raise HeaderError(line, f"struct {name}: the field {field} twice")
            fields.append((field, ctype, None if length is None else int(length)))
        if not fields:
            raise HeaderError(line, f"struct {name} has no field")
        header.add(line, "struct", name, fields)
        return
    m = re.fullmatch(r"typedef (.+?) ?\(\* ?(\w+)\)\((.*)\);", text)
    if m:
        restype, name, params = m.groups()
        header.add(line, "callback", name, (restype, parameters(line, name, params)))
        return
    m = re.fullmatch(r"(.+?) ?\b(\w+)\((.*)\);", text)
    if m and not text.startswith("typedef "):
        restype, name, params = m.groups()
        header.add(line, "function", name, (restype, parameters(line, name, params)))
        return
    raise HeaderError(line, f"{text!r} is not an enum, struct, callback or function declaration")


def same(line, name, alias):
    if name != alias:
        raise HeaderError(line, f"typedef of {name} as {alias}: the two names differ")


def parameters(line, function, text):
    text = text.strip()
    if text == "void":
        return []
    out = []
    for param in text.split(","):
        p = re.fullmatch(r"(.+?) ?\b(\w+)", param.strip())
        if not p or p.group(1).strip() in ("", "const", "struct"):
            raise HeaderError(line, f"{function}: the parameter {param.strip()!r} has no name or type")
        out.append((p.group(2), p.group(1)))
    return out


# --- C types as ctypes --------------------------------------------------------------------------
def ctype(header, line, where, text, is_return=False):
    """The ctypes expression (Python source) of the C type ``text``."""
    tokens = text.replace("*", " * ").split()
    stars = tokens.count("*")
    words = [t for t in tokens if t != "*"]
    const_base = False
    if words and words[0] == "const":
        const_base = True
        words = words[1:]
    struct = bool(words) and words[0] == "struct"
    if struct:
        words = words[1:]
    if not words or not re.fullmatch(r"\w+", words[0]):
        raise HeaderError(line, f"{where}: the type {text!r} is not understood")
    base, rest = words[0], words[1:]
    if base in ("signed", "unsigned", "long", "short", "int") or (rest and rest != ["const"] * len(rest)):
        raise HeaderError(line, f"{where}: the type {text!r} is not a fixed-width type")
    kind = header.names.get(base)
    if struct and kind not in ("struct", "opaque"):
        raise HeaderError(line, f"{where}: struct {base} is not declared before its use")
    if base == "void":
        if stars == 0:
            if not is_return:
                raise HeaderError(line, f"{where}: void is only a return type")
            return "None"
        return wrap("c_void_p", stars - 1)
    if base == "char":
        if stars == 0:
            return "c_char"
        return wrap("c_char_p" if const_base else "c_char_ptr", stars - 1)
    if base in SCALARS:
        return wrap(SCALARS[base], stars)
    if kind == "opaque":
        if stars == 0:
            raise HeaderError(line, f"{where}: the opaque {base} passed by value")
        return wrap(f"{base}_p", stars - 1)
    if kind in ("struct", "callback"):
        return wrap(base, stars)
    if kind == "enum":
        raise HeaderError(line, f"{where}: the enum type {base} (its C size is the compiler's); the ABI uses int32_t")
    raise HeaderError(line, f"{where}: the type {text!r} is not declared before its use")


def wrap(expr, pointers):
    for _ in range(pointers):
        expr = f"POINTER({expr})"
    return expr


# --- writing ------------------------------------------------------------------------------------
PREAMBLE = '''\
# generated by scripts/gen_python_ffi.py from include/metaopt.h; do not edit.
# After a change of the header: python3 scripts/gen_python_ffi.py (python/tests/test_ffi_generated.py
# fails while this file is stale).
"""ctypes declarations of the C ABI of ``libmetaopt`` (``include/metaopt.h``), in header order:
its constants and enumerators as ints (``ENUMS`` by enum), its opaque handles (``X`` and
``X_p = POINTER(X)``), callbacks (``CFUNCTYPE``), structs (``STRUCTS``, fields in header order)
and functions (``SIGNATURES``: name -> (restype, argtypes)). ``const char *`` is ``c_char_p``;
``char *``, a string the library returns and the caller frees with ``metaopt_pointer_free``, is
``c_char_ptr`` (``POINTER(c_char)``), so that ctypes keeps the pointer. The header's
compatibility names are not declared: the library exports the current symbols only."""

from ctypes import (
{imports}
)

c_char_ptr = POINTER(c_char)
'''


def generate(text):
    """The source of python/metaopt/_ffi.py for the header ``text``."""
    header = parse(text)
    used = {"POINTER", "Structure", "c_char"}
    blocks = []  # (blank lines wanted before, lines, blank lines wanted after)

    def t(line, where, c, is_return=False):
        expr = ctype(header, line, where, c, is_return)
        used.update(n for n in re.findall(r"\b(c_\w+|POINTER|CFUNCTYPE)\b", expr) if n != "c_char_ptr")
        return expr

    def emit(lines, before=1, after=1):
        if blocks and blocks[-1][0] == "run" and before == 0:
            blocks[-1][2].extend(lines)
        else:
            blocks.append(("run" if before == 0 else "block", before, list(lines), after))

    for kind, name, data, line in header.items:
        if kind == "constant":
            emit([f"{name} = {data}"], before=0)
        elif kind == "enum":
            emit([f"# enum {name}"] + [f"{k} = {v}" for k, v in data.items()])
        elif kind == "opaque":
            emit([f"class {name}(Structure):", f'    """Opaque handle: ``struct {name} *``."""'], 2, 2)
            emit([f"{name}_p = POINTER({name})"], 2, 2)
        elif kind == "callback":
            restype, params = data
            used.add("CFUNCTYPE")
            args = [t(line, f"{name}({p})", c) for p, c in params]
            emit([f"# {restype} (*{name})({', '.join(c + ' ' + p for p, c in params)})",
                  f"{name} = CFUNCTYPE({', '.join([t(line, name, restype, True)] + args)})"], 2, 2)
        elif kind == "struct":
            lines = [f"class {name}(Structure):", "    _fields_ = ["]
            for field, c, length in data:
                expr = t(line, f"{name}.{field}", c)
                if length is not None:
                    expr = f"{expr} * {length}"
                lines.append(f'        ("{field}", {expr}),')
            emit(lines + ["    ]"], 2, 2)

    lines = ["# every enum of the header: name -> {enumerator: value}", "ENUMS = {"]
    for name, values, _ in header.of("enum"):
        lines.append(f'    "{name}": {{')
        lines.extend(f'        "{k}": {k},' for k in values)
        lines.append("    },")
    emit(lines + ["}"], 2)
    emit(["# every struct of the header (not the opaque handles), in header order", "STRUCTS = {"]
         + [f'    "{name}": {name},' for name, _, _ in header.of("struct")] + ["}"])
    emit(["# every opaque handle of the header", "OPAQUE = {"]
         + [f'    "{name}": {name},' for name, _, _ in header.of("opaque")] + ["}"])
    lines = ["# every function of the header, in header order: name -> (restype, argtypes)", "SIGNATURES = {"]
    for name, (restype, params), line in header.of("function"):
        res = t(line, f"{name} (return)", restype, True)
        if not params:
            lines.append(f'    "{name}": ({res}, []),')
            continue
        lines.append(f'    "{name}": ({res}, [')
        lines.extend(f"        {t(line, f'{name}({p})', c)},  # {p}" for p, c in params)
        lines.append("    ]),")
    emit(lines + ["}"])

    imports = "\n".join(f"    {n}," for n in sorted(used, key=lambda s: (s.startswith("c_"), s)))
    out = PREAMBLE.replace("{imports}", imports).rstrip("\n").split("\n")
    after = 1
    for _, before, lines, wanted_after in blocks:
        out += [""] * max(before, after, 1) + lines
        after = wanted_after
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed file instead of writing it")
    ap.add_argument("--header", type=Path, default=HEADER)
    ap.add_argument("--output", type=Path, default=OUTPUT)
    args = ap.parse_args()
    try:
        out = generate(args.header.read_text())
    except HeaderError as e:
        sys.exit(f"gen_python_ffi: {e}")
    if args.check:
        if not args.output.is_file() or args.output.read_text() != out:
            sys.exit(f"gen_python_ffi: {args.output} is stale: run python3 scripts/gen_python_ffi.py")
        return
    args.output.write_text(out)


if __name__ == "__main__":
    main()
