#!/usr/bin/env python3
"""Exit non-zero, listing them, when the modules of a crate import each other in a cycle.

Usage: check-import-cycles.py [ROOT]   (ROOT: the repository, default the parent of scripts/)

Crates checked: the library (src/, root src/lib.rs) and the CLI (cli/src/, root cli/src/main.rs).

The graph's nodes are file modules: each .rs file is one module (src/a/b.rs and src/a/b/mod.rs are
crate::a::b); inline modules such as `mod tests { ... }` belong to their file. An edge a -> b is a
path in a that names b or an item inside it: `use crate::...`, `use super::...`, `use self::...`,
a `use` of a child module by its bare name, and the same paths written inline in code
(`crate::x::y::f()`). Code under `#[cfg(test)] mod ... { }` is left out: a unit test may use any
module it tests without making the modules depend on each other. A path ends at the deepest file
module it names, so `crate::de::Config` is an edge to `de` (its mod.rs) even where mod.rs
re-exports it from a child.

Rule: an edge from a module to one of its ancestors (a child using its parent's items) or to one
of its descendants (a parent using its children) is left out: a parent owns its children and
re-exports what they implement. Every other edge a -> b is read at the level where the two
paths part: it is an edge between the two siblings under their nearest common ancestor that
hold a and b (cli/src/bench/de.rs -> cli/src/experiment/de_stats.rs is bench -> experiment).
The siblings of every module must form no cycle, so folders are layers as much as files are.
"""

import os
import re
import sys

