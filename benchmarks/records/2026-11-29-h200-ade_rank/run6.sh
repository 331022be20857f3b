#!/usr/bin/env bash
# Session 20, sixth call, one H200 (issue 25): the adaptive variants' wide generation with a group
# as large as the island (ade_wide_adapt: one member a work-item, the success sums in the fused
# kernel's order), one population of 100 .. 4000 (CEC07t, D = 10, float), then EvoX 1.4.0's JaDE
# beside metaopt at 1000 members (benchmarks/drivers/ade/run_gpu.sh).
# From the repository root: CARRY=.dev/carry OUT=dir bash benchmarks/records/2026-11-29-h200-ade_rank/run6.sh
set -uo pipefail
cd "$(dirname "$0")/../../.."
CARRY=${CARRY:-.dev/carry}
R=$OUT/r
mkdir -p "$R"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader > "$R/gpu.txt"
timeout 150 $CARRY/metaopt bench de --sizes 1x100x10,1x1000x10,1x2000x10,1x4000x10 --algorithms de,jade,shade,lshade,jso \
  --generations 500 --backends device --csv "$R/speed.csv" > /dev/null 2> "$R/speed.err"
python3 - "$R" <<'PY'
import csv, sys
for r in csv.DictReader(open(f"{sys.argv[1]}/speed.csv")):
    print(r["algorithm"], r["members"], "%.4f ms" % (float(r["seconds"]) / int(r["generations"]) * 1e3))
PY
CUDA_VISIBLE_DEVICES=0 METAOPT_DEVICE=0 OUT=$R/ade METAOPT=$CARRY/metaopt EVOX_WHEEL=$CARRY/evox-1.4.0-py3-none-any.whl PYLIBS=/tmp/pylibs \
  SIZES="100 1000" EVOX_MAX_S=5 EVOX_TIMEOUT=100 EVOX_ALGS="jade" timeout 240 bash benchmarks/drivers/ade/run_gpu.sh > "$R/ade.log" 2>&1
cat "$R/ade/summary.txt"
tar czf "$OUT/results.tgz" -C "$OUT" r
