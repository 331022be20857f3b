#!/usr/bin/env bash
# Session 18, third call on nvidia-h200-x4 (issues 22, 23, 25), from the repository root:
#   CARRY=.dev/carry OUT=dir bash benchmarks/records/2026-11-28-h200x4-scale_ade/run3.sh
# Phase A, side by side: the multi-device tests on GPUs 0-2 (CUDA_VISIBLE_DEVICES=0,1,2;
#   benchmarks/drivers/scale/multi_gpu.sh, step tests) and, on GPU 3, the adaptive DE per generation
#   beside EvoX (benchmarks/drivers/ade/run_gpu.sh; NVIDIA's OpenCL honours CUDA_VISIBLE_DEVICES, so
#   GPU 3 is OpenCL device 0 there).
# Phase B: bench scale on GPUs 0-3 after this session's changes (QAP engines made side by side
#   with queued uploads, QIGA strings placed as chunks return, island DE's view read only
#   before a migration): QIGA and QAP at session 17's sizes, island DE at session 17's size and
#   at 16,384 islands x 64 over 10,000 generations.
set -uo pipefail
cd "$(dirname "$0")/../../.."
CARRY=${CARRY:-.dev/carry}
M=$CARRY/metaopt
R=$OUT/r
mkdir -p "$R"
(
  CUDA_VISIBLE_DEVICES=3 METAOPT_DEVICE=0 OUT=$R/ade METAOPT=$M EVOX_WHEEL=$CARRY/evox-1.4.0-py3-none-any.whl PYLIBS=/tmp/pylibs \
    EVOX_MAX_S=5 EVOX_TIMEOUT=100 EVOX_SHADE_GENS=30 timeout 330 bash benchmarks/drivers/ade/run_gpu.sh > "$R/ade.log" 2>&1
) &
ADE=$!
CUDA_VISIBLE_DEVICES=0,1,2 STEPS=tests timeout 330 bash benchmarks/drivers/scale/multi_gpu.sh
wait $ADE
cat "$R/ade/summary.txt" 2>/dev/null || tail -20 "$R/ade.log"
S=target/release/metaopt
timeout 150 $S bench scale --devices 0,1,2,3 --solvers qiga,qap_ts,island_de --qiga-populations 1048576 --qap-chains 2112 --qap-iterations 60000 \
  --de-function CEC07t --de-dims 10 --de-islands 4096 --de-members 64 --de-generations 2000 --csv "$R/scale.csv" 2> "$R/scale.err"
tail -30 "$R/scale.err"
tar czf "$OUT/results.tgz" -C "$OUT" r
timeout 150 $S bench scale --devices 0,1,2,3 --solvers island_de \
  --de-function CEC07t --de-dims 10 --de-islands 16384 --de-members 64 --de-generations 10000 --csv "$R/scale_island_large.csv" 2> "$R/scale_island_large.err"
tail -20 "$R/scale_island_large.err"
tar czf "$OUT/results.tgz" -C "$OUT" r
