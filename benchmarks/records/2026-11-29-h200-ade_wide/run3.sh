#!/usr/bin/env bash
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
run() { local b=$1 v=$2; shift 2; echo "== $b $v $*"; METAOPT_CL_DIR=abl/$v ./$b bench de --backends device --generations 2000 "$@" 2>&1 | grep -v "^function\|^CEC\|^size" | grep -v "^\s*$" | cut -c1-70 | tail -6; }
run metaopt-abl base --sizes 1x1000x10,1x4000x10 --algorithms jade
for v in new2 new2_oldcx new2_norank new2_emptyadapt; do run metaopt-new2 $v --sizes 1x1000x10,1x4000x10 --algorithms jade; done
run metaopt-new2 new2 --sizes 1x100x10,1x1000x10,1x2000x10,1x4000x10 --algorithms de,jade,shade,lshade,jso
run metaopt-abl base --sizes 1x100x10,1x1000x10,1x2000x10,1x4000x10 --algorithms de,jade,shade,lshade,jso
