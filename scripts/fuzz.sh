#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ and runs each from its committed corpus, without
# cargo-fuzz: a nightly `cargo build` with the instrumentation flags cargo-fuzz passes (no
# sanitizer, debug assertions on), then the target binaries themselves. See fuzz/README.md.
#
# Environment (all optional):
#   FUZZ_TARGETS         targets to build and run, separated by spaces (default: every
#                        fuzz/fuzz_targets/*.rs)
#   FUZZ_RUNS            executions per target (libFuzzer -runs)
#   FUZZ_SECONDS         seconds per target (libFuzzer -max_total_time); with FUZZ_RUNS, the
#                        first limit reached ends the target; with neither, 60 seconds
#   FUZZ_TOOLCHAIN       rustup toolchain (default nightly; installed when missing)
#   FUZZ_TRACE_COMPARES  1 (default) instruments comparisons; 0 leaves them out (a separate
#                        build under fuzz/target/no-trace-compares)
#   FUZZ_RUN_FLAGS       extra libFuzzer options, e.g. "-max_len=2048"
#   FUZZ_REPORT          the CSV written per target (default fuzz/report.csv)
#   FUZZ_JOBS            cargo's -j for the build
#   FUZZ_BUILD_ONLY      1 builds and runs nothing
#   RUSTFLAGS            appended to the instrumentation flags
#
# The report has one row per target: target, result (ok, or crash / timeout / oom / leak /
# error), executions (libFuzzer's stat::number_of_executed_units), seconds (wall clock),
# executions_per_second, artifact (the failing input, a path relative to fuzz/). Every target
# runs even after a failure; the exit status is 1 when any target failed.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
fuzz_dir=$root/fuzz
manifest=$fuzz_dir/Cargo.toml
toolchain=${FUZZ_TOOLCHAIN:-nightly}
runs=${FUZZ_RUNS:-}
seconds=${FUZZ_SECONDS:-}
trace_compares=${FUZZ_TRACE_COMPARES:-1}
report=${FUZZ_REPORT:-$fuzz_dir/report.csv}
build_only=${FUZZ_BUILD_ONLY:-0}

die() {
    echo "fuzz.sh: $*" >&2
    exit 2
}

is_count() {
    [[ $1 =~ ^[0-9]+$ ]] && ((10#$1 > 0))
}

if [[ -n $runs ]] && ! is_count "$runs"; then
    die "FUZZ_RUNS must be a positive integer, got '$runs'"
fi
if [[ -n $seconds ]] && ! is_count "$seconds"; then
    die "FUZZ_SECONDS must be a positive integer, got '$seconds'"
fi
if [[ -z $runs && -z $seconds ]]; then
    seconds=60
fi
case $trace_compares in
    0 | 1) ;;
    *) die "FUZZ_TRACE_COMPARES must be 0 or 1, got '$trace_compares'" ;;
esac
case $build_only in
    0 | 1) ;;
    *) die "FUZZ_BUILD_ONLY must be 0 or 1, got '$build_only'" ;;
esac
if [[ -n ${FUZZ_JOBS:-} ]] && ! is_count "$FUZZ_JOBS"; then
    die "FUZZ_JOBS must be a positive integer, got '$FUZZ_JOBS'"
fi

