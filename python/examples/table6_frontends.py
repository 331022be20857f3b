#!/usr/bin/env python3
"""The thesis's Table 6 (6.4: absolute error of implementations of the test functions against a
50-digit evaluation) redone with the library's front ends.

The points and the 50-digit references are the accuracy fixture ``tests/fixtures/functions_d10.txt``
(10,000 points in D = 10 per function, mpmath at 50 digits; ``scripts/mpmath_reference.py``), as
``metaopt bench functions`` uses. Every point set is evaluated by name through

- Python: ``metaopt.evaluate(name, X)`` on the device (double and single) and with ``cpu=True``
  (the library's Rust f64 code through the C ABI: the "Rust CPU" reference of the comparison);
- Octave: ``metaopt_evaluate(name, X)`` (the MEX gateway) on the device (double) and with
  ``'cpu', true``; the points go to Octave as float64 bytes and the values come back the same way,

and the statistics of |value - reference| (max, mean, sample standard deviation, as Table 6) are
printed beside the thesis's three columns (CUDA, NumPy 1.23.5, Matlab 2023b), together with the
largest difference of each front end's values from the Rust CPU values at the same points.

    python3 python/examples/table6_frontends.py [--csv table6_frontends.csv] [--no-octave]
"""

import argparse
import csv
import os
import subprocess
import sys
import tempfile
import time
from decimal import Decimal, getcontext
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO / "python"))
import metaopt  # noqa: E402

# Table 6 of the thesis: (max, mean, std) of the absolute error for CUDA, NumPy 1.23.5, Matlab 2023b
THESIS = {
    "F1": ((5.97e-13, 6.05e-15, 1.44e-14), (5.68e-13, 5.75e-15, 1.43e-14), (5.68e-13, 6.48e-15, 1.45e-14)),
    "F2": ((4.89e-12, 2.78e-14, 9.26e-14), (4.89e-12, 3.01e-14, 9.37e-14), (4.89e-12, 3.15e-14, 9.37e-14)),
    "F3": ((9.75e-10, 1.00e-11, 2.08e-11), (9.75e-10, 1.01e-11, 2.07e-11), (9.75e-10, 1.03e-11, 2.13e-11)),
    "F4": ((2.46e-11, 1.35e-13, 4.62e-13), (2.46e-11, 1.51e-13, 4.63e-13), (2.46e-11, 1.56e-13, 4.65e-13)),
    "F5": ((7.82e-11, 3.94e-13, 1.12e-12), (7.82e-11, 3.81e-13, 1.11e-12), (7.82e-11, 4.21e-13, 1.12e-12)),
    "F6": ((3.30e-12, 2.26e-14, 7.10e-14), (3.30e-12, 2.21e-14, 7.10e-14), (3.30e-12, 2.25e-14, 7.09e-14)),
    "F7": ((2.96e-12, 5.26e-13, 4.14e-13), (2.84e-12, 5.26e-13, 4.14e-13), (2.96e-12, 5.27e-13, 4.16e-13)),
    "F8": ((1.71e-13, 2.45e-14, 2.88e-14), (1.14e-13, 2.19e-14, 2.72e-14), (1.71e-13, 2.45e-14, 2.88e-14)),
    "F9": ((4.17e-14, 1.55e-16, 5.74e-16), (4.22e-14, 1.21e-16, 5.74e-16), (4.17e-14, 1.46e-16, 5.74e-16)),
    "F10": ((1.14e-13, 1.45e-15, 2.21e-15), (1.14e-13, 1.44e-15, 2.20e-15), (1.14e-13, 1.45e-15, 2.20e-15)),
    "F11": ((4.86e-16, 1.43e-19, 5.72e-18), (1.39e-15, 2.88e-19, 1.67e-17), (4.86e-16, 1.36e-19, 5.64e-18)),
    "F12": ((2.09e-13, 1.15e-15, 3.16e-15), (2.09e-13, 1.13e-15, 3.17e-15), (2.09e-13, 1.14e-15, 3.17e-15)),
    "CEC04": ((3.30e-12, 2.26e-14, 7.10e-14), (3.30e-12, 2.21e-14, 7.10e-14), (3.30e-12, 2.51e-14, 7.14e-14)),
    "CEC05": ((1.71e-13, 2.45e-14, 2.88e-14), (1.14e-13, 2.19e-14, 2.72e-14), (1.71e-13, 2.45e-14, 2.88e-14)),
    "CEC06": ((4.59e-11, 1.41e-12, 1.19e-12), (4.59e-11, 1.41e-12, 1.19e-12), (4.59e-11, 1.41e-12, 1.19e-12)),
    "CEC07": ((3.64e-12, 7.94e-13, 6.78e-13), (3.64e-12, 7.92e-13, 6.78e-13), (3.64e-12, 7.93e-13, 6.78e-13)),
    "CEC08": ((7.82e-14, 4.53e-16, 9.58e-16), (7.82e-14, 4.98e-16, 9.64e-16), (7.82e-14, 4.68e-16, 9.63e-16)),
    "CEC09": ((9.95e-14, 4.90e-16, 1.31e-15), (9.86e-14, 4.76e-16, 1.32e-15), (9.95e-14, 4.95e-16, 1.33e-15)),
    "CEC10": ((1.85e-13, 4.18e-15, 4.23e-15), (1.85e-13, 4.18e-15, 4.23e-15), (1.85e-13, 4.18e-15, 4.23e-15)),
    "CEC04t": ((5.12e-13, 5.99e-14, 5.72e-14), (6.82e-13, 6.48e-14, 6.16e-14), (5.68e-13, 6.65e-14, 6.17e-14)),
    "CEC05t": ((6.82e-13, 6.82e-14, 7.64e-14), (6.82e-13, 6.79e-14, 7.56e-14), (6.82e-13, 7.09e-14, 7.83e-14)),
    "CEC06t": ((1.76e-11, 2.84e-12, 2.25e-12), (1.78e-11, 2.79e-12, 2.23e-12), (1.78e-11, 2.86e-12, 2.30e-12)),
    "CEC07t": ((2.46e-11, 1.42e-12, 1.23e-12), (2.27e-11, 1.55e-12, 1.36e-12), (2.41e-11, 1.56e-12, 1.36e-12)),
    "CEC08t": ((9.77e-15, 6.60e-16, 8.80e-16), (1.24e-14, 8.05e-16, 1.02e-15), (1.07e-14, 7.78e-16, 1.02e-15)),
    "CEC09t": ((9.21e-13, 1.92e-15, 9.62e-15), (1.53e-12, 1.98e-15, 1.55e-14), (1.18e-12, 2.01e-15, 1.21e-14)),
    "CEC10t": ((3.73e-13, 8.16e-15, 8.00e-15), (3.73e-13, 8.74e-15, 8.40e-15), (3.73e-13, 8.91e-15, 8.70e-15)),
}
THESIS_COLUMNS = ("thesis-cuda", "thesis-numpy-1.23.5", "thesis-matlab-2023b")


