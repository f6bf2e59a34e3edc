#!/usr/bin/env bash
# The multi-GPU modes of scripts/device/test.sh (see there): builds with CUDA, MPI and NCCL in
# build-device-mpi, then
#   multi_gpu.sh multigpu   decomposed CUDA runs against one GPU (tests/mpi/decomposition.py)
#   multi_gpu.sh scaling    strong scaling table (ms/step, speed-up, efficiency)
#   multi_gpu.sh spatial    the CUDA backend's spatial bricks against one GPU (any GPU count);
#                           PREBUILT=1: the CUDA tests from build-ci (scripts/device/pack.sh,
#                           carry build-ci), only the program built here; CASES: the compare
#                           cases (default: all below); CHECKS=compare: those alone (no restart,
#                           long run, SIGTERM or timing); CUDA_TESTS=0: no CUDA tests;
#                           CUDA_FILTER: a gtest filter for them; TIMINGS=molecular: the
#                           peptide's timing alone
#   multi_gpu.sh spatial-quick  the program alone, LJ on two grids, a restart, the 32,000-atom
#                           timing (a round for a short budget)
# Every step must succeed: the script stops at the first failure, non-zero. Logs in $OUT.
# NVLink multicast (NVLS) is left as the machine sets it (NCCL_NVLS_ENABLE=0 there).
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/novamd-device}
mkdir -p "$OUT"
what=$1
build=build-device-mpi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
gpus=$(nvidia-smi -L | wc -l)
log="$OUT/$what.log"
nvidia-smi --query-gpu=index,name,memory.total --format=csv | tee "$log"
nvidia-smi topo -m >> "$log" 2>&1 || true
echo "NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-unset}" | tee -a "$log"

cmake -S . -B $build -DNOVAMD_ENABLE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DNOVAMD_ENABLE_MPI=ON > "$OUT/build-mpi.log" 2>&1 || { tail -30 "$OUT/build-mpi.log"; exit 1; }
if ! grep -q "NCCL ON" "$OUT/build-mpi.log"; then
  echo "multi_gpu.sh: the build found no NCCL (see build-mpi.log)" | tee -a "$log"
  exit 1
fi
targets=(novamd novamd_cuda_tests)
cuda_tests=$build/tests/novamd_cuda_tests
[[ $what == spatial-quick || ${CUDA_TESTS:-1} == 0 ]] && targets=(novamd)
if [[ ${PREBUILT:-0} == 1 ]]; then
  # The CUDA tests built on the development machine at /tmp/ci (scripts/device/pack.sh; its
  # binaries carry that path), FFTW and yaml-cpp from the carried libraries.
  ln -sfn "$PWD" /tmp/ci
  mkdir -p build && tar -xJf build-ci/bins.tar.xz -C build tests/novamd_cuda_tests
  export LD_LIBRARY_PATH="$PWD/build-ci/lib:$PWD/.fftw/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  cuda_tests=build/tests/novamd_cuda_tests
  targets=(novamd)
fi
started=$SECONDS
if ! cmake --build $build -j "$(nproc)" --target "${targets[@]}" >> "$OUT/build-mpi.log" 2>&1; then
  grep -E "error|Error" "$OUT/build-mpi.log" | head -40
  exit 1
fi
echo "built ${targets[*]} in $((SECONDS - started)) s" | tee -a "$log"
$build/novamd --version | tee -a "$log"
mpirun=(mpirun --allow-run-as-root)

# `time_ranks NAME ATOMS LABEL ARGS...`: `novamd ARGS` on 1 rank, then on 2 ([2,1,1]) and 4
# ([2,2,1]) ranks sharing the GPUs there are, in $OUT/spatial-runs/NAME-K; a row of steps/s each
# appended to spatial.txt (LABEL after it).
time_ranks() {
  local name=$1 atoms=$2 label=$3
  shift 3
  for k in 1 2 4; do
    dir="$OUT/spatial-runs/$name-$k"
    mkdir -p "$dir"
    grid=none
    if ((k == 1)); then
      (cd "$dir" && "$OLDPWD/$build/novamd" "$@" > console.log 2>&1)
    else
      grid="[$k,1,1]"
      ((k == 4)) && grid="[2,2,1]"
      (cd "$dir" && "${mpirun[@]}" -np $k --oversubscribe "$OLDPWD/$build/novamd" "$@" \
        --set "parallel.grid=$grid" > console.log 2>&1)
    fi
    rate=$(grep "^Done:" "$dir/console.log" | grep -oE "[0-9.e+]+ steps/s" | cut -d' ' -f1)
    [[ -n $rate ]] || { echo "no timing in $dir/console.log"; tail -20 "$dir/console.log"; exit 1; }
    printf "%8s %5s %-9s %10s  %s\n" "$atoms" "$k" "$grid" "$rate" "$label" | tee -a "$OUT/spatial.txt"
  done
}

