#!/bin/bash
# Before (OLD: main before the change, built in a worktree) and after (NEW): iterations in a 3 s
# limit on PoCL (default chains, seeds 1, 2), and how late a solve without a time limit ends after
# SIGINT at 2 s (tai100a, three times each). Kernels cached by an earlier run of each binary.
OLD=${OLD:-/tmp/oldwt/target/release/metaopt}; NEW=${NEW:-target/release/metaopt}
for f in tai50a sko100a tho150; do for s in 1 2; do for b in $OLD $NEW; do
  $b qap solve data/qaplib/$f.dat --time-limit 3 --seed $s --json 2>/dev/null | python3 -c "import json,sys; m=json.load(sys.stdin); print('$b', '$f', $s, m['chains'], m['iterations'], m['launches'], m['gap_percent'])"
done; done; done
for b in $OLD $NEW; do for i in 1 2 3; do
  s=$(date +%s.%N); timeout --preserve-status -s INT 2 $b qap solve data/qaplib/tai100a.dat --max-iterations 100000000 --json > /tmp/q.json 2>/dev/null; rc=$?; e=$(date +%s.%N)
  python3 -c "import json;m=json.load(open('/tmp/q.json'));print('$b', 'sigint late', round($e-$s-2,3), $rc, m['stopped_by'], m['launches'])"
done; done
