#!/usr/bin/env bash
# Session 19, a call on nvidia-h200-x2 (issue 22): island DE on 1 and 2 GPUs, session 18's binary
# (metaopt-old, 25536ca) beside this session's (blind One2One migration, launches without a wait
# between migrations): bench scale's island DE rows (no migration, periods 1, 10, 100), CEC07t
# D = 10, 4,096 x 64 over 2,000 generations and 16,384 x 64 over 10,000, and JADE 4,096 x 100.
# From the repository root: CARRY=.dev/carry OUT=dir bash benchmarks/records/2026-11-28-h200-de_wide_migration/run4.sh
set -uo pipefail
cd "$(dirname "$0")/../../.."
CARRY=${CARRY:-.dev/carry}
R=$OUT/r
mkdir -p "$R"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader > "$R/gpu.txt"
for b in new old; do
  M=$CARRY/metaopt-$b
  [ "$b" = new ] && M=$CARRY/metaopt
  timeout 120 $M bench scale --devices 0,1 --solvers island_de --de-function CEC07t --de-dims 10 --de-islands 4096 --de-members 64 \
    --de-generations 2000 --csv "$R/x2_4096_$b.csv" > /dev/null 2> "$R/x2_4096_$b.err"
  timeout 200 $M bench scale --devices 0,1 --solvers island_de --de-function CEC07t --de-dims 10 --de-islands 16384 --de-members 64 \
    --de-generations 10000 --csv "$R/x2_16384_$b.csv" > /dev/null 2> "$R/x2_16384_$b.err"
  timeout 120 $M bench scale --devices 0,1 --solvers island_de --de-algorithm jade --de-function CEC07t --de-dims 10 --de-islands 4096 \
    --de-members 100 --de-generations 1000 --csv "$R/x2_jade_$b.csv" > /dev/null 2> "$R/x2_jade_$b.err"
done
for f in "$R"/x2_*.csv; do echo "== $f"; cut -d, -f1,2,3,5,7,9 "$f"; done
tar czf "$OUT/results.tgz" -C "$OUT" r
