#!/usr/bin/env bash
# Benchmarks a baseline commit beside the working tree on the same GPU, for before/after tables:
# builds the `novamd` target of the tree in baseline.tar (git archive --prefix=baseline/ COMMIT)
# and runs the same bench cases as test.sh bench; the table goes to $OUT/baseline.txt.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/novamd-device}
mkdir -p "$OUT"
work=/tmp/novamd-baseline
rm -rf "$work" && mkdir -p "$work" && tar -xf baseline.tar -C "$work"
src="$work/baseline"
cp -r .r123 "$src/.r123"  # Random123's headers, as for the working tree
cmake -S "$src" -B "$src/build" -DNOVAMD_ENABLE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DNOVAMD_ENABLE_MPI=OFF -DNOVAMD_BUILD_TESTS=OFF > "$OUT/baseline_build.log" 2>&1
cmake --build "$src/build" -j "$(nproc)" --target novamd >> "$OUT/baseline_build.log" 2>&1
bin="$src/build/novamd"
{
  $bin --version
  for precision in double mixed; do $bin bench --backend cuda --precision $precision; done
  for precision in double mixed single; do $bin bench --case lj --backend cuda --precision $precision; done
} > "$OUT/baseline.txt" 2>&1
