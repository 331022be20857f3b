#!/usr/bin/env python3
"""Reference values of the function catalogue at 50 significant digits (mpmath), for the accuracy
table of thesis 000, section 6.4 (docs/specs/FUNCTIONS.md), written to tests/fixtures/functions_d10.txt.

Made once and committed; CI does not run this (it needs python3 and mpmath; gmpy2 makes it about
five times faster). Run from anywhere:

    python3 scripts/mpmath_reference.py [--count 10000] [--dims 10] [--seed 6400] [--jobs 2]

Points. One set of `count` unit points u in [0, 1)^dims is drawn (u = k / 2^53, k a random 53-bit
integer from Python's Mersenne Twister seeded with --seed) and shared by every function: function
f with domain [a, b] is evaluated at x = a + (b - a) * u, computed in IEEE double in that order
(no fused multiply-add), which the Rust loader reproduces bit for bit. The transformed CECkt use
[-100, 100]. Sharing the unit points keeps the file at about 15 MB.

Definitions. The formulas are those of docs/specs/FUNCTIONS.md, written directly (no rearrangement), at
70 digits of working precision. Decimal constants (418.9828872724338, 420.9687462275036, the
scales 5.12/100 ...) are taken as the exact decimals; the CEC 2019 shift vectors and matrices are
the exact values of the doubles read from data/cec2019 (what the library computes with).

Format (text, '#' starts a comment line):
    dims D
    count N
    points
    N lines of D integers k (u = k * 2^-53)
    function NAME a b        then N lines, one value each (50 significant digits)
    alias NAME OTHER         NAME has OTHER's domain and values (CEC04 = F6, CEC05 = F8)
"""

import argparse
import math
import os
import random
import sys
import time
from multiprocessing import Pool

import mpmath
from mpmath import mp, mpf

WORK_DPS = 70
DIGITS = 50
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CEC_DIR = os.path.join(ROOT, "data", "cec2019")

# name, domain; the same doubles as src/problem/functions.rs
FUNCTIONS = [
    ("F1", (-5.12, 5.12)),
    ("F2", (-5.12, 5.12)),
    ("F3", (-65.536, 65.536)),
    ("F4", (-5.12, 5.12)),
    ("F5", (-2.048, 2.048)),
    ("F6", (-5.12, 5.12)),
    ("F7", (-500.0, 500.0)),
    ("F8", (-600.0, 600.0)),
    ("F9", (-1.0, 1.0)),
    ("F10", (-32.768, 32.768)),
    ("F11", (0.0, 10.0)),
    ("F12", (0.0, math.pi)),
    ("CEC04", (-5.12, 5.12)),
    ("CEC05", (-600.0, 600.0)),
    ("CEC06", (-0.5, 0.5)),
    ("CEC07", (-500.0, 500.0)),
    ("CEC08", (-100.0, 100.0)),
    ("CEC09", (-5.0, 5.0)),
    ("CEC10", (-100.0, 100.0)),
] + [("CEC%02dt" % k, (-100.0, 100.0)) for k in range(4, 11)]

# the same formula on the same domain gives the same values
ALIASES = {"CEC04": "F6", "CEC05": "F8"}


def read_values(name):
    with open(os.path.join(CEC_DIR, name)) as f:
        return [float(t) for t in f.read().split()]


def cec_data(dims):
    """{k: (o, M)} with the exact values of the doubles of data/cec2019."""
    out = {}
    for k in range(4, 11):
        o = [mpf(v) for v in read_values("shift_data_%d.txt" % k)[:dims]]
        m = [mpf(v) for v in read_values("M_%d_D%d.txt" % (k, dims))[: dims * dims]]
        out[k] = (o, m)
    return out


# ---- the formulas of docs/specs/FUNCTIONS.md ----------------------------------------------------------------

def f1(x):
    return mp.fsum(v * v for v in x)


def f2(x):
    return mp.fsum((i + 1) * v * v for i, v in enumerate(x))


