"""Cancellation from Python: Ctrl-C (SIGINT) during a long library call raises
``metaopt.Interrupted`` (a KeyboardInterrupt) within a second with the best so far;
``metaopt.StopToken`` and ``metaopt.interrupt()`` from another thread return results with
``stop == "interrupted"``."""

import math
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import metaopt
from conftest import DATA, PYDIR, satlib

# child programs: each prints READY just before its long call, and on the Interrupted exception
# CAUGHT <best value> <stop> plus a line of its own
CHILD = {
    "de": """
        de = metaopt.IslandDE(8, 64, 20, (-100, 100), "sat")
        de.init("F1")
        print("READY", flush=True)
        try:
            de.run(generations=10**15)
        except metaopt.Interrupted as e:
            r = e.result
            print("CAUGHT", r.value, r.stop, flush=True)
            bests = de.bests_fitness()  # the instance kept its state: the bests so far
            assert r.generations > 0 and r.stopped_by == "interrupted" and not r.success
            assert math.isclose(bests.min(), r.value) and np.all(np.isfinite(de.best(r.island)))
            print("STATE", r.generations, flush=True)
    """,
    "qap_ts": f"""
        metaopt.qap.solve({str(DATA / "tai25a.dat")!r}, chains=4, iterations=1)  # builds the kernels
        print("READY", flush=True)
        try:
            metaopt.qap.solve({str(DATA / "tai25a.dat")!r}, chains=4, iterations=10**12, cpu=False)
        except KeyboardInterrupt as e:
            r = e.result
            print("CAUGHT", r.cost, r.stop, flush=True)
            assert isinstance(e, metaopt.Interrupted) and r.iterations > 0 and not r.success
            assert sorted(r.permutation.tolist()) == list(range(25))
            print("STATE", r.iterations, flush=True)
    """,
    "qap_hc12": f"""
        metaopt.qap.solve({str(DATA / "tai25a.dat")!r}, method="hc12", runs=1)  # builds the kernels
        print("READY", flush=True)
        try:
            metaopt.qap.solve({str(DATA / "tai25a.dat")!r}, method="hc12", runs=0, time_limit=10**6)
        except metaopt.Interrupted as e:
            r = e.result
            print("CAUGHT", r.cost, r.stop, flush=True)
            assert sorted(r.permutation.tolist()) == list(range(25))
            print("STATE", r.runs, flush=True)
    """,
    "hc12": """
        h = metaopt.HC12(30, 24, [-5.12, 5.12], "F6")
        print("READY", flush=True)
        try:
            h.run(runs=10**9)
        except metaopt.Interrupted as e:
            r = e.result
            print("CAUGHT", r.value, r.stop, flush=True)
            print("STATE", r.iterations, flush=True)
    """,
    "sat": f"""
        metaopt.sat.solve({str(satlib("uuf250-1065/uuf250-01.cnf"))!r}, method="hc12", runs=1)  # builds the kernels
        print("READY", flush=True)
        try:
            metaopt.sat.solve({str(satlib("uuf250-1065/uuf250-01.cnf"))!r}, method="hc12", time_limit=10**6, runs=10**9)
        except metaopt.Interrupted as e:
            r = e.result
            print("CAUGHT", r.unsatisfied, r.stop, flush=True)
            print("STATE", r.runs, flush=True)
    """,
    "qiga": f"""
        k = metaopt.Knapsack.from_file({str(DATA.parent / "knapsack" / "knapsack-250.txt")!r})
        metaopt.QIGA(k, populations=4, generations=5, launch_populations=4).run()  # builds the kernels
        print("READY", flush=True)
        try:
            metaopt.QIGA(k, populations=10**6, launch_populations=4).run()
        except metaopt.Interrupted as e:
            r = e.result
            print("CAUGHT", r.best, r.stop, flush=True)
            assert r.population.size > 0 and r.best_bits.shape == (r.population.size, 250)
            print("STATE", r.population.size, flush=True)
    """,
    "batch_de": """
        metaopt.batch_de.run("F6", 10, -5.12, 5.12, members=32, generations=2, problems=64)  # builds the kernels
        print("READY", flush=True)
        try:
            with metaopt.BatchDE("F6", 10, -5.12, 5.12, members=32, generations=10**12, problems=64,
                                 generations_per_launch=20) as b:
                b.run()
        except metaopt.Interrupted as e:
            r = e.result
            print("CAUGHT", r.best_values.min(), r.stop[0], flush=True)
            assert all(s == "interrupted" for s in r.stop) and np.all(r.generations > 0) and len(r.best) == 64
            print("STATE", int(r.generations[0]), flush=True)
    """,
    "bh": """
        with metaopt.BasinHopping("F8", [(-600, 600)] * 10, chains=1024) as bh:
            bh.solve(steps=2, x0=[100] * 10)  # builds the kernels
            print("READY", flush=True)
            try:
                bh.solve(steps=10**15)
            except metaopt.Interrupted as e:
                r = e.result
                print("CAUGHT", r.value, r.stop, flush=True)
                assert r.steps > 2 and not r.success and r.x.shape == (10,)
                print("STATE", r.steps, flush=True)
    """,
    "minimize": """
        metaopt.minimize("F1", [(-100, 100)] * 20, maxiter=2, popsize=50)  # builds the kernels
        print("READY", flush=True)
        try:
            metaopt.minimize("F1", [(-100, 100)] * 20, maxiter=10**12, tol=0, popsize=50)
        except metaopt.Interrupted as e:
            r = e.result
            print("CAUGHT", r.fun, r.stop, flush=True)
            assert r.status == 3 and not r.success and r.nit > 0 and r.x.shape == (20,)
            print("STATE", r.nit, flush=True)
    """,
}


