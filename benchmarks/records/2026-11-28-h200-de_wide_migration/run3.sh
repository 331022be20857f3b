#!/usr/bin/env bash
# Session 19, third call, one H200 (issue 25): JADE, SHADE, L-SHADE and jSO in the wide generation
# (ade_wide_*) beside the fused kernel at one population of 100 and 1000 and at 4, 16 and 64
# islands of 1000 (bench de --wide on|off), then the per-generation comparison with EvoX 1.4.0's
# DE and JaDE at one population of 100 and 1000 (benchmarks/drivers/ade/run_gpu.sh, --wide auto).
# From the repository root: CARRY=.dev/carry OUT=dir bash benchmarks/records/2026-11-28-h200-de_wide_migration/run3.sh
set -uo pipefail
cd "$(dirname "$0")/../../.."
CARRY=${CARRY:-.dev/carry}
R=$OUT/r
mkdir -p "$R"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader > "$R/gpu.txt"
for w in on off; do
  timeout 200 $CARRY/metaopt bench de --sizes 1x100x10,1x1000x10,4x1000x10,16x1000x10,64x1000x10 --algorithms jade,shade,lshade,jso \
    --generations 300 --backends device --wide $w --csv "$R/ade_wide_$w.csv" > /dev/null 2> "$R/ade_wide_$w.err"
  echo "== $w"; cut -d, -f2,3,4,10,11 "$R/ade_wide_$w.csv"
done
CUDA_VISIBLE_DEVICES=0 METAOPT_DEVICE=0 OUT=$R/ade METAOPT=$CARRY/metaopt EVOX_WHEEL=$CARRY/evox-1.4.0-py3-none-any.whl PYLIBS=/tmp/pylibs \
  EVOX_MAX_S=5 EVOX_TIMEOUT=100 EVOX_ALGS="de jade" timeout 330 bash benchmarks/drivers/ade/run_gpu.sh > "$R/ade.log" 2>&1
cat "$R/ade/summary.txt"
tar czf "$OUT/results.tgz" -C "$OUT" r