# What the bricks cost on one GPU: the LJ melt (mixed) at 4 cells^3 atoms for each of `cells`,
# one rank against 2 and 4 ranks sharing the GPUs there are (no GPU of its own for each rank:
# an overhead measurement); the table in spatial.txt.
brick_timings() {
  printf "%8s %5s %-9s %10s\n" atoms ranks bricks steps/s | tee "$OUT/spatial.txt"
  for cells in "$@"; do
    time_ranks "$((4 * cells * cells * cells))" "$((4 * cells * cells * cells))" "LJ melt" \
      run "$PWD/examples/lj_liquid.yaml" --backend cuda --precision mixed --steps 2000 \
      --set "system.structure.generate.cells=$cells" --set "output.thermo.every=2000"
  done
  cat "$OUT/spatial.txt" >> "$log"
}

# The same for the solvated peptide replicated 2 x 2 x 2 (16,032 atoms; PME at 5e-4, hydrogen
# bonds and waters held, Langevin at 2 fs, mixed): bonded terms, the mesh's sum over the ranks
# and the constraints' groups on the bricks; the rows added to spatial.txt.
molecular_brick_timings() {
  local data="$OUT/peptide-2x2x2.data"
  python3 benchmarks/spatial/replicate_data.py examples/peptide/data.peptide "$data" \
    --copies 2 2 2 >> "$log"
  time_ranks peptide8 16032 "peptide x 8, PME, constraints" \
    run "$PWD/examples/peptide/peptide_pme.yaml" --backend cuda --precision mixed --steps 1000 \
    --set "system.topology.read=$data" --set "constraints={}" \
    --set "forces.1.coulomb.tolerance=5e-4" --set "output.trajectory=[]" \
    --set "integrator={type: langevin, timestep: 2.0, temperature: 300.0, friction: 1.0}" \
    --set "output.thermo.every=1000"
  cat "$OUT/spatial.txt" >> "$log"
}

if [[ $what == spatial-quick ]]; then
  check=(/usr/bin/python3 tests/mpi/decomposition.py --novamd $build/novamd --mpirun mpirun
         --backend cuda --precision double --work "$OUT/runs")
  "${check[@]:0:2}" compare --case lj --grids 2x1x1,2x2x1 "${check[@]:2}" 2>&1 | tee -a "$log"
  "${check[@]:0:2}" restart --case lj --grid 2x2x1 "${check[@]:2}" 2>&1 | tee -a "$log"
  brick_timings 20
fi

if [[ $what == multigpu ]]; then
  $build/tests/novamd_cuda_tests --gtest_filter='CudaForceMatrix.*' 2>&1 | tee -a "$log"
  if ((gpus < 2)); then
    echo "multi_gpu.sh: $gpus GPU(s): multigpu needs 2 or 4" | tee -a "$log"
    exit 1
  fi
  grids=1x2,2x1
  ((gpus >= 4)) && grids=1x2,2x1,2x2,4x1,1x4
  check=(/usr/bin/python3 tests/mpi/decomposition.py --novamd $build/novamd --mpirun mpirun
         --backend cuda --precision double --work "$OUT/runs")
  for case in yukawa lj yukawa-large; do
    "${check[@]:0:2}" compare --case $case --grids $grids "${check[@]:2}" 2>&1 | tee -a "$log"
  done
  "${check[@]:0:2}" restart --grid "${grids##*,}" "${check[@]:2}" 2>&1 | tee -a "$log"
  "${check[@]:0:2}" sigterm --grid 1x2 "${check[@]:2}" 2>&1 | tee -a "$log"
  echo "multigpu: all checks passed on $gpus GPUs" | tee -a "$log"
fi

