#!/usr/bin/env bash
# Adaptive DE per generation, metaopt beside EvoX 1.4.0 at the same population (issue 25):
# one population of NP members in D = 10 on CEC07t (CEC 2019 F7, shifted, scaled, rotated):
#   metaopt bench de --sizes 1xNPx10 --algorithms de,jade,shade,lshade,jso (device and CPU backend)
#   benchmarks/drivers/bde/evox_bde.py --problems 1 --algorithm de|jade|shade (EvoX has no L-SHADE, jSO
#   or jDE100), its step compiled with torch.compile where that works, else eager.
# Writes $OUT/metaopt.csv, $OUT/evox.csv, $OUT/evox.log.txt and $OUT/summary.txt (seconds per
# generation and the ratio EvoX / metaopt for each algorithm EvoX has).
# Knobs: METAOPT (binary), SIZES ("100 1000"), GENS (500), PREC (float|double), EVOX_MAX_S (15),
# EVOX_TIMEOUT (150 s per EvoX run, compilation included), EVOX_WHEEL (gpu/wheels/evox-1.4.0-py3-none-any.whl), PYLIBS (/tmp/pylibs),
# EVOX_ALGS ("de jade shade"), EVOX_SHADE_GENS (GENS; EvoX's SHADE runs eagerly at about 0.1-0.6 s
# per generation, so fewer generations time it as well). METAOPT_DEVICE=n picks metaopt's device,
# CUDA_VISIBLE_DEVICES EvoX's.
set -uo pipefail
cd "$(dirname "$0")/../../.."
OUT=${OUT:-/tmp/ade-out}
mkdir -p "$OUT"
METAOPT=${METAOPT:-target/release/metaopt}
PYLIBS=${PYLIBS:-/tmp/pylibs}
SIZES=${SIZES:-"100 1000"}
GENS=${GENS:-500}
PREC=${PREC:-float}
EVOX_MAX_S=${EVOX_MAX_S:-15}
EVOX_WHEEL=${EVOX_WHEEL:-gpu/wheels/evox-1.4.0-py3-none-any.whl}
PY=${PYTHON:-python3}
if ! PYTHONPATH="$PYLIBS" "$PY" -c 'import evox' 2>/dev/null; then
  # a wheel is a zip laid out for site-packages; EvoX needs only torch and numpy (the machine's)
  "$PY" -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[2]).extractall(sys.argv[1])' "$PYLIBS" "$EVOX_WHEEL" || exit 1
fi
export PYTHONPATH="$PYLIBS${PYTHONPATH:+:$PYTHONPATH}"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | tee "$OUT/gpu.txt"
dbl=()
[ "$PREC" = double ] && dbl=(--double)
for np in $SIZES; do
  "$METAOPT" bench de --sizes "1x${np}x10" --algorithms de,jade,shade,lshade,jso --generations "$GENS" \
    --backends device,cpu "${dbl[@]}" --csv "$OUT/metaopt_$np.csv" 2>&1 | tail -12
  for alg in ${EVOX_ALGS:-de jade shade}; do
    echo "== evox $alg NP=$np" >&2
    # EvoX's SHADE loops over the population in Python inside its step: torch.compile unrolls
    # that loop and took more than 150 s at NP = 100, so SHADE runs eagerly
    nocomp=()
    gens=$GENS
    [ "$alg" = shade ] && nocomp=(--no-compile) && gens=${EVOX_SHADE_GENS:-$GENS}
    timeout "${EVOX_TIMEOUT:-150}" "$PY" benchmarks/drivers/bde/evox_bde.py --problems 1 --members "$np" --dims 10 --generations "$gens" \
      --function cec07t --precision "$PREC" --repeats 3 --algorithm "$alg" --max-seconds "$EVOX_MAX_S" \
      "${nocomp[@]}" --csv "$OUT/evox.csv" 2>>"$OUT/evox.log.txt" || echo "FAILED: evox $alg $np" | tee -a "$OUT/failures.txt"
    tail -1 "$OUT/evox.log.txt"
  done
done
"$PY" - "$OUT" <<'PY' | tee "$OUT/summary.txt"
import csv, glob, sys
out = sys.argv[1]
mo = {}
for f in sorted(glob.glob(f"{out}/metaopt_*.csv")):
    for r in csv.DictReader(open(f)):
        mo[(r["algorithm"], int(r["members"]), r["backend"])] = 1.0 / float(r["generations_per_s"])
ev = {}
for r in csv.DictReader(open(f"{out}/evox.csv")):
    ev[(r["algorithm"], int(r["members"]))] = (1.0 / float(r["gens_per_s"]), r["compiled"])
print(f"{'alg':<7} {'NP':>5} {'metaopt device':>15} {'metaopt cpu':>12} {'evox':>12} {'compiled':>8} {'evox/device':>12}")
for (alg, np_, be), s in sorted(mo.items()):
    if be != "device":
        continue
    c = mo.get((alg, np_, "cpu"))
    e = ev.get((alg, np_))
    print(f"{alg:<7} {np_:>5} {s*1e3:>13.3f}ms {c*1e3 if c else float('nan'):>10.3f}ms "
          + (f"{e[0]*1e3:>10.3f}ms {e[1]:>8} {e[0]/s:>11.1f}x" if e else f"{'-':>12} {'-':>8} {'-':>12}"))
PY
