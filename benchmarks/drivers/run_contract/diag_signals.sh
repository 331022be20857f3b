#!/usr/bin/env bash
# Why a CLI solve interrupted by SIGINT can end with exit 130 and no output: each run samples the
# signal masks and dispositions of the process (/proc/PID/status: SigBlk, SigIgn, SigCgt, and
# per thread) while it runs, sends SIGINT at 2 s either as coreutils' `timeout` does (to the
# process and its group) or to the process alone, and records the exit status and what was
# printed. From the repository root: M=path/to/metaopt OUT=dir bash diag_signals.sh
set -uo pipefail
M=${M:-.dev/carry/metaopt}
R=$OUT/signals
mkdir -p "$R"
CMD=${CMD:-bh --function F8 --dims 100 --chains 65536 --max-steps 100000000 --json}
sample() { # pid tag
    local f=/proc/$1/status
    [[ -r $f ]] || { echo "$2 gone"; return; }
    echo "$2 $(grep -E '^(SigBlk|SigIgn|SigCgt|Threads)' "$f" | tr -s '\t ' ' ' | tr '\n' ' ')"
    local blk
    blk=$(grep -h '^SigBlk' /proc/$1/task/*/status 2>/dev/null | sort | uniq -c | tr -s ' ' | tr '\n' ';')
    echo "$2 threads' SigBlk: $blk"
}
for run in $(seq 1 ${RUNS:-4}); do
    for how in timeout direct; do
        tag=$how.$run
        t0=$(date +%s.%N)
        if [[ $how == timeout ]]; then
            timeout --preserve-status -k 5 -s INT 2 $M $CMD > "$R/$tag.out" 2> "$R/$tag.err" &
            tp=$!
            sleep 0.2
            pid=$(pgrep -P $tp | head -1)
        else
            $M $CMD > "$R/$tag.out" 2> "$R/$tag.err" &
            tp=$!
            pid=$tp
        fi
        { for s in 0.5 0.5 0.5 0.3; do sleep $s; sample "$pid" "$tag"; done; } > "$R/$tag.samples" 2>&1 &
        sp=$!
        if [[ $how == direct ]]; then
            sleep 2
            kill -INT "$pid"
        fi
        wait $tp
        rc=$?
        t1=$(date +%s.%N)
        wait $sp 2>/dev/null
        printf '%s rc=%s wall=%.3f out=%sB err=%sB\n' "$tag" "$rc" "$(echo "$t1 - $t0" | bc)" \
            "$(stat -c %s "$R/$tag.out")" "$(stat -c %s "$R/$tag.err")" | tee -a "$R/summary.txt"
        cat "$R/$tag.samples" >> "$R/summary.txt"
        head -c 300 "$R/$tag.err" | sed 's/^/  err: /' >> "$R/summary.txt"
        echo >> "$R/summary.txt"
    done
done
