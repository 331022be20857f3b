#!/usr/bin/env python3
"""The Voronoi diagram on degenerate balls: how long `metaopt awvd` takes (or takes to refuse)
on balls with centres on one sphere, printed to 6 or 3 decimals (1,000 to 100,000 balls of
radius 0.5 on a sphere of radius 10), on 1,000 distinct balls overlapping in a cube of 1 Å,
and on concentric balls, with the CPU backend and the device path.

Usage, from the repository root: python3 benchmarks/drivers/awvd/degenerate.py path/to/metaopt OUT.csv
Rows: case, balls, backend, seconds (wall, the process), exit status, outcome (vertices or the
error's first words).
"""

import csv
import math
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def on_sphere(n, decimals, seed=1):
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        while True:
            v = [rnd.gauss(0, 1) for _ in range(3)]
            norm = math.sqrt(sum(x * x for x in v))
            if norm > 1e-9:
                break
        out.append(" ".join(f"{10 * x / norm:.{decimals}f}" for x in v) + " 0.5")
    return out


def crowded(n, seed=1):
    rnd = random.Random(seed)
    return [f"{rnd.random():.6f} {rnd.random():.6f} {rnd.random():.6f} {1 + 0.5 * rnd.random():.6f}"
            for _ in range(n)]


def concentric(n):
    return [f"1 2 3 {1 + i / n:.9f}" for i in range(n)]


def main(exe, out):
    cases = [(f"on_sphere_{d}dp", n, on_sphere(n, d)) for d in (6, 3) for n in (1000, 20000, 100000)]
    cases += [("crowded_1A_cube", 1000, crowded(1000)), ("concentric", 100000, concentric(100000))]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, n, lines in cases:
            path = Path(tmp) / f"{name}_{n}.txt"
            path.write_text("\n".join(lines) + "\n")
            for backend in ("cpu", "device"):
                args = [exe, "awvd", str(path)] + (["--cpu"] if backend == "cpu" else [])
                t = time.perf_counter()
                p = subprocess.run(args, capture_output=True, text=True)
                wall = time.perf_counter() - t
                words = [l for l in p.stdout.splitlines() if l.startswith("vertices")]
                outcome = words[0] if p.returncode == 0 and words else p.stderr.strip()[:90]
                rows.append((name, n, backend, f"{wall:.3f}", p.returncode, outcome))
                print(rows[-1], flush=True)
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["case", "balls", "backend", "seconds", "exit", "outcome"])
        w.writerows(rows)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
