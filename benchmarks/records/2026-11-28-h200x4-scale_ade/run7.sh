#!/usr/bin/env bash
# Session 18, seventh call (issue 25): after ade_rank reads local memory, the adaptive DE per
# generation beside EvoX 1.4.0 at one population of 100 and 1000 (benchmarks/drivers/ade/run_gpu.sh,
# EvoX's DE and JaDE; its SHADE was timed in call 3). From the repository root:
#   CARRY=.dev/carry OUT=dir bash benchmarks/records/2026-11-28-h200x4-scale_ade/run7.sh
set -uo pipefail
cd "$(dirname "$0")/../../.."
CARRY=${CARRY:-.dev/carry}
mkdir -p "$OUT/r"
CUDA_VISIBLE_DEVICES=0 METAOPT_DEVICE=0 OUT=$OUT/r/ade METAOPT=$CARRY/metaopt EVOX_WHEEL=$CARRY/evox-1.4.0-py3-none-any.whl PYLIBS=/tmp/pylibs \
  EVOX_MAX_S=5 EVOX_TIMEOUT=100 EVOX_ALGS="de jade" timeout 400 bash benchmarks/drivers/ade/run_gpu.sh > "$OUT/r/ade.log" 2>&1
cat "$OUT/r/ade/summary.txt"
tar czf "$OUT/results.tgz" -C "$OUT" r
