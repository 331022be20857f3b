#!/usr/bin/env bash
# ablation of the wide JADE generation: each variant's cl dir with the same binary
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
B=./metaopt-abl
run() { local v=$1; shift; echo "== $v $*"; METAOPT_ABL=1 METAOPT_CL_DIR=abl/$v $B bench de --backends device --generations 2000 "$@" 2>&1 | grep -v "^function\|^CEC" | grep -v "^\s*$" | tail -4; }
run base --sizes 1x1000x10 --algorithms de,jade,shade,jso
for v in base norank nobest noarc nosums emptyadapt emptytrials emptyboth; do run $v --sizes 1x1000x10,1x4000x10 --algorithms jade; done
run base --sizes 1x1000x10 --algorithms jade --wide off
run base --sizes 1x1000x10,1x4000x10 --algorithms jade
