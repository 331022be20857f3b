#!/bin/sh
# Ctrl-C during an m-function objective: starts Octave on an HC12 run of a slow m-function
# objective (slow_objective.m), sends it SIGINT while the objective runs, and checks that the
# run stops with the error metaopt:interrupted (no "Rust cannot catch foreign exceptions" abort),
# and that the instance is usable after it. test_metaopt.m runs it; it can run alone too:
#   sh matlab/tests/test_interrupt.sh [octave-cli]
# Exit status 0 when it passes; the Octave output is printed when it fails.
octave=${1:-octave-cli}
tests=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
timeout -s KILL 120 "$octave" --quiet --no-history --norc --eval "
  addpath('$tests/..'); addpath('$tests');
  g = metaopt_mex('params', 3, 8, [-1 1]);
  try
    metaopt_mex('run', g, 'GC', 100000, [], 'slow_objective', 'min');
    disp('RESULT not interrupted');
  catch err
    printf('RESULT %s: %s\n', err.identifier, err.message);
  end
  [v, x, r] = metaopt_mex('run', g, 'GC', 1, [], @(X) sum(X .^ 2, 2), 'min');
  metaopt_mex('free', g);
  printf('RESULT usable %d\n', v < 1e-3);
" >"$out" 2>&1 &
pid=$!
# Ctrl-C once the objective runs (it announces itself), a little into it
i=0
while ! grep -q 'objective running' "$out" && [ $i -lt 600 ] && kill -0 $pid 2>/dev/null; do
  sleep 0.1
  i=$((i + 1))
done
sleep 1
kill -INT $pid
wait $pid
rc=$?
if [ $rc -eq 0 ] && grep -q 'RESULT metaopt:interrupted: .*interrupted by the user' "$out" \
   && grep -q 'RESULT usable 1' "$out" && ! grep -q 'fatal runtime error' "$out"; then
  echo "test_interrupt: passed (Ctrl-C in an m-function objective is metaopt:interrupted)"
  exit 0
fi
echo "test_interrupt: FAILED (exit status $rc); Octave's output:"
cat "$out"
exit 1
