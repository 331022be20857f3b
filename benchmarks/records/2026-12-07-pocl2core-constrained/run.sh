#!/usr/bin/env bash
# What made this record: run from this folder with MO pointing to a release build of the
# commit the README names (its metaopt binary, libmetaopt.so and python/ package); PYTHON a
# Python with numpy and scipy.
set -euo pipefail
MO=${MO:?set MO to the source tree of the build}
BIN=$MO/target/release/metaopt
t() { local name=$1; shift; local s=$(date +%s.%N); "$@" > "$name.csv" 2> "$name.log"; echo "$name $(echo "$(date +%s.%N) - $s" | bc) s" | tee -a wall.txt; }
: > wall.txt
# the reduced set, beside scipy: 24 problems, 3 runs, 100,000 evaluations
t metaopt_cpu_deb_100k    $BIN bench constrained --runs 3 --evaluations 100000 --cpu
t metaopt_pocl_deb_100k   $BIN bench constrained --runs 3 --evaluations 100000
t metaopt_cpu_eps_100k    $BIN bench constrained --runs 3 --evaluations 100000 --cpu --handling epsilon --epsilon-tc 200
t scipy_100k env METAOPT_LIB=$MO/target/release/libmetaopt.so PYTHONPATH=$MO/python \
    ${PYTHON:-python3} $MO/benchmarks/drivers/constrained/scipy_cec2006.py --runs 3 --evaluations 100000
# the competition's budget, metaopt only: 24 problems, 5 runs, 500,000 evaluations
t metaopt_cpu_deb_500k    $BIN bench constrained --runs 5 --evaluations 500000 --cpu
t metaopt_cpu_eps_500k    $BIN bench constrained --runs 5 --evaluations 500000 --cpu --handling epsilon
