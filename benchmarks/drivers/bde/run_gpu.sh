#!/usr/bin/env bash
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
# EvoX 1.4.0 and evosax 0.3.2 batched DE on the GPU machine (offline): installs the wheels of
# gpu/wheels (benchmarks/drivers/bde/install_offline.sh), then runs benchmarks/drivers/bde/{evox,evosax}_bde.py at
# B x NP x D = 1024x32x10 and 16384x64x10, rastrigin and cec07t, float and double, G = 500
# (EvoX capped at about EVOX_MAX_S seconds a timed run), writing $OUT/evox.csv, $OUT/evosax.csv.
# Knobs (environment): LIBS="evosax evox", SIZES="1024x32x10 16384x64x10",
# FUNCS="rastrigin cec07t", PRECS="float double", GENS=500, REPEATS=3, EVOX_MAX_S=20, PYLIBS.
# A whole run may pass a 10-minute command limit: split it, e.g. LIBS=evosax then LIBS=evox.
set -uo pipefail
cd "$(dirname "$0")/../../.."
OUT=${OUT:-/tmp/bde-out}
mkdir -p "$OUT"
PYLIBS=${PYLIBS:-/tmp/pylibs}
LIBS=${LIBS:-"evosax evox"}
SIZES=${SIZES:-"1024x32x10 16384x64x10"}
FUNCS=${FUNCS:-"rastrigin cec07t"}
PRECS=${PRECS:-"float double"}
GENS=${GENS:-500}
REPEATS=${REPEATS:-3}
EVOX_MAX_S=${EVOX_MAX_S:-20}
PY=${PYTHON:-python3}
DEVICE=${DEVICE:-cuda}

if ! PYTHONPATH="$PYLIBS" "$PY" -c 'import evox, evosax' 2>/dev/null; then
  bash benchmarks/drivers/bde/install_offline.sh "$PYLIBS" || { echo "install failed"; exit 1; }
fi
export PYTHONPATH="$PYLIBS${PYTHONPATH:+:$PYTHONPATH}"
export XLA_PYTHON_CLIENT_PREALLOCATE=${XLA_PYTHON_CLIENT_PREALLOCATE:-false}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | tee "$OUT/gpu.txt"

fail=0
for lib in $LIBS; do
  for size in $SIZES; do
    IFS=x read -r B NP D <<<"$size"
    for fn in $FUNCS; do
      for prec in $PRECS; do
        extra=()
        [ "$lib" = evox ] && extra=(--max-seconds "$EVOX_MAX_S")
        echo "== $lib $fn $prec B=$B NP=$NP D=$D G=$GENS" >&2
        if ! "$PY" "benchmarks/drivers/bde/${lib}_bde.py" --problems "$B" --members "$NP" --dims "$D" \
            --generations "$GENS" --function "$fn" --precision "$prec" --repeats "$REPEATS" \
            --device "$DEVICE" --csv "$OUT/$lib.csv" "${extra[@]}" 2>>"$OUT/$lib.log.txt"; then
          echo "FAILED: $lib $fn $prec $size (see $OUT/$lib.log.txt)" | tee -a "$OUT/failures.txt"
          fail=1
        fi
        tail -1 "$OUT/$lib.log.txt"
      done
    done
  done
done

echo
echo "summary (best of $REPEATS timed runs; final best = mean / min over the B problems):"
"$PY" - "$OUT" <<'PY'
import csv, glob, os, sys
rows = []
for p in sorted(glob.glob(os.path.join(sys.argv[1], "*.csv"))):
    rows += list(csv.DictReader(open(p)))
print(f"{'library':<8} {'function':<10} {'prec':<6} {'B x NP x D':<13} {'G':>5} {'gen/s':>10} {'evals/s':>10} {'warmup s':>8} {'best mean':>11} {'best min':>11}")
for r in rows:
    size = f"{r['problems']}x{r['members']}x{r['dims']}"
    print(f"{r['library']:<8} {r['function']:<10} {r['precision']:<6} {size:<13} {r['generations']:>5} "
          f"{float(r['gens_per_s']):>10.1f} {float(r['evals_per_s']):>10.3e} {float(r['warmup_s'] or 'nan'):>8.1f} "
          f"{float(r['final_best_mean']):>11.5g} {float(r['final_best_min']):>11.5g}")
PY
exit $fail
