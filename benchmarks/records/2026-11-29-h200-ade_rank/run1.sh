#!/usr/bin/env bash
# Session 20, first call, one H200 (issue 25):
# - speed per generation, one population of 100 and of 1000 (CEC07t, D = 10, float), session 19's
#   binary (metaopt-old, 2f1063c) beside this session's (ade_rank sorting the island's values in
#   local memory in the wide kernels);
# - EvoX 1.4.0's DE and JaDE beside this session's binary (benchmarks/drivers/ade/run_gpu.sh);
# - bench de-digits on CEC09t, now in the reference code's arithmetic: the fixed DE and JADE,
#   60 s each, 128 islands x 100.
# From the repository root: CARRY=.dev/carry OUT=dir bash benchmarks/records/2026-11-29-h200-ade_rank/run1.sh
set -uo pipefail
cd "$(dirname "$0")/../../.."
CARRY=${CARRY:-.dev/carry}
R=$OUT/r
mkdir -p "$R"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader > "$R/gpu.txt"
for b in new old; do
  M=$CARRY/metaopt-$b
  [ "$b" = new ] && M=$CARRY/metaopt
  timeout 150 $M bench de --sizes 1x100x10,1x1000x10 --algorithms de,jade,shade,lshade,jso --generations 500 \
    --backends device --csv "$R/speed_$b.csv" > /dev/null 2> "$R/speed_$b.err"
  echo "== $b"; cut -d, -f2,3,4,10,11 "$R/speed_$b.csv"
done
CUDA_VISIBLE_DEVICES=0 METAOPT_DEVICE=0 OUT=$R/ade METAOPT=$CARRY/metaopt EVOX_WHEEL=$CARRY/evox-1.4.0-py3-none-any.whl PYLIBS=/tmp/pylibs \
  EVOX_MAX_S=5 EVOX_TIMEOUT=100 EVOX_ALGS="de jade" timeout 300 bash benchmarks/drivers/ade/run_gpu.sh > "$R/ade.log" 2>&1
cat "$R/ade/summary.txt"
for a in de jade; do
  timeout 80 $CARRY/metaopt bench de-digits --functions CEC09t --seconds 60 --algorithm $a --csv "$R/digits09_$a.csv" \
    > "$R/digits09_$a.txt" 2>&1
  echo "== digits $a"; cat "$R/digits09_$a.csv"
done
tar czf "$OUT/results.tgz" -C "$OUT" r
