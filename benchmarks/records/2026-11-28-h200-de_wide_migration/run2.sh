#!/usr/bin/env bash
# Session 19, second call, one H200 (issue 25): the fixed DE's wide generation (de_wide) beside
# the fused kernel at populations of 100 to 4000 members and 1 to 64 islands (bench de --wide
# on|off), then the per-generation comparison with EvoX 1.4.0's DE at one population of 100 and
# 1000 (benchmarks/drivers/ade/run_gpu.sh, --wide auto). From the repository root:
#   CARRY=.dev/carry OUT=dir bash benchmarks/records/2026-11-28-h200-de_wide_migration/run2.sh
set -uo pipefail
cd "$(dirname "$0")/../../.."
CARRY=${CARRY:-.dev/carry}
R=$OUT/r
mkdir -p "$R"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader > "$R/gpu.txt"
for w in on off; do
  timeout 150 $CARRY/metaopt bench de --sizes 1x100x10,1x1000x10,4x1000x10,16x1000x10,64x1000x10,1x4000x10 --algorithms de \
    --mutation DE/rand/1 --generations 300 --backends device --wide $w --csv "$R/wide_$w.csv" > /dev/null 2> "$R/wide_$w.err"
  timeout 100 $CARRY/metaopt bench de --sizes 1x1000x10 --algorithms de --mutation DE/best/1 --generations 300 --backends device \
    --wide $w --csv "$R/wide_best_$w.csv" > /dev/null 2> "$R/wide_best_$w.err"
  echo "== $w"; cat "$R/wide_$w.csv" "$R/wide_best_$w.csv"
done
CUDA_VISIBLE_DEVICES=0 METAOPT_DEVICE=0 OUT=$R/ade METAOPT=$CARRY/metaopt EVOX_WHEEL=$CARRY/evox-1.4.0-py3-none-any.whl PYLIBS=/tmp/pylibs \
  EVOX_MAX_S=5 EVOX_TIMEOUT=100 EVOX_ALGS="de jade" timeout 330 bash benchmarks/drivers/ade/run_gpu.sh > "$R/ade.log" 2>&1
cat "$R/ade/summary.txt"
tar czf "$OUT/results.tgz" -C "$OUT" r
