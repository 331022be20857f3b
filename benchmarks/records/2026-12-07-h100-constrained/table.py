#!/usr/bin/env python3
"""The README's table from this record's CSV files (stdlib only): per problem and run set the
successful runs and the median seconds to success, then the totals.

Usage, from this folder: python3 table.py
"""

import csv
import glob
from pathlib import Path

HERE = Path(__file__).resolve().parent
SETS = {
    "GPU Deb 100k": "gpu_deb_100k.csv",
    "CPU backend Deb 100k": "cpu_deb_100k.csv",
    "scipy 100k": "scipy_100k_*.csv",
    "GPU Deb 500k": "gpu_deb_500k.csv",
    "GPU epsilon 500k": "gpu_eps_500k.csv",
    "GPU L-SHADE 500k": "gpu_lshade_500k.csv",
}


def load(pattern):
    rows = {}
    for f in sorted(glob.glob(str(HERE / pattern))):
        with open(f, newline="") as h:
            for r in csv.DictReader(h):
                rows[r["problem"]] = r
    return rows


def main():
    sets = {k: load(v) for k, v in SETS.items()}
    print("| problem | " + " | ".join(sets) + " |")
    totals = {k: [0, 0, 0] for k in sets}
    for i in range(1, 25):
        p = f"G{i:02d}"
        cells = []
        for k, rows in sets.items():
            r = rows[p]
            s, n = int(r["successful_runs"]), int(r["runs"])
            t = r["median_seconds_to_success"]
            totals[k][0] += s
            totals[k][1] += n
            totals[k][2] += s == n
            cells.append(f"{s}/{n}" + (f" {float(t):.3g} s" if t else ""))
        print(f"| {p} | " + " | ".join(cells) + " |")
    print("| total | " + " | ".join(f"{a}/{b}, {c} problems every run" for a, b, c in totals.values()) + " |")


if __name__ == "__main__":
    main()
