#!/usr/bin/env bash
# Session 20, second call, one H200 (issue 25):
# - how a generation's time grows with one population's size (1 x 250 .. 1 x 4000, CEC07t, D = 10,
#   float), fixed DE and JADE, session 19's binary (metaopt-old with its own kernels, cl-old from
#   2f1063c) beside this session's;
# - bench de-digits on CEC09t (reference arithmetic) for jDE100 (1025 members) and jSO, 60 s each.
# From the repository root: CARRY=.dev/carry OUT=dir bash benchmarks/records/2026-11-29-h200-ade_rank/run2.sh
set -uo pipefail
cd "$(dirname "$0")/../../.."
CARRY=${CARRY:-.dev/carry}
R=$OUT/r
mkdir -p "$R"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader > "$R/gpu.txt"
S=1x250x10,1x500x10,1x1000x10,1x2000x10,1x4000x10
timeout 150 $CARRY/metaopt bench de --sizes $S --algorithms de,jade --generations 500 --backends device \
  --csv "$R/scale_new.csv" > /dev/null 2> "$R/scale_new.err"
METAOPT_CL_DIR=$CARRY/cl-old timeout 150 $CARRY/metaopt-old bench de --sizes $S --algorithms de,jade --generations 500 \
  --backends device --csv "$R/scale_old.csv" > /dev/null 2> "$R/scale_old.err"
python3 - "$R" <<'PY'
import csv, sys
for b in ("old", "new"):
    try:
        for r in csv.DictReader(open(f"{sys.argv[1]}/scale_{b}.csv")):
            print(b, r["algorithm"], r["members"], "%.4f ms" % (float(r["seconds"]) / int(r["generations"]) * 1e3))
    except OSError as e:
        print(b, e)
PY
timeout 80 $CARRY/metaopt bench de-digits --functions CEC09t --seconds 60 --algorithm jde100 --members 1025 \
  --csv "$R/digits09_jde100.csv" > "$R/digits09_jde100.txt" 2>&1
timeout 80 $CARRY/metaopt bench de-digits --functions CEC09t --seconds 60 --algorithm jso \
  --csv "$R/digits09_jso.csv" > "$R/digits09_jso.txt" 2>&1
cat "$R"/digits09_*.csv
tar czf "$OUT/results.tgz" -C "$OUT" r
