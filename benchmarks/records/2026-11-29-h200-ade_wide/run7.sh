#!/usr/bin/env bash
# session 21: the wide adaptive DE before (new3: partial ranking) and after (new4: + reads of four members at once), then EvoX beside new4
cd "$(dirname "$0")/../../.."
C=.dev/carry
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
run() { local b=$1 v=$2; shift 2; echo "== $b $v $*"; METAOPT_CL_DIR=$C/abl/$v $C/$b bench de --backends device --generations 4000 "$@" 2>&1 | grep -v "^function\|^CEC\|^size" | grep -v "^\s*$" | cut -c1-70 | tail -20; }
S=1x100x10,1x1000x10,1x2000x10,1x4000x10
run metaopt-new3 new3 --sizes $S --algorithms jade,shade,lshade,jso --csv $OUT/new3.csv
run metaopt-new4 new4 --sizes $S --algorithms jade,shade,lshade,jso --csv $OUT/new4.csv
METAOPT_CL_DIR=$C/abl/new4 METAOPT=$C/metaopt-new4 EVOX_WHEEL=$C/evox-1.4.0-py3-none-any.whl OUT=$OUT/ade SIZES="100 1000" EVOX_ALGS="de jade" GENS=500 bash benchmarks/drivers/ade/run_gpu.sh 2>&1 | tail -30
run metaopt-new3 new3 --sizes 1x1000x10 --algorithms jade
run metaopt-new4 new4 --sizes 1x1000x10 --algorithms jade
