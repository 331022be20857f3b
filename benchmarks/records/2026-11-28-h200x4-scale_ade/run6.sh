#!/usr/bin/env bash
# Session 18, sixth call on nvidia-h200-x4 (issue 25): after L-SHADE and jSO moved to launches of
# several generations: bench scale --de-algorithm jso (as call 5) and the per-generation times of
# the adaptive variants at one population of 100 and 1000 (bench de, as benchmarks/drivers/ade/run_gpu.sh
# runs it, without EvoX). From the repository root: CARRY=.dev/carry OUT=dir bash .../run6.sh
set -uo pipefail
cd "$(dirname "$0")/../../.."
CARRY=${CARRY:-.dev/carry}
M=$CARRY/metaopt
R=$OUT/r
mkdir -p "$R"
timeout 120 $M bench scale --devices 0,1,2,3 --solvers island_de --de-algorithm jso --de-function CEC07t --de-dims 10 \
  --de-islands 4096 --de-members 100 --de-generations 2000 --csv "$R/scale_jso_after.csv" 2> "$R/scale_jso_after.err"
tail -6 "$R/scale_jso_after.err"
for np in 100 1000; do
  METAOPT_DEVICE=0 timeout 120 $M bench de --sizes "1x${np}x10" --algorithms de,jade,shade,lshade,jso --generations 500 --backends device \
    --csv "$R/metaopt_after_$np.csv" 2>&1 | tail -7
done
tar czf "$OUT/results.tgz" -C "$OUT" r