def run_child(case, delay=1.0):
    """Starts the child, sends SIGINT ``delay`` seconds after READY; returns (seconds from the
    signal to CAUGHT, the CAUGHT line's fields, all output)."""
    code = "import math, sys\nimport numpy as np\nsys.path.insert(0, %r)\nimport metaopt\n" % str(PYDIR)
    code += textwrap.dedent(CHILD[case])
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         env=env)
    lines = []
    try:
        for line in p.stdout:
            lines.append(line)
            if line.startswith("READY"):
                break
        else:
            pytest.fail(f"{case}: the child ended before READY:\n{''.join(lines)}")
        time.sleep(delay)
        assert p.poll() is None, f"{case}: the call ended before the signal:\n{''.join(lines)}"
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        caught_at = fields = None
        for line in p.stdout:
            lines.append(line)
            if line.startswith("CAUGHT") and caught_at is None:
                caught_at = time.monotonic()
                fields = line.split()[1:]
        rc = p.wait(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    out = "".join(lines)
    assert rc == 0, f"{case}: exit {rc}\n{out}"
    assert caught_at is not None and "STATE" in out, out
    return caught_at - sent, fields, out


@pytest.mark.parametrize("case", ["de", "qap_ts"])
def test_ctrl_c_stops_a_long_call_within_a_second_with_the_best_so_far(case):
    seconds, (value, stop), out = run_child(case)
    assert stop == "interrupted", out
    assert math.isfinite(float(value)), out
    assert seconds < 1.0, f"{case}: KeyboardInterrupt came {seconds:.2f} s after SIGINT\n{out}"


@pytest.mark.parametrize("case", ["hc12", "qap_hc12", "sat", "qiga", "batch_de", "bh", "minimize"])
def test_ctrl_c_stops_the_other_long_calls(case):
    seconds, (value, stop), out = run_child(case, delay=0.5)
    assert stop == "interrupted" and math.isfinite(float(value)), out
    assert seconds < 2.0, f"{case}: KeyboardInterrupt came {seconds:.2f} s after SIGINT\n{out}"


def request_later(token, delay=0.3):
    t = threading.Timer(delay, token.request)
    t.start()
    return t


def test_a_stop_token_requested_from_another_thread_ends_the_call_with_its_best():
    with metaopt.StopToken() as token, metaopt.IslandDE(4, 32, 10, (-5, 5)) as de:
        assert not token.requested and "not requested" in repr(token)
        de.init("F1")
        request_later(token)
        t0 = time.monotonic()
        r = de.run(generations=10**15, stop_token=token)
        assert time.monotonic() - t0 < 5
        assert r.stop == r.stopped_by == "interrupted" and not r.success and token.requested
        assert r.generations > 0 and np.isfinite(r.value) and r.value == de.bests_fitness().min()
        # a requested token stops the next call at once; reset() clears it
        assert de.run(generations=10**15, stop_token=token).stop == "interrupted"
        token.reset()
        assert not token.requested
        r2 = de.run(generations=3, stop_token=token)
        assert r2.stop == "budget" and r2.success and r2.value <= r.value
    assert token.freed and "freed" in repr(token)
    with pytest.raises(ValueError, match="freed"):
        token.request()
    with pytest.raises(TypeError, match="stop_token"):
        metaopt.IslandDE(2, 8, 2, (-1, 1)).run(generations=1, stop_token=object())


def test_stop_tokens_in_every_solver():
    with metaopt.StopToken() as token:
        request_later(token, 0.5)
        r = metaopt.qap.solve(DATA / "tai25a.dat", chains=4, iterations=10**12, stop_token=token)
        assert r.stop == "interrupted" and not r.success and r.iterations > 0
        assert sorted(r.permutation.tolist()) == list(range(25))
        token.reset()
        request_later(token, 0.5)
        r = metaopt.qap.solve(DATA / "tai25a.dat", method="hc12", runs=0, time_limit=10**6, stop_token=token)
        assert r.stop == "interrupted" and not r.success and r.runs >= 0
        token.reset()
        request_later(token, 0.5)
        r = metaopt.sat.solve(satlib("uuf250-1065/uuf250-01.cnf"), method="hc12", time_limit=10**6, runs=10**9, stop_token=token)
        assert r.stop == "interrupted" and r.unsatisfied > 0
        token.reset()
        request_later(token, 0.5)
        r = metaopt.sat.solve(satlib("uuf250-1065/uuf250-01.cnf"), time_limit=10**6, stop_token=token)
        assert r.stop == "interrupted" and r.unsatisfied > 0 and r.flips > 0
        token.reset()
        with metaopt.HC12(30, 24, [-5.12, 5.12], "F6") as h:
            request_later(token, 0.5)
            r = h.run(runs=10**9, stop_token=token)
            assert r.stop == "interrupted" and not r.success and np.isfinite(r.value) and r.x.shape == (30,)
        token.reset()
        request_later(token, 0.5)
        r = metaopt.minimize("F1", [(-100, 100)] * 5, maxiter=10**12, tol=0, stop_token=token)
        assert r.stop == "interrupted" and r.status == 3 and not r.success and r.nit > 0 and np.isfinite(r.fun)
        token.reset()
        # requested once the first run has ended (a timer could fire before any run ends on a
        # loaded machine, leaving no best to check)
        r = metaopt.minimize("F6", [(-5, 5)] * 30, method="hc12", runs=10**6, tol=0, stop_token=token,
                             callback=lambda intermediate_result: token.request())
        assert r.stop == "interrupted" and not r.success and np.isfinite(r.fun)


def test_finished_calls_report_their_stop_reason():
    # the library's words (metaopt_stop_reason_word): a solver's own count is "budget"
    with metaopt.HC12(3, 12, [-5, 5], "F1") as h:
        assert h.run(runs=2).stop == "budget"
    r = metaopt.qap.solve(DATA / "had12.dat", chains=2, iterations=200)
    assert r.stop in ("budget", "target") and r.success
    assert metaopt.qap.solve(DATA / "had12.dat", target="bks", time_limit=60).stop == "target"
    assert metaopt.qap.solve(DATA / "had12.dat", method="hc12", runs=2).stop in ("budget", "target")
    assert metaopt.qap.solve(DATA / "had12.dat", chains=2, time_limit=0.3).stop == "time_limit"
    assert metaopt.sat.solve([[1, 2], [-1, 2]]).stop == "target"


def test_stop_words_are_the_librarys():
    from metaopt import _ffi, _interrupt
    words = {_interrupt.stop_word(c) for c in range(1, 9)}
    assert words == {"target", "time_limit", "budget", "interrupted", "evaluations", "stagnation",
                     "converged", "done"}
    assert _interrupt.stop_word(_ffi.METAOPT_STOP_LIMIT) == "budget"
    assert _interrupt.stop_word(_ffi.METAOPT_STOP_TIME_LIMIT) == "time_limit"
    # a number the library does not know stays a number
    assert _interrupt.stop_word(0) == "0" and _interrupt.stop_word(99) == "99"


def test_interrupt_from_another_thread_gives_a_result_not_an_exception():
    with metaopt.IslandDE(4, 32, 10, (-5, 5)) as de:
        de.init("F1")
        threading.Timer(0.3, metaopt.interrupt).start()
        r = de.run(generations=10**15)
        assert r.stop == "interrupted" and not r.success and r.generations > 0
        # calls started after the interrupt run normally
        assert de.run(generations=2).stop == "budget"


def test_a_call_from_another_thread_is_made_directly_and_stops_on_its_token():
    out = {}
    with metaopt.StopToken() as token, metaopt.IslandDE(4, 32, 10, (-5, 5)) as de:
        de.init("F1")

        def work():
            out["threads"] = threading.active_count()
            out["r"] = de.run(generations=10**15, stop_token=token)

        t = threading.Thread(target=work)
        t.start()
        time.sleep(0.3)
        token.request()
        t.join(10)
        assert not t.is_alive() and out["r"].stop == "interrupted"


def test_interrupted_is_a_keyboard_interrupt_with_the_result():
    e = metaopt.Interrupted("partial", "X.run")
    assert isinstance(e, KeyboardInterrupt) and e.result == "partial" and "X.run" in str(e)
    assert int(metaopt.ErrorCode.INTERRUPTED) == 16


def test_the_interpreter_ends_cleanly_after_a_call_cut_in_its_build():
    # a limit that passes during the device program's build: the call returns, the compiler
    # goes on in the background, and the interpreter's exit waits for it instead of tearing it
    # down (PoCL's cache is off so that the program is built afresh)
    code = "import sys\nsys.path.insert(0, %r)\nimport metaopt\n" % str(PYDIR)
    code += textwrap.dedent("""
        try:
            r = metaopt.sat.solve(%r, time_limit=1e-9)
            print("RESULT", r.stop, flush=True)
        except metaopt.MetaoptError as e:
            print("ERROR", e.code.name, flush=True)
    """ % str(satlib("uf50-218/uf50-01.cnf")))
    env = dict(os.environ, POCL_KERNEL_CACHE="0")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "ERROR TIME_LIMIT" in p.stdout or "RESULT time_limit" in p.stdout, p.stdout + p.stderr
