#!/usr/bin/env bash
# session 21, last call: metaopt at commit 9600b97 (the tree's cl/) beside EvoX 1.4.0's DE, JaDE and SHADE in one run
cd "$(dirname "$0")/../../.."
C=.dev/carry
METAOPT=$C/metaopt-new4 EVOX_WHEEL=$C/evox-1.4.0-py3-none-any.whl OUT=$OUT/ade SIZES="100 1000" EVOX_ALGS="de jade shade" GENS=2000 EVOX_SHADE_GENS=5 EVOX_TIMEOUT=300 bash benchmarks/drivers/ade/run_gpu.sh 2>&1 | tail -40
