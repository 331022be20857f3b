#!/bin/bash
# constrained island DE on the GPU beside scipy (16 host cores) and the CPU backend
cd .dev && tar xJf c2/bins.tar.xz && cd ..
export METAOPT_LIB=$PWD/.dev/carry/libmetaopt.so
export PYTHONPATH=$PWD/python
B=.dev/carry/metaopt
nvidia-smi -L > $OUT/gpu.txt 2>&1; nproc >> $OUT/gpu.txt; python3 -c "import scipy, numpy; print('scipy', scipy.__version__, 'numpy', numpy.__version__)" >> $OUT/gpu.txt 2>&1
$B devices > $OUT/devices.txt 2>&1
T() { local n=$1; shift; local s=$(date +%s.%N); "$@" > $OUT/$n.csv 2> $OUT/$n.log; echo "$n $(python3 -c "print($(date +%s.%N) - $s)") s" >> $OUT/wall.txt; }
# scipy: the 24 problems in 12 processes of two, 3 runs of 100,000 evaluations each
P=(G01,G13 G02,G14 G03,G15 G04,G16 G05,G17 G06,G18 G07,G19 G08,G20 G09,G21 G10,G22 G11,G23 G12,G24)
HAVE_SCIPY=$(python3 -c "import scipy; print(1)" 2>/dev/null || echo 0)
echo "have scipy: $HAVE_SCIPY" >> $OUT/gpu.txt
[ "$HAVE_SCIPY" = 1 ] && for p in "${P[@]}"; do
  (T scipy_100k_${p/,/_} timeout 400 python3 benchmarks/drivers/constrained/scipy_cec2006.py --problems $p --runs 3 --evaluations 100000) &
done
# the GPU meanwhile (one host core): the same set, then the competition's budget
T gpu_deb_100k timeout 200 $B bench constrained --runs 3 --evaluations 100000
T gpu_deb_500k timeout 200 $B bench constrained --runs 5 --evaluations 500000
wait
# the CPU backend on all cores, after scipy
T cpu_deb_100k timeout 120 $B bench constrained --runs 3 --evaluations 100000 --cpu
T gpu_eps_500k timeout 150 $B bench constrained --runs 5 --evaluations 500000 --handling epsilon --epsilon-tc 200
T gpu_lshade_500k timeout 150 $B bench constrained --runs 5 --evaluations 500000 --algorithm lshade --islands 1 --members 60
echo done >> $OUT/wall.txt
