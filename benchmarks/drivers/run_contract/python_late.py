"""How late the library's calls answer their time limit and a stop token, through Python.

Each case is warmed by a short call (its device program built and cached), then made and
called with ``time_limit=1`` three times and once with a token requested after 1 s; the CSV has
the wall time of each case (set-up included) and of its limited call alone. ``CASES=a,b`` in the
environment runs only those cases. One-call functions (``minimize``, ``batch_de.run``, ``sat.solve``, ``qap_solve``,
``sssp``, ``awvd``) count their set-up too. Usage: ``python_late.py OUT.csv``.
"""
import csv
import os
import sys
import threading
import time

import numpy as np

import metaopt
from metaopt import batch_de, sp

DATA = "data"
CALL = {}


def call(f, *a, **kw):
    """``f(*a, **kw)``, its wall time kept as the case's call time (set-up outside it)."""
    t = time.perf_counter()
    try:
        return f(*a, **kw)
    finally:
        CALL["s"] = time.perf_counter() - t


def island_de(limit=None, token=None):
    with metaopt.IslandDE(64, 256, 100, (-600, 600)) as de:
        de.init("F8")
        return call(de.run, generations=10**12, time_limit=limit, stop_token=token).stop


def island_jade(limit=None, token=None):
    with metaopt.IslandDE(16, 256, 100, (-600, 600), method="jade") as de:
        de.init("F8")
        return call(de.run, generations=10**12, time_limit=limit, stop_token=token).stop


def batched(limit=None, token=None):
    r = call(batch_de.run, "F8", 100, -600, 600, members=256, problems=256, generations=10**9,
                     time_limit=limit, stop_token=token)
    return r.stop[0]


def minimize(limit=None, token=None):
    opts = {"time_limit": limit} if limit else {}
    r = call(metaopt.minimize, "F8", [(-600, 600)] * 100, maxiter=10**9, tol=0, popsize=50, stop_token=token, **opts)
    return r.stop


def hc12(limit=None, token=None):
    with metaopt.HC12(50, 16, (-600, 600), "F8") as h:
        return call(h.run, runs=10**6, time_limit=limit, stop_token=token).stop


def qap_ts(limit=None, token=None):
    return call(metaopt.qap_solve, f"{DATA}/qaplib/tai100a.dat", iterations=10**9, time_limit=limit,
                             stop_token=token).stop


def sat_walks(limit=None, token=None):
    return call(metaopt.sat.solve, "/tmp/hard.cnf", time_limit=limit or 1e9, stop_token=token).stop


def qiga(limit=None, token=None):
    q = metaopt.QIGA(f"{DATA}/knapsack/knapsack-1000.txt", populations=100000, generations=5000,
                     time_limit=limit)
    return call(q.run, stop_token=token).stop


def sssp(limit=None, token=None):
    g = sp.Graph.grid(2000, 2000)
    try:
        call(sp.sssp, g, list(range(0, 4_000_000, 62497)), time_limit=limit, stop_token=token)
        return "done"  # an exact result: complete, or an error
    except metaopt.MetaoptError as e:
        return e.code.name


def awvd(limit=None, token=None):
    rng = np.random.default_rng(1)
    balls = np.column_stack([rng.uniform(0, 150, (120000, 3)), rng.uniform(1.2, 2.0, 120000)])
    try:
        call(metaopt.awvd, balls, time_limit=limit, stop_token=token)
        return "done"
    except metaopt.MetaoptError as e:
        return e.code.name


def bh(limit=None, token=None):
    with metaopt.BasinHopping("F8", [(-600, 600)] * 100, chains=65536) as b:
        return call(b.solve, steps=10**12, x0=[100] * 100, time_limit=limit, stop_token=token).stop


CASES = {"island_de": island_de, "island_jade": island_jade, "batched_de": batched, "minimize": minimize,
         "hc12": hc12, "qap_ts": qap_ts, "sat_walks": sat_walks, "qiga": qiga, "sssp": sssp, "awvd": awvd, "bh": bh}


def timed(f, **kw):
    CALL.clear()
    t = time.perf_counter()
    try:
        stop = f(**kw)
    except metaopt.Interrupted as e:
        stop = f"Interrupted({getattr(e.result, 'stop', None)})"
    except Exception as e:  # noqa: BLE001 - a case's failure is a row, not the end of the run
        stop = f"{type(e).__name__}: {str(e)[:80]}"
    return time.perf_counter() - t, CALL.get("s", float("nan")), stop


def main(out):
    import subprocess  # noqa: PLC0415

    # the walks' formula: unsatisfiable far above the threshold, so only a stop ends them
    subprocess.run([sys.argv[2], "sat", "generate", "--vars", "20000", "--ratio", "9", "--output", "/tmp/hard.cnf"],
                   check=True)
    rows = []
    only = os.environ.get("CASES", "").split(",") if os.environ.get("CASES") else list(CASES)
    for name, f in CASES.items():
        if name not in only:
            continue
        timed(f, limit=0.3)  # warm: the device program built and cached
        for run in (1, 2, 3):
            s, c, stop = timed(f, limit=1.0)
            rows.append((name, "limit", run, f"{s:.3f}", f"{c:.3f}", stop))
            print(rows[-1], flush=True)
        token = metaopt.StopToken()
        threading.Timer(1.0, token.request).start()
        s, c, stop = timed(f, token=token)
        rows.append((name, "token", 1, f"{s:.3f}", f"{c:.3f}", stop))
        print(rows[-1], flush=True)
    with open(out, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["case", "mode", "run", "seconds", "call_seconds", "stop"])
        w.writerows(rows)


if __name__ == "__main__":
    main(sys.argv[1])
