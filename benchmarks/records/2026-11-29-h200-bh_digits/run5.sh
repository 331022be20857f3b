#!/usr/bin/env bash
# Session 20, fifth call, one H200 (issue 25): the 100-Digit score of every DE variant with basin
# hopping (bench de-digits --basin-hopping, the defaults: hops 1e-6..1.5e-2 of the width, searches
# down to 5e-17, after the first DE run stalls or 6 s of it), 65536 chains, 60 s per function.
# From the repository root: CARRY=.dev/carry OUT=dir bash benchmarks/records/2026-11-29-h200-ade_rank/run5.sh
set -uo pipefail
cd "$(dirname "$0")/../../.."
CARRY=${CARRY:-.dev/carry}
R=$OUT/r
mkdir -p "$R"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader > "$R/gpu.txt"
M=$CARRY/metaopt
for a in de jade shade jso lshade jde100; do
  extra=()
  [ "$a" = jde100 ] && extra=(--members 1025)
  timeout 85 $M bench de-digits --seconds 60 --algorithm $a "${extra[@]}" --basin-hopping --bh-chains 65536 \
    --csv "$R/bh_$a.csv" > "$R/bh_$a.txt" 2>&1
  echo "== $a"; cut -d, -f1,2,5,10,11 "$R/bh_$a.csv"; grep score "$R/bh_$a.txt"
done
tar czf "$OUT/results.tgz" -C "$OUT" r