def f3(x):
    s, acc = mpf(0), []
    for v in x:
        s += v
        acc.append(s * s)
    return mp.fsum(acc)


def f4(x):
    return mp.fsum(5 * (i + 1) * v * v for i, v in enumerate(x))


def f5(x):
    return mp.fsum(100 * (x[i + 1] - x[i] ** 2) ** 2 + (1 - x[i]) ** 2 for i in range(len(x) - 1))


def rastrigin(x):
    return 10 * len(x) + mp.fsum(v * v - 10 * mp.cos(2 * mp.pi * v) for v in x)


def f7(x):
    return mp.fsum(-v * mp.sin(mp.sqrt(abs(v))) for v in x)


def griewank(x):
    p = mpf(1)
    for i, v in enumerate(x):
        p *= mp.cos(v / mp.sqrt(i + 1))
    return 1 + mp.fsum(v * v for v in x) / 4000 - p


def f9(x):
    return mp.fsum(abs(v) ** (i + 2) for i, v in enumerate(x))


def ackley(x):
    d = len(x)
    r = mp.fsum(v * v for v in x) / d
    c = mp.fsum(mp.cos(2 * mp.pi * v) for v in x) / d
    return -20 * mp.exp(-mpf("0.2") * mp.sqrt(r)) - mp.exp(c) + 20 + mp.e


LANG_A = [(3, 5), (5, 2), (2, 1), (1, 4), (7, 9)]
LANG_C = [1, 2, 5, 2, 3]


def f11(x):
    out = []
    for k in range(5):
        s = mp.fsum((v - LANG_A[k][j % 2]) ** 2 for j, v in enumerate(x))
        out.append(LANG_C[k] * mp.exp(-s / mp.pi) * mp.cos(mp.pi * s))
    return mp.fsum(out)


def f12(x):
    return -mp.fsum(mp.sin(v) * mp.sin((i + 1) * v * v / mp.pi) ** 20 for i, v in enumerate(x))


def weierstrass(x):
    a, b = mpf("0.5"), 3
    t1 = mp.fsum(a ** k * mp.cos(2 * mp.pi * b ** k * (v + mpf("0.5"))) for v in x for k in range(21))
    t2 = mp.fsum(a ** k * mp.cos(mp.pi * b ** k) for k in range(21))
    return t1 - len(x) * t2


def schwefel_mod(x):
    d = len(x)
    terms = []
    for v in x:
        w = v + mpf("420.9687462275036")
        if abs(w) <= 500:
            h = w * mp.sin(mp.sqrt(abs(w)))
        elif w > 500:
            m = mp.fmod(w, 500)  # w > 0: the C fmod
            h = (500 - m) * mp.sin(mp.sqrt(500 - m)) - (w - 500) ** 2 / (10000 * d)
        else:
            m = mp.fmod(abs(w), 500)
            h = (m - 500) * mp.sin(mp.sqrt(500 - m)) - (w + 500) ** 2 / (10000 * d)
        terms.append(h)
    return mpf("418.9828872724338") * d - mp.fsum(terms)


def schaffer(x):
    def g(a, b):
        r2 = a * a + b * b
        return mpf("0.5") + (mp.sin(mp.sqrt(r2)) ** 2 - mpf("0.5")) / (1 + mpf("0.001") * r2) ** 2

    d = len(x)
    return mp.fsum(g(x[i], x[(i + 1) % d]) for i in range(d))


def happycat(x):
    d = len(x)
    r2 = mp.fsum(v * v for v in x)
    return abs(r2 - d) ** mpf("0.25") + (mpf("0.5") * r2 + mp.fsum(x)) / d + mpf("0.5")


