#!/usr/bin/env python3
import os, subprocess, sys, statistics, re
sys.path.insert(0, '.')
from exp import path, bks
insts = sys.argv[1].split(","); pairs = int(sys.argv[2]); t = sys.argv[3] if len(sys.argv) > 3 else "3"
for name in insts:
    gaps = []
    for k in range(pairs):
        ps = [subprocess.Popen([os.environ.get("ROTS", "/tmp/rots/tabou_qap2"), path(name), str(2*k+s), t], stdout=subprocess.PIPE, text=True) for s in (1, 2)]
        best = min(float(re.findall(r"Global Best Cost: ([0-9.]+)", p.communicate()[0])[0]) for p in ps)
        gaps.append(100 * (best - bks(name)) / bks(name))
    print(name, f"{statistics.mean(gaps):.3f}", " ".join(f"{g:.3f}" for g in gaps), flush=True)