def load_fixture(path):
    """(dims, unit points (count x dims), [(name, (a, b), hi, lo)]): the references as
    double-double pairs of the 50-digit decimals, as ReferenceFixture reads them."""
    getcontext().prec = 80
    lines = [l for l in Path(path).read_text().splitlines() if l.strip() and not l.startswith("#")]
    dims = int(lines[0].split()[1])
    count = int(lines[1].split()[1])
    assert lines[2].split()[0] == "points"
    unit = np.array([[int(t) for t in l.split()] for l in lines[3 : 3 + count]], dtype=np.float64) * 2.0**-53
    funcs, i = [], 3 + count
    while i < len(lines):
        t = lines[i].split()
        if t[0] == "function":
            refs = lines[i + 1 : i + 1 + count]
            hi = np.array([float(r) for r in refs])
            lo = np.array([float(Decimal(r.strip()) - Decimal(h)) for r, h in zip(refs, hi)])
            funcs.append((t[1], (float(t[2]), float(t[3])), hi, lo))
            i += 1 + count
        elif t[0] == "alias":
            _, dom, hi, lo = next(f for f in funcs if f[0] == t[2])
            funcs.append((t[1], dom, hi, lo))
            i += 1
        else:
            raise ValueError(f"{path}: unexpected line {lines[i]!r}")
    return dims, unit, funcs


def stats(values, hi, lo):
    err = np.abs((values - hi) - lo)
    return float(err.max()), float(err.mean()), float(err.std(ddof=1))


OCTAVE_SCRIPT = r"""
addpath('{matlab}');
if exist('metaopt_mex') ~= 3
  build_octave();
end
names = strsplit('{names}', ',');
fx = fopen('{xfile}', 'r');
fy = fopen('{yfile}', 'w');
t0 = tic;
for i = 1:numel(names)
  X = fread(fx, [{dims}, {count}], 'double')';
  fwrite(fy, metaopt_evaluate(names{{i}}, X), 'double');
  fwrite(fy, metaopt_evaluate(names{{i}}, X, 'cpu', true), 'double');
end
fclose(fx);
fclose(fy);
printf('octave: %d functions in %.2f s\n', numel(names), toc(t0));
"""


