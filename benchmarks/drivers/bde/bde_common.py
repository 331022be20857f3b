"""Shared pieces of the batched-DE baselines (evox_bde.py, evosax_bde.py).

The objectives are metaopt's catalogue functions (src/problem/functions.rs, cl/functions.cl):

* ``rastrigin`` = metaopt ``F6`` (alias ``CEC04``) on [-5.12, 5.12]^D:
  f(x) = sum_i x_i^2 + 20 sin^2(pi x_i)  (= 10 D + sum x_i^2 - 10 cos(2 pi x_i)); 0 at 0.
* ``cec07t`` = metaopt ``CEC07t`` (CEC 2019 100-Digit F7, modified Schwefel, shifted, scaled
  and rotated) on [-100, 100]^D, D = 2 or 10:
  z = M (10 (x - o)),  w_i = z_i + 420.9687462275036,
  f(x) = 418.9828872724338 D + sum_i h(w_i) + 1 with
  h(w) = -w sin(sqrt|w|)                                   if |w| <= 500,
  h(w) = -sgn(w) u sin(sqrt u) + (|w| - 500)^2 / (10^4 D)  otherwise, u = 500 - (|w| mod 500);
  o = first D numbers of data/cec2019/shift_data_7.txt, M = data/cec2019/M_7_D{D}.txt (row by row),
  the same files metaopt embeds. 1 at o.

metaopt evaluates these with compensated (double-double) arithmetic; the baselines use plain
float64/float32 tensor arithmetic, which agrees to ~1e-12 relative in double
(check_objectives.py measures it against metaopt's own 50-digit fixture).
"""

import argparse
import csv
import io
import json
import math
import os
import platform
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DATA_DIR = Path(os.environ.get("METAOPT_CEC2019_DIR", REPO / "data" / "cec2019"))

# (metaopt name, domain) of each benchmark function
FUNCTIONS = {
    "rastrigin": ("F6", (-5.12, 5.12)),
    "cec07t": ("CEC07t", (-100.0, 100.0)),
}

SCHW_C = 418.9828872724338
SCHW_W = 420.9687462275036


def _numbers(path):
    with open(path) as f:
        return [float(t) for t in f.read().split()]


def cec07t_data(dims):
    """(o, M) of CEC07t in `dims` dimensions as Python lists (M row by row, dims x dims)."""
    if dims not in (2, 10):
        raise SystemExit(f"cec07t is defined for D = 2 or 10 (CEC 2019 matrices), not {dims}")
    o = _numbers(DATA_DIR / "shift_data_7.txt")[:dims]
    m = _numbers(DATA_DIR / f"M_7_D{dims}.txt")[: dims * dims]
    if len(o) != dims or len(m) != dims * dims:
        raise SystemExit(f"short CEC 2019 data in {DATA_DIR}")
    return o, [m[i * dims:(i + 1) * dims] for i in range(dims)]


def parse_args(library, description):
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--problems", "-B", type=int, default=1024, help="independent problems (populations)")
    p.add_argument("--members", "-NP", type=int, default=32, help="members per population")
    p.add_argument("--dims", "-D", type=int, default=10)
    p.add_argument("--generations", "-G", type=int, default=500)
    p.add_argument("--function", choices=sorted(FUNCTIONS), default="rastrigin")
    p.add_argument("--precision", choices=["float", "double"], default="float")
    p.add_argument("--repeats", "-R", type=int, default=3, help="timed runs after the warm-up")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--device", default=None, help="cuda / cpu (default: cuda when available)")
    p.add_argument("--json", metavar="FILE", help="write the result as JSON ('-' = stdout)")
    p.add_argument("--csv", metavar="FILE", help="append a CSV row (header written when the file is new)")
    p.add_argument("--no-warmup", action="store_true", help="skip the warm-up run (compile time is then timed)")
    return p


def summarise(runs):
    """runs: list of dicts with seconds, mean_best, min_best."""
    secs = [r["seconds"] for r in runs]
    best = min(secs)
    return best, sum(secs) / len(secs)


