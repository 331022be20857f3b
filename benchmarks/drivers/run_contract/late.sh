#!/usr/bin/env bash
# How late each solver stops after its time limit and after SIGINT, on one GPU: every CLI solver
# command on a large instance, once with --time-limit 1 (set-up counted) and once interrupted
# with SIGINT 2 s after its start (no time limit, a budget far too large to end first). Each is
# run twice: the first run may compile its kernels, the second finds them in the cache.
# From the repository root: CARRY=.dev/carry OUT=dir bash benchmarks/drivers/run_contract/late.sh
set -uo pipefail
cd "$(dirname "$0")/../../.."
CARRY=${CARRY:-.dev/carry}
R=$OUT/r
mkdir -p "$R"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader > "$R/gpu.txt" 2>&1
M=$CARRY/metaopt
$M devices > "$R/devices.txt" 2>&1
python3 - <<'PY' > /tmp/balls.txt
import random
random.seed(1)
for _ in range(120000):
    print(f"{random.uniform(0,150):.3f} {random.uniform(0,150):.3f} {random.uniform(0,150):.3f} {random.uniform(1.2,2.0):.3f}")
PY
UUF=data/satlib/uuf250-1065/uuf250-01.cnf
declare -A CMD
CMD[qap_ts]="qap solve data/qaplib/tai100a.dat --max-iterations 100000000"
CMD[qap_hc12]="qap solve data/qaplib/tai100a.dat --method hc12 --runs 1000000"
CMD[de_island]="de --function F8 --dims 100 --islands 64 --members 256 --max-generations 100000000"
CMD[de_jade]="de --function F8 --dims 100 --islands 16 --members 256 --algorithm jade --max-generations 100000000"
CMD[de_batch]="de --problems 4096 --function F8 --dims 30 --max-generations 100000000"
CMD[hc12]="hc12 --function F5 --dims 20 --runs 1000000"
CMD[sat_walks]="sat solve $UUF --max-flips 100000000000"
CMD[sat_hc12]="sat solve $UUF --method hc12 --runs 1000000"
CMD[qiga]="qiga --knapsack data/knapsack/knapsack-1000.txt --populations 100000 --generations 5000"
CMD[aco]="sp aco --grid 300x300 --source 0 --target 89999 --iterations 100000000"
SOURCES=$(python3 -c 'print(",".join(str(i * 62497) for i in range(64)))')
CMD[sssp]="sp sssp --grid 2000x2000 --sources $SOURCES"
CMD[awvd]="awvd /tmp/balls.txt"
CMD[bh]="bh --function F8 --dims 100 --chains 65536 --max-steps 100000000"
echo "solver,mode,run,limit_s,wall_s,late_s,exit,stopped_by" > "$R/late.csv"
now() { date +%s.%N; }
for s in ${SOLVERS:-qap_ts qap_hc12 de_island de_jade de_batch hc12 sat_walks sat_hc12 qiga aco sssp awvd bh}; do
  for run in 1 2; do
    t0=$(now); timeout -k 5 60 $M ${CMD[$s]} --time-limit 1 --json > "$R/$s.limit.$run.json" 2> "$R/$s.limit.$run.err"; rc=$?; t1=$(now)
    by=$(python3 -c "import json,sys;print(json.load(open(sys.argv[1])).get('stopped_by',''))" "$R/$s.limit.$run.json" 2>/dev/null)
    python3 -c "import sys;w=float(sys.argv[2])-float(sys.argv[1]);print(f'$s,time_limit,$run,1,{w:.3f},{w-1:.3f},$rc,$by')" $t0 $t1 >> "$R/late.csv"
    t0=$(now); timeout --preserve-status -k 5 -s INT 2 $M ${CMD[$s]} --json > "$R/$s.int.$run.json" 2> "$R/$s.int.$run.err"; rc=$?; t1=$(now)
    by=$(python3 -c "import json,sys;print(json.load(open(sys.argv[1])).get('stopped_by',''))" "$R/$s.int.$run.json" 2>/dev/null)
    python3 -c "import sys;w=float(sys.argv[2])-float(sys.argv[1]);print(f'$s,sigint,$run,2,{w:.3f},{w-2:.3f},$rc,$by')" $t0 $t1 >> "$R/late.csv"
  done
done
cat "$R/late.csv"
tar czf "$OUT/results.tgz" -C "$OUT" r
