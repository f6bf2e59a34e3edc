#!/usr/bin/env bash
# Runs one libFuzzer target for a bounded time; fails on any finding (crash, sanitizer report,
# uncaught exception, leak, timeout, out-of-memory). Used by ctest (label `fuzz`) and by
# scripts/fuzz.sh.
#
#   fuzz/run_fuzzer.sh [--fresh] BINARY SEED_DIR WORK_DIR SECONDS [libFuzzer options...]
#
# New inputs go to WORK_DIR/corpus (emptied first with --fresh), findings to WORK_DIR/artifacts;
# SEED_DIR is only read. The dictionary fuzz/<target>.dict is used where it exists.
set -euo pipefail
fresh=0
if [[ ${1:-} == --fresh ]]; then
  fresh=1
  shift
fi
if (($# < 4)); then
  echo "usage: $0 [--fresh] BINARY SEED_DIR WORK_DIR SECONDS [libFuzzer options...]" >&2
  exit 2
fi
binary=$1 seeds=$2 work=$3 seconds=$4
shift 4
if [[ ! -x $binary ]]; then
  echo "$binary: not built (cmake --build build builds the fuzz targets)" >&2
  exit 1
fi
target=$(basename "$binary")
target=${target#fuzz_}
((fresh)) && rm -rf "$work/corpus"
mkdir -p "$work/corpus" "$work/artifacts"
options=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
         -artifact_prefix="$work/artifacts/")
dict=$(dirname "$0")/$target.dict
[[ -f $dict ]] && options+=(-dict="$dict")
# Sanitizer reports end the run; leaks are reported after the input that leaked. A quarantine of
# freed memory smaller than ASan's default 256 MB keeps the resident size of long runs flat (with
# the default it grows past 1 GB in 10 minutes of fuzz_config, and -rss_limit_mb then stops the
# run), at the price of use-after-free detection only within the last 16 MB freed.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:quarantine_size_mb=16}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
"$binary" "${options[@]}" "$@" "$work/corpus" "$seeds" || status=$?
if ((status != 0)); then
  echo "fuzz target $target: finding (exit status $status); the input is in $work/artifacts/:"
  ls -l "$work/artifacts/" || true
  echo "reproduce with: $binary $work/artifacts/<file>"
fi
exit "$status"
