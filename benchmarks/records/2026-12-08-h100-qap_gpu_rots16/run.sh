#!/bin/bash
# QAP at any size and the run contract on the GPU machine.
# A: bench qap-quality 3 s, 1 run, beside 16 RoTS processes: data/qaplib 20 <= n <= 100 (largest
#    first) and generated lipa a/b and tai*b n = 50..150.
# B: the 5 hard instances at 10 s (2 runs) beside 16 RoTS; bench qap-scale.
# C: late.sh (run contract); qap-quality 3 s on data/qaplib n < 20; crossover share 0 vs 0.5.
set -u
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
cd /tmp && tar xJf "$OLDPWD/.dev/c34/bins.tar.xz" && cd "$OLDPWD"
D=/tmp/carry
B=$D/metaopt
export LD_LIBRARY_PATH=$D
chmod +x $B $D/tabou_qap2
O=$OUT/r$1; mkdir -p $O
nvidia-smi -L > $O/gpu.txt 2>&1; nproc >> $O/gpu.txt
R="$D/tabou_qap2 {file} {seed} {time}"
run() { name=$1; lim=$2; shift 2
  s=$(date +%s%N)
  timeout $lim "$@" > $O/$name.log 2>&1
  rc=$?; e=$(date +%s%N); echo "$name rc=$rc $(( (e - s) / 1000000 )) ms" >> $O/wall.txt
}
G=/tmp/gen; mkdir -p $G
for n in 50 70 90 150; do
  for k in a b; do $B qap generate --kind lipa-$k --n $n --seed 1 --output $G/lipa$n$k.dat > /dev/null; done
  $B qap generate --kind taillard-b --n $n --seed 1 --output $G/taib$n.dat > /dev/null
done
case "$1" in
A)
  run quality_rots16 540 $B bench qap-quality $G/lipa*.dat $(cat .dev/c34/q_20_100_desc.txt) --time-limit 3 --runs 1 --rots "$R" --rots-seeds 16 --csv $O/quality_rots16.csv
  ;;
B)
  H="data/qaplib/tai50a.dat data/qaplib/sko100a.dat data/qaplib/tai100a.dat data/qaplib/wil100.dat data/qaplib/tho150.dat"
  run hard10 170 $B bench qap-quality $H --time-limit 10 --runs 2 --rots "$R" --rots-seeds 16 --csv $O/hard10.csv
  run scale 360 $B bench qap-scale --iterations 200 --rots "$R" --rots-cores 16 --time-limit 8 --csv $O/scale.csv --quality-csv $O/scale_quality.csv --plot $O/scale.png
  ;;
C)
  OUT=$O CARRY=$D timeout 280 bash benchmarks/drivers/run_contract/late.sh > $O/late.log 2>&1
  echo "late rc=$?" >> $O/wall.txt
  small=$(for f in $(cat .dev/c34/q_all100.txt); do grep -qx "$f" .dev/c34/q_20_100.txt || echo $f; done)
  run quality_small 130 $B bench qap-quality $small --time-limit 3 --runs 1 --csv $O/quality_small.csv
  ;;
esac
cd $OUT && tar czf r$1.tgz r$1 && rm -rf r$1