def report(args, library, version, device_name, runs, extra=None):
    B, NP, D, G = args.problems, args.members, args.dims, args.generations
    best_s, mean_s = summarise(runs)
    last = runs[-1]
    row = {
        "library": library,
        "version": version,
        "device": device_name,
        "function": args.function,
        "metaopt_function": FUNCTIONS[args.function][0],
        "precision": args.precision,
        "problems": B,
        "members": NP,
        "dims": D,
        "generations": G,
        "generations_requested": (extra or {}).pop("generations_requested", G),
        "repeats": len(runs),
        "warmup_s": extra.pop("warmup_s", None) if extra else None,
        "best_s": best_s,
        "mean_s": mean_s,
        "gens_per_s": G / best_s,
        "evals_per_s": B * NP * G / best_s,
        "gens_per_s_mean": G / mean_s,
        "evals_per_s_mean": B * NP * G / mean_s,
        "final_best_mean": last["mean_best"],
        "final_best_min": last["min_best"],
        "final_best_max": last["max_best"],
        "python": platform.python_version(),
    }
    if extra:
        row.update(extra)
    print(
        f"{library} {version} on {device_name}: {args.function} {args.precision} B={B} NP={NP} D={D} G={G}: "
        f"{row['gens_per_s']:.1f} gen/s, {row['evals_per_s']:.3e} evals/s (best of {len(runs)}; mean "
        f"{row['gens_per_s_mean']:.1f} gen/s); final best over problems mean {row['final_best_mean']:.6g} "
        f"min {row['final_best_min']:.6g} max {row['final_best_max']:.6g}",
        file=sys.stderr,
    )
    if args.json:
        text = json.dumps({"result": row, "runs": runs}, indent=2)
        if args.json == "-":
            print(text)
        else:
            Path(args.json).write_text(text + "\n")
    if args.csv:
        new = not os.path.exists(args.csv) or os.path.getsize(args.csv) == 0
        with open(args.csv, "a", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(row))
            if new:
                w.writeheader()
            w.writerow(row)
    return row


# ---- the objectives, batched over leading axes: x (..., D) -> (...) ---------------------------------

def torch_objective(name, dims, dtype, device):
    """metaopt's `name` as a torch function of x (..., D), computed in `dtype`."""
    import torch

    if name == "rastrigin":
        def f(x):
            s = torch.sin(math.pi * x)
            return torch.sum(x * x + 20.0 * (s * s), dim=-1)
        return f
    o, m = cec07t_data(dims)
    o = torch.tensor(o, dtype=dtype, device=device)
    mt = torch.tensor(m, dtype=dtype, device=device).T.contiguous()  # z = y @ M^T

    def f(x):
        z = (10.0 * (x - o)) @ mt
        w = z + SCHW_W
        a = torch.abs(w)
        inside = -w * torch.sin(torch.sqrt(a))
        u = 500.0 - torch.remainder(a, 500.0)
        d = a - 500.0
        outside = -torch.sign(w) * u * torch.sin(torch.sqrt(u)) + d * d / (10000.0 * dims)
        h = torch.where(a <= 500.0, inside, outside)
        return SCHW_C * dims + torch.sum(h, dim=-1) + 1.0
    return f


def jax_objective(name, dims, dtype):
    """metaopt's `name` as a jax.numpy function of x (..., D), computed in `dtype`."""
    import jax.numpy as jnp

    if name == "rastrigin":
        def f(x):
            s = jnp.sin(math.pi * x)
            return jnp.sum(x * x + 20.0 * (s * s), axis=-1)
        return f
    o, m = cec07t_data(dims)
    o = jnp.asarray(o, dtype=dtype)
    mt = jnp.asarray(m, dtype=dtype).T

    def f(x):
        z = jnp.matmul(10.0 * (x - o), mt, precision="highest")
        w = z + SCHW_W
        a = jnp.abs(w)
        inside = -w * jnp.sin(jnp.sqrt(a))
        u = 500.0 - jnp.mod(a, 500.0)
        d = a - 500.0
        outside = -jnp.sign(w) * u * jnp.sin(jnp.sqrt(u)) + d * d / (10000.0 * dims)
        h = jnp.where(a <= 500.0, inside, outside)
        return SCHW_C * dims + jnp.sum(h, axis=-1) + 1.0
    return f
