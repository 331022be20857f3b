#!/usr/bin/env bash
cd "$(dirname "$0")"
run() { local v=$1; shift; echo "== $v $*"; METAOPT_CL_DIR=abl/$v ./metaopt-new3 bench de --backends device --generations 4000 "$@" 2>&1 | grep -v "^function\|^CEC\|^size" | grep -v "^\s*$" | cut -c1-70 | tail -20; }
for v in new3 n3_nosums n3_noarc n3_norank n3_ifshrink n3_emptyadapt new3; do run $v --sizes 1x1000x10,1x4000x10 --algorithms jade; done
