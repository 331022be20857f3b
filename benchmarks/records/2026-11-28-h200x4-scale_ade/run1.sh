#!/usr/bin/env bash
# Session 18, first call on nvidia-h200-x4 (issues 23 and 25), from the repository root:
#   CARRY=.dev/carry OUT=dir bash benchmarks/records/2026-11-28-h200x4-scale_ade/run1.sh
# NVIDIA's OpenCL honours CUDA_VISIBLE_DEVICES: with it set to 3, that GPU is OpenCL device 0
# (the first call ran METAOPT_DEVICE=3 and lost the metaopt side of the EvoX comparison).
# Phase A, side by side: QAP quality at 10 s on GPU 0 and on GPUs 1,2 (multi_gpu.sh, step qap);
#   on GPU 3 the adaptive DE per generation beside EvoX (benchmarks/drivers/ade/run_gpu.sh), then
#   the CEC-style table (bench de-table, 25 runs of 1e6 evaluations) once GPU 0 is free.
# Phase B: QAP quality on GPUs 0-3. Phase C: batched DE of 65,536 problems under mpirun -np 1
#   with its JSON on stdout, written by the rank to a file, and without mpirun (the 236 s wall
#   time of session 17).
set -uo pipefail
cd "$(dirname "$0")/../../.."
CARRY=${CARRY:-.dev/carry}
mkdir -p "$OUT/r"
M=$CARRY/metaopt
export PYLIBS=/tmp/pylibs
(
  CUDA_VISIBLE_DEVICES=3 METAOPT_DEVICE=0 OUT=$OUT/r/ade METAOPT=$M EVOX_WHEEL=$CARRY/evox-1.4.0-py3-none-any.whl \
    EVOX_MAX_S=5 EVOX_TIMEOUT=100 EVOX_SHADE_GENS=30 timeout 300 bash benchmarks/drivers/ade/run_gpu.sh > "$OUT/r/ade.log" 2>&1
) &
ADE=$!
STEPS=qap QQ_SETS="0 1,2" bash benchmarks/drivers/scale/multi_gpu.sh
METAOPT_DEVICE=0 timeout 150 $M bench de-table --runs 25 --members 100 --evaluations 1000000 --csv "$OUT/r/table_1e6.csv" > "$OUT/r/table.log" 2>&1
wait $ADE
STEPS=qap QQ_SETS="0,1,2,3" bash benchmarks/drivers/scale/multi_gpu.sh
# phase C
export OPAL_PREFIX=/tmp/ompi PATH=/tmp/ompi/bin:$PATH LD_LIBRARY_PATH=/tmp/ompi/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
B="de --problems 65536 --max-generations 1000 --function F1 --dims 10 --members 64 --json"
t() { local t0; t0=$(date +%s%N); "$@"; echo "rc=$? wall_ms=$(( ($(date +%s%N) - t0) / 1000000 ))" >&2; }
{
  echo "== no mpirun, stdout to a file"; t timeout 60 $M $B --devices 0 > /tmp/bde0.json
  echo "== mpirun -np 1, the rank writes its stdout to a file"; t timeout 90 mpirun --bind-to none -np 1 -x OCL_ICD_VENDORS sh -c "$M $B --mpi --devices 0 > /tmp/bde1.json"
  echo "== mpirun -np 1, stdout forwarded by mpirun"; t timeout 120 mpirun --bind-to none -np 1 -x OCL_ICD_VENDORS $M $B --mpi --devices 0 > /tmp/bde2.json
  ls -l /tmp/bde*.json; cmp /tmp/bde0.json /tmp/bde1.json && echo same01
} > "$OUT/r/mpi_bde.txt" 2>&1
cat "$OUT/r/mpi_bde.txt"
tail -5 "$OUT/r/ade.log"; cat "$OUT/r/ade/summary.txt" 2>/dev/null; tail -12 "$OUT/r/table.log"
tar czf "$OUT/results.tgz" -C "$OUT" r
