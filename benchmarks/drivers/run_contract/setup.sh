#!/usr/bin/env bash
set -uo pipefail
M=${CARRY:-.dev/carry}/metaopt
now() { date +%s.%N; }
python3 -c "
import random
random.seed(1)
print('\n'.join(f'{random.uniform(0,150):.3f} {random.uniform(0,150):.3f} {random.uniform(0,150):.3f} {random.uniform(1.2,2.0):.3f}' for _ in range(120000)))" > /tmp/balls.txt
S=$(python3 -c 'print(",".join(str(i * 62497) for i in range(64)))')
declare -A CMD
CMD[de_island]="de --function F8 --dims 100 --islands 64 --members 256 --max-generations 100000000"
CMD[de_jade]="de --function F8 --dims 100 --islands 16 --members 256 --algorithm jade --max-generations 100000000"
CMD[qap_ts]="qap solve data/qaplib/tai100a.dat --max-iterations 100000000"
CMD[qiga]="qiga --knapsack data/knapsack/knapsack-1000.txt --populations 100000 --generations 5000"
CMD[awvd]="awvd /tmp/balls.txt"
CMD[sssp]="sp sssp --grid 2000x2000 --sources $S"
CMD[aco]="sp aco --grid 300x300 --source 0 --target 89999 --iterations 100000000"
echo "solver,mode,run,answer_s,exit_s,rc,first_err_line" > $OUT/late2.csv
for s in de_island de_jade qap_ts qiga awvd sssp aco; do
  for run in 1 2 3; do
    # answer_s: when the result or error is out (stderr's first line or the process end); exit_s: process end
    t0=$(now)
    $M ${CMD[$s]} --time-limit 1 --json > /tmp/o.json 2> /tmp/o.err; rc=$?; t1=$(now)
    ans=$(python3 benchmarks/drivers/run_contract/ans.py $t0)
    e=$(head -1 /tmp/o.err | cut -c1-90 | tr ',' ';')
    echo "$s,limit,$run,$ans,$(python3 -c "print(f'{$t1-$t0:.3f}')"),$rc,$e" >> $OUT/late2.csv
  done
  t0=$(now); timeout --preserve-status -s INT 2 $M ${CMD[$s]} --json > /tmp/o.json 2> /tmp/o.err; rc=$?; t1=$(now)
  ans=$(python3 benchmarks/drivers/run_contract/ans.py $t0)
  e=$(head -1 /tmp/o.err | cut -c1-90 | tr ',' ';')
  echo "$s,sigint,1,$ans,$(python3 -c "print(f'{$t1-$t0:.3f}')"),$rc,$e" >> $OUT/late2.csv
done
$M qiga --knapsack data/knapsack/knapsack-1000.txt --populations 100000 --generations 5000 --time-limit 1 --csv $OUT/qiga.csv --quiet > /dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
cat $OUT/late2.csv; tail -4 $OUT/qiga.csv
