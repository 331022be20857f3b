#!/usr/bin/env python3
"""Checks that code, kernels, docs and help carry no lab notes, and that benchmarks/ is an index.

Fails (exit 1, one line per finding) when
- a file of the code, kernels, examples, front ends or docs names an issue ("issue 25",
  "(#25)") or a machine path ("/work/..."), where measurements and history belong in
  benchmarks/INDEX.md and CHANGELOG.md;
- such a file, README.md or CHANGELOG.md names a `benchmarks/` path other than
  benchmarks/INDEX.md, benchmarks/records/... or benchmarks/drivers/..., or one that does not
  exist;
- a spec (docs/specs/*.md) quotes a measured figure of the project's own: a time in ms/us, a
  rate (flips/s, generations/s, evaluations/s, rows/s, iterations/s, runs/s, MTEPS), "Nx faster",
  "Nx slower", "Nx the CPU", "Nx EvoX", "session N", "on this CPU/machine" (seconds are not
  checked: too many are parameters such as "60 s per function"; published figures of the
  sources, e.g. "420x one CPU core", are written without these words);
- a folder of benchmarks/records has no line in benchmarks/INDEX.md, or a line no folder;
- anything but INDEX.md, records/ and drivers/ lives in benchmarks/, or a file in records/
  sits outside a record's folder.

Run from anywhere: python3 scripts/check-lab-notes.py (stdlib only).
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Where lab notes must not be: (folder or file, file name suffixes); folders recurse.
SCANNED = [
    ("src", (".rs",)),
    ("cli/src", (".rs",)),
    ("cl", (".cl", ".h")),
    ("examples", (".rs",)),
    ("include/metaopt.hpp", ("",)),
    ("python/metaopt", (".py",)),
    ("matlab", (".m", ".c", ".h", ".md")),
    ("docs/specs", (".md",)),
    ("docs/ARCHITECTURE.md", ("",)),
    ("tests", (".rs", ".c", ".md")),
    ("cli/tests", (".rs",)),
    ("c_examples", (".c", ".cpp", ".h")),
    ("python/tests", (".py",)),
    ("python/examples", (".py",)),
]
# Files where only benchmark paths are checked (history may name issues).
PATHS_ONLY = ["README.md", "CHANGELOG.md"]

ISSUE = re.compile(r"\b[Ii]ssues? #?\d+\b|\(#\d+\)")
MACHINE = re.compile(r"(?<![\w.])/work/")
FIGURE = re.compile(
    r"\b\d[\d.,]*\s?(?:ms|µs|us)\b"
    r"|\b\d[\d.,]*\s?[kMG]?\s?(?:flips|gen(?:erations)?|evaluations|rows|iterations|runs)/s\b"
    r"|\b\d[\d.,]*\s?(?:x|×)\s(?:faster|slower|the CPU|EvoX)"
    r"|\b\d[\d.,]*\s?MTEPS\b|\b[Ss]ession \d+\b|\bon this (?:CPU|machine)\b"
)
BENCH = re.compile(r"\bbenchmarks/[A-Za-z0-9_./*-]*")


def listed_files():
    """Tracked and untracked-but-not-ignored files, relative to ROOT."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
            cwd=ROOT, capture_output=True, check=True,
        ).stdout.decode()
        return [f for f in out.split("\0") if f and os.path.exists(os.path.join(ROOT, f))]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for d, dirs, names in os.walk(ROOT):
            dirs[:] = [x for x in dirs if x not in (".git", "target")]
            files += [os.path.relpath(os.path.join(d, n), ROOT) for n in names]
        return files


def scanned(path):
    for top, suffixes in SCANNED:
        if path == top or path.startswith(top + "/"):
            return path.endswith(suffixes)
    return False


def bench_path_ok(p):
    p = p.rstrip(".,;:)*`'\"")
    if p in ("benchmarks/INDEX.md", "benchmarks/"):
        return True
    if not (p.startswith("benchmarks/records/") or p.startswith("benchmarks/drivers/")):
        return False
    return os.path.exists(os.path.join(ROOT, p))


def main():
    bad = []
    files = listed_files()
    for f in sorted(files):
        in_scope = scanned(f)
        if not in_scope and f not in PATHS_ONLY:
            continue
        try:
            text = open(os.path.join(ROOT, f), encoding="utf-8").read()
        except (UnicodeDecodeError, OSError):
            continue
        for no, line in enumerate(text.splitlines(), 1):
            if in_scope:
                for m in ISSUE.finditer(line):
                    bad.append(f"{f}:{no}: issue number {m.group(0)!r} (say why instead)")
                if MACHINE.search(line):
                    bad.append(f"{f}:{no}: machine path (no clone has it)")
                if f.startswith("docs/specs/"):
                    for m in FIGURE.finditer(line):
                        bad.append(f"{f}:{no}: measured figure {m.group(0)!r} (state the finding "
                                   "and cite its benchmarks/INDEX.md entry)")
            for m in BENCH.finditer(line):
                if not bench_path_ok(m.group(0)):
                    bad.append(f"{f}:{no}: {m.group(0)!r} is not benchmarks/INDEX.md or an "
                               "existing benchmarks/records/... or benchmarks/drivers/... path")

    # benchmarks/: INDEX.md, records/<record>/..., drivers/... and nothing else
    records = set()
    for f in files:
        if not f.startswith("benchmarks/"):
            continue
        parts = f.split("/")
        if f == "benchmarks/INDEX.md" or parts[1] == "drivers":
            continue
        if parts[1] == "records" and len(parts) >= 4:
            records.add(parts[2])
            continue
        bad.append(f"{f}: outside benchmarks/records/<record>/, benchmarks/drivers/ and INDEX.md")

    index = os.path.join(ROOT, "benchmarks/INDEX.md")
    lines = set()
    if os.path.exists(index):
        for no, line in enumerate(open(index, encoding="utf-8"), 1):
            m = re.match(r"\|\s*`?([0-9]{4}-[0-9]{2}-[0-9]{2}-[^|`\s]+)`?\s*\|", line)
            if m:
                if m.group(1) in lines:
                    bad.append(f"benchmarks/INDEX.md:{no}: {m.group(1)} listed twice")
                lines.add(m.group(1))
    elif records:
        bad.append("benchmarks/INDEX.md: missing")
    for r in sorted(records - lines):
        bad.append(f"benchmarks/records/{r}: no line in benchmarks/INDEX.md")
    for r in sorted(lines - records):
        bad.append(f"benchmarks/INDEX.md: {r} has no folder in benchmarks/records")

    for b in bad:
        print(b)
    if bad:
        print(f"check-lab-notes: {len(bad)} finding(s)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
