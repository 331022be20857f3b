#!/usr/bin/env bash
# Session 20, fourth call, one H200 (issue 25): bench de-digits with basin hopping (65536
# chains) whose hops span 1e-6 to 1.5e-2 of the width and whose local search runs down to a
# step of 5e-17 of it (HappyCat needs both: the search must reach the shell where the reference
# code rounds r2 - D to 0, and hops small enough to walk along it), 60 s per function:
# JADE and the fixed DE on CEC04t..CEC10t; SHADE and jSO on CEC08t and CEC09t.
# From the repository root: CARRY=.dev/carry OUT=dir bash benchmarks/records/2026-11-29-h200-ade_rank/run4.sh
set -uo pipefail
cd "$(dirname "$0")/../../.."
CARRY=${CARRY:-.dev/carry}
R=$OUT/r
mkdir -p "$R"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader > "$R/gpu.txt"
M=$CARRY/metaopt
BH=(--basin-hopping --bh-chains 65536 --bh-hop-min 1e-6 --bh-hop-max 0.015 --bh-step-stop 5e-17)
timeout 150 $M bench de-digits --seconds 60 --algorithm jade "${BH[@]}" --csv "$R/bh_jade.csv" > "$R/bh_jade.txt" 2>&1
cat "$R/bh_jade.csv"
timeout 150 $M bench de-digits --seconds 60 --algorithm de "${BH[@]}" --csv "$R/bh_de.csv" > "$R/bh_de.txt" 2>&1
cat "$R/bh_de.csv"
for a in shade jso; do
  timeout 125 $M bench de-digits --seconds 60 --functions CEC08t,CEC09t --algorithm $a "${BH[@]}" --csv "$R/bh_$a.csv" > "$R/bh_$a.txt" 2>&1
  cat "$R/bh_$a.csv"
done
tar czf "$OUT/results.tgz" -C "$OUT" r
