#!/usr/bin/env bash
# Session 18, second call on nvidia-h200-x4 (issue 25 item 4, the 100-Digit goal): bench de-digits
# for JADE, SHADE, L-SHADE and jSO side by side, one GPU each (CUDA_VISIBLE_DEVICES=i, so each
# process sees its GPU as OpenCL device 0), 60 s per function, CEC04t..CEC10t in D = 10,
# the command's defaults otherwise (128 islands of 100 members; JADE and SHADE migrate PermuteN
# every 200 generations, L-SHADE and jSO run without migration; restarts after 3000 generations
# without improvement). From the repository root: CARRY=.dev/carry OUT=dir bash .../run2.sh
set -uo pipefail
cd "$(dirname "$0")/../../.."
CARRY=${CARRY:-.dev/carry}
M=$CARRY/metaopt
R=$OUT/r
mkdir -p "$R"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader > "$R/gpu.txt"
i=0
for alg in ${ALGS:-jade shade lshade jso}; do
  CUDA_VISIBLE_DEVICES=$i METAOPT_DEVICE=0 timeout "${DIGITS_TIMEOUT:-500}" $M bench de-digits --algorithm "$alg" --seconds "${SECONDS_PER_FUNCTION:-60}" \
    --csv "$R/digits_$alg.csv" > "$R/digits_$alg.out" 2> "$R/digits_$alg.err" &
  i=$((i + 1))
done
wait
tail -n 12 "$R"/digits_*.err
tar czf "$OUT/results.tgz" -C "$OUT" r
