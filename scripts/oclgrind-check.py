#!/usr/bin/env python3
"""Every kernel of cl/ run on a small case under Oclgrind, which reports invalid memory accesses,
data races, uninitialised values and OpenCL API errors (`make test` runs it; docs/ARCHITECTURE.md,
"Reliability", says what it covers).

The cases are `metaopt` commands on tiny inputs and, for the kernels no command launches, the
ignored tests of tests/it/devices/oclgrind.rs, each run alone. Each runs with Oclgrind as the only
OpenCL platform (OCL_ICD_VENDORS names its ICD), with OCLGRIND_DATA_RACES, OCLGRIND_UNINITIALIZED
and OCLGRIND_CHECK_API on and its messages sent to a file (OCLGRIND_LOG); a case fails when that
file is not empty, when Oclgrind writes to standard error, or when the command ends otherwise
than expected. The kernels are built with -cl-opt-disable: Oclgrind 21.10 cannot run the LLVM
intrinsics the optimiser makes of rotates and `abs`.

Oclgrind 21.10's uninitialised-value plugin keeps a shadow of each buffer (a length, and which
bytes were written), made at a kernel's start for a buffer without one, replaced by one of the
write's length at each host write, and never dropped: a buffer created after another's release is
given the released one's number and inherits its shadow, so the kernels' stores past its length
are lost to the plugin and their loads there are reported as uninitialised. A case that releases a
buffer before creating another can thus report values that were written (the DE engine's
objective data goes into the buffer it has, or into one made after that one's release, for this
reason).

The kernels a case launches are recorded by tests/oclgrind/launches.c, a small library loaded in
place of libOpenCL.so.1 (OPENCL_DYLIB_PATH) that logs each clEnqueueNDRangeKernel with its
device. The check fails when a kernel of cl/ was launched on Oclgrind by no case and is not in
EXCLUDED with its reason, so a new kernel needs a case.

Usage: scripts/oclgrind-check.py [--bin target/release/metaopt] [--jobs 2] [--only NAME,...]
Exits 0 without checking (and says so) where Oclgrind is not installed.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ICD = Path(os.environ.get("OCLGRIND_ICD", "/usr/lib/oclgrind/liboclgrind-rt-icd.so"))
DEVICE = "Oclgrind Simulator"
# a kernel of cl/ that no case launches, with the reason (none today)
EXCLUDED: dict = {}
# Cases run without OCLGRIND_UNINITIALIZED, and why (the reasons are printed with the results):
# the memory and race checks still apply to them.
UNINIT_OFF = {
    "de-two-devices": "one thread per device: the plugin keeps its shadow memory per thread and "
                      "crashes on a buffer write from a thread other than the one that made the "
                      "context",
    "awvd": "the plugin aborts on awvd_level (\"Unsupported pointer size\": the structures it "
            "passes by value)",
    "it-cec06_eval_tables": "the plugin crashes (SIGSEGV in Uninitialized::hostMemoryStore, from "
                            "Program::allocateProgramScopeVars) building a program with program-scope "
                            "__constant tables (G14, G16, G19, G20's data) on a thread other than the "
                            "one that made its context, before any kernel runs",
    "sssp-near-far": "64-bit distances: atom_or and atom_min, which the plugin does not model (it "
                     "knows the atomic_* names only)",
    "de-constrained": "Fx and Fy are made anew at init, twice as long, for the violations; the plugin "
                      "reports the loads of their second halves (violations, level) as uninitialised "
                      "though both buffers are written whole as they are made and again before the "
                      "first selection: as the released-buffer shadow put_func_data describes, past "
                      "the old length",
    "jade-constrained": "as de-constrained (the same re-made Fx and Fy)",
    "de-repair": "as de-constrained (the same re-made Fx and Fy)",
}
# Cases run without OCLGRIND_DATA_RACES, and why (printed likewise).
RACES_OFF = {
    "sssp-local": "sp_local reads a local distance without a lock before its atomic minimum (a "
                  "stale value can only be larger, which sends the candidate to the atomic), and "
                  "a relaxed vertex's distance likewise (one lowered meanwhile is marked and "
                  "relaxed again next round): races by the memory model, kept because the atomic "
                  "for every candidate made the local path several times slower",
}
# what makes a line of Oclgrind's on standard error (a fatal error, a message without OCLGRIND_LOG)
OCLGRIND_STDERR = re.compile(
    r"oclgrind|invalid (read|write)|data race|uninitiali[sz]ed|unsupported", re.IGNORECASE
)
# stands for the integration-test binary in a case's command, found only where a case needs it
IT_BIN = "<it>"
KERNEL = re.compile(r"__kernel\b(?:\s+__attribute__\s*\(\(.*?\)\))*\s+void\s+(\w+)\s*\(", re.DOTALL)

# a QAPLIB instance of size 5
Q5 = """5

