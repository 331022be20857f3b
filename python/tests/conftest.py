import os
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
PYDIR = TESTS.parent
REPO = PYDIR.parent
DATA = REPO / "data"
# the shared SATLIB/QAPLIB files beside the checkout (as the Rust tests use them)
SHARED = Path(os.environ.get("METAOPT_SHARED_DATA", REPO.parent / "shared" / "data"))

# test the package of this tree, not an installed one
sys.path.insert(0, str(PYDIR))


def satlib(rel):
    p = SHARED / "satlib" / rel
    if not p.is_file():
        pytest.fail(f"{p} is missing: the shared data must lie beside the checkout (or set METAOPT_SHARED_DATA)")
    return p


def bks():
    """instance -> best-known value, from data/BKS.csv."""
    out = {}
    for line in (DATA / "BKS.csv").read_text().splitlines()[1:]:
        name, _n, value, _proven = line.split(",")
        out[name] = int(value)
    return out
