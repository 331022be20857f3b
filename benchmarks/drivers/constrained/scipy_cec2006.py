#!/usr/bin/env python3
"""scipy.optimize.differential_evolution on the CEC 2006 constrained set, beside
`metaopt bench constrained`: the same problems (metaopt.cec2006.problem: the library's host
evaluation, the inequalities as NonlinearConstraint(g, -inf, 0) and the equalities as
NonlinearConstraint(h, -1e-4, 1e-4)), the same runs and budget, the same CSV columns.

scipy keeps its defaults (best1bin, popsize 15, mutation (0.5, 1), recombination 0.7, tol 0.01,
and its polish: trust-constr from the best point after the generations) except maxiter, set so
that the generations make the budget: popsize * dims * (maxiter + 1) <= evaluations. The polish
is scipy's own step made after differential_evolution(polish=False), the same call and the same
rule of acceptance, so that a polish that raises (trust-constr meeting a NaN of G14's logarithms)
keeps the run's generations instead of ending the benchmark; stderr counts such runs. An
evaluation is a point evaluated (its objective and constraints together; scipy asks the
constraints of every trial and the objective of the feasible ones, and the polish its own points),
so a run's evaluations are those points, polish included: the polish may pass the budget, and
tol may end a run before it. As with the metaopt bench, a run stops once its best point is
feasible and within 1e-4 of the best known (scipy's callback, after each generation, returns
True; scipy then still polishes); its evaluations and seconds to success are those at that
moment. The final point is evaluated again: feasible when the report's mean violation is 0.

Usage, from the repository root (METAOPT_LIB naming target/release/libmetaopt.so where the
package is not installed):
  PYTHONPATH=python python3 benchmarks/drivers/constrained/scipy_cec2006.py \
      [--problems G01,G02] [--runs 25] [--evaluations 500000] [--seed 1] [--csv FILE]
The CSV goes to stdout (and FILE, written whole under a temporary name and renamed); a line per
problem to stderr.
"""

import argparse
import csv
import io
import os
import statistics
import sys
import tempfile
import time
import warnings

import numpy as np
import scipy
from scipy.optimize import differential_evolution, minimize

from metaopt import cec2006

SUCCESS_ERROR = 1e-4
POPSIZE = 15

COLUMNS = [
    "problem", "dims", "ng", "nh", "best_known", "best_known_feasible", "runs", "evaluations",
    "feasible_runs", "successful_runs", "best_value", "median_value", "worst_value",
    "median_evaluations_to_success", "median_seconds_to_success", "mean_seconds", "mean_evaluations",
    "handling", "islands", "members", "backend",
]