# the targets: every fuzz_targets/*.rs unless FUZZ_TARGETS names some
all_targets=()
for f in "$fuzz_dir"/fuzz_targets/*.rs; do
    all_targets+=("$(basename "$f" .rs)")
done
read -r -a targets <<<"${FUZZ_TARGETS:-${all_targets[*]}}"
((${#targets[@]} > 0)) || die "FUZZ_TARGETS names no target"
for t in "${targets[@]}"; do
    [[ -f $fuzz_dir/fuzz_targets/$t.rs ]] ||
        die "FUZZ_TARGETS: no target '$t' (fuzz/fuzz_targets/$t.rs); targets: ${all_targets[*]}"
done

if ! rustup run "$toolchain" rustc --version >/dev/null 2>&1; then
    rustup toolchain install "$toolchain" --profile minimal
fi
rustc_version=$(rustup run "$toolchain" rustc --version)
triple=$(rustup run "$toolchain" rustc -vV | sed -n 's/^host: //p')
[[ -n $triple ]] || die "cannot read the host triple of toolchain '$toolchain'"

# the flags cargo-fuzz passes to a release build with --sanitizer none --debug-assertions
# (its project.rs), so that a run here behaves as `cargo fuzz run` does
flags="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4"
flags+=" -Cllvm-args=-sanitizer-coverage-inline-8bit-counters"
flags+=" -Cllvm-args=-sanitizer-coverage-pc-table"
if [[ $trace_compares == 1 ]]; then
    flags+=" -Cllvm-args=-sanitizer-coverage-trace-compares"
fi
flags+=" -Cllvm-args=-simplifycfg-branch-fold-threshold=0 --cfg fuzzing -Clink-dead-code"
if [[ $triple == *-linux-* ]]; then
    flags+=" -Cllvm-args=-sanitizer-coverage-stack-depth"
fi
flags+=" -Cdebug-assertions -Ccodegen-units=1"
if [[ -n ${RUSTFLAGS:-} ]]; then
    flags+=" $RUSTFLAGS"
fi

# a build without trace-compares lives apart, so that switching does not rebuild the other
target_dir=${CARGO_TARGET_DIR:-$fuzz_dir/target}
if [[ $trace_compares == 0 ]]; then
    target_dir=$target_dir/no-trace-compares
fi

cargo_args=(build --manifest-path "$manifest" --target "$triple" --target-dir "$target_dir"
    --release --config profile.release.debug=true)
if [[ -n ${FUZZ_JOBS:-} ]]; then
    cargo_args+=(-j "$FUZZ_JOBS")
fi
for t in "${targets[@]}"; do
    cargo_args+=(--bin "$t")
done

# offline when the local registry cache holds every dependency; otherwise fetch them first
if ! cargo "+$toolchain" metadata --offline --format-version 1 --manifest-path "$manifest" \
    >/dev/null 2>&1; then
    echo "fuzz.sh: the dependencies are not all cached; fetching them" >&2
    cargo "+$toolchain" fetch --manifest-path "$manifest"
fi
echo "fuzz.sh: building ${#targets[@]} target(s) with $rustc_version for $triple" >&2
CARGO_FUZZ=1 CARGO_FUZZ_MANIFEST=$manifest RUSTFLAGS=$flags \
    cargo "+$toolchain" "${cargo_args[@]}" --offline

if [[ $build_only == 1 ]]; then
    exit 0
fi

limits=(-print_final_stats=1)
if [[ -n $runs ]]; then
    limits+=("-runs=$runs")
fi
if [[ -n $seconds ]]; then
    limits+=("-max_total_time=$seconds")
fi
read -r -a extra <<<"${FUZZ_RUN_FLAGS:-}"

bin_dir=$target_dir/$triple/release
log_dir=$target_dir/fuzz-logs
mkdir -p "$log_dir" "$(dirname "$report")"
echo "target,result,executions,seconds,executions_per_second,artifact" >"$report"

failed=0
cd "$fuzz_dir"
for t in "${targets[@]}"; do
    mkdir -p "corpus-work/$t" "artifacts/$t"
    log=$log_dir/$t.log
    echo "fuzz.sh: running $t (${limits[*]:1} ${extra[*]})" >&2
    start=$(date +%s.%N)
    set +e
    # new inputs go to corpus-work/<t>; the committed corpus/<t> is only read
    "$bin_dir/$t" "-artifact_prefix=artifacts/$t/" "${limits[@]}" "${extra[@]}" \
        "corpus-work/$t" "corpus/$t" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    set -e
    end=$(date +%s.%N)
    elapsed=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
    execs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
    execs=${execs:-0}
    rate=$(awk -v n="$execs" -v s="$elapsed" 'BEGIN { printf "%.0f", (s > 0 ? n / s : 0) }')
    result=ok
    artifact=
    if ((rc != 0)); then
        failed=1
        artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
        case $(basename "${artifact:-none}") in
            crash-*) result=crash ;;
            timeout-*) result=timeout ;;
            oom-*) result=oom ;;
            leak-*) result=leak ;;
            *) result=error ;;
        esac
        echo "fuzz.sh: $t failed ($result, exit status $rc${artifact:+, input $artifact}); log $log" >&2
    fi
    echo "$t,$result,$execs,$elapsed,$rate,$artifact" >>"$report"
done

echo "fuzz.sh: report in $report" >&2
column -s, -t "$report" >&2 2>/dev/null || cat "$report" >&2
exit "$failed"
