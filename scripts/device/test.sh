#!/usr/bin/env bash
# Builds NovaMD with the CUDA backend on the GPU machine, runs the test suite (CUDA-labelled
# tests included) and the benchmark tables in double and mixed, and writes logs under $OUT.
# Random123's headers travel in .r123/ (the unpacked Debian package librandom123-dev).
#
#   scripts/device/test.sh [all|tests|bench|profile]   (default: all, which includes profile)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/novamd-device}
mkdir -p "$OUT"
what=${1:-all}
build=build-device

# Files back (at most 8): summary.txt (GPU, version, bench tables), build.log, tests.log,
# cuda_errors.txt, resources.txt, sass.txt, ncu_double.txt, ncu_mixed.txt.
summary="$OUT/summary.txt"
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,driver_version --format=csv > "$summary" 2>&1
cmake -S . -B $build -DNOVAMD_ENABLE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DNOVAMD_ENABLE_MPI=OFF > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
if ! cmake --build $build -j "$(nproc)" >> "$OUT/build.log" 2>&1; then
  grep -E "error|Error" "$OUT/build.log" | head -40
  exit 1
fi
$build/novamd --version | tee -a "$summary"

# Registers, shared memory and spills of every kernel; SASS of the pair kernels.
cuobjdump -res-usage $build/novamd 2>&1 | grep -A1 -E "Function .*(all_pairs|kick|drift)" \
  | cu++filt > "$OUT/resources.txt"
cuobjdump -sass $build/novamd | cu++filt |
  awk '/Function :/ {keep = /all_pairs/} keep' > "$OUT/sass.txt" 2>&1

status=0
if [[ $what == all || $what == tests ]]; then
  ctest --test-dir $build --output-on-failure -j 4 > "$OUT/tests.log" 2>&1 || status=1
  grep -E "^(LJ )?N = |worst ulps" -r $build/Testing/Temporary/LastTest.log > "$OUT/cuda_errors.txt" 2>/dev/null
  grep -E "tests passed|tests failed|\(Failed\)|Skipped" "$OUT/tests.log" | tail -20
fi
if [[ $what == all || $what == bench ]]; then
  for precision in double mixed; do
    $build/novamd bench --backend cuda --precision $precision | tee -a "$summary"
  done
fi
if [[ $what == all || $what == profile ]]; then
  # Nsight Compute on the force kernels at 27,648 ions: throughput, pipes, occupancy, stalls.
  for precision in double mixed; do
    ncu --kernel-name regex:all_pairs --launch-skip 8 --launch-count 2 \
      --section SpeedOfLight --section ComputeWorkloadAnalysis --section Occupancy \
      --section LaunchStats --section WarpStateStats --section InstructionStats \
      $build/novamd bench --backend cuda --precision $precision --sizes 27648 --steps 2 \
      --warmup 0 > "$OUT/ncu_$precision.txt" 2>&1
    grep -E "all_pairs|Duration|Compute \(SM\) Throughput|Issue Slots Busy|Achieved Occupancy|Theoretical Occupancy|Registers Per|Executed Ipc Active|No Eligible" \
      "$OUT/ncu_$precision.txt" | sed 's/  */ /g' | cut -c1-150
  done
fi
exit $status
