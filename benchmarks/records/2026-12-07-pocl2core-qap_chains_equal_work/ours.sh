#!/bin/bash
# ours: 1 chain, N iterations, no restarts; seeds 1..K; prints mean gap
f=$1; it=$2; bks=$3; K=${4:-8}; shift 4
for s in $(seq 1 $K); do
  ${METAOPT:-../../../target/release/metaopt} qap solve $f --method ts --cpu --chains 1 --max-iterations $it --stagnation 0 --seed $s --json "$@" | python3 -c "import json,sys; print(100*(json.load(sys.stdin)['cost']-$bks)/$bks)" &
  if (( s % 2 == 0 )); then wait; fi
done | python3 -c "import sys,statistics; v=[float(x) for x in sys.stdin]; print('ours', round(statistics.mean(v),3), [round(x,3) for x in v])"