def one_run(p, evaluations, seed):
    """One scipy run of problem p: (value, violation, evaluations, seconds, succeeded at)."""
    fun, bounds, constraints = cec2006.problem(p.name)
    ev = fun.evaluator
    members = max(5, POPSIZE * p.dims)
    maxiter = max(1, evaluations // members - 1)
    reached = {}
    t0 = time.perf_counter()

    def callback(xk, convergence=None):
        f, _c, v = cec2006.evaluate(p.name, xk, violation=True)
        if v == 0.0 and f - p.best <= SUCCESS_ERROR and not reached:
            reached["evaluations"] = ev.points
            reached["seconds"] = time.perf_counter() - t0
            return True
        return False

    res = differential_evolution(fun, bounds, constraints=constraints, maxiter=maxiter, popsize=POPSIZE,
                                 seed=seed, callback=callback, polish=False)
    x, polish_failed = polish(fun, res, bounds, constraints)
    seconds = time.perf_counter() - t0
    f, _c, v = cec2006.evaluate(p.name, x, violation=True)
    return {"value": f, "violation": v, "evaluations": ev.points, "seconds": seconds, "reached": reached,
            "polish_failed": polish_failed}


def polish(fun, res, bounds, constraints):
    """scipy's polish of a constrained run (differential_evolution's own, scipy 1.10: trust-constr
    from the best point within the bounds, kept when it lowers the value, succeeds and stays in
    the box), made here so that a polish that raises (trust-constr meets a NaN of the objective,
    as at G14's x_i = 0) keeps the generations' result instead of losing the run:
    (x, whether the polish raised)."""
    lo, hi = np.array(bounds).T
    try:
        r = minimize(fun, np.copy(res.x), method="trust-constr", bounds=np.array(bounds), constraints=constraints)
    except (ValueError, ArithmeticError, np.linalg.LinAlgError):
        return res.x, True
    if r.fun < res.fun and r.success and np.all(r.x <= hi) and np.all(lo <= r.x):
        return r.x, False
    return res.x, False


def median(v):
    return statistics.median(v) if v else None


def problem_row(p, runs, evaluations):
    feasible = [r["value"] for r in runs if r["violation"] == 0.0]
    won = [r for r in runs if r["violation"] == 0.0 and r["value"] - p.best <= SUCCESS_ERROR]
    # a run that succeeded only in the polish: its evaluations and seconds are the whole run's
    to_success = [r["reached"] or {"evaluations": r["evaluations"], "seconds": r["seconds"]} for r in won]
    return {
        "problem": p.name, "dims": p.dims, "ng": p.ng, "nh": p.nh, "best_known": p.best,
        "best_known_feasible": str(p.best_feasible).lower(), "runs": len(runs), "evaluations": evaluations,
        "feasible_runs": len(feasible), "successful_runs": len(won),
        "best_value": min(feasible) if feasible else None, "median_value": median(feasible),
        "worst_value": max(feasible) if feasible else None,
        "median_evaluations_to_success": median([float(s["evaluations"]) for s in to_success]),
        "median_seconds_to_success": median([s["seconds"] for s in to_success]),
        "mean_seconds": sum(r["seconds"] for r in runs) / len(runs),
        "mean_evaluations": sum(r["evaluations"] for r in runs) / len(runs),
        "polish_failures": sum(r["polish_failed"] for r in runs),
        "handling": "scipy", "islands": 1, "members": max(5, POPSIZE * p.dims),
        "backend": f"scipy {scipy.__version__} differential_evolution (host evaluation through libmetaopt)",
    }


def write_atomically(path, text):
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".scipy_cec2006-", dir=d)
    try:
        with os.fdopen(fd, "w", newline="") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--problems", default=",".join(cec2006.NAMES), help="comma-separated, default all 24")
    ap.add_argument("--runs", type=int, default=25)
    ap.add_argument("--evaluations", type=int, default=500_000)
    ap.add_argument("--seed", type=int, default=1, help="run r uses seed S + r")
    ap.add_argument("--csv", help="also write the CSV to this file")
    a = ap.parse_args(argv)
    if a.runs < 1:
        ap.error(f"--runs: {a.runs}; expected at least 1")
    problems = [cec2006.info(n) for n in a.problems.split(",") if n.strip()]
    # scipy warns of every infeasible end and of trust-constr's quasi-Newton updates
    warnings.simplefilter("ignore", UserWarning)
    for p in problems:
        if a.evaluations < 2 * max(5, POPSIZE * p.dims):
            ap.error(f"--evaluations: {a.evaluations} is less than two generations of {p.name}'s "
                     f"{max(5, POPSIZE * p.dims)} members")
    if a.csv:
        # checked before the runs: a file that cannot be written fails now, not after them
        d = os.path.dirname(os.path.abspath(a.csv))
        if not os.access(d, os.W_OK):
            ap.error(f"--csv: cannot write in {d}")
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=COLUMNS, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    for p in problems:
        runs = [one_run(p, a.evaluations, a.seed + r) for r in range(a.runs)]
        row = problem_row(p, runs, a.evaluations)
        w.writerow(row)
        print(f"{p.name} feasible {row['feasible_runs']}/{len(runs)} success {row['successful_runs']}/{len(runs)} "
              f"median {row['median_value']} evals to success {row['median_evaluations_to_success']} "
              f"mean s {row['mean_seconds']:.2f} polish raised in {row['polish_failures']} runs",
              file=sys.stderr, flush=True)
    text = buf.getvalue()
    sys.stdout.write(text)
    if a.csv:
        write_atomically(a.csv, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