if [[ $what == spatial ]]; then
  # The spatial bricks on the CUDA backend against one GPU: ranks share the GPUs there are (one
  # GPU: every rank on it), the halo through host memory (parallel/cuda_spatial_domain.cuh).
  # Every check runs; the script fails at the end if any did.
  failed=0
  checked() {
    if ! "$@" 2>&1 | tee -a "$log"; then
      echo "spatial: FAILED: $*" | tee -a "$log"
      failed=$((failed + 1))
    fi
  }
  if [[ ${CUDA_TESTS:-1} == 1 ]]; then
    checked "$cuda_tests" --gtest_brief=1 --gtest_filter="${CUDA_FILTER:-*}"
  fi
  check=(/usr/bin/python3 tests/mpi/decomposition.py --novamd $build/novamd --mpirun mpirun
         --backend cuda --precision double --work "$OUT/runs")
  # (yukawa-cut's, pasta's and the peptide's boxes hold fewer than three cells of their reach:
  # refused on the GPU's bricks; pasta-large holds four, the peptide replicated 2 x 2 x 2
  # (peptide8) four.) The solvated peptide: bonded terms across bricks,
  # the PME mesh summed over the ranks, SHAKE/SETTLE clusters and CCMA sets kept whole, and
  # held under the barostats that move molecules by their centres; Monte Carlo moves undone.
  cases=${CASES:-"peptide8-pme peptide8-shake peptide8-ccma peptide8-c-rescale peptide8-monte-carlo lj pasta-large lj-langevin lj-c-rescale lj-mttk lj-monte-carlo"}
  for case in $cases; do
    grids=2x1x1,1x2x1,2x2x1
    [[ $case == peptide* ]] && grids=2x1x1,1x1x3,2x2x1  # 1x1x3: bricks 18 A, the halo 12 A
    checked "${check[@]:0:2}" compare --case $case --grids $grids "${check[@]:2}"
  done
  if [[ ${CHECKS:-all} == all ]]; then
    checked "${check[@]:0:2}" restart --case lj --grid 2x2x1 "${check[@]:2}"
    checked "${check[@]:0:2}" restart --case peptide8-shake --grid 1x2x1 "${check[@]:2}"
    checked "${check[@]:0:2}" long --case lj --grid 2x1x1 "${check[@]:2}"
    checked "${check[@]:0:2}" sigterm --case lj --grid 1x1x2 "${check[@]:2}"
  fi
  if ((failed > 0)); then
    echo "spatial: $failed check(s) failed" | tee -a "$log"
    exit 1
  fi
  echo "spatial: all checks passed on $gpus GPU(s)" | tee -a "$log"
  if [[ ${CHECKS:-all} == all ]]; then
    [[ ${TIMINGS:-all} == all ]] && brick_timings 20 40
    molecular_brick_timings
  elif [[ ${TIMINGS:-none} == molecular ]]; then
    molecular_brick_timings
  fi
fi

if [[ $what == scaling ]]; then
  # One config per size: the seed-000 C/O mixture at 5e-8 fm^-3 (examples/white_dwarf_co.yaml),
  # Yukawa all pairs, random positions; energies only at the end, no trajectory.
  scaling="$OUT/scaling.txt"
  work="$OUT/scaling-runs"
  mkdir -p "$work"
  counts=(1)
  ((gpus >= 2)) && counts+=(2)
  ((gpus >= 4)) && counts+=(4)
  printf "%9s %-7s %5s %12s %9s %11s\n" ions precision GPUs ms/step speed-up efficiency | tee "$scaling"
  for ions in 27648 221184; do
    steps=500  # ms/step is the mean over the loop (the step-0 evaluation is not timed)
    ((ions > 100000)) && steps=50
    for precision in double mixed; do
      t1=
      for k in "${counts[@]}"; do
        dir="$work/$ions-$precision-$k"
        mkdir -p "$dir"
        half=$((ions / 2))
        cat > "$dir/config.yaml" <<YAML
units: nuclear
backend: cuda
precision: $precision
seed: 2026
system:
  density: 5.0e-8
  species:
    - {name: C, charge: 6, mass: 11177.929}
    - {name: O, charge: 8, mass: 14899.169}
  structure:
    generate: {lattice: random, counts: {C: $half, O: $((ions - half))}, min_separation: 50.0}
  velocities: {temperature: 0.001}
forces:
  - yukawa: {screening_length: 475.0, cutoff: none}
integrator: {type: velocity_verlet, timestep: 200.0}
run: {steps: $steps}
output:
  thermo: {every: $steps, file: thermo.csv}
YAML
        if ((k == 1)); then
          (cd "$dir" && "$OLDPWD/$build/novamd" run config.yaml > console.log 2>&1)
        else
          (cd "$dir" && "${mpirun[@]}" -np $k "$OLDPWD/$build/novamd" run config.yaml > console.log 2>&1)
        fi
        ms=$(grep -oE "[0-9.]+ ms/step" "$dir/console.log" | head -1 | cut -d' ' -f1)
        [[ -n $ms ]] || { echo "no timing in $dir/console.log"; tail -20 "$dir/console.log"; exit 1; }
        [[ -z $t1 ]] && t1=$ms
        speedup=$(awk -v a="$t1" -v b="$ms" 'BEGIN {printf "%.2f", a / b}')
        efficiency=$(awk -v a="$t1" -v b="$ms" -v k="$k" 'BEGIN {printf "%.0f%%", 100 * a / (b * k)}')
        printf "%9s %-7s %5s %12s %9s %11s\n" "$ions" "$precision" "$k" "$ms" "$speedup" "$efficiency" | tee -a "$scaling"
      done
    done
  done
  cat "$scaling" >> "$log"
fi
