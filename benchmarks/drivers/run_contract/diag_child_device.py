#!/usr/bin/env python3
"""Which OpenCL devices a child process sees while this process holds the GPU through the
library: each platform's clGetDeviceIDs status and device count, read by a child through the
OpenCL loader, and the child CLI's `metaopt devices`, before, while and after this process holds
a basin-hopping solver on device 0.

Usage, from the repository root (METAOPT_LIB naming the library, PYTHONPATH=python):
    python3 benchmarks/drivers/run_contract/diag_child_device.py path/to/metaopt
"""

import os
import subprocess
import sys

import metaopt

PROBE = r"""
import ctypes
cl = ctypes.CDLL("libOpenCL.so.1")
n = ctypes.c_uint()
print("clGetPlatformIDs", cl.clGetPlatformIDs(0, None, ctypes.byref(n)), n.value)
ps = (ctypes.c_void_p * n.value)()
cl.clGetPlatformIDs(n.value, ps, None)
for p in ps:
    name = ctypes.create_string_buffer(256)
    cl.clGetPlatformInfo(ctypes.c_void_p(p), 0x0902, 256, name, None)
    nd = ctypes.c_uint()
    rc = cl.clGetDeviceIDs(ctypes.c_void_p(p), ctypes.c_ulonglong(0xFFFFFFFF), 0, None, ctypes.byref(nd))
    print("platform", name.value.decode(), "clGetDeviceIDs", rc, "devices", nd.value)
"""


START_ENV = dict(os.environ)


def env_changes():
    """The environment a child inherits now against this process's at its start (native code
    may change the C environment, which children inherit)."""
    out = subprocess.run(["env", "-0"], capture_output=True).stdout.decode(errors="replace")
    now = dict(kv.split("=", 1) for kv in out.split("\0") if "=" in kv)
    changed = {k: v for k, v in now.items() if START_ENV.get(k) != v}
    gone = sorted(set(START_ENV) - set(now))
    return changed, gone


def children(exe, when):
    print(f"--- {when}", flush=True)
    changed, gone = env_changes()
    print("environment changed since this process started:", changed or "nothing", "removed:", gone or "nothing")
    for args in ([sys.executable, "-c", PROBE], [exe, "devices"]):
        p = subprocess.run(args, capture_output=True, text=True)
        print(f"$ {' '.join(args[:2]) if args[0] == exe else 'probe'}: rc {p.returncode}")
        print(p.stdout.strip())
        if p.stderr.strip():
            print("stderr:", p.stderr.strip()[:500])


def main(exe):
    children(exe, "before this process uses the library")
    print("this process's devices:", [d.name for d in metaopt.devices()], flush=True)
    with metaopt.BasinHopping("F8", [(-600, 600)] * 100, chains=65536) as b:
        r = b.solve(steps=10**12, x0=[100] * 100, time_limit=0.5)
        print("this process's solve:", r.stop, r.seconds, flush=True)
        children(exe, "while this process holds a solver on the GPU")
    children(exe, "after the solver is freed (the context stays cached)")


if __name__ == "__main__":
    main(sys.argv[1])