0 1 2 3 1
1 0 1 2 2
2 1 0 1 3
3 2 1 0 1
1 2 3 1 0

0 5 2 4 1
5 0 3 0 2
2 3 0 0 0
4 0 0 0 5
1 2 0 5 0
"""


def cl_kernels():
    """Kernel name -> file, for every __kernel function of cl/*.cl."""
    found = {}
    for f in sorted((ROOT / "cl").glob("*.cl")):
        for name in KERNEL.findall(f.read_text()):
            found[name] = f.name
    return found


class Case:
    """One process under Oclgrind. pocl: PoCL's device beside Oclgrind's, as device 1; ok: the
    exit statuses that pass; with OCLGRIND_UNINITIALIZED unless UNINIT_OFF names it, with
    OCLGRIND_DATA_RACES unless RACES_OFF does."""

    def __init__(self, name, argv, ok=(0,), pocl=False):
        self.name, self.argv, self.ok, self.pocl = name, argv, ok, pocl
        self.uninit = name not in UNINIT_OFF
        self.races = name not in RACES_OFF


def cases(metaopt, work):
    m, w = str(metaopt), work
    de = [m, "de", "--function", "F1", "--dims", "2", "--islands", "2", "--members", "8",
          "--max-generations", "3", "-q"]
    return [
        Case("qap-ts", [m, "qap", "solve", str(ROOT / "data/qaplib/nug12.dat"), "--chains", "2",
                        "--max-iterations", "20", "--launch-iterations", "10", "--elite", "0", "-q"]),
        # asymmetric data: the transposes stacked after the matrices (read across rows)
        Case("qap-ts-asym", [m, "qap", "solve", str(ROOT / "data/qaplib/tai12b.dat"), "--chains", "2",
                             "--max-iterations", "20", "--launch-iterations", "10", "--elite", "0", "-q"]),
        Case("qap-hc12", [m, "qap", "solve", f"{w}/q5.dat", "--method", "hc12", "--swaps", "3",
                          "--mask-order", "2", "--max-runs", "2", "-q"]),
        Case("qap-hc12-tabu", [m, "qap", "solve", f"{w}/q5.dat", "--method", "hc12", "--swaps", "3",
                               "--mask-order", "2", "--max-runs", "1", "--tabu", "4",
                               "--tabu-iterations", "4", "--no-improve", "2", "-q"]),
        Case("sat-eval", [m, "sat", "eval", f"{w}/f12.cnf", f"{w}/a12.txt", "-q"]),
        # 10: a model found (the SAT competition's status), 0: none within the flips
        Case("sat-probsat", [m, "sat", "solve", f"{w}/f12.cnf", "--walks", "2", "--max-flips", "50",
                             "-q"], ok=(0, 10)),
        Case("sat-walksat", [m, "sat", "solve", f"{w}/f12.cnf", "--method", "walksat", "--walks", "2",
                             "--max-flips", "50", "-q"], ok=(0, 10)),
        Case("sat-hc12", [m, "sat", "solve", f"{w}/f12.cnf", "--method", "hc12", "--max-runs", "1",
                          "--mask-order", "1", "-q"], ok=(0, 10)),
        Case("hc12", [m, "hc12", "--function", "F11", "--dims", "2", "--bits", "4", "--max-runs", "1",
                      "-q"]),
        Case("de-fused", de + ["--migration", "RandTarget", "--period", "1"]),
        Case("de-unfused", de + ["--unfused", "--migration", "One2One", "--period", "1"]),
        Case("de-wide", de + ["--wide", "on"]),
        Case("de-batch", [m, "de", "--function", "F1", "--dims", "2", "--problems", "2", "--members",
                          "8", "--max-generations", "3", "--generations-per-launch", "2", "-q"]),
        Case("jade-fused", de + ["--algorithm", "jade"]),
        Case("jade-wide", de + ["--algorithm", "jade", "--wide", "on"]),
        Case("jade-unfused", de + ["--algorithm", "jade", "--unfused"]),
        Case("jde100", de + ["--algorithm", "jde100", "--jde-small", "4"]),
        # constraints: the per-phase kernels and the adaptive variants' with violations (G06, a
        # CEC 2006 problem as its OpenCL source), Deb's rules and the epsilon level
        Case("de-constrained", [m, "de", "--function", "G06", "--dims", "2", "--islands", "2",
                                "--members", "8", "--max-generations", "3", "--migration", "One2One",
                                "--period", "1", "-q"]),
        Case("jade-constrained", [m, "de", "--function", "G06", "--dims", "2", "--islands", "2",
                                  "--members", "8", "--max-generations", "3", "--algorithm", "jade",
                                  "--constraint-handling", "epsilon", "-q"]),
        # the gradient-based repair of every trial (de_repair) on G13's three equalities
        Case("de-repair", [m, "de", "--function", "G13", "--dims", "5", "--islands", "1",
                           "--members", "8", "--max-generations", "2", "--constraint-handling",
                           "epsilon", "--repair", "1", "-q"]),
        # the batch with constraints (a CEC 2006 problem, Deb's rules; violations beside the
        # values) and integer variables, populations in local and in global memory
        Case("de-batch-constrained", [m, "de", "--batch", f"{w}/constrained.json",
                                      "--generations-per-launch", "2", "--placement", "local", "-q"]),
        Case("de-batch-constrained-global", [m, "de", "--batch", f"{w}/constrained.json",
                                             "--generations-per-launch", "2", "--placement", "global",
                                             "-q"]),
        # the migrants' export and import between devices
        Case("de-two-devices", de + ["--devices", "0,1", "--migration", "One2One", "--period", "1"],
             pocl=True),
        Case("qiga", [m, "qiga", "--knapsack", f"{w}/k12.txt", "--populations", "2", "--individuals",
                      "2", "--generations", "3", "-q"]),
        Case("sssp-local", [m, "sp", "sssp", "--grid", "5x5", "--source", "0", "-q"]),
        Case("sssp-pull", [m, "sp", "sssp", "--grid", "5x5", "--source", "0", "--method", "pull", "-q"]),
        Case("sssp-near-far", [m, "sp", "sssp", "--grid", "5x5", "--sources", "0,3", "--method",
                               "near-far", "-q"]),
        Case("sssp-lee", [m, "sp", "sssp", "--grid", "5x5,1,0.2", "--source", "0", "--method", "lee",
                          "-q"]),
        Case("aco", [m, "sp", "aco", "--grid", "4x4", "--source", "0", "--target", "15", "--ants", "4",
                     "--iterations", "2", "-q"]),
        Case("awvd", [m, "awvd", f"{w}/b8.txt", "--contacts", os.devnull, "-q"]),
    ] + [
        Case(f"it-{t}", [IT_BIN, "--ignored", "--exact", f"devices::oclgrind::{t}",
                         "--test-threads", "1", "-q"])
        for t in ["rng_fill", "tabu_find_many", "bh_steps", "de_host_callback",
                  "hc12_host_callback", "functions_eval", "sat_mcsx", "qiga_repair_strings", "cec06_eval",
                  "cec06_eval_tables", "constraints_eval_and_bh"]
    ]


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, cwd=ROOT, **kw)


def prepare(work, metaopt):
    """The inputs, the launch logger, and the two ICD folders."""
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    (work / "q5.dat").write_text(Q5)
    run([str(metaopt), "sat", "generate", "--vars", "12", "--ratio", "4", "--seed", "3", "-o",
         str(work / "f12.cnf")])
    (work / "a12.txt").write_text("010101010101\n111111111111\n")
    (work / "constrained.json").write_text(
        '[{"function": "G06", "dims": 2, "members": 8, "generations": 3},'
        ' {"function": "F1", "dims": 3, "members": 6, "generations": 3, "integrality": [true, false, true]}]\n')
    run([str(metaopt), "knapsack", "generate", "--kind", "hankim", "--items", "12", "-o",
         str(work / "k12.txt")])
    balls = (ROOT / "data/pdb/1ubq.balls.txt").read_text().splitlines(keepends=True)
    (work / "b8.txt").write_text("".join(balls[:8]))
    cc = os.environ.get("CC", "cc")
    run([cc, "-O2", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC", "-o",
         str(work / "liblaunches.so"), str(ROOT / "tests/oclgrind/launches.c"), "-lOpenCL", "-ldl"])
    alone = work / "icd-oclgrind"
    alone.mkdir()
    (alone / "oclgrind.icd").write_text(f"{ICD}\n")
    pair = work / "icd-oclgrind-pocl"
    pair.mkdir()
    (pair / "oclgrind.icd").write_text(f"{ICD}\n")
    pocl = Path("/etc/OpenCL/vendors/pocl.icd")
    if pocl.exists():
        shutil.copy(pocl, pair / "pocl.icd")
    return alone, pair, pocl.exists()


def it_binary(cargo):
    """The library's integration-test binary, as `make test` builds it (`cargo test --release
    --workspace`: the same features, so nothing is built again)."""
    out = run([cargo, "test", "--release", "--workspace", "--no-run", "--message-format=json"],
              stdout=subprocess.PIPE, text=True).stdout
    for line in out.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg.get("executable") \
                and msg.get("target", {}).get("name") == "it" \
                and Path(msg.get("manifest_path", "")) == ROOT / "Cargo.toml":
            return Path(msg["executable"])
    sys.exit("oclgrind-check: cargo named no executable for the library's test target `it`")


def check(case, work, icd_dirs, timeout):
    """(errors, kernels launched on Oclgrind, seconds)."""
    log, launches = work / f"{case.name}.oclgrind.log", work / f"{case.name}.launches"
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("OCLGRIND_") and k not in ("METAOPT_DEVICE", "OPENCL_DYLIB_PATH")}
    env.update({
        "OCL_ICD_VENDORS": str(icd_dirs[case.pocl]),
        "OCLGRIND_CHECK_API": "1",
        "OCLGRIND_BUILD_OPTIONS": "-cl-opt-disable",
        "OCLGRIND_LOG": str(log),
        "OPENCL_DYLIB_PATH": str(work / "liblaunches.so"),
        "METAOPT_LAUNCH_LOG": str(launches),
        "METAOPT_CL_DIR": str(ROOT / "cl"),
        "RUST_BACKTRACE": "0",
    })
    if case.uninit:
        env["OCLGRIND_UNINITIALIZED"] = "1"
    if case.races:
        env["OCLGRIND_DATA_RACES"] = "1"
    start = time.monotonic()
    errors = []
    try:
        p = subprocess.run(case.argv, cwd=work, env=env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           errors="replace", timeout=timeout)
        rc, stdout, stderr = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        rc, stdout, stderr = None, e.stdout or "", e.stderr or ""
        stdout = stdout.decode(errors="replace") if isinstance(stdout, bytes) else stdout
        stderr = stderr.decode(errors="replace") if isinstance(stderr, bytes) else stderr
        errors.append(f"did not end within {timeout} s")
    secs = time.monotonic() - start
    if rc is not None and rc not in case.ok:
        errors.append(f"exit status {rc} (expected {' or '.join(map(str, case.ok))})")
    messages = log.read_text(errors="replace").strip() if log.exists() else ""
    if messages:
        errors.append("Oclgrind reported:\n" + "\n".join(messages.splitlines()[:60]))
    odd = [l for l in stderr.splitlines() if OCLGRIND_STDERR.search(l)]
    if odd or (errors and stderr.strip()):
        errors.append("standard error:\n" + "\n".join(stderr.strip().splitlines()[-30:]))
    if errors and stdout.strip():
        errors.append("standard output:\n" + "\n".join(stdout.strip().splitlines()[-15:]))
    kernels = set()
    if launches.exists():
        for line in launches.read_text().splitlines():
            name, _, device = line.partition("\t")
            if device == DEVICE:
                kernels.add(name)
    return errors, kernels, secs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=str(ROOT / "target/release/metaopt"), help="the metaopt binary")
    ap.add_argument("--cargo", default=os.environ.get("CARGO", "cargo"))
    ap.add_argument("--jobs", type=int, default=2, help="cases run at once")
    ap.add_argument("--timeout", type=int, default=600, help="seconds one case may take")
    ap.add_argument("--only", help="comma-separated case names (no coverage check)")
    ap.add_argument("--work", default=str(ROOT / "target/oclgrind"), help="inputs and logs")
    args = ap.parse_args()

    if not ICD.exists() or shutil.which("oclgrind") is None:
        print(f"oclgrind-check: Oclgrind is not installed ({ICD}; Debian's package oclgrind), "
              "the kernels' memory and race check is skipped")
        return 0
    metaopt = Path(args.bin).resolve()
    if not metaopt.exists():
        sys.exit(f"oclgrind-check: {metaopt} does not exist (cargo build --release first)")
    work = Path(args.work).resolve()
    start = time.monotonic()
    alone, pair, have_pocl = prepare(work, metaopt)
    all_cases = cases(metaopt, work)
    if args.only:
        names = set(args.only.split(","))
        unknown = names - {c.name for c in all_cases}
        if unknown:
            sys.exit(f"oclgrind-check: no case {', '.join(sorted(unknown))}")
        all_cases = [c for c in all_cases if c.name in names]
    if any(IT_BIN in c.argv for c in all_cases):
        it = str(it_binary(args.cargo))
        for c in all_cases:
            c.argv = [it if a == IT_BIN else a for a in c.argv]
    failed, launched = [], {}
    missing = [c.name for c in all_cases if c.pocl and not have_pocl]
    if missing:
        failed.append(("setup", [f"{', '.join(missing)} need PoCL's ICD "
                                 "(/etc/OpenCL/vendors/pocl.icd) for a second device"]))
        all_cases = [c for c in all_cases if c.name not in missing]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(check, c, work, {False: alone, True: pair}, args.timeout): c
                   for c in all_cases}
        for f in concurrent.futures.as_completed(futures):
            c = futures[f]
            errors, kernels, secs = f.result()
            for k in kernels:
                launched.setdefault(k, []).append(c.name)
            status = "FAILED" if errors else "ok"
            print(f"oclgrind-check: {c.name:<24} {status:<6} {secs:6.1f} s  {' '.join(sorted(kernels))}",
                  flush=True)
            if errors:
                failed.append((c.name, errors))

    if not args.only:
        kernels = cl_kernels()
        stale = sorted(set(EXCLUDED) - set(kernels))
        if stale:
            failed.append(("coverage", [f"EXCLUDED names kernels not in cl/: {', '.join(stale)}"]))
        uncovered = sorted(set(kernels) - set(launched) - set(EXCLUDED))
        if uncovered:
            failed.append(("coverage", ["kernels no case launched on Oclgrind (add a case, or an "
                                        "EXCLUDED entry with the reason): "
                                        + ", ".join(f"{k} ({kernels[k]})" for k in uncovered)]))
        for k, why in sorted(EXCLUDED.items()):
            print(f"oclgrind-check: {k} not run: {why}")
        for name, why in UNINIT_OFF.items():
            print(f"oclgrind-check: {name} without the uninitialised-value check: {why}")
        for name, why in RACES_OFF.items():
            print(f"oclgrind-check: {name} without the data-race check: {why}")
        unknown = sorted((set(UNINIT_OFF) | set(RACES_OFF)) - {c.name for c in cases(metaopt, work)})
        if unknown:
            failed.append(("coverage", [f"UNINIT_OFF or RACES_OFF names no case: "
                                        f"{', '.join(unknown)}"]))
        print(f"oclgrind-check: {len(set(kernels) & set(launched))} of {len(kernels)} kernels of "
              f"cl/ launched on Oclgrind")
    for name, errors in failed:
        print(f"\noclgrind-check: {name}:", file=sys.stderr)
        for e in errors:
            print("  " + e.replace("\n", "\n  "), file=sys.stderr)
    print(f"oclgrind-check: {len(all_cases) - sum(1 for n, _ in failed if n not in ('setup', 'coverage'))} "
          f"of {len(all_cases)} cases clean in {time.monotonic() - start:.0f} s"
          + ("" if not failed else "; FAILED"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
