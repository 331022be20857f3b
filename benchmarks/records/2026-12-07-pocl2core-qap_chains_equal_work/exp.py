#!/usr/bin/env python3
"""qap ts at equal work: configs x instances x seeds, total iterations fixed per instance."""
import json, subprocess, sys, statistics, itertools, os
B = os.environ.get("METAOPT", "../../../target/release/metaopt")
BKS = {}
for l in open("../../../data/qaplib/BKS.csv"):
    p = l.strip().split(",")
    if len(p) >= 3 and p[2].isdigit(): BKS[p[0]] = float(p[2])
def path(name):
    for d in ("../../../data/qaplib", "."):
        f = f"{d}/{name}.dat"
        if os.path.exists(f): return f
    raise SystemExit(name)
def bks(name):
    if name in BKS: return BKS[name]
    return float(open(path(name)[:-4] + ".sln").read().split()[1])
def run(name, n, chains, seed, extra, scale):
    total = int(scale * 48600 * (100 / n) ** 2)
    it = max(1, total // chains)
    cmd = [B, "qap", "solve", path(name), "--method", "ts", "--cpu", "--chains", str(chains),
           "--max-iterations", str(it), "--seed", str(seed), "--json", "--target", str(int(bks(name)))] + extra
    out = subprocess.run(cmd, capture_output=True, text=True)
    try: j = json.loads(out.stdout)
    except Exception: print(out.stdout, out.stderr); raise
    return 100 * (j["cost"] - bks(name)) / bks(name)
if __name__ == "__main__":
    insts = sys.argv[1].split(",")
    seeds = int(sys.argv[2]); scale = float(sys.argv[3])
    configs = [c.split() for c in sys.argv[4:]]   # "CHAINS [extra args]"
    for name in insts:
        n = int(open(path(name)).read().split()[0])
        row = []
        for c in configs:
            g = [run(name, n, int(c[0]), s, c[1:], scale) for s in range(1, seeds + 1)]
            row.append(f"{statistics.mean(g):.3f}")
        print(name, n, " ".join(row), flush=True)
