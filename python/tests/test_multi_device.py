"""Per-handle devices (``device=``) with PoCL posing as three devices: IslandDE instances on
devices 0 and 1 driven from two threads give the run of the same seeds on device 0 alone, the
catalogue on each device equals the host reference, and a bad device number is an error naming
``device``. PoCL reads ``POCL_DEVICES`` when the platform is first opened, so the checks run in a
fresh interpreter with it set (unless the caller set it); they are skipped, with the reason, when
fewer than two devices appear."""

import os
import subprocess
import sys
import textwrap

import pytest

from conftest import PYDIR

SCRIPT = textwrap.dedent(
    """
    import threading
    import numpy as np
    import metaopt
    from metaopt import IslandDE, MetaoptError, ErrorCode

    n = metaopt.device_count()
    if n < 2:
        print(f"SKIP {n} device(s)")
        raise SystemExit(0)

    def run(device):
        with IslandDE(4, 16, 5, (-5.12, 5.12), "COTN", precision="double", device=device) as de:
            de.init("F1", "DE/rand/1", "PermuteN", 5)
            r = de.run(generations=40)
            return r.value, r.x.tolist(), r.generations

    reference = run(0)
    out = {}
    threads = [threading.Thread(target=lambda d=d: out.__setitem__(d, run(d))) for d in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out[0] == reference, (out[0], reference)
    assert out[1] == reference, (out[1], reference)

    X = np.sin(np.arange(24) * 0.37).reshape(6, 4) * 2
    host = metaopt.evaluate("F2", X, cpu=True)
    for d in range(min(n, 3)):
        np.testing.assert_allclose(metaopt.evaluate("F2", X, precision="double", device=d), host, rtol=1e-12)
    assert metaopt.is_device_valid(1) and metaopt.is_device_valid()

    # minimize on a numbered device: the instance's device; the process default stays
    before = metaopt.get_device_number()
    m = [metaopt.minimize("F1", [(-5, 5)] * 3, seed=5, maxiter=30, device=d) for d in (0, 1)]
    assert m[0].fun == m[1].fun and list(m[0].x) == list(m[1].x), (m[0], m[1])
    assert m[1].device.startswith("device 1") and metaopt.get_device_number() == before

    for bad in (-2, n, 99):
        try:
            IslandDE(2, 8, 2, (-1, 1), device=bad)
        except MetaoptError as e:
            assert e.code == ErrorCode.INVALID_ARGUMENT and "device" in e.message, e.message
        else:
            raise AssertionError(f"device={bad} was accepted")
    print("OK", reference[0])
    """
)


def test_instances_on_two_devices_from_two_threads():
    env = dict(os.environ)
    env.setdefault("POCL_DEVICES", "pthread pthread pthread")
    env.setdefault("POCL_MAX_PTHREAD_COUNT", "1")
    env["PYTHONPATH"] = str(PYDIR) + os.pathsep + env.get("PYTHONPATH", "")
    p = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    if p.stdout.startswith("SKIP"):
        pytest.skip(p.stdout.strip())
    assert p.stdout.startswith("OK"), p.stdout + p.stderr
