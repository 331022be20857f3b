#!/bin/bash
cd .dev && tar xJf c2/bins.tar.xz && cd ..
export METAOPT_LIB=$PWD/.dev/carry/libmetaopt.so PYTHONPATH=$PWD/python
B=.dev/carry/metaopt
R=/tmp/rec; mkdir -p $R
T() { local n=$1; shift; local s=$(date +%s.%N); "$@" > $R/$n.csv 2> $R/$n.log; echo "$n $(python3 -c "print($(date +%s.%N) - $s)") s" >> $R/wall.txt; }
P=(G01,G13 G02,G14 G03,G15 G04,G16 G05,G17 G06,G18 G07,G19 G08,G20 G09,G21 G10,G22 G11,G23 G12,G24)
for p in "${P[@]}"; do
  (T scipy_100k_${p/,/_} timeout 400 python3 benchmarks/drivers/constrained/scipy_cec2006.py --problems $p --runs 3 --evaluations 100000) &
done
T gpu_eps_500k timeout 150 $B bench constrained --runs 5 --evaluations 500000 --handling epsilon --epsilon-tc 200
T gpu_lshade_500k timeout 200 $B bench constrained --runs 5 --evaluations 500000 --algorithm lshade --islands 1 --members 60
wait
cd $R && tar czf $OUT/rest.tgz *
