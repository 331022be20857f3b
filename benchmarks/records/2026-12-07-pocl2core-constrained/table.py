#!/usr/bin/env python3
"""The README's tables from this record's CSV files (stdlib only): per problem and solver the
feasible and successful runs, the median value of the feasible runs and the median evaluations
and seconds to success; then the totals, and the time ratios of the problems both solved.

Usage, from this folder: python3 table.py
"""

import csv
import statistics
from pathlib import Path

HERE = Path(__file__).resolve().parent


def load(name):
    with open(HERE / f"{name}.csv", newline="") as f:
        return {r["problem"]: r for r in csv.DictReader(f)}


def cell(r):
    med = r["median_value"]
    e = r["median_evaluations_to_success"]
    s = r["median_seconds_to_success"]
    return (f"{r['feasible_runs']}/{r['runs']} {r['successful_runs']}/{r['runs']} "
            f"{float(med):.6g} " if med else f"{r['feasible_runs']}/{r['runs']} {r['successful_runs']}/{r['runs']} - ") + \
        (f"{float(e):.0f} {float(s):.3f}" if e else "- -")


def table(title, names):
    runs = {n: load(n) for n in names}
    problems = list(next(iter(runs.values())))
    print(f"### {title}\n")
    print("Each cell: feasible runs, successful runs, median value of the feasible runs, median "
          "evaluations and seconds to success.\n")
    print("| problem | best known | " + " | ".join(names) + " |")
    print("|---|---|" + "---|" * len(names))
    for p in problems:
        first = runs[names[0]][p]
        best = first["best_known"] + ("" if first["best_known_feasible"] == "true" else " (infeasible)")
        print(f"| {p} | {best} | " + " | ".join(cell(runs[n][p]) for n in names) + " |")
    print()
    print("| solver | feasible runs | successful runs | problems solved in every run | problems solved at least once | sum of mean seconds per run |")
    print("|---|---|---|---|---|---|")
    for n in names:
        rows = runs[n].values()
        total = sum(int(r["runs"]) for r in rows)
        feas = sum(int(r["feasible_runs"]) for r in rows)
        succ = sum(int(r["successful_runs"]) for r in rows)
        every = sum(1 for r in rows if r["successful_runs"] == r["runs"])
        once = sum(1 for r in rows if int(r["successful_runs"]) > 0)
        secs = sum(float(r["mean_seconds"]) for r in rows)
        print(f"| {n} | {feas}/{total} | {succ}/{total} | {every} | {once} | {secs:.1f} |")
    print()
    return runs


def ratios(runs, a, b):
    """Median seconds and evaluations to success of b over a, on the problems both solved."""
    out = []
    for p, ra in runs[a].items():
        rb = runs[b][p]
        if ra["median_seconds_to_success"] and rb["median_seconds_to_success"]:
            out.append((p, float(rb["median_seconds_to_success"]) / float(ra["median_seconds_to_success"]),
                        float(rb["median_evaluations_to_success"]) / float(ra["median_evaluations_to_success"])))
    print(f"{b} / {a}, median seconds and evaluations to success, on the {len(out)} problems both solved: "
          + ", ".join(f"{p} {t:.2g}x {e:.2g}x" for p, t, e in out))
    if out:
        print(f"(median over those problems: seconds {statistics.median(t for _, t, _ in out):.3g}x, "
              f"evaluations {statistics.median(e for _, _, e in out):.3g}x)")
    print()


if __name__ == "__main__":
    r = table("100,000 evaluations, 3 runs", ["metaopt_cpu_deb_100k", "metaopt_pocl_deb_100k",
                                               "metaopt_cpu_eps_100k", "scipy_100k"])
    ratios(r, "metaopt_cpu_deb_100k", "scipy_100k")
    ratios(r, "metaopt_cpu_eps_100k", "scipy_100k")
    ratios(r, "metaopt_cpu_deb_100k", "metaopt_pocl_deb_100k")
    table("500,000 evaluations (the competition's budget), 5 runs",
          ["metaopt_cpu_deb_500k", "metaopt_cpu_eps_500k"])
