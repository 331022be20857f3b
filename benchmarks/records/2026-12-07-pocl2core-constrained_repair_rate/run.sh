#!/bin/bash
# CEC 2006, Deb's rules, 4 islands of 40, 5 runs of 500,000 evaluations: the repair's probability
set -u
out=$(dirname "$0")
for p in 0.01 0.02 0.03 0.05; do
  s=$(date +%s%N)
  target/release/metaopt bench constrained --runs 5 --repair $p --csv $out/deb_repair_$p.csv > $out/deb_repair_$p.log 2>&1
  e=$(date +%s%N); echo "repair $p $(( (e - s) / 1000000 )) ms" >> $out/wall.txt
done
