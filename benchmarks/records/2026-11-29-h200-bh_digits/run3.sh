#!/usr/bin/env bash
# Session 20, third call, one H200 (issue 25): bench de-digits with basin hopping after the first
# DE run stalls (--basin-hopping; metaopt::bh, cl/bh.cl), 60 s per function:
# - JADE on CEC04t..CEC10t, 4096 chains (the default);
# - the fixed DE on CEC08t and CEC09t, 65536 chains;
# - SHADE on CEC08t, 65536 chains.
# From the repository root: CARRY=.dev/carry OUT=dir bash benchmarks/records/2026-11-29-h200-ade_rank/run3.sh
set -uo pipefail
cd "$(dirname "$0")/../../.."
CARRY=${CARRY:-.dev/carry}
R=$OUT/r
mkdir -p "$R"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader > "$R/gpu.txt"
M=$CARRY/metaopt
timeout 260 $M bench de-digits --seconds 60 --algorithm jade --basin-hopping --csv "$R/bh_jade.csv" > "$R/bh_jade.txt" 2>&1
cat "$R/bh_jade.csv"
timeout 140 $M bench de-digits --seconds 60 --functions CEC08t,CEC09t --basin-hopping --bh-chains 65536 \
  --csv "$R/bh_de_65536.csv" > "$R/bh_de_65536.txt" 2>&1
cat "$R/bh_de_65536.csv"
timeout 75 $M bench de-digits --seconds 60 --functions CEC08t --algorithm shade --basin-hopping --bh-chains 65536 \
  --csv "$R/bh_shade_65536.csv" > "$R/bh_shade_65536.txt" 2>&1
cat "$R/bh_shade_65536.csv"
tar czf "$OUT/results.tgz" -C "$OUT" r
