#!/usr/bin/env bash
cd "$(dirname "$0")"
run() { local x=$1; shift; echo "== maxrreg '$x' $*"; METAOPT_ABL=1 METAOPT_CL_EXTRA="$x" METAOPT_CL_DIR=abl/new3 ./metaopt-exp bench de --backends device --generations 2000 "$@" 2>&1 | grep -v "^function\|^CEC\|^size" | grep -v "^\s*$" | sed 's/NVIDIA H200 (NVIDIA CUDA), tile 16x16, //' | cut -c1-150 | tail -20; }
for R in "" -cl-nv-maxrregcount=128 -cl-nv-maxrregcount=64 -cl-nv-maxrregcount=32; do
  run "$R" --sizes 1x1000x10,1x2000x10,1x4000x10 --algorithms jade
  run "$R" --sizes 1x1000x10 --algorithms jade,de --wide off
done
