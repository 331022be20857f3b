#!/bin/bash
# CEC 2006 at the competition's budget on the GPU: F 0.7 for one population; Deb's rules with the repair
set -u
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
cd /tmp && tar xJf "$1/bins.tar.xz"
B=/tmp/carry/metaopt
export LD_LIBRARY_PATH=/tmp/carry
O=$OUT/r; mkdir -p $O
nvidia-smi -L > $O/gpu.txt 2>&1; nproc >> $O/gpu.txt
run() { name=$1; lim=$2; shift 2
  s=$(date +%s%N)
  timeout $lim $B bench constrained --runs 5 --evaluations 500000 --time-limit 3 --csv $O/$name.csv "$@" > $O/$name.log 2>&1
  e=$(date +%s%N); echo "$name $(( (e - s) / 1000000 )) ms" >> $O/wall.txt
}
run eps_repair_1x40_F07 200 --handling epsilon --repair 0.01 --islands 1 --members 40 --F-min 0.7 --F-max 0.7
run deb_repair_4x40 120 --repair 0.01 --islands 4 --members 40
run deb_repair_1x40_F07 200 --repair 0.01 --islands 1 --members 40 --F-min 0.7 --F-max 0.7
cd $OUT && tar czf r.tgz r && rm -rf r
