#!/usr/bin/env python3
"""Where the time after a stop goes, on one device: for a library call, the solve's own clock
(``seconds`` of its result) against the call's return; for a CLI command, the last byte of its
output against the process's exit (what the driver's teardown at exit costs).

Usage, from the repository root (METAOPT_LIB naming the library, PYTHONPATH=python):
    python3 benchmarks/drivers/run_contract/late_detail.py OUT.csv path/to/metaopt
Writes rows: case, mode, run, seconds (the whole case), call_seconds, solve_seconds (the
result's own), last_output_s, exit_s (CLI rows), stop.
"""

import csv
import os
import subprocess
import sys
import threading
import time

import metaopt
from metaopt import batch_de


def batched(limit=None, token=None):
    t = time.perf_counter()
    r = batch_de.run("F8", 100, -600, 600, members=256, problems=256, generations=10**9, time_limit=limit,
                     stop_token=token)
    return time.perf_counter() - t, float(r.seconds), r.stop[0]


def bh(limit=None, token=None):
    with metaopt.BasinHopping("F8", [(-600, 600)] * 100, chains=65536) as b:
        t = time.perf_counter()
        r = b.solve(steps=10**12, x0=[100] * 100, time_limit=limit, stop_token=token)
        return time.perf_counter() - t, r.seconds, r.stop


def cli(args):
    """Runs ``args``; the times of its last output byte and of its exit, from its start."""
    t0 = time.perf_counter()
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    last = [float("nan")]

    def read():
        while True:
            b = p.stdout.read1(65536)
            if not b:
                return
            last[0] = time.perf_counter() - t0

    th = threading.Thread(target=read)
    th.start()
    p.wait()
    end = time.perf_counter() - t0
    th.join()
    return last[0], end, p.returncode


def main(out, exe):
    rows = []
    # the CLI first, before this process holds a device: a GPU in exclusive-process mode would
    # leave the children none (they then fell back to the CPU device)
    commands = {
        "cli_bh": ["bh", "--function", "F8", "--dims", "100", "--chains", "65536", "--max-steps", "100000000"],
        "cli_de_batch": ["de", "--problems", "4096", "--function", "F8", "--dims", "30", "--max-generations",
                         "100000000"],
        "cli_sat_walks": ["sat", "solve", "data/satlib/uuf250-1065/uuf250-01.cnf", "--max-flips", "100000000000"],
    }
    for name, args in commands.items():
        for run in (1, 2, 3):
            last, end, rc = cli([exe, *args, "--time-limit", "1", "--json"])
            rows.append((name, "limit", run, end, "", "", last, end, rc))
            print(rows[-1], flush=True)
    if os.environ.get("CLI_ONLY"):
        return write(out, rows)
    for name, f in (("batched_de", batched), ("bh", bh)):
        f(limit=0.3)  # warm: the device program built and cached
        for run in (1, 2):
            t = time.perf_counter()
            c, s, stop = f(limit=1.0)
            rows.append((name, "limit", run, time.perf_counter() - t, c, s, "", "", stop))
            print(rows[-1], flush=True)
            token = metaopt.StopToken()
            threading.Timer(1.0, token.request).start()
            t = time.perf_counter()
            c, s, stop = f(token=token)
            rows.append((name, "token", run, time.perf_counter() - t, c, s, "", "", stop))
            print(rows[-1], flush=True)
    write(out, rows)


def write(out, rows):
    with open(out, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["case", "mode", "run", "seconds", "call_seconds", "solve_seconds", "last_output_s", "exit_s",
                    "stop"])
        for r in rows:
            w.writerow([f"{v:.3f}" if isinstance(v, float) else v for v in r])


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
