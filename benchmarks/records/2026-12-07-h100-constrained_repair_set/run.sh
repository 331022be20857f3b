#!/bin/bash
# CEC 2006 at the competition's budget on the GPU: epsilon level + gradient-based repair
set -u
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
cd /tmp && tar xJf "$1/bins.tar.xz"
B=/tmp/carry/metaopt
export LD_LIBRARY_PATH=/tmp/carry
O=$OUT/r; mkdir -p $O
nvidia-smi -L > $O/gpu.txt 2>&1; nproc >> $O/gpu.txt
$B devices > $O/devices.txt 2>&1
s=$(date +%s%N)
timeout 330 $B bench constrained --runs 25 --evaluations 500000 --handling epsilon --repair 0.01 --islands 1 --members 40 --time-limit 3 --csv $O/gpu_eps_repair_1x40_25.csv > $O/gpu_eps_repair_1x40_25.log 2>&1
e=$(date +%s%N); echo "eps_repair_1x40_25 $(( (e - s) / 1000000 )) ms" >> $O/wall.txt
s=$(date +%s%N)
timeout 120 $B bench constrained --runs 5 --evaluations 500000 --handling epsilon --islands 1 --members 40 --time-limit 3 --csv $O/gpu_eps_1x40_5.csv > $O/gpu_eps_1x40_5.log 2>&1
e=$(date +%s%N); echo "eps_1x40_5 $(( (e - s) / 1000000 )) ms" >> $O/wall.txt
s=$(date +%s%N)
timeout 100 $B bench constrained --runs 5 --evaluations 500000 --handling epsilon --repair 0.01 --epsilon-tc 2500 --islands 4 --members 40 --time-limit 3 --csv $O/gpu_eps_repair_4x40_5.csv > $O/gpu_eps_repair_4x40_5.log 2>&1
e=$(date +%s%N); echo "eps_repair_4x40_5 $(( (e - s) / 1000000 )) ms" >> $O/wall.txt
cd $OUT && tar czf r.tgz r && rm -rf r
