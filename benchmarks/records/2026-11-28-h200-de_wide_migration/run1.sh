#!/usr/bin/env bash
# Session 19, first call, one H200 (issues 22 and 25). From the repository root:
#   CARRY=.dev/carry OUT=dir bash benchmarks/records/2026-11-28-h200-de_wide_migration/run1.sh
# 1. Island DE on one GPU, the binary of session 18 (metaopt-old, commit 25536ca) beside this
#    session's (blind One2One migration: no view read, launches without a wait between
#    migrations): bench scale's island DE rows (no migration, periods 1, 10, 100, one
#    migration's cost), CEC07t D = 10, 4,096 x 64 over 2,000 generations and 16,384 x 64 over
#    10,000, each binary twice in alternation.
# 3. (below) the fused kernel beside --unfused at one population.
# 2. The adaptive DE per generation beside EvoX 1.4.0 at one population of 100 and 1000
#    (benchmarks/drivers/ade/run_gpu.sh; EvoX's DE and JaDE).
set -uo pipefail
cd "$(dirname "$0")/../../.."
CARRY=${CARRY:-.dev/carry}
R=$OUT/r
mkdir -p "$R"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader > "$R/gpu.txt"
nproc > "$R/cores.txt"
for rep in 1 2; do
  for b in old new; do
    M=$CARRY/metaopt-$b
    [ "$b" = new ] && M=$CARRY/metaopt
    timeout 100 $M bench scale --devices 0 --solvers island_de --de-function CEC07t --de-dims 10 --de-islands 4096 --de-members 64 \
      --de-generations 2000 --csv "$R/island_4096_${b}_$rep.csv" > /dev/null 2> "$R/island_4096_${b}_$rep.err"
    timeout 150 $M bench scale --devices 0 --solvers island_de --de-function CEC07t --de-dims 10 --de-islands 16384 --de-members 64 \
      --de-generations 10000 --csv "$R/island_16384_${b}_$rep.csv" > /dev/null 2> "$R/island_16384_${b}_$rep.err"
  done
done
for f in "$R"/island_*.csv; do echo "== $f"; cat "$f"; done
# 3. One population of 100 / 1000 on the device: the fused kernel (one work-group) beside the
#    per-phase launches (--unfused: trials over the whole GPU, a few launches a generation).
for u in fused unfused; do
  fl=()
  [ "$u" = unfused ] && fl=(--unfused)
  timeout 100 $CARRY/metaopt bench de --sizes 1x100x10,1x1000x10,4x1000x10 --algorithms de,jade --generations 500 --backends device "${fl[@]}" \
    --csv "$R/one_pop_$u.csv" > /dev/null 2> "$R/one_pop_$u.err"
  echo "== $u"; cat "$R/one_pop_$u.csv"
done
if [ -z "${SKIP_ADE:-}" ]; then
  CUDA_VISIBLE_DEVICES=0 METAOPT_DEVICE=0 OUT=$R/ade METAOPT=$CARRY/metaopt EVOX_WHEEL=$CARRY/evox-1.4.0-py3-none-any.whl PYLIBS=/tmp/pylibs \
    EVOX_MAX_S=5 EVOX_TIMEOUT=100 EVOX_ALGS="de jade" timeout 330 bash benchmarks/drivers/ade/run_gpu.sh > "$R/ade.log" 2>&1
  cat "$R/ade/summary.txt"
fi
tar czf "$OUT/results.tgz" -C "$OUT" r
