#!/bin/bash
# Chains at equal work on the CPU backend (2 threads), beside RoTS (tabou_qap2, best of 2 seeds,
# 3 s of CPU time each). exp.py: total iterations 48,600 (100/n)^2 per solve (what two RoTS
# processes make in 3 s at this machine's rate, about 8,100 iterations per second at n = 100),
# split over the chains; the mean gap over seeds 1..3 per setting.
# Needs the generated lipa instances beside exp.py (qap generate --kind lipa-a --n 70|90|150
# --seed 1) and RoTS at /tmp/rots/tabou_qap2 (and t2: the same with an ITERS cap, for rotsit.sh).
set -u
./exp.py sko100a,tho150,tai50a,wil100 3 1 "32" "2" "4" "8" > e1.txt
./exp.py sko56,sko90,sko100b,sko100d,sko100e,tai50a,tho150,wil100,lipa70a,lipa90a,lipa150a 3 1 "2" "4" "8" > e3.txt
./rots.py sko100a,tho150,tai50a,wil100 3 > r1.txt
./rots.py sko56,sko90,sko100b,sko100d,sko100e,tai50a,tho150,wil100,lipa70a,lipa90a,lipa150a 3 > r3.txt
# one chain against one RoTS process at 24,000 iterations each, 16 seeds (sko100a)
./rotsit.sh ../../../data/qaplib/sko100a.dat 24000 152002 16 > single_rots.txt
./ours.sh ../../../data/qaplib/sko100a.dat 24000 152002 8 > single_ours_cubic.txt
./ours.sh ../../../data/qaplib/sko100a.dat 24000 152002 16 --tenure uniform > single_ours_uniform.txt
# the crossover share of the restarts at 2 chains (seeds 1..6; the same budget)
./exp.py tai40a,tai50a,tai60a,sko49,sko56,lipa70a 6 1 "2" "2 --crossover 0.5" "2 --crossover 1" > e6.txt