def octave_values(names, points, dims, count, octave):
    """{name: (device double, cpu)} computed by Octave through the MEX gateway."""
    with tempfile.TemporaryDirectory() as tmp:
        xfile, yfile = os.path.join(tmp, "x.bin"), os.path.join(tmp, "y.bin")
        with open(xfile, "wb") as f:
            for n in names:
                f.write(np.ascontiguousarray(points[n], dtype="<f8").tobytes())
        script = OCTAVE_SCRIPT.format(matlab=REPO / "matlab", names=",".join(names), xfile=xfile, yfile=yfile,
                                      dims=dims, count=count)
        r = subprocess.run([octave, "--quiet", "--no-history", "--norc", "--eval", script],
                           capture_output=True, text=True, cwd=REPO / "matlab")
        if r.returncode != 0:
            raise RuntimeError(f"octave failed ({r.returncode}):\n{r.stdout}\n{r.stderr}")
        print(r.stdout.strip(), file=sys.stderr)
        y = np.fromfile(yfile, dtype="<f8").reshape(len(names), 2, count)
    return {n: (y[i, 0], y[i, 1]) for i, n in enumerate(names)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fixture", default=str(REPO / "tests" / "fixtures" / "functions_d10.txt"))
    ap.add_argument("--csv", help="write the rows as CSV here")
    ap.add_argument("--no-octave", action="store_true", help="leave the Octave front end out")
    ap.add_argument("--octave", default=os.environ.get("OCTAVE", "octave-cli"))
    a = ap.parse_args()

    dims, unit, funcs = load_fixture(a.fixture)
    count = unit.shape[0]
    names = [f[0] for f in funcs]
    # the points of each function as the library's fixture makes them: a + (b - a) * u in f64
    points = {n: dom[0] + (dom[1] - dom[0]) * unit for n, dom, _, _ in funcs}

    t0 = time.perf_counter()
    py = {}
    for n in names:
        X = points[n]
        py[n] = (metaopt.evaluate(n, X), metaopt.evaluate(n, X, precision="single"), metaopt.evaluate(n, X, cpu=True))
    print(f"python: {len(names)} functions in {time.perf_counter() - t0:.2f} s", file=sys.stderr)
    octave = None if a.no_octave else octave_values(names, points, dims, count, a.octave)

    rows = []
    print(f"{'':8} {'max |value - 50-digit reference|':>70}   {'max |value - Rust CPU|':>30}")
    head = ["py dev f64", "py cpu", "oct dev f64", "oct cpu", "py dev f32", "thesis CUDA", "th. NumPy", "th. Matlab"]
    print(f"{'function':8} " + " ".join(f"{h:>11}" for h in head) + "   " + " ".join(f"{h:>9}" for h in ["py dev", "oct dev", "oct cpu"]))
    for n, _, hi, lo in funcs:
        dev, single, cpu = py[n]
        impls = [("python-device-double", dev), ("python-cpu", cpu)]
        if octave is not None:
            impls += [("octave-device-double", octave[n][0]), ("octave-cpu", octave[n][1])]
        impls.append(("python-device-single", single))
        line = []
        diffs = {}
        for label, v in impls:
            mx, mean, sd = stats(v, hi, lo)
            diff = float(np.abs(v - cpu).max())
            diffs[label] = diff
            rows.append({"function": n, "implementation": label, "points": count, "max_abs": mx, "mean_abs": mean,
                         "std_abs": sd, "max_diff_vs_rust_cpu": diff})
            line.append(mx)
        if octave is None:
            line[2:2] = [float("nan"), float("nan")]
        for label, (mx, mean, sd) in zip(THESIS_COLUMNS, THESIS[n]):
            rows.append({"function": n, "implementation": label, "points": 10000, "max_abs": mx, "mean_abs": mean,
                         "std_abs": sd, "max_diff_vs_rust_cpu": ""})
            line.append(mx)
        d = [diffs.get("python-device-double"), diffs.get("octave-device-double"), diffs.get("octave-cpu")]
        print(f"{n:8} " + " ".join(f"{v:11.2e}" for v in line) + "   "
              + " ".join("        -" if v is None else f"{v:9.1e}" for v in d))
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
        print(f"wrote {a.csv}", file=sys.stderr)


if __name__ == "__main__":
    main()
