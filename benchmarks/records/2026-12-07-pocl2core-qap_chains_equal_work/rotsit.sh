#!/bin/bash
f=$1; it=$2; bks=$3; K=${4:-8}
for s in $(seq 1 $K); do
  ITERS=$it ${ROTS_ITERS:-/tmp/rots/t2} $f $s 0 2>/dev/null | grep Global | awk '{print $4}' &
  if (( s % 2 == 0 )); then wait; fi
done | python3 -c "import sys,statistics; v=[100*(float(x)-$bks)/$bks for x in sys.stdin]; print('rots', round(statistics.mean(v),3), [round(x,3) for x in v])"
