#!/usr/bin/env python3
"""Checks that the baselines' objectives are metaopt's: F6 (rastrigin) and CEC07t (cec07t).

1. Against metaopt's accuracy fixture tests/fixtures/functions_d10.txt (10,000 points in D = 10,
   50-digit mpmath references, the fixture metaopt's own host and device functions are tested
   against; benchmarks/records/2026-11-22-pocl2core-functions_accuracy/accuracy_pocl_2core.csv has metaopt's errors on it): the torch and jax
   versions, double and float, max/mean absolute error.
2. Optionally (--metaopt-values FILE per function) against values printed by metaopt itself:
   FILE has one value per line for the first --count fixture points (see README.md).

Exits non-zero when a double error exceeds --tol-double (default 1e-9) or a float error the
float tolerance (default 1e-2 absolute: float32 CEC07t values are ~1e3 with ~1e-4 relative error).
"""

import argparse
import os
import sys
from decimal import Decimal, getcontext

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bde_common as common  # noqa: E402

getcontext().prec = 60
FIXTURE = common.REPO / "tests" / "fixtures" / "functions_d10.txt"


def load_fixture(path, names):
    lines = [l for l in open(path) if l.strip() and not l.startswith("#")]
    it = iter(lines)
    dims = int(next(it).split()[1])
    count = int(next(it).split()[1])
    assert next(it).split()[0] == "points"
    units = [[int(t) * 2.0**-53 for t in next(it).split()] for _ in range(count)]
    funcs = {}
    for l in it:
        t = l.split()
        if t[0] == "function":
            refs = [next(it).strip() for _ in range(count)]
            funcs[t[1]] = ((float(t[2]), float(t[3])), refs)
        elif t[0] == "alias":
            funcs[t[1]] = funcs[t[2]]
    out = {}
    for n in names:
        (a, b), refs = funcs[n]
        w = b - a
        out[n] = ([[a + w * u for u in row] for row in units], refs)
    return dims, out


def errors(values, refs):
    errs = [abs(Decimal(repr(float(v))) - Decimal(r)) for v, r in zip(values, refs)]
    return float(max(errs)), float(sum(errs) / len(errs))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=10000, help="fixture points used (first N)")
    ap.add_argument("--metaopt-values", nargs=2, action="append", metavar=("FUNCTION", "FILE"),
                    default=[], help="metaopt's values of FUNCTION (rastrigin|cec07t) at the first --count points")
    ap.add_argument("--dump-points", metavar="DIR", help="write DIR/<function>.txt: the first --count points, one per line")
    ap.add_argument("--tol-double", type=float, default=1e-9)
    ap.add_argument("--tol-float", type=float, default=1e-2)
    ap.add_argument("--skip", choices=["torch", "jax"], action="append", default=[])
    args = ap.parse_args()

    names = {k: v[0] for k, v in common.FUNCTIONS.items()}
    dims, fx = load_fixture(FIXTURE, list(names.values()))
    bad = 0
    rows = []
    for fn, mo in names.items():
        pts, refs = fx[mo]
        pts, refs = pts[: args.count], refs[: args.count]
        if args.dump_points:
            os.makedirs(args.dump_points, exist_ok=True)
            with open(os.path.join(args.dump_points, f"{fn}.txt"), "w") as f:
                for p in pts:
                    f.write(" ".join(repr(v) for v in p) + "\n")
        results = {}
        if "torch" not in args.skip:
            import torch
            for prec, dt in (("double", torch.float64), ("float", torch.float32)):
                f = common.torch_objective(fn, dims, dt, "cpu")
                results[("torch", prec)] = f(torch.tensor(pts, dtype=torch.float64).to(dt)).double().tolist()
        if "jax" not in args.skip:
            import jax
            jax.config.update("jax_enable_x64", True)
            import jax.numpy as jnp
            import numpy as np
            for prec, dt in (("double", jnp.float64), ("float", jnp.float32)):
                f = common.jax_objective(fn, dims, dt)
                results[("jax", prec)] = np.asarray(f(jnp.asarray(np.array(pts), dtype=dt)), dtype=np.float64).tolist()
        for (lib, prec), vals in results.items():
            mx, mean = errors(vals, refs)
            tol = args.tol_double if prec == "double" else args.tol_float
            ok = mx <= tol
            bad += not ok
            rows.append((fn, mo, f"{lib}-{prec}", "fixture", len(vals), mx, mean, ok))
        for f_name, path in args.metaopt_values:
            if f_name != fn:
                continue
            mvals = [float(l) for l in open(path) if l.strip()]
            n = len(mvals)
            mx, mean = errors(mvals, refs[:n])
            rows.append((fn, mo, "metaopt-host-f64", "fixture", n, mx, mean, True))
            for (lib, prec), vals in results.items():
                diffs = [abs(a - b) for a, b in zip(vals[:n], mvals)]
                rel = max(abs(a - b) / max(abs(b), 1e-300) for a, b in zip(vals[:n], mvals))
                tol = args.tol_double if prec == "double" else args.tol_float
                ok = max(diffs) <= tol
                bad += not ok
                rows.append((fn, mo, f"{lib}-{prec}", f"metaopt (max rel {rel:.2e})", n, max(diffs), sum(diffs) / n, ok))
    print(f"{'function':<10} {'metaopt':<8} {'implementation':<18} {'against':<28} {'points':>6} {'max_abs':>11} {'mean_abs':>11}  ok")
    for fn, mo, impl, vs, n, mx, mean, ok in rows:
        print(f"{fn:<10} {mo:<8} {impl:<18} {vs:<28} {n:>6} {mx:>11.3e} {mean:>11.3e}  {'yes' if ok else 'NO'}")
    print(f"{len(rows) - bad} passed, {bad} failed")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