PLAIN = {
    "F1": f1, "F2": f2, "F3": f3, "F4": f4, "F5": f5, "F6": rastrigin, "F7": f7, "F8": griewank,
    "F9": f9, "F10": ackley, "F11": f11, "F12": f12, "CEC04": rastrigin, "CEC05": griewank,
    "CEC06": weierstrass, "CEC07": schwefel_mod, "CEC08": schaffer, "CEC09": happycat,
    "CEC10": ackley,
}

# k: (base function, scale s as an exact decimal)
TRANSFORMED = {
    4: (rastrigin, "5.12/100"),
    5: (griewank, "600/100"),
    6: (weierstrass, "0.5/100"),
    7: (schwefel_mod, "1000/100"),
    8: (schaffer, "1"),
    9: (happycat, "5/100"),
    10: (ackley, "1"),
}


def scale(expr):
    num, _, den = expr.partition("/")
    return mpf(num) / (mpf(den) if den else 1)


def cec_t(k, x, data):
    g, s = TRANSFORMED[k]
    o, m = data[k]
    d = len(x)
    y = [scale(s) * (mpf(x[j]) - o[j]) for j in range(d)]
    z = [mp.fsum(m[i * d + j] * y[j] for j in range(d)) for i in range(d)]
    if k == 9:
        z = [v - 1 for v in z]
    return g(z) + 1


def evaluate(name, x, data):
    if name.endswith("t"):
        return cec_t(int(name[3:-1]), x, data)
    return PLAIN[name]([mpf(v) for v in x])


def fmt(v):
    """v at DIGITS significant digits, in exponent form."""
    if v == 0:
        return "0"
    return mp.nstr(v, DIGITS, strip_zeros=False, min_fixed=1, max_fixed=0)


def point(unit_row, domain):
    a, b = domain
    w = b - a
    return [a + w * u for u in unit_row]


def work(args):
    rows, dims = args
    mp.dps = WORK_DPS
    data = cec_data(dims) if dims in (2, 10) else None
    out = {}
    for name, domain in FUNCTIONS:
        if name in ALIASES or (name.endswith("t") and data is None):
            continue
        vals = []
        for k in rows:
            x = point([v * 2.0 ** -53 for v in k], domain)
            vals.append(fmt(evaluate(name, x, data)))
        out[name] = vals
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=10000)
    ap.add_argument("--dims", type=int, default=10)
    ap.add_argument("--seed", type=int, default=6400)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", default=os.path.join(ROOT, "tests", "fixtures", "functions_d10.txt"))
    args = ap.parse_args()

    rng = random.Random(args.seed)
    ks = [[rng.getrandbits(53) for _ in range(args.dims)] for _ in range(args.count)]
    chunk = max(1, (args.count + 4 * args.jobs - 1) // (4 * args.jobs))
    parts = [(ks[i:i + chunk], args.dims) for i in range(0, args.count, chunk)]
    t0 = time.time()
    with Pool(args.jobs) as pool:
        results = pool.map(work, parts)
    print("evaluated %d points in %.0f s" % (args.count, time.time() - t0), file=sys.stderr)

    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        f.write("# metaopt function accuracy fixture: made by scripts/mpmath_reference.py "
                "(mpmath %s, %d working digits, %d significant digits written)\n" % (mpmath.__version__, WORK_DPS, DIGITS))
        f.write("# seed %d; function f on [a, b] is evaluated at a + (b - a) * u, u = k * 2^-53\n" % args.seed)
        f.write("dims %d\ncount %d\npoints\n" % (args.dims, args.count))
        for k in ks:
            f.write(" ".join(str(v) for v in k) + "\n")
        for name, (a, b) in FUNCTIONS:
            if name in ALIASES:
                f.write("alias %s %s\n" % (name, ALIASES[name]))
                continue
            if name not in results[0]:
                continue
            f.write("function %s %r %r\n" % (name, a, b))
            for part in results:
                for v in part[name]:
                    f.write(v + "\n")
    print("wrote %s (%.1f MB)" % (args.out, os.path.getsize(args.out) / 1e6), file=sys.stderr)


if __name__ == "__main__":
    main()
