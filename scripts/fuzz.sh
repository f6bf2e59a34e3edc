#!/usr/bin/env bash
# Fuzzing campaigns: runs the libFuzzer targets of fuzz/ one after the other, for longer than the
# few seconds each gets under ctest (docs/validation.md, "Fuzzing").
#
#   scripts/fuzz.sh [TARGET|all] [SECONDS] [libFuzzer options...]
#
# TARGET is config, xyz, checkpoint, checkpoint_content, lammps_data or amber (default: all); SECONDS per target
# (default 600). Extra options go to libFuzzer, e.g. -jobs=4 -workers=4 to use 4 cores. The corpus
# grows in build/fuzz_campaign/TARGET/corpus from one campaign to the next; findings are written
# to build/fuzz_campaign/TARGET/artifacts/ and the script exits non-zero. Needs a build configured
# with the fuzz targets: scripts/setup.sh does so where clang and libclang-rt-dev are installed.
set -euo pipefail
cd "$(dirname "$0")/.."

all=(config xyz checkpoint checkpoint_content lammps_data amber)
which=${1:-all}
seconds=${2:-600}
shift $(($# < 2 ? $# : 2))
if [[ $which == all ]]; then
  targets=("${all[@]}")
elif [[ " ${all[*]} " == *" $which "* ]]; then
  targets=("$which")
else
  echo "usage: $0 [$(IFS='|'; echo "${all[*]}")|all] [SECONDS] [libFuzzer options...]" >&2
  exit 2
fi
if ! [[ $seconds =~ ^[0-9]+$ ]]; then
  echo "$0: SECONDS must be a whole number, got '$seconds'" >&2
  exit 2
fi
if ! cmake --build build --target novamd_fuzz -j "$(nproc 2>/dev/null || echo 2)"; then
  echo "$0: cannot build the fuzz targets in build/: run scripts/setup.sh with clang and" \
       "libclang-rt-dev installed (NOVAMD_ENABLE_FUZZING not OFF)" >&2
  exit 2
fi

failed=()
for target in "${targets[@]}"; do
  echo "=== fuzz_$target for $seconds s"
  fuzz/run_fuzzer.sh "build/fuzz/fuzz_$target" "fuzz/corpus/$target" \
    "build/fuzz_campaign/$target" "$seconds" "$@" || failed+=("$target")
done
if ((${#failed[@]})); then
  echo "findings in: ${failed[*]} (build/fuzz_campaign/<target>/artifacts/)"
  exit 1
fi
