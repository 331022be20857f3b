import os
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
PYDIR = TESTS.parent
REPO = PYDIR.parent
# the test data: METAOPT_DATA_DIR when set, else the repository's data/ (data/SOURCES.md), as the
# Rust tests read it
DATA_ROOT = Path(os.environ.get("METAOPT_DATA_DIR", REPO / "data"))
DATA = DATA_ROOT / "qaplib"

# test the package of this tree, not an installed one
sys.path.insert(0, str(PYDIR))


def satlib(rel):
    p = DATA_ROOT / "satlib" / rel
    if not p.is_file():
        pytest.fail(f"{p} is missing: the test data folder lacks it (data/, or METAOPT_DATA_DIR)")
    return p


def bks():
    """instance -> best-known value, from data/qaplib/BKS.csv."""
    out = {}
    for line in (DATA / "BKS.csv").read_text().splitlines()[1:]:
        name, _n, value, _proven = line.split(",")
        out[name] = int(value)
    return out