CRATES = [("src", "lib.rs", "library"), ("cli/src", "main.rs", "cli")]

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip_comments_and_strings(text):
    """The source with comments, string and char literals blanked (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif (
            c == "r"
            and re.match(r'r#*"', text[i:i + 10])
            and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_"))
        ):
            m = re.match(r'r(#*)"', text[i:])
            end = '"' + m.group(1)
            j = text.find(end, i + len(m.group(0)))
            j = n if j < 0 else j + len(end)
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j + 1
        elif c == "'":
            # a char literal ('a', '\n', '\u{..}') or a lifetime ('a): blank only the former
            m = re.match(r"'(\\.[^']*|[^'\\])'", text[i:i + 12])
            if m:
                out.append("' '")
                i += len(m.group(0))
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def expand_use_tree(tree):
    """`a::{b, c::{d, e}}` -> [[a, b], [a, c, d], [a, c, e]] (globs and renames dropped)."""
    tree = re.sub(r"\s+as\s+" + IDENT, "", tree)
    tree = re.sub(r"\s+", "", tree)

    def parse(s, i):
        # returns (list of paths, index after)
        prefix = []
        seg = ""
        while i < len(s):
            ch = s[i]
            if s.startswith("::", i):
                if seg:
                    prefix.append(seg)
                seg = ""
                i += 2
            elif ch == "{":
                paths = []
                i += 1
                while True:
                    sub, i = parse(s, i)
                    paths.extend(prefix + p for p in sub)
                    if i < len(s) and s[i] == ",":
                        i += 1
                        continue
                    if i < len(s) and s[i] == "}":
                        i += 1
                    break
                return paths, i
            elif ch in ",}":
                break
            else:
                seg += ch
                i += 1
        segs = prefix + ([seg] if seg else [])
        return [[x for x in segs if x != "*"]], i

    paths, _ = parse(tree, 0)
    return [p for p in paths if p]


class Crate:
    def __init__(self, root, src, lib):
        self.root = root
        self.dir = os.path.join(root, src)
        self.modules = {}  # tuple path -> file (relative to the repository)
        for dirpath, _, files in os.walk(self.dir):
            for f in files:
                if not f.endswith(".rs"):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, f), self.dir)
                parts = rel[:-3].split(os.sep)
                if rel == lib:
                    parts = []
                elif parts[-1] == "mod":
                    parts = parts[:-1]
                self.modules[tuple(parts)] = os.path.join(src, rel)

    def target(self, path):
        """The deepest file module that an absolute path (a tuple of segments) names."""
        for k in range(len(path), -1, -1):
            if tuple(path[:k]) in self.modules:
                return tuple(path[:k])
        return ()

    def edges(self, module):
        with open(os.path.join(self.root, self.modules[module])) as f:
            text = strip_comments_and_strings(f.read())
        # inline modules: `mod name {` opens a scope whose `super`/`self` are relative to it
        scopes = []  # (brace depth at open, name, under #[cfg(test)])
        depth = 0
        refs = []  # (position's scope path, absolute-or-relative path segments, is_use)
        token = re.compile(
            r"(#\[cfg\(test\)\]\s*)?\bmod\s+(" + IDENT + r")\s*\{"  # an inline module
            r"|[{}]"
            r"|\buse\s+([^;]*);"
            r"|\b((?:crate|super|self)(?:\s*::\s*" + IDENT + r")+)"  # a path in code
        )
        for m in token.finditer(text):
            if m.group(2):
                scopes.append((depth, m.group(2), bool(m.group(1))))
                depth += 1
            elif m.group(0) == "{":
                depth += 1
            elif m.group(0) == "}":
                depth -= 1
                if scopes and scopes[-1][0] == depth:
                    scopes.pop()
            elif any(test for _, _, test in scopes):
                continue
            elif m.group(3) is not None:
                here = list(module) + [s for _, s, _ in scopes]
                for p in expand_use_tree(m.group(3)):
                    refs.append((here, p, True))
            elif m.group(4):
                here = list(module) + [s for _, s, _ in scopes]
                refs.append((here, re.sub(r"\s+", "", m.group(4)).split("::"), False))
        out = set()
        for here, p, is_use in refs:
            p = [s for s in p if s]
            if not p:
                continue
            if p[0] == "crate":
                absolute = p[1:]
            elif p[0] in ("super", "self"):
                base = list(here)
                while p and p[0] in ("super", "self"):
                    if p[0] == "super":
                        base = base[:-1]
                    p = p[1:]
                absolute = base + p
            elif is_use and tuple(list(module) + [p[0]]) in self.modules:
                absolute = list(module) + p  # `use child::Item` in the child's parent
            else:
                continue  # another crate, or a name brought into scope by another `use`
            t = self.target(absolute)
            if t == module or module[: len(t)] == t:
                continue  # itself, or an ancestor (the rule above)
            out.add(t)
        return out

    def graph(self):
        """Edges between siblings, each with the file-module edges that make it."""
        graph = {m: set() for m in self.modules}
        why = {}
        for a in self.modules:
            for b in self.edges(a):
                if b[: len(a)] == a:
                    continue  # a descendant
                k = 0
                while a[k] == b[k]:
                    k += 1
                ca, cb = a[: k + 1], b[: k + 1]
                graph[ca].add(cb)
                why.setdefault((ca, cb), []).append((a, b))
        return graph, why


def cycles(graph):
    """Strongly connected components with more than one module (Tarjan), and one cycle in each."""
    index, low, stack, on, comps = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    found = []
    for comp in comps:
        members = set(comp)
        start = comp[0]
        # shortest cycle through start within the component (breadth first)
        prev, frontier, seen = {}, [start], {start}
        cycle = None
        while frontier and cycle is None:
            nxt = []
            for v in frontier:
                for w in sorted(graph[v] & members):
                    if w == start:
                        cycle = [start]
                        x = v
                        while x != start:
                            cycle.insert(1, x)
                            x = prev[x]
                        break
                    if w not in seen:
                        seen.add(w)
                        prev[w] = v
                        nxt.append(w)
                if cycle:
                    break
            frontier = nxt
        found.append((comp, cycle))
    return found


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..")
    bad = 0
    for src, lib, name in CRATES:
        if not os.path.isdir(os.path.join(root, src)):
            continue
        crate = Crate(root, src, lib)
        graph, why = crate.graph()
        name_of = lambda m: "::".join(m)
        for comp, cycle in cycles(graph):
            members = set(comp)
            # each pair of modules that import each other is a cycle of its own; a component
            # without such a pair shows its shortest cycle
            pairs = sorted((x, y) for x, y in why if x < y and (y, x) in why and x in members)
            shown = [[x, y] for x, y in pairs] or [cycle]
            for c in shown:
                bad += 1
                print(f"{name}: import cycle: " + " -> ".join(name_of(m) for m in c + [c[0]]))
                for x, y in zip(c, c[1:] + c[:1]):
                    for a, b in sorted(why[(x, y)]):
                        print(f"    {crate.modules[a]} uses {crate.modules[b]}")
    if bad:
        print(f"{bad} import cycle(s); move the shared items to the module that owns the concept")
        return 1
    print("no import cycles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
