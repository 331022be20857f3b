#!/bin/bash
# The CPU backend on 2 cores beside Taillard's RoTS, best of 2 seeds (2 processes), 3 s, every
# data/qaplib instance with n >= 20. RoTS: tabou_qap2.c built in a scratch folder (see README).
set -u
M=target/release/metaopt
R=${ROTS:-/tmp/rots/tabou_qap2}
F=$(python3 -c "import glob; print(' '.join(f for f in sorted(glob.glob('data/qaplib/*.dat')) if int(open(f).read().split()[0]) >= 20))")
$M bench qap-quality $F --cpu --time-limit 3 --runs 1 --rots "$R {file} {seed} {time}" --rots-seeds 2 --csv quality_cpu2_rots2.csv 2> quality_cpu2_rots2.log
$M bench qap-quality $F --cpu --time-limit 3 --runs 1 --chains 2 --rots "$R {file} {seed} {time}" --rots-seeds 2 --csv quality_cpu2c2_rots2.csv 2> quality_cpu2c2_rots2.log
# generated lipa instances (optimum known by construction, read from the .sln beside each)
mkdir -p gl
for k in a b; do for n in 50 70 90 150; do $M qap generate --kind lipa-$k --n $n --seed 1 --output gl/lipa$n$k.dat; done; done
$M bench qap-quality gl/lipa{50,70,90,150}{a,b}.dat --cpu --time-limit 3 --runs 1 --rots "$R {file} {seed} {time}" --rots-seeds 2 --csv lipa_cpu2_rots2.csv 2> lipa_cpu2_rots2.log
