#!/bin/bash
# CEC 2006 on the GPU: Deb's rules with the repair at 25 runs; variants on G02, G13, G17, G23
set -u
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
cd /tmp && tar xJf "$1/bins.tar.xz"
B=/tmp/carry/metaopt
export LD_LIBRARY_PATH=/tmp/carry
O=$OUT/r; mkdir -p $O
nvidia-smi -L > $O/gpu.txt 2>&1; nproc >> $O/gpu.txt
run() { name=$1; lim=$2; shift 2
  s=$(date +%s%N)
  timeout $lim $B bench constrained --evaluations 500000 --time-limit 3 --csv $O/$name.csv "$@" > $O/$name.log 2>&1
  e=$(date +%s%N); echo "$name $(( (e - s) / 1000000 )) ms" >> $O/wall.txt
}
run deb_repair_4x40_25 240 --runs 25 --repair 0.01 --islands 4 --members 40
P=G02,G13,G17,G23
run hard_repair05_4x40 60 --problems $P --runs 10 --repair 0.05 --islands 4 --members 40
run hard_repair01_8x40 60 --problems $P --runs 10 --repair 0.01 --islands 8 --members 40
run hard_repair01_4x100 60 --problems $P --runs 10 --repair 0.01 --islands 4 --members 100
run hard_repair01_4x40_r5 60 --problems $P --runs 10 --repair 0.01 --repair-rounds 5 --islands 4 --members 40
cd $OUT && tar czf r.tgz r && rm -rf r
