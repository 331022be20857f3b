"""Sizes the host cannot hold are a clean ``MetaoptError`` (out of host or device memory), never a
killed interpreter: each case runs in a child interpreter under a 4 GB address-space limit
(``RLIMIT_AS``), so that the answer does not depend on the machine's memory and a failure
cannot take the test process with it."""

import subprocess
import sys
import textwrap

from conftest import DATA_ROOT, PYDIR

PRELUDE = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (4_000_000 * 1024, 4_000_000 * 1024))
sys.path.insert(0, {pydir!r})
import metaopt
from metaopt import ErrorCode, MetaoptError
"""


def run_limited(body):
    code = PRELUDE.format(pydir=str(PYDIR)) + textwrap.dedent(body)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"status {r.returncode}\n{r.stdout}\n{r.stderr}"
    return r.stdout


def test_qiga_with_u32_max_populations_on_the_cpu_raises_out_of_host_memory():
    out = run_limited(f"""
        k = metaopt.Knapsack.from_file({str(DATA_ROOT / "knapsack" / "knapsack-100.txt")!r})
        try:
            metaopt.QIGA(k, populations=2**32 - 1, cpu=True, time_limit=1).run()
            print("ran")
        except MetaoptError as e:
            assert e.code == ErrorCode.OUT_OF_HOST_MEMORY, e
            assert "populations" in e.message, e
            print("refused")
        # the interpreter goes on: a run it can hold
        r = metaopt.QIGA(k, populations=3, generations=2, cpu=True).run()
        print(len(r.best_value))
    """)
    assert out.split() == ["refused", "3"]


def test_sat_walks_the_host_cannot_hold_raise_out_of_memory():
    out = run_limited(f"""
        f = metaopt.SAT.from_file({str(DATA_ROOT / "satlib" / "uf50-218" / "uf50-01.cnf")!r})
        # the C ABI takes at most 2^24 walks; that many need tens of GB
        for cpu in (True, False):
            try:
                f.solve(walks=2**24, max_flips=10, cpu=cpu)
                print("ran")
            except MetaoptError as e:
                assert e.code in (ErrorCode.OUT_OF_HOST_MEMORY, ErrorCode.OUT_OF_DEVICE_MEMORY), e
                assert "walks" in e.message, e
                print("refused")
    """)
    assert out.split() == ["refused", "refused"]


def test_batch_de_too_large_as_a_whole_raises_at_creation():
    out = run_limited("""
        for cpu in (True, False):
            try:
                metaopt.BatchDE("F1", 1000, -5.12, 5.12, members=1000, problems=10_000, cpu=cpu)
                print("created")
            except MetaoptError as e:
                assert e.code in (ErrorCode.OUT_OF_HOST_MEMORY, ErrorCode.OUT_OF_DEVICE_MEMORY), e
                assert "problems" in e.message, e
                print("refused")
        r = metaopt.BatchDE("F1", 2, -5.12, 5.12, members=8, generations=3, problems=2, cpu=True).run()
        print(len(r.best_values))
    """)
    assert out.split() == ["refused", "refused", "2"]
