#!/usr/bin/env bash
# Builds NovaMD with the CUDA backend on the GPU machine, runs the test suite (CUDA-labelled
# tests included) and the benchmark tables in double and mixed, and writes logs under $OUT.
# Random123's headers travel in .r123/ (the unpacked Debian package librandom123-dev).
#
#   scripts/device/test.sh [all|tests|python|bench|custom-pair|molecular|energy|profile|lj-profile|pme-profile|pme-kernels|pme-sizes|pme-quick|cuda-tests|build|pair-profile|pme-skin|water-rigid|dhfr|dhfr-pairs|dhfr-quick|dhfr-sync|dhfr-timeline|drift|barostat|barostat-timeline|water-density|water-density-molecular|water-pressure-nvt|barostat-quick|rigid|rigid-water|multigpu|scaling|spatial|spatial-quick]
#
# all: tests, the benchmark tables (Yukawa all pairs in double and mixed; the LJ melt in
# double, mixed and single; nuclear pasta, 51,200 nucleons, in double and mixed), energy and
# lj-profile. molecular: seed 002's LJ + Coulomb benchmark (`bench --case ornl`), the peptide
# and AMBER dipeptide examples on the GPU (short-range Coulomb and PME), `novamd check` of PME
# on the GPU against the Ewald sum and the CPU, and OpenMM's CUDA platform on the dipeptide
# (reaction field and PME) and the water case where its wheels travel in .whl/ (also part of
# bench). energy: the cost of thermo steps (runs with thermo rows every step and every
# 1,000 steps). profile: Nsight Compute on the Yukawa all-pairs
# kernels at 27,648 ions. pme-profile: Nsight Compute on every kernel of a few steps of 24,000
# atoms of water with PME. pme-sizes: PME water of about 98,000 and 943,000 atoms beside OpenMM.
# water-rigid: rigid SPC/E water (SETTLE) with PME at 2 fs, 24,000, 98,304 and 943,296 atoms,
# beside OpenMM (ms/step and ns/day), and the duration of every kernel of its steps at 24,000
# atoms (kernels_rigid.txt). dhfr: the JAC benchmark (DHFR, 23,558 atoms) at 2 and 4 fs beside
# OpenMM, at the default list skin and at 1.5 to 3 A, its kernels (kernels_dhfr.txt) and Nsight
# Compute's sections on its constraint kernels, bonded sum and fixed-point conversion
# (ncu_constraints.txt).
# dhfr-pairs: Nsight Compute's full sections on DHFR's pair kernel and OpenMM's computeNonbonded
# (ncu_pairs_dhfr.txt), each opcode's count in both (ncu_opcodes_dhfr.txt), and the SASS of the
# cluster pair kernels (sass_clusters.txt).
# dhfr-quick: builds the program alone, checks DHFR's GPU forces against the CPU's (`novamd check`)
# and times DHFR at 2 fs with the default skin beside OpenMM: a round for a short budget.
# dhfr-sync: DHFR at 2 fs with the lists checked every 1, 2, 5 and 10 steps: what the host's wait
# for each check costs.
# dhfr-timeline: the GPU's and the host's timeline of DHFR at 2 and 4 fs, NovaMD's and OpenMM's,
# from CUPTI (benchmarks/timeline): idle gaps, kernels beside each other, host calls
# (timeline_dhfr.txt).
# drift: rigid SPC/E and TIP3P water in constant energy at 2 fs, 50 ps after 20 ps of Langevin,
# NovaMD beside OpenMM from the same state, mixed and double (drift.txt).
# pme-kernels: the duration of every kernel of a few steps of that water (velocity Verlet), in
# NovaMD and in OpenMM (kernels.txt).
# pair-profile: Nsight Compute's full sections on the pair kernels of that water (per-particle
# lists and cluster pairs) and on OpenMM's computeNonbonded (ncu_pairs.txt), and the SASS of the
# cluster pair kernels (sass_clusters.txt).
# pme-skin: the 24,000-atom PME water at list skins 0.8 to 2.5 A, and with lists never checked.
# cuda-tests: builds only the program and the CUDA tests, and runs every CUDA test (about 70 s).
# barostat: the LJ liquid (62,500 atoms) and the 24,000-atom PME water (flexible, and rigid) with
# no barostat, stochastic cell rescaling and the Monte Carlo barostat: what each costs; and the
# density of 1,000 rigid SPC/E waters at 300 K and 1 bar (Monte Carlo), for tests/data/water-npt.
# barostat-timeline: the GPU's and the host's timeline (benchmarks/timeline) of the 62,500-atom
# LJ liquid and the 24,000-atom PME water (flexible, and rigid at 2 fs) with no barostat,
# stochastic cell rescaling at its default interval and the Monte Carlo barostat, and the LJ
# liquid under MTTK (every step, in blocks of 10) against Nose-Hoover: where a move's time goes
# (timeline_barostat.txt).
# water-density: the density of rigid SPC/E water (1,000 molecules, 300 K, 1 bar, Monte Carlo
# barostat) over 2 ns after 50 ps, NovaMD and OpenMM's CUDA platform (tests/data/water-npt/
# run_npt.py) side by side on the GPU (water_density.txt, the samples).
# water-density-molecular: the same water under stochastic cell rescaling and MTTK (their waters
# moved by their centres), up to 2 ns after 50 ps each or WATER_SECONDS (270) of wall time, one
# after the other, at TIMESTEP fs (2.0); each density against OpenMM's Monte Carlo run kept in
# tests/data/water-npt/cuda-2ns (water_density_molecular.txt). KINDS=mttk TIMESTEP=1.0: MTTK's
# density without most of Nose-Hoover's time-step error in the pressure (docs/validation.md);
# MTTK_EVERY (1): MTTK in blocks of that many steps.
# water-pressure-nvt: the same water at constant volume (1 g/cm^3), 1 ns after 20 ps each, under
# Langevin (BAOAB, 1/ps) at 2 fs and Nose-Hoover chains (tau 0.1 ps) at 2 and 1 fs: the mean
# pressure and temperature each integrator samples at one density (water_pressure_nvt.txt).
# barostat-quick: the LJ liquid and the 24,000-atom water (flexible and rigid) with no barostat,
# c_rescale at its default interval and Monte Carlo every 25 (Langevin), and MTTK at every step
# and in blocks (10 for the LJ liquid, 4 for the waters) against Nose-Hoover at constant volume,
# ROUNDS rounds (3; barostat_quick.txt).
# rigid: rigid molecules (seed 001): the CUDA tests of rigid molecules against the CPU, then
# seed 001's three data sets (`bench --case rigid`) at cutoffs 2.5 to 7.5 in double, mixed and
# single, `novamd check` of the CO2 example on the GPU, and Nsight Compute's sections on the
# rigid-molecule kernels of the 1j and mix sets (ncu_rigid.txt); rigid SPC/E water with PME
# (examples/rigid/spce_water.yaml) checked against the CPU.
# python: builds the program and the Python package's extension for the machine's python3 (its
# nanobind; not PREBUILT), then runs the package's tests (python/tests) with NOVAMD_TEST_CUDA=1:
# the CUDA backend chosen from Python, states copied from the device against the CPU's
# (python.log).
# rigid-water: rigid SPC/E water with PME as rigid bodies (examples/rigid/spce_water.yaml),
# 8,788 molecules at 2 fs in mixed and double, beside 8,000 waters held by SETTLE.
# build: builds only the program and the CUDA tests (some 8 minutes on a fresh machine), so that
# a next call on the warm machine runs them at once: `test.sh cuda-tests; test.sh dhfr`.
# pme-quick: builds only the program and the CUDA tests, runs every CUDA test (about 70 s), then
# the 24,000-atom PME water over per-particle lists and over cluster pairs (neighbors.layout)
# beside OpenMM (quick_tests.log).
# lj-profile: Nsight Compute on every kernel of a few LJ melt steps at
# 62,500 atoms (list build included).
# custom-pair: builds the program and the CUDA tests, runs every CUDA test, then the LJ liquid of
# examples/lj_custom.yaml at 62,500 and 256,000 atoms in mixed and double with the built-in
# lennard_jones (force shift) and with custom_pair's formulas (Lennard-Jones, and the Mie form of
# the example), compiled at run time: ms/step of each (custom_pair.txt) and the run-time
# compile's cost (the difference of the set-up times).
#
# PREBUILT=1 scripts/device/test.sh MODE (carry build-ci): the binaries that scripts/device/pack.sh
# packed here from a local build, instead of building on the GPU machine (saves some 8 minutes
# of device time; the CUDA tests of the whole suite then fit one call).
#
# multigpu and scaling build with MPI and NCCL (build-device-mpi) and need 2 or 4 GPUs; they
# fail loudly (any failed step ends the script non-zero), logs in $OUT:
# multigpu: the CUDA force-matrix kernels' tests (CudaForceMatrix.*), then runs under
#   `mpirun --allow-run-as-root -np 2` (grids 1x2, 2x1) and `-np 4` (2x2, 4x1, 1x4, where 4
#   GPUs exist) on the CUDA backend in double, compared with one GPU (tests/mpi/decomposition.py:
#   forces and energies at step 0 within round-off, a 100-step trajectory; N = 1001 and 729,
#   and 27,648 ions, where each pair is computed once over the GPUs), the restart and
#   SIGTERM checks; multigpu.log.
# spatial: the CUDA tests, then the spatial bricks on the CUDA backend (ranks sharing the GPUs
#   there are) against one GPU in double: the solvated peptide replicated 2 x 2 x 2 (bonded
#   terms, PME, SHAKE and SETTLE, CCMA, c_rescale and Monte Carlo on molecules), LJ, pasta,
#   Langevin, c_rescale, MTTK, Monte Carlo (tests/mpi/decomposition.py compare), restarts,
#   1,000 steps and SIGTERM, then the timings (LJ, the peptide); spatial.log, spatial.txt.
#   CASES, CHECKS, CUDA_TESTS, CUDA_FILTER, TIMINGS and PREBUILT choose a part
#   (scripts/device/multi_gpu.sh).
# spatial-quick: a round for a short budget: builds the program alone (no tests), compares the
#   LJ case on 2x1x1 and 2x2x1 with one GPU, the restart on 2x2x1, then times the 32,000-atom
#   melt on 1, 2 and 4 ranks sharing the GPU (spatial.txt); progress in spatial-quick.log.
# scaling: strong scaling, 27,648 and 221,184 ions (C/O, Yukawa all pairs), 1, 2 and 4 GPUs,
#   double and mixed: ms/step, speed-up, parallel efficiency; scaling.txt.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/novamd-device}
mkdir -p "$OUT"
what=${1:-all}
build=build-device

# Files back (at most 8): summary.txt (GPU, version, bench tables), build.log, tests.log,
# cuda_errors.txt, resources.txt, sass.txt, and ncu_double.txt + ncu_mixed.txt (profile) or
# ncu_lj.txt (lj-profile), ncu_pme.txt (pme-profile).
if [[ $what == multigpu || $what == scaling || $what == spatial || $what == spatial-quick ]]; then
  exec scripts/device/multi_gpu.sh "$what"
fi

# FFTW3 (smooth PME on the CPU backend): the machine's, else the unpacked Debian packages
# libfftw3-dev and libfftw3-double3 carried in .fftw/ (CMake looks there; the binary's RPATH
# finds the libraries).
if [[ ! -f /usr/include/fftw3.h && -f .fftw/usr/include/fftw3.h ]]; then
  export LD_LIBRARY_PATH="$PWD/.fftw/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi

# OpenMM from the wheels carried in .whl/ (openmm, openmm-cuda-13), installed once into
# /tmp/openmm-site (PYTHONPATH); false, saying so, where no wheels travelled.
have_openmm() {
  if ! compgen -G ".whl/openmm-*.whl" > /dev/null; then
    echo "no OpenMM wheels in .whl/: the OpenMM side left out" | tee -a "$summary"
    return 1
  fi
  [[ -d /tmp/openmm-site/openmm ]] ||
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
      --target /tmp/openmm-site .whl/*.whl
}

# OpenMM's CUDA platform on the same GPU (benchmarks/openmm/molecular.py with these arguments).
openmm_side() {
  have_openmm &&
    PYTHONPATH=/tmp/openmm-site python3 benchmarks/openmm/molecular.py "$@" 2>&1 | tee -a "$summary"
}

# The median duration per kernel name of an Nsight Compute report (launches, median us, name);
# $2: what ran.
kernel_medians() {
  python3 - "$1" "$2" <<'PY'
import re, statistics, sys
name, times = None, {}
for line in open(sys.argv[1]):
    m = re.match(r"^  (\S.*?) \(\d+, \d+, \d+\)x\(\d+, \d+, \d+\)", line)
    if m:
        name = re.sub(r"novamd::|\(anonymous namespace\)::|<unnamed>::", "", m.group(1))
        name = re.sub(r"^void ", "", name)[:90]
    m = re.match(r"^\s+(?:Duration|gpu__time_duration.sum)\s+(\S+)\s+([\d.,]+)", line)
    if m and name:
        scale = {"ns": 1e-3, "us": 1.0, "usecond": 1.0, "ms": 1e3, "msecond": 1e3,
                 "nsecond": 1e-3}.get(m.group(1), 1.0)
        times.setdefault(name, []).append(float(m.group(2).replace(",", "")) * scale)
print(f"{sys.argv[1].split('/')[-1]}: {sys.argv[2]}: launches, median us, sum us, kernel")
for k, v in sorted(times.items(), key=lambda kv: -statistics.median(kv[1])):
    print(f"{len(v):4d} {statistics.median(v):9.2f} {sum(v):9.1f}  {k}")
PY
}

# NovaMD's water_pme.yaml with velocity Verlet instead of Langevin (OpenMM's VerletIntegrator).
verlet_set=(--set "integrator={type: velocity_verlet, timestep: 0.5}")

# `water_args N PRECISION STEPS` sets water_run to `novamd run`'s arguments for
# examples/water/water_pme.yaml on N^3 flexible SPC/E waters (make_water.py --per-edge N, made
# once) with PME at OpenMM's default tolerance, 5e-4, on the GPU: STEPS steps, one thermo row.
water_args() {
  [[ -f /tmp/water$1.data ]] ||
    python3 examples/water/make_water.py --per-edge "$1" --out "/tmp/water$1.data" > /dev/null
  water_run=(examples/water/water_pme.yaml --backend cuda --precision "$2" --steps "$3"
    --set "system.topology.read=/tmp/water$1.data" --set output.trajectory=[]
    --set "output.thermo.every=$3" --set forces.1.coulomb.tolerance=5e-4)
}

summary="$OUT/summary.txt"
# Appended: several modes run one after another into one $OUT keep every table.
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,driver_version --format=csv >> "$summary" 2>&1
if [[ ${PREBUILT:-0} == 1 ]]; then
  # The program and the CUDA tests built on the development machine (scripts/device/pack.sh: a
  # clone at /tmp/ci, whose paths the binaries carry), unpacked here instead of an 8-minute
  # build: carry build-ci. Libraries this machine lacks travel in build-ci/lib.
  ln -sfn "$PWD" /tmp/ci
  mkdir -p build && tar -xJf build-ci/bins.tar.xz -C build || exit 1
  export LD_LIBRARY_PATH="$PWD/build-ci/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  build=build  # /tmp/ci/build, the path the binaries carry, through the link
  ldd $build/tests/novamd_cuda_tests | grep "not found" && exit 1
else
  python_args=()
  [[ $what == python ]] && python_args=(-DNOVAMD_BUILD_PYTHON=ON -DPython_EXECUTABLE="$(command -v python3)")
  cmake -S . -B $build -DNOVAMD_ENABLE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DNOVAMD_ENABLE_MPI=OFF "${python_args[@]}" > "$OUT/build.log" 2>&1 ||
    { tail -30 "$OUT/build.log"; exit 1; }
  targets=()
  case $what in
    python) targets=(--target novamd _core) ;;
    pme-quick | cuda-tests | custom-pair | build | rigid) targets=(--target novamd novamd_cuda_tests) ;;
    rigid-water) targets=(--target novamd) ;;
    pme-skin | pme-sizes | pme-profile | pme-kernels | pair-profile | water-rigid | dhfr | dhfr-pairs | dhfr-quick | dhfr-sync | dhfr-timeline | drift | barostat | barostat-timeline | water-density | water-density-molecular | water-pressure-nvt | barostat-quick)
      targets=(--target novamd) ;;
  esac
  if ! cmake --build $build -j "$(nproc)" "${targets[@]}" >> "$OUT/build.log" 2>&1; then
    grep -E "error|Error" "$OUT/build.log" | head -40
    exit 1
  fi
fi
$build/novamd --version | tee -a "$summary"
[[ $what == build ]] && exit 0

# Registers, shared memory and spills of every kernel; SASS of the pair kernels.
cuobjdump -res-usage $build/novamd 2>&1 |
  grep -A1 -E "Function .*(all_pairs|kick|drift|Drift|Constrain|Thermalize|neighbor_list|cell_list|build_lists|cluster|tiles)" \
  | cu++filt > "$OUT/resources.txt"
cuobjdump -sass $build/novamd | cu++filt |
  awk '/Function :/ {keep = /all_pairs/} keep' | head -n 20000 > "$OUT/sass.txt" 2>&1

status=0
if [[ $what == python ]]; then
  NOVAMD_TEST_CUDA=1 PYTHONPATH="$PWD/$build/python" NOVAMD_BINARY="$PWD/$build/novamd" \
    python3 -m pytest -v -p no:cacheprovider python/tests > "$OUT/python.log" 2>&1 || status=1
  grep -E "PASSED|FAILED|SKIPPED|ERROR|passed|failed" "$OUT/python.log" | tail -40
fi
if [[ $what == all || $what == tests ]]; then
  # The trajectory read-back tests need MDAnalysis and h5py, the plot tests matplotlib (CI
  # installs them); the GPU machine may lack them and cannot fetch them: then they are left out
  # here, and the log says so.
  left_out=()
  if ! /usr/bin/python3 -c "import MDAnalysis, h5py" 2>/dev/null; then
    left_out+=("MDAnalysis|H5mdWriter|TrajectoryReadBack|TrajectoryFormats|DcdWriter.ResumeDrops|RigidRuns.SiteTrajectory")
    echo "python3 lacks MDAnalysis or h5py: read-back tests left out (they run in CI)" | tee -a "$summary"
  fi
  if ! /usr/bin/python3 -c "import ase" 2>/dev/null; then
    left_out+=("ParticleFields.XyzFramesNameAndHold|RigidRuns.TrajectoryCarriesOrientations")
    echo "python3 lacks ASE: the XYZ read-back by ASE left out (it runs in CI)" | tee -a "$summary"
  fi
  if ! /usr/bin/python3 -c "import matplotlib" 2>/dev/null; then
    left_out+=("AnalysisRun.PlotScript")
    echo "python3 lacks matplotlib: plot tests left out (they run in CI)" | tee -a "$summary"
  fi
  exclude=()
  if ((${#left_out[@]})); then exclude=(-E "$(IFS='|'; echo "${left_out[*]}")"); fi
  ctest --test-dir $build --output-on-failure -j 4 "${exclude[@]}" > "$OUT/tests.log" 2>&1 || status=1
  grep -E "^N = |^CudaForceTerms|worst ulps|max force error" -r $build/Testing/Temporary/LastTest.log > "$OUT/cuda_errors.txt" 2>/dev/null
  grep -E "tests passed|tests failed|\(Failed\)|Skipped" "$OUT/tests.log" | tail -20
fi
if [[ $what == all || $what == bench ]]; then
  for precision in double mixed; do
    $build/novamd bench --backend cuda --precision $precision | tee -a "$summary"
  done
  for precision in double mixed single; do
    $build/novamd bench --case lj --backend cuda --precision $precision | tee -a "$summary"
  done
  # The melt over cluster pairs (neighbors.layout: clusters), beside the rows above.
  $build/novamd bench --case lj --backend cuda --precision mixed --layout clusters |
    tee -a "$summary"
  for precision in double mixed; do
    $build/novamd bench --case pasta --backend cuda --precision $precision | tee -a "$summary"
  done
fi
if [[ $what == all || $what == bench || $what == molecular ]]; then
  # Seed 002's LJ + Coulomb case (14,739 atoms of water) and the two molecular examples.
  for precision in double mixed; do
    $build/novamd bench --case ornl --backend cuda --precision $precision | tee -a "$summary"
  done
  for precision in mixed double; do
    for example in peptide/peptide.yaml amber-dipeptide/dipeptide.yaml peptide/peptide_pme.yaml \
      amber-dipeptide/dipeptide_pme.yaml; do
      $build/novamd run examples/$example --backend cuda --precision $precision --steps 4000 \
        --set output.trajectory=[] 2>&1 | grep -E "config|neighbors|Done" |
        sed "s/^/$precision: /" | tee -a "$summary"
    done
  done
  # 8,000 flexible SPC/E waters (24,000 atoms, 62.1 A) with PME at tolerance 5e-4 (OpenMM's
  # default), beside OpenMM's water24k-pme case.
  for precision in mixed double; do
    water_args 20 $precision 4000
    $build/novamd run "${water_run[@]}" 2>&1 | grep -E "particles|coulomb|neighbors|Done" |
      sed "s/^/$precision water24k-pme: /" | tee -a "$summary"
  done
  # PME on the GPU against the exact Ewald sum on the GPU, and against the CPU backend.
  for precision in mixed double; do
    $build/novamd check examples/amber-dipeptide/dipeptide_pme.yaml --backend cuda \
      --precision $precision --against ewald 2>&1 | sed "s/^/$precision: /" | tee -a "$summary"
    $build/novamd check examples/amber-dipeptide/dipeptide_pme.yaml --backend cuda \
      --precision $precision --against cpu 2>&1 | sed "s/^/$precision: /" | tee -a "$summary"
  done
  # The peer on the same GPU: OpenMM's CUDA platform on the dipeptide and the water case
  # (benchmarks/openmm/molecular.py), from wheels carried in .whl/ (openmm, openmm-cuda-13).
  openmm_side
fi
if [[ $what == all || $what == energy ]]; then
  # The cost of a thermo step (energy, virial tensor, kinetic tensor and their reductions): the
  # same runs with thermo rows at every step and every 1,000 steps, mixed precision. The LJ melt
  # at 62,500 atoms (Verlet lists) and IUMD's 27,648 Yukawa ions (the each-pair-once kernel).
  work=$(mktemp -d)
  root=$PWD
  for every in 1000 1; do
    (cd "$work" && "$root/$build/novamd" run "$root/examples/lj_liquid.yaml" --backend cuda \
       --precision mixed --steps 2000 --set system.structure.generate.cells=25 \
       --set output.thermo.every=$every 2>&1) | grep "Done" |
      sed "s/^/LJ melt 62,500 mixed, thermo every $every: /" | tee -a "$summary"
    (cd "$work" && "$root/$build/novamd" run "$root/examples/yukawa_ocp.yaml" --backend cuda \
       --precision mixed --steps 1000 --set "system.structure.generate.cells=[24,24,24]" \
       --set output.thermo.every=$every --set analysis=null 2>&1) | grep "Done" |
      sed "s/^/Yukawa 27,648 mixed, thermo every $every: /" | tee -a "$summary"
  done
fi
if [[ $what == pme-quick || $what == cuda-tests || $what == custom-pair ]]; then
  timeout 300 $build/tests/novamd_cuda_tests \
    > "$OUT/quick_tests.log" 2>&1 || status=1
  grep -E "^\[  (PASSED|FAILED) |^\[  FAILED" "$OUT/quick_tests.log" | tee -a "$summary"
fi
if [[ $what == cuda-tests ]]; then
  # The 24,000-atom PME water, mixed, Langevin, in the default layout (`auto`).
  water_args 20 mixed 4000
  $build/novamd run "${water_run[@]}" 2>&1 | grep -E "neighbors|Done" |
    sed "s/^/mixed langevin default water24k-pme: /" | tee -a "$summary"
fi
if [[ $what == custom-pair ]]; then
  # The same liquid, force-shifted at 2.5, under each force term: ms/step from the summary line,
  # set-up seconds from the wall clock less the steps' time.
  work=$(mktemp -d)
  root=$PWD
  lj="lennard_jones: {pairs: [{types: [Ar, Ar], epsilon: 1.0, sigma: 1.0}], cutoff: 2.5, truncation: force_shift}"
  formula="custom_pair: {energy: '4*eps*((sigma/r)^12 - (sigma/r)^6)', parameters: {eps: 1.0, sigma: 1.0}, cutoff: 2.5, shift: force}"
  echo "custom_pair beside lennard_jones, LJ liquid rho* 0.8442, force shift at 2.5, 2,000 steps" |
    tee "$OUT/custom_pair.txt"
  printf "%-8s %-7s %-26s %10s %10s\n" atoms prec term ms/step setup_s | tee -a "$OUT/custom_pair.txt"
  for cells in 25 40; do
    for precision in mixed double; do
      for term in builtin formula mie; do
        forces=()
        [[ $term == builtin ]] && forces=(--set "forces=[{$lj}]")
        [[ $term == formula ]] && forces=(--set "forces=[{$formula}]")
        start=$(date +%s.%N)
        line=$(cd "$work" && "$root/$build/novamd" run "$root/examples/lj_custom.yaml" \
          --backend cuda --precision $precision --set system.structure.generate.cells=$cells \
          --set output.thermo.every=1000 "${forces[@]}" 2>&1 | grep "^Done")
        wall=$(awk -v a="$(date +%s.%N)" -v b="$start" 'BEGIN {print a - b}')
        ms=$(echo "$line" | sed -E 's/.* ([0-9.]+) ms\/step.*/\1/')
        steps_s=$(echo "$line" | sed -E 's/.*steps in ([0-9.]+) s.*/\1/')
        printf "%-8s %-7s %-26s %10s %10.2f\n" $((4 * cells ** 3)) $precision $term "$ms" \
          "$(awk -v a="$wall" -v b="$steps_s" 'BEGIN {print a - b}')" | tee -a "$OUT/custom_pair.txt"
      done
    done
  done
fi
if [[ $what == rigid ]]; then
  timeout 300 $build/tests/novamd_cuda_tests --gtest_filter='*Rigid*' \
    > "$OUT/rigid_tests.log" 2>&1 || status=1
  grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|RMS|potential energy|virial" "$OUT/rigid_tests.log" |
    tee -a "$summary"
  for precision in double mixed single; do
    $build/novamd bench --case rigid --backend cuda --precision $precision \
      --cutoffs 2.5,3.5,5,7.5 | tee -a "$summary"
  done
  for precision in double mixed; do
    $build/novamd check examples/rigid/co2.yaml --backend cuda --precision $precision 2>&1 |
      sed "s/^/$precision co2: /" | tee -a "$summary"
  done
  # Rigid SPC/E water with PME (examples/rigid/spce_water.yaml): the check against the CPU.
  for precision in double mixed; do
    $build/novamd check examples/rigid/spce_water.yaml --backend cuda --precision $precision \
      2>&1 | sed "s/^/$precision spce: /" | tee -a "$summary"
  done
  if command -v ncu > /dev/null; then
    ncu --kernel-name regex:rigid_molecules_kernel --launch-skip 5 --launch-count 1 \
      --section SpeedOfLight --section Occupancy --section LaunchStats \
      --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis \
      $build/novamd bench --case rigid --backend cuda --precision single --cutoffs 3.5 \
      --steps 1 --warmup 3 > "$OUT/ncu_rigid.txt" 2>&1
  fi
fi
if [[ $what == rigid-water ]]; then
  # Rigid SPC/E water with PME (examples/rigid/spce_water.yaml), one rigid body per molecule:
  # 8,788 molecules (26,364 sites, a box of 64 A) at 2 fs, 3,000 steps from the lattice.
  root=$PWD
  work=$(mktemp -d)
  for run in "mixed 1e-5" "double 1e-5" "mixed 5e-4"; do
    read -r precision tolerance <<< "$run"
    (cd "$work" && "$root/$build/novamd" run "$root/examples/rigid/spce_water.yaml" \
      --backend cuda --precision $precision --steps 3000 --set output.trajectory=[] \
      --set system.structure.generate.cells=13 \
      --set "system.structure.generate.counts={SPCE: 8788}" \
      --set forces.0.rigid_sites.coulomb.tolerance=$tolerance \
      --set output.thermo.every=500 2>&1 | grep -E "force|Done|Conserved|^ +[0-9]+ " |
      sed "s/^/spce8788 $precision $tolerance: /" | tee -a "$summary")
  done
  # Beside it, 8,000 SPC/E waters held rigid by SETTLE (atoms, bonded exclusions), the same
  # cutoff of 10 A and 2 fs steps, PME at 5e-4 (water_args).
  water_args 20 mixed 3000
  $build/novamd run "${water_run[@]}" --set "constraints={bonds: none, water: settle}" \
    --set integrator.timestep=2.0 2>&1 | grep -E "Done" | sed "s/^/settle8000 mixed 5e-4: /" |
    tee -a "$summary"
fi
if [[ $what == barostat ]]; then
  # What a barostat costs: the same runs without a barostat, with stochastic cell rescaling (a
  # move at the default interval, tau_p / (5 dt) at most 100, and every 10 steps) and with the
  # Monte Carlo barostat (a try every 25), mixed precision,
  # 4,000 steps each: the LJ liquid at T* = 1.5, P* = 2.0 (examples/lj_npt.yaml at 62,500
  # atoms), the 24,000-atom flexible PME water at 1 bar, and the same water rigid (SETTLE, 2 fs;
  # c_rescale at its default interval and Monte Carlo, the molecules moved whole).
  work=$(mktemp -d)
  root=$PWD
  for barostat in null "{type: c_rescale, pressure: 2.0, period: 1.0, compressibility: 0.09}" \
    "{type: c_rescale, pressure: 2.0, period: 1.0, compressibility: 0.09}" \
    "{type: monte_carlo, pressure: 2.0}"; do
    (cd "$work" && "$root/$build/novamd" run "$root/examples/lj_npt.yaml" --backend cuda \
       --precision mixed --steps 4000 --set system.structure.generate.cells=25 \
       --set "barostat=$barostat" \
       --set "output.thermo={every: 4000, file: lj_npt_thermo.csv}" 2>&1) |
      grep -E "built|Done|Monte" | sed "s/^/LJ 62,500 mixed, barostat $barostat: /" | tee -a "$summary"
  done
  # MTTK, with the Nose-Hoover chains it belongs to, beside nose_hoover at constant volume.
  for barostat in null "{type: mttk, pressure: 2.0, period: 5.0}"; do
    (cd "$work" && "$root/$build/novamd" run "$root/examples/lj_npt.yaml" --backend cuda \
       --precision mixed --steps 4000 --set system.structure.generate.cells=25 \
       --set "integrator={type: nose_hoover, timestep: 0.005, temperature: 1.5, tau: 0.5}" \
       --set "barostat=$barostat" --set "output.thermo={every: 4000, file: lj_npt_thermo.csv}" \
       2>&1) | grep -E "built|Done" | sed "s/^/LJ 62,500 mixed, nose_hoover, barostat $barostat: /" |
      tee -a "$summary"
  done
  water_args 20 mixed 4000
  for barostat in null "{type: c_rescale, pressure: 1 bar, period: 1000}" \
    "{type: c_rescale, pressure: 1 bar, period: 1000, every: 10}" \
    "{type: monte_carlo, pressure: 1 bar}" "{type: monte_carlo, pressure: 1 bar, every: 100}"; do
    $build/novamd run "${water_run[@]}" --set "barostat=$barostat" 2>&1 | grep -E "built|Done|Monte" |
      sed "s/^/water24k-pme mixed, barostat $barostat: /" | tee -a "$summary"
  done
  # OpenMM's MonteCarloBarostat on the same water, none and a try every 25 and 100 steps.
  openmm_side --water-edges 20 --precision mixed --integrator langevin --steps 2000 \
    --barostat-every 0 25 100
  rigid_set=(--set "constraints={bonds: none, water: settle}" --set integrator.timestep=2.0
    --set forces.0.lennard_jones.cutoff=9.0 --set forces.1.coulomb.cutoff=9.0)
  for barostat in null "{type: c_rescale, pressure: 1 bar, period: 1000}" \
    "{type: monte_carlo, pressure: 1 bar}"; do
    $build/novamd run "${water_run[@]}" "${rigid_set[@]}" --set "barostat=$barostat" 2>&1 |
      grep -E "built|Done|Monte" | sed "s/^/water24k-rigid mixed, barostat $barostat: /" |
      tee -a "$summary"
  done
  # The density of rigid SPC/E water at 300 K and 1 bar under the Monte Carlo barostat
  # (examples/water/water_rigid.yaml: 1,000 waters, 9 A, PME 1e-5, dispersion correction,
  # Langevin 1/ps, 2 fs), mixed precision: 50 ps to settle, then 500 ps sampled every 25 steps;
  # beside OpenMM's on the same model (tests/data/water-npt/).
  (cd "$work" && cp "$root/examples/water/water.data" . &&
    "$root/$build/novamd" run "$root/examples/water/water_rigid.yaml" --backend cuda \
      --precision mixed --steps 275000 --set output.trajectory=[] \
      --set "barostat={type: monte_carlo, pressure: 1 bar, every: 25}" \
      --set "output.thermo={every: 25, file: npt.csv, columns: [volume, mass_density]}" \
      --set output.console.every=25000 2>&1 | tail -4 | tee -a "$summary") &&
    python3 tests/data/water-npt/density_of.py "$work/npt.csv" --skip-ps 50 | tee -a "$summary"
fi
if [[ $what == barostat-timeline ]]; then
  # CUPTI's records of 1,000 steps after 200 (a step counted at each Langevin A-O-A update),
  # per barostat: the idle gaps, the host's runtime calls and the kernels a move adds.
  root=$PWD
  work=$(mktemp -d)
  cuda_root=$(dirname "$(dirname "$(command -v nvcc)")")
  g++ -O2 -std=c++20 -shared -fPIC -I"$cuda_root/include" benchmarks/timeline/kernel_timeline.cpp \
    -o /tmp/libkernel_timeline.so -L"$cuda_root/lib64" -lcupti
  export LD_LIBRARY_PATH="$cuda_root/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  k=0
  # One timed LJ run under the timeline: the label after the system's name, the kernel that
  # counts a step, the barostat, then further --set arguments (the integrator).
  timeline_lj() {
    local label=$1 step_kernel=$2 barostat=$3
    shift 3
    k=$((k + 1))
    (cd "$work" && CUDA_INJECTION64_PATH=/tmp/libkernel_timeline.so KERNEL_TIMELINE=$work/lj$k.csv \
       "$root/$build/novamd" run "$root/examples/lj_npt.yaml" --backend cuda \
       --precision mixed --steps 1200 --set system.structure.generate.cells=25 "$@" \
       --set "barostat=$barostat" \
       --set "output.thermo={every: 1200, file: t.csv}" 2>&1) | grep -E "Done" |
      sed "s/^/LJ 62,500 under the timeline$label, barostat $barostat: /" | tee -a "$summary"
    python3 benchmarks/timeline/summarize.py "$work/lj$k.csv" --skip 0.17 \
      --label "LJ 62,500$label, barostat $barostat" --step-kernel "$step_kernel" \
      >> "$OUT/timeline_barostat.txt"
  }
  for barostat in null "{type: c_rescale, pressure: 2.0, period: 1.0, compressibility: 0.09, every: 10}" \
    "{type: monte_carlo, pressure: 2.0}"; do
    timeline_lj "" DriftThermalizeDrift "$barostat"
  done
  # MTTK against the same Nose-Hoover chains at constant volume (a step counted at each force
  # evaluation's pair kernel).
  for barostat in null "{type: mttk, pressure: 2.0, period: 5.0}" \
    "{type: mttk, pressure: 2.0, period: 5.0, every: 10}"; do
    timeline_lj ", nose_hoover" "_force_kernel" "$barostat" \
      --set "integrator={type: nose_hoover, timestep: 0.005, temperature: 1.5, tau: 0.5}"
  done
  water_args 20 mixed 1200
  rigid_set=(--set "constraints={bonds: none, water: settle}" --set integrator.timestep=2.0
    --set forces.0.lennard_jones.cutoff=9.0 --set forces.1.coulomb.cutoff=9.0)
  for water in water24k-pme water24k-rigid; do
    extra=()
    [[ $water == water24k-rigid ]] && extra=("${rigid_set[@]}")
    for barostat in null "{type: c_rescale, pressure: 1 bar, period: 1000}" \
      "{type: monte_carlo, pressure: 1 bar}"; do
      k=$((k + 1))
      CUDA_INJECTION64_PATH=/tmp/libkernel_timeline.so KERNEL_TIMELINE=$work/w$k.csv \
        $build/novamd run "${water_run[@]}" "${extra[@]}" --set "barostat=$barostat" 2>&1 |
        grep -E "Done" | sed "s/^/$water under the timeline, barostat $barostat: /" |
        tee -a "$summary"
      python3 benchmarks/timeline/summarize.py "$work/w$k.csv" --skip 0.17 \
        --label "$water, barostat $barostat" --step-kernel DriftThermalizeDrift \
        >> "$OUT/timeline_barostat.txt"
    done
  done
fi
if [[ $what == water-density ]]; then
  # The model of examples/water/water_rigid.yaml (9 A, PME 1e-5, dispersion correction,
  # Langevin 1/ps, 2 fs, a try every 25 steps) in both engines at once, 2 ns sampled.
  work=$(mktemp -d)
  root=$PWD
  (cd "$work" && cp "$root/examples/water/water.data" . &&
    "$root/$build/novamd" run "$root/examples/water/water_rigid.yaml" --backend cuda \
      --precision mixed --steps 1025000 --set output.trajectory=[] \
      --set "barostat={type: monte_carlo, pressure: 1 bar, every: 25}" \
      --set "output.thermo={every: 25, file: npt.csv, columns: [volume, mass_density]}" \
      --set output.console.every=100000 > novamd.log 2>&1) &
  novamd_run=$!
  if have_openmm; then
    PYTHONPATH=/tmp/openmm-site python3 tests/data/water-npt/run_npt.py --platform CUDA \
      --equil-ps 50 --sample-ps 2000 --out "$OUT/openmm_samples.dat" > "$OUT/openmm_water.log" 2>&1
    tail -2 "$OUT/openmm_water.log" | sed "s/^/OpenMM CUDA water: /" | tee -a "$summary"
    python3 tests/data/water-npt/analyze.py "$OUT/openmm_samples.dat" > "$OUT/water_density.txt" 2>&1
    grep -iE "density|beta" "$OUT/water_density.txt" | head -6 | sed "s/^/OpenMM: /" | tee -a "$summary"
  fi
  wait $novamd_run
  tail -4 "$work/novamd.log" | sed "s/^/NovaMD water: /" | tee -a "$summary"
  against=()
  [[ -f $OUT/openmm_samples.dat ]] && against=(--against "$OUT/openmm_samples.dat")
  python3 tests/data/water-npt/density_of.py "$work/npt.csv" --skip-ps 50 "${against[@]}" \
    > "$work/density.txt" || status=1
  sed "s/^/NovaMD: /" "$work/density.txt" | tee -a "$summary" "$OUT/water_density.txt"
  xz -T0 -c "$work/npt.csv" > "$OUT/novamd_npt.csv.xz"
fi
if [[ $what == water-density-molecular ]]; then
  # Stochastic cell rescaling (Langevin 1/ps, tau_p 2 ps, a move every 100 steps) and MTTK
  # (Nose-Hoover chains, tau 0.1 ps, tau_p 1 ps) on the model of water-density, their waters
  # moved by their centres from the molecular pressure, one after the other (two processes at
  # once on one GPU slow each other several times over), up to 2 ns after 50 ps each or until
  # WATER_SECONDS (270) have passed (SIGTERM: the run stops cleanly at the next step, its thermo
  # file complete); each density against OpenMM's Monte Carlo run on the CUDA platform kept in
  # tests/data/water-npt/cuda-2ns (the same model, 2 ns after 50 ps).
  work=$(mktemp -d)
  root=$PWD
  xz -dc tests/data/water-npt/cuda-2ns/samples.dat.xz > "$work/openmm_samples.dat"
  dt=${TIMESTEP:-2.0}  # fs; 2.05 ns of steps at any step
  steps=$(python3 -c "print(round(2050000 / $dt))")
  declare -A npt_integrator=(
    [c_rescale]="{type: langevin, timestep: $dt, temperature: 300.0, friction: 0.001}"
    [mttk]="{type: nose_hoover, timestep: $dt, temperature: 300.0, tau: 100}")
  declare -A npt_barostat=(
    [c_rescale]="{type: c_rescale, pressure: 1 bar, period: 2000}"
    [mttk]="{type: mttk, pressure: 1 bar, period: 1000, every: ${MTTK_EVERY:-1}}")
  for kind in ${KINDS:-c_rescale mttk}; do
    mkdir -p "$work/$kind"
    (cd "$work/$kind" && cp "$root/examples/water/water.data" . &&
      timeout -s TERM "${WATER_SECONDS:-270}" \
        "$root/$build/novamd" run "$root/examples/water/water_rigid.yaml" --backend cuda \
        --precision mixed --steps "$steps" --set output.trajectory=[] \
        --set "integrator=${npt_integrator[$kind]}" --set "barostat=${npt_barostat[$kind]}" \
        --set "output.thermo={every: 25, file: $kind.csv, columns: [volume, mass_density]}" \
        --set output.console.every=100000 > ../$kind.log 2>&1)
    grep -E "Done|Stopped|stopped|SIGTERM" "$work/$kind.log" | sed "s/^/NovaMD $kind water: /" |
      tee -a "$summary"
    python3 tests/data/water-npt/density_of.py "$work/$kind/$kind.csv" --skip-ps 50 \
      --against "$work/openmm_samples.dat" > "$work/$kind.txt" || status=1
    sed "s/^/NovaMD $kind: /" "$work/$kind.txt" | tee -a "$summary" "$OUT/water_density_molecular.txt"
    xz -T0 -c "$work/$kind/$kind.csv" > "$OUT/novamd_$kind.csv.xz"
  done
fi
if [[ $what == water-pressure-nvt ]]; then
  # A barostat holds the mean pressure at its target; where an integrator's time step shifts the
  # pressure it samples at one density, the density it finds shifts with it (by beta_T dP).
  work=$(mktemp -d)
  root=$PWD
  declare -A nvt_integrator=(
    [langevin_2fs]="{type: langevin, timestep: 2.0, temperature: 300.0, friction: 0.001}"
    [nose_hoover_2fs]="{type: nose_hoover, timestep: 2.0, temperature: 300.0, tau: 100}"
    [nose_hoover_1fs]="{type: nose_hoover, timestep: 1.0, temperature: 300.0, tau: 100}")
  declare -A nvt_steps=([langevin_2fs]=510000 [nose_hoover_2fs]=510000 [nose_hoover_1fs]=1020000)
  for kind in langevin_2fs nose_hoover_2fs nose_hoover_1fs; do
    mkdir -p "$work/$kind"
    (cd "$work/$kind" && cp "$root/examples/water/water.data" . &&
      "$root/$build/novamd" run "$root/examples/water/water_rigid.yaml" --backend cuda \
        --precision mixed --steps "${nvt_steps[$kind]}" --set output.trajectory=[] \
        --set "integrator=${nvt_integrator[$kind]}" \
        --set "output.thermo={every: 25, file: nvt.csv, columns: []}" \
        --set output.console.every=100000 > ../$kind.log 2>&1) || status=1
    grep -E "Done" "$work/$kind.log" | sed "s/^/NovaMD $kind water: /" | tee -a "$summary"
    python3 - "$work/$kind/nvt.csv" "$kind" <<'PY' | tee -a "$summary" "$OUT/water_pressure_nvt.txt"
import sys
import numpy as np
rows = [l for l in open(sys.argv[1]) if not l.startswith("#")]
names = rows[0].strip().split(",")
data = np.array([[float(x) for x in l.split(",")] for l in rows[1:]])
data = data[data[:, names.index("time")] >= 20000.0]  # after 20 ps (fs)
for column in ("temperature", "pressure"):
    blocks = np.array_split(data[:, names.index(column)], 20)
    means = np.array([b.mean() for b in blocks])
    print(f"{sys.argv[2]}: {column} {means.mean():.3f} +- {means.std(ddof=1) / np.sqrt(20):.3f} "
          f"(20 blocks of {len(blocks[0])} samples)")
PY
  done
fi
if [[ $what == barostat-quick ]]; then
  # What c_rescale (default interval) and the Monte Carlo barostat (every 25) cost against no
  # barostat: the LJ liquid (62,500 atoms, 20,000 steps), the flexible PME water (24,000 atoms,
  # 10,000 steps) and the same water rigid (SETTLE, 2 fs), mixed precision, each run three times
  # in turn; `novamd run`'s own timing and list builds (barostat_quick.txt).
  work=$(mktemp -d)
  root=$PWD
  water_args 20 mixed 10000
  rigid_set=(--set "constraints={bonds: none, water: settle}" --set integrator.timestep=2.0
    --set forces.0.lennard_jones.cutoff=9.0 --set forces.1.coulomb.cutoff=9.0)
  # One timed run of the LJ liquid, and one of each water: the label after the system's name,
  # the barostat, then further --set arguments (the integrator).
  quick_lj() {
    local label=$1 barostat=$2
    shift 2
    (cd "$work" && "$root/$build/novamd" run "$root/examples/lj_npt.yaml" --backend cuda \
       --precision mixed --steps 20000 --set system.structure.generate.cells=25 "$@" \
       --set "barostat=$barostat" \
       --set "output.thermo={every: 20000, file: lj_npt_thermo.csv}" 2>&1) |
      grep -E "built|Done|novamd:" | sed "s/^/round $round LJ 62,500$label, barostat $barostat: /" |
      tee -a "$OUT/barostat_quick.txt"
  }
  quick_waters() {
    local label=$1 barostat=$2
    shift 2
    $build/novamd run "${water_run[@]}" "$@" --set "barostat=$barostat" 2>&1 |
      grep -E "built|Done|novamd:" | sed "s/^/round $round water24k-pme$label, barostat $barostat: /" |
      tee -a "$OUT/barostat_quick.txt"
    $build/novamd run "${water_run[@]}" "$@" "${rigid_set[@]}" --set "barostat=$barostat" 2>&1 |
      grep -E "built|Done|novamd:" | sed "s/^/round $round water24k-rigid$label, barostat $barostat: /" |
      tee -a "$OUT/barostat_quick.txt"
  }
  # MTTK against the same Nose-Hoover chains at constant volume: every step, and in blocks.
  lj_nh="{type: nose_hoover, timestep: 0.005, temperature: 1.5, tau: 0.5}"
  water_nh="{type: nose_hoover, timestep: 0.5, temperature: 300.0, tau: 100}"
  for round in $(seq "${ROUNDS:-3}"); do
    for barostat in null "{type: c_rescale, pressure: 2.0, period: 1.0, compressibility: 0.09}" \
      "{type: monte_carlo, pressure: 2.0}"; do
      quick_lj "" "$barostat"
    done
    for barostat in null "{type: c_rescale, pressure: 1 bar, period: 1000}" \
      "{type: monte_carlo, pressure: 1 bar}"; do
      quick_waters "" "$barostat"
    done
    for barostat in null "{type: mttk, pressure: 2.0, period: 5.0}" \
      "{type: mttk, pressure: 2.0, period: 5.0, every: 10}"; do
      quick_lj ", nose_hoover" "$barostat" --set "integrator=$lj_nh"
    done
    # In blocks of 4 (8 fs for the rigid water): its lattice start, 10,000 atm from the target,
    # stops a run in blocks of 10 within 50 steps (docs/user-guide.md). The start costs the
    # blocks' conserved quantity about the state's energy scale (run.max_energy_drift), which
    # these timings do not check.
    for barostat in null "{type: mttk, pressure: 1 bar, period: 1000}" \
      "{type: mttk, pressure: 1 bar, period: 1000, every: 4}"; do
      quick_waters ", nose_hoover" "$barostat" --set "integrator=$water_nh" \
        --set run.max_energy_drift=none
    done
  done
fi
if [[ $what == pme-quick ]]; then
  for precision in mixed double; do
    water_args 20 $precision 4000
    for integrator in langevin verlet; do
      for layout in atoms clusters; do
        extra=(--set neighbors.layout=$layout)
        [[ $integrator == verlet ]] && extra+=("${verlet_set[@]}")
        $build/novamd run "${water_run[@]}" "${extra[@]}" 2>&1 | grep -E "Done|built" |
          sed "s/^/$precision $integrator $layout water24k-pme: /" | tee -a "$summary"
      done
    done
  done
  openmm_side --steps 500 --water-edges 20 --integrator langevin verlet
fi
if [[ $what == pme-kernels ]]; then
  # The duration of every kernel of a few steps of the 24,000-atom PME water, mixed precision,
  # velocity Verlet, in NovaMD and in OpenMM (one metric: one replay per kernel), and the median
  # per kernel name of each engine (kernels.txt).
  water_args 20 mixed 80
  ncu --clock-control none --metrics gpu__time_duration.sum --launch-skip 400 --launch-count 150 \
    $build/novamd run "${water_run[@]}" "${verlet_set[@]}" > "$OUT/ncu_kernels_novamd.txt" 2>&1
  ncu --clock-control none --metrics gpu__time_duration.sum --launch-skip 400 --launch-count 150 \
    $build/novamd run "${water_run[@]}" "${verlet_set[@]}" --set neighbors.layout=clusters \
    > "$OUT/ncu_kernels_clusters.txt" 2>&1
  if have_openmm; then
    PYTHONPATH=/tmp/openmm-site ncu --clock-control none --metrics gpu__time_duration.sum \
      --launch-skip 2500 --launch-count 150 python3 benchmarks/openmm/molecular.py --steps 60 \
      --precision mixed --water-edges 20 > "$OUT/ncu_kernels_openmm.txt" 2>&1
  fi
  for file in ncu_kernels_novamd.txt ncu_kernels_clusters.txt ncu_kernels_openmm.txt; do
    [[ -f $OUT/$file ]] &&
      kernel_medians "$OUT/$file" "PME water, 24,000 atoms, mixed" | tee -a "$OUT/kernels.txt"
  done
fi
if [[ $what == pair-profile ]]; then
  # The pair kernels of the 24,000-atom PME water, mixed precision, in NovaMD's two layouts
  # and in OpenMM: throughput, pipes, occupancy, stalls, instruction mix, memory.
  sections=(--section SpeedOfLight --section ComputeWorkloadAnalysis --section Occupancy
    --section LaunchStats --section WarpStateStats --section InstructionStats
    --section MemoryWorkloadAnalysis --metrics smsp__thread_inst_executed_per_inst_executed.ratio)
  water_args 20 mixed 40
  for layout in atoms clusters; do
    ncu --clock-control none --kernel-name regex:"cluster_pair_force|neighbor_list_force" \
      --launch-skip 10 --launch-count 2 "${sections[@]}" \
      $build/novamd run "${water_run[@]}" "${verlet_set[@]}" --set neighbors.layout=$layout \
      >> "$OUT/ncu_pairs.txt" 2>&1
  done
  if have_openmm; then
    PYTHONPATH=/tmp/openmm-site ncu --clock-control none --kernel-name computeNonbonded \
      --launch-skip 20 --launch-count 2 "${sections[@]}" python3 benchmarks/openmm/molecular.py \
      --steps 30 --precision mixed --water-edges 20 --integrator verlet >> "$OUT/ncu_pairs.txt" 2>&1
  fi
  grep -E "^  [a-zA-Z_].*\(|Duration|Compute \(SM\) Throughput|Memory Throughput|Issue Slots Busy|Achieved Occupancy|Theoretical Occupancy|Registers Per|Executed Ipc Active|No Eligible|thread_inst_executed_per|L1/TEX Hit|L2 Hit" \
    "$OUT/ncu_pairs.txt" | sed 's/  */ /g' | cut -c1-160
  cuobjdump -sass $build/novamd | cu++filt |
    awk '/Function :/ {keep = /cluster_pair_force_kernel/} keep' | head -n 40000 > "$OUT/sass_clusters.txt"
fi
if [[ $what == pme-skin ]]; then
  # The 24,000-atom PME water (mixed, 4,000 steps) at several list skins, and with the lists
  # never checked (built at the reorders only: wrong physics, the cost of the step without
  # list maintenance).
  water_args 20 mixed 4000
  for setting in skin=0.8 skin=1.2 skin=1.6 skin=2.0 skin=2.5 check_every=1000000; do
    $build/novamd run "${water_run[@]}" --set neighbors.$setting 2>&1 | grep -E "Done|built" |
      sed "s/^/$setting: /" | tee -a "$summary"
  done
fi
if [[ $what == pme-sizes ]]; then
  # PME water boxes about 4 and 40 times the 24,000-atom one (32^3 and 68^3 molecules: 98,304
  # and 943,296 atoms), NovaMD and OpenMM, mixed precision, tolerance 5e-4, Langevin at 300 K,
  # both timed after 2,000 steps (1 ps) of warm-up from the lattice: NovaMD over the 400 steps
  # of a restart from the warm-up's checkpoint, OpenMM the median of 5 batches of 200 steps.
  for edge in 32 68; do
    water_args $edge mixed 2000
    $build/novamd run "${water_run[@]}" --set "output.checkpoint={file: /tmp/water$edge.chk}" \
      2>&1 | grep -E "particles|coulomb" | sed "s/^/water$edge-pme: /" | tee -a "$summary"
    water_args $edge mixed 2400
    for layout in atoms clusters; do
      $build/novamd run "${water_run[@]}" --restart /tmp/water$edge.chk \
        --set neighbors.layout=$layout 2>&1 | grep -E "neighbors|built|Done" |
        sed "s/^/water$edge-pme, $layout, steps 2000-2400: /" | tee -a "$summary"
    done
  done
  openmm_side --steps 200 --warmup 2000 --precision mixed --integrator langevin --water-edges 32 68
fi
if [[ $what == water-rigid ]]; then
  # Rigid SPC/E water (SETTLE) with PME at 5e-4, 9 A cutoffs, 2 fs, Langevin at 300 K (the
  # constraints benchmark): 20^3, 32^3 and 68^3 molecules (24,000, 98,304 and 943,296 atoms),
  # NovaMD and OpenMM in mixed precision, each timed after 2,000 steps (4 ps) of warm-up from
  # the lattice: NovaMD over the 2,000 steps of a restart from the warm-up's checkpoint, OpenMM
  # the median of 5 batches of 500 steps.
  rigid_set=(--set "constraints={bonds: none, water: settle}" --set integrator.timestep=2.0
    --set forces.0.lennard_jones.cutoff=9.0 --set forces.1.coulomb.cutoff=9.0)
  for edge in 20 32 68; do
    water_args $edge mixed 2000
    $build/novamd run "${water_run[@]}" "${rigid_set[@]}" \
      --set "output.checkpoint={file: /tmp/rigid$edge.chk}" 2>&1 |
      grep -E "particles|coulomb|constraints" | sed "s/^/water$edge-rigid: /" | tee -a "$summary"
    water_args $edge mixed 4000
    $build/novamd run "${water_run[@]}" "${rigid_set[@]}" --restart /tmp/rigid$edge.chk 2>&1 |
      grep -E "built|Done" | sed "s/^/water$edge-rigid, steps 2000-4000: /" | tee -a "$summary"
  done
  openmm_side --steps 500 --warmup 2000 --precision mixed --integrator langevin --rigid \
    --water-edges 20 32 68
  # Every kernel of some steps of the 24,000-atom rigid water (kernels_rigid.txt).
  water_args 20 mixed 2080
  ncu --clock-control none --metrics gpu__time_duration.sum --launch-skip 400 --launch-count 200 \
    $build/novamd run "${water_run[@]}" "${rigid_set[@]}" --restart /tmp/rigid20.chk \
    > "$OUT/ncu_kernels_rigid.txt" 2>&1
  kernel_medians "$OUT/ncu_kernels_rigid.txt" "rigid SPC/E water, 24,000 atoms, mixed, 2 fs" |
    tee "$OUT/kernels_rigid.txt" | tee -a "$summary"
fi
# The JAC benchmark's files in /tmp/dhfr (benchmarks/dhfr/dhfr.yaml: DHFR in TIP3P water, 23,558
# atoms, PME 9 A at 5e-4, bonds to hydrogens and waters held, Langevin), from the openmmtools
# wheel carried in .whl/ (its NetCDF coordinates turned into ASCII).
prepare_dhfr() {
  mkdir -p /tmp/dhfr
  python3 - <<'PY'
import glob, zipfile
wheel = zipfile.ZipFile(glob.glob(".whl/openmmtools-*.whl")[0])
for name in ("JAC.prmtop", "JAC.inpcrd"):
    open("/tmp/dhfr/" + name, "wb").write(wheel.read("openmmtools/data/dhfr/" + name))
PY
  python3 benchmarks/dhfr/netcdf_to_rst7.py /tmp/dhfr/JAC.inpcrd /tmp/dhfr/JAC.rst7
  cp benchmarks/dhfr/dhfr.yaml /tmp/dhfr/
}
if [[ $what == dhfr-pairs ]]; then
  # What bounds the pair kernel on DHFR at 2 fs, NovaMD's cluster pairs beside OpenMM's
  # computeNonbonded (76.8 against 38.8 us a step on 2026-11-27, before the split shared
  # arrays): Nsight Compute's full sections on two launches of each after 1,000 steps
  # (ncu_pairs_dhfr.txt, caches kept), and the SASS of the cluster pair kernels
  # (sass_clusters.txt).
  root=$PWD
  prepare_dhfr
  (cd /tmp/dhfr && "$root/$build/novamd" run dhfr.yaml --backend cuda --precision mixed \
     --steps 1000 --set "output.checkpoint={file: warm.chk}" > /dev/null 2>&1)
  sections=(--section SpeedOfLight --section ComputeWorkloadAnalysis --section Occupancy
    --section LaunchStats --section WarpStateStats --section InstructionStats
    --section SchedulerStats --section SourceCounters --section MemoryWorkloadAnalysis
    --metrics smsp__thread_inst_executed_per_inst_executed.ratio)
  (cd /tmp/dhfr && ncu --clock-control none --cache-control none \
     --kernel-name regex:cluster_pair_force --launch-skip 10 --launch-count 2 "${sections[@]}" \
     "$root/$build/novamd" run dhfr.yaml --backend cuda --precision mixed --steps 1030 \
     --restart warm.chk > "$OUT/ncu_pairs_dhfr.txt" 2>&1)
  if have_openmm; then
    (PYTHONPATH=/tmp/openmm-site ncu --clock-control none --cache-control none \
       --kernel-name computeNonbonded --launch-skip 300 --launch-count 2 "${sections[@]}" \
       python3 benchmarks/openmm/dhfr.py /tmp/dhfr/JAC.prmtop /tmp/dhfr/JAC.rst7 --timesteps 2 \
       --warmup 300 --steps 20 >> "$OUT/ncu_pairs_dhfr.txt" 2>&1)
  fi
  # Each opcode's count over one launch of each (InstructionStats' table): shuffles and MUFU
  # operations per tile step, and so the tiles and the instructions a step (ncu_opcodes_dhfr.txt).
  (cd /tmp/dhfr && ncu --clock-control none --cache-control none \
     --kernel-name regex:cluster_pair_force --launch-skip 10 --launch-count 1 \
     --section InstructionStats --print-details all \
     "$root/$build/novamd" run dhfr.yaml --backend cuda --precision mixed --steps 1030 \
     --restart warm.chk > "$OUT/ncu_opcodes_dhfr.txt" 2>&1)
  if have_openmm; then
    (PYTHONPATH=/tmp/openmm-site ncu --clock-control none --cache-control none \
       --kernel-name computeNonbonded --launch-skip 300 --launch-count 1 \
       --section InstructionStats --print-details all \
       python3 benchmarks/openmm/dhfr.py /tmp/dhfr/JAC.prmtop /tmp/dhfr/JAC.rst7 --timesteps 2 \
       --warmup 300 --steps 20 >> "$OUT/ncu_opcodes_dhfr.txt" 2>&1)
  fi
  grep -E "^  [a-zA-Z_].*\(|Duration|Compute \(SM\) Throughput|Memory Throughput|Issue Slots Busy|Achieved Occupancy|Registers Per|Executed Ipc Active|No Eligible|thread_inst_executed_per|Executed Instructions  |L1/TEX Hit|L2 Hit" \
    "$OUT/ncu_pairs_dhfr.txt" | sed 's/  */ /g' | cut -c1-160 | tee -a "$summary"
  cuobjdump -sass $build/novamd | cu++filt |
    awk '/Function :/ {keep = /cluster_pair_force_kernel<novamd::physics::PairSum/} keep' | head -n 40000 > "$OUT/sass_clusters.txt"
fi
if [[ $what == dhfr-quick ]]; then
  # The least a round can do where the budget is short: the program alone built, DHFR's forces
  # on the GPU (mixed) against the CPU's (`novamd check`), then DHFR at 2 fs with the default skin
  # (2,000 steps after 1,000) beside OpenMM, each line to summary.txt as it comes.
  root=$PWD
  prepare_dhfr
  (cd /tmp/dhfr && "$root/$build/novamd" check dhfr.yaml --backend cuda --precision mixed \
     --against cpu 2>&1) | tail -12 | sed "s/^/dhfr check: /" | tee -a "$summary"
  (cd /tmp/dhfr && "$root/$build/novamd" run dhfr.yaml --backend cuda --precision mixed \
     --steps 1000 --set "output.checkpoint={file: quick.chk}" > /dev/null 2>&1)
  (cd /tmp/dhfr && "$root/$build/novamd" run dhfr.yaml --backend cuda --precision mixed \
     --steps 3000 --restart quick.chk 2>&1) | grep -E "built|Done|run stopped" |
    sed "s/^/dhfr 2.0 fs, default skin, steps 1000-3000: /" | tee -a "$summary"
  if have_openmm; then
    PYTHONPATH=/tmp/openmm-site python3 benchmarks/openmm/dhfr.py /tmp/dhfr/JAC.prmtop \
      /tmp/dhfr/JAC.rst7 --timesteps 2 2>&1 | tee -a "$summary"
  fi
fi
if [[ $what == dhfr-sync ]]; then
  # What the host's wait for the list check costs: DHFR at 2 fs, default skin, with the lists
  # checked every 1, 2, 5 and 10 steps (the host waits for the device at each check, and can run
  # ahead of it only between checks). A timing experiment: between checks the lists are not
  # guaranteed to hold every pair within the cutoff.
  root=$PWD
  prepare_dhfr
  for every in 1 2 5 10; do
    (cd /tmp/dhfr && "$root/$build/novamd" run dhfr.yaml --backend cuda --precision mixed \
       --set neighbors.check_every=$every --steps 1000 \
       --set "output.checkpoint={file: sync$every.chk}" > /dev/null 2>&1)
    (cd /tmp/dhfr && "$root/$build/novamd" run dhfr.yaml --backend cuda --precision mixed \
       --set neighbors.check_every=$every --steps 3000 --restart sync$every.chk 2>&1) |
      grep -E "built|Done|run stopped" |
      sed "s/^/dhfr 2.0 fs, checked every $every steps, steps 1000-3000: /" | tee -a "$summary"
  done
fi
if [[ $what == dhfr-timeline ]]; then
  # Where the DHFR step's time goes on the GPU and on the host, NovaMD's and OpenMM's, from
  # CUPTI's activity records (benchmarks/timeline: Nsight Systems cannot run here): the GPU's
  # idle gaps, the kernels run beside each other, the host's time in each runtime call
  # (timeline_dhfr.txt).
  root=$PWD
  prepare_dhfr
  cuda_root=$(dirname "$(dirname "$(command -v nvcc)")")
  g++ -O2 -std=c++20 -shared -fPIC -I"$cuda_root/include" benchmarks/timeline/kernel_timeline.cpp \
    -o /tmp/libkernel_timeline.so -L"$cuda_root/lib64" -lcupti
  export LD_LIBRARY_PATH="$cuda_root/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  for dt in 2.0 4.0; do
    (cd /tmp/dhfr && "$root/$build/novamd" run dhfr.yaml --backend cuda --precision mixed \
       --set integrator.timestep=$dt --steps 1000 \
       --set "output.checkpoint={file: timeline$dt.chk}" > /dev/null 2>&1)
    (cd /tmp/dhfr && CUDA_INJECTION64_PATH=/tmp/libkernel_timeline.so \
       KERNEL_TIMELINE=/tmp/dhfr/novamd$dt.csv "$root/$build/novamd" run dhfr.yaml \
       --backend cuda --precision mixed --set integrator.timestep=$dt --steps 2000 \
       --restart timeline$dt.chk 2>&1) | grep -E "Done|run stopped" |
      sed "s/^/dhfr $dt fs under the timeline: /" | tee -a "$summary"
    python3 benchmarks/timeline/summarize.py /tmp/dhfr/novamd$dt.csv \
      --label "NovaMD DHFR $dt fs" --step-kernel pme_gather_kernel >> "$OUT/timeline_dhfr.txt"
    if have_openmm; then
      (PYTHONPATH=/tmp/openmm-site CUDA_INJECTION64_PATH=/tmp/libkernel_timeline.so \
         KERNEL_TIMELINE=/tmp/dhfr/openmm$dt.csv python3 benchmarks/openmm/dhfr.py \
         /tmp/dhfr/JAC.prmtop /tmp/dhfr/JAC.rst7 --timesteps ${dt%.0} --warmup 300 --steps 500 \
         2>&1) | sed "s/^/OpenMM under the timeline: /" | tee -a "$summary"
      python3 benchmarks/timeline/summarize.py /tmp/dhfr/openmm$dt.csv \
        --label "OpenMM DHFR $dt fs" --step-kernel gridInterpolateForce >> "$OUT/timeline_dhfr.txt"
    fi
  done
  grep -E "steps, per step" "$OUT/timeline_dhfr.txt" | tee -a "$summary"
fi
if [[ $what == dhfr ]]; then
  # The JAC benchmark (prepare_dhfr) at 2 and 4 fs, mixed precision. NovaMD timed over the 2,000
  # steps of a restart after 1,000 steps of warm-up; OpenMM (benchmarks/openmm/dhfr.py) the median
  # of 5 batches of 500 steps after 1,000.
  root=$PWD
  prepare_dhfr
  # At each time step with the default list skin (cluster pair lists: 0.28 x the cutoff, 2.52 A)
  # and with 1.5 to 3 A (DHFR_SKINS: those named, such as "default", instead).
  for dt in 2.0 4.0; do
    for skin in ${DHFR_SKINS:-default 1.5 2.0 2.5 3.0}; do
      skin_set=()
      [[ $skin != default ]] && skin_set=(--set neighbors.skin=$skin)
      (cd /tmp/dhfr && "$root/$build/novamd" run dhfr.yaml --backend cuda --precision mixed \
         --set integrator.timestep=$dt "${skin_set[@]}" --steps 1000 \
         --set "output.checkpoint={file: warm$dt-$skin.chk}" 2>&1) |
        grep -E "particles|coulomb \(|constraints|neighbors|run stopped" |
        sed "s/^/dhfr $dt fs, skin $skin: /" | tee -a "$summary"
      (cd /tmp/dhfr && "$root/$build/novamd" run dhfr.yaml --backend cuda --precision mixed \
         --set integrator.timestep=$dt "${skin_set[@]}" --steps 3000 \
         --restart warm$dt-$skin.chk 2>&1) |
        grep -E "built|Done|run stopped" | sed "s/^/dhfr $dt fs, skin $skin, steps 1000-3000: /" |
        tee -a "$summary"
    done
  done
  if have_openmm; then
    PYTHONPATH=/tmp/openmm-site python3 benchmarks/openmm/dhfr.py /tmp/dhfr/JAC.prmtop \
      /tmp/dhfr/JAC.rst7 --timesteps 2 4 2>&1 | tee -a "$summary"
  fi
  # Every kernel of some steps at 2 fs (kernels_dhfr.txt), caches kept between kernels as in a
  # run (Nsight Compute flushes them by default, which makes small kernels whose data sit in L2
  # look several times slower), NovaMD's and then OpenMM's.
  (cd /tmp/dhfr && ncu --clock-control none --cache-control none \
     --metrics gpu__time_duration.sum --launch-skip 400 \
     --launch-count 200 "$root/$build/novamd" run dhfr.yaml --backend cuda --precision mixed \
     --steps 1080 --restart warm2.0-default.chk > "$OUT/ncu_kernels_dhfr.txt" 2>&1)
  kernel_medians "$OUT/ncu_kernels_dhfr.txt" "DHFR (JAC), 23,558 atoms, mixed, 2 fs" |
    tee "$OUT/kernels_dhfr.txt" | head -25 | tee -a "$summary"
  if have_openmm; then
    (PYTHONPATH=/tmp/openmm-site ncu --clock-control none --cache-control none \
       --metrics gpu__time_duration.sum --launch-skip 3000 --launch-count 200 \
       python3 benchmarks/openmm/dhfr.py /tmp/dhfr/JAC.prmtop /tmp/dhfr/JAC.rst7 --timesteps 2 \
       --warmup 300 --steps 20 > /tmp/dhfr/ncu_kernels_openmm.txt 2>&1)
    kernel_medians /tmp/dhfr/ncu_kernels_openmm.txt "DHFR (JAC), OpenMM, mixed, 2 fs" |
      tee -a "$OUT/kernels_dhfr.txt" | head -25 | tee -a "$summary"
  fi
  # What bounds the constraint kernels: Nsight Compute's sections on two launches of each
  # (ncu_constraints.txt).
  (cd /tmp/dhfr && ncu --clock-control none --section SpeedOfLight --section Occupancy \
     --section WarpStateStats --section LaunchStats --section SchedulerStats \
     --section SourceCounters --kernel-name-base demangled \
     -k regex:"for_each_particle_kernel.*Constrain" --launch-skip 20 --launch-count 4 \
     "$root/$build/novamd" run dhfr.yaml --backend cuda --precision mixed --steps 1040 \
     --restart warm2.0-default.chk > "$OUT/ncu_constraints.txt" 2>&1)
  # And on the bonded sum and the fixed-point conversion, whose medians (some 20 and 12 us) are
  # several times what their bytes and latencies suggest (appended to ncu_constraints.txt: a
  # call brings back at most 8 files).
  (cd /tmp/dhfr && ncu --clock-control none --section SpeedOfLight --section Occupancy \
     --section WarpStateStats --section LaunchStats --section SchedulerStats \
     --section SourceCounters --section MemoryWorkloadAnalysis --kernel-name-base demangled \
     -k regex:"bonded_sum_kernel|fixed_forces_to_output" --launch-skip 10 --launch-count 4 \
     "$root/$build/novamd" run dhfr.yaml --backend cuda --precision mixed --steps 1040 \
     --restart warm2.0-default.chk >> "$OUT/ncu_constraints.txt" 2>&1)
fi
if [[ $what == drift ]]; then
  # Rigid SPC/E and TIP3P, 1,000 waters each (examples/water/make_water.py --model), at 2 fs:
  # 20 ps of Langevin from the lattice (examples/water/water_rigid.yaml), then 50 ps of constant
  # energy (benchmarks/drift/water_nve.yaml) from that state in NovaMD (mixed and double) and in
  # OpenMM (benchmarks/openmm/water_drift.py, mixed and double), on the same GPU: the drift of
  # the conserved energy, least squares over a row every 500 fs (drift.txt).
  root=$PWD
  have_openmm
  for model in spce tip3p; do
    d=/tmp/drift/$model
    mkdir -p $d
    python3 examples/water/make_water.py --model $model --out $d/water.data > /dev/null
    cp benchmarks/drift/water_nve.yaml $d/
    (cd $d && "$root/$build/novamd" run "$root/examples/water/water_rigid.yaml" --backend cuda \
       --precision mixed --set system.topology.read=$d/water.data --steps 10000 \
       --set output.trajectory=[] --set "output.data={file: $d/equilibrated.data}" \
       --set output.thermo.file=$d/equilibrate.csv 2>&1) | grep -E "Done|run stopped" |
      sed "s/^/drift $model, equilibration: /" | tee -a "$OUT/drift.txt"
    for precision in mixed double; do
      (cd $d && "$root/$build/novamd" run water_nve.yaml --backend cuda --precision $precision \
         --set output.thermo.file=$d/nve_$precision.csv 2>&1) | grep -E "run stopped" |
        tee -a "$OUT/drift.txt"
      python3 benchmarks/drift/drift.py $d/nve_$precision.csv --molecules 1000 \
        --label "$model $precision" | tee -a "$OUT/drift.txt"
      PYTHONPATH=/tmp/openmm-site python3 benchmarks/openmm/water_drift.py $d/equilibrated.data \
        --precision $precision 2>&1 | sed "s/^/$model: /" | tee -a "$OUT/drift.txt"
    done
  done
  cat "$OUT/drift.txt" >> "$summary"
fi
if [[ $what == all || $what == pme-profile ]]; then
  # Every kernel of a few steps of 8,000 flexible SPC/E waters (24,000 atoms, examples/water)
  # with PME in mixed precision: duration, throughput, occupancy (ncu_pme.txt), and the median
  # duration per kernel name; then the kernels of the neighbour-list builds of 120 steps
  # (binning, sort, list kernel, about 10 builds: ncu_pme_lists.txt).
  water_args 20 mixed 60
  ncu --clock-control none --launch-skip 200 --launch-count 80 \
    --section SpeedOfLight --section Occupancy --section LaunchStats \
    $build/novamd run "${water_run[@]}" > "$OUT/ncu_pme.txt" 2>&1
  water_args 20 mixed 120
  ncu --clock-control none --launch-count 60 \
    --kernel-name regex:"build_lists|cell_of|cell_ranges|Radix" \
    --section SpeedOfLight --section Occupancy --section LaunchStats \
    $build/novamd run "${water_run[@]}" > "$OUT/ncu_pme_lists.txt" 2>&1
  for file in ncu_pme.txt ncu_pme_lists.txt; do
    kernel_medians "$OUT/$file" "PME water, 24,000 atoms" | tee -a "$summary"
  done
fi
if [[ $what == all || $what == lj-profile ]]; then
  # Every kernel of the first steps of the melt at 62,500 atoms, mixed precision: duration,
  # memory and compute throughput, occupancy.
  ncu --clock-control none --launch-count 60 \
    --section SpeedOfLight --section Occupancy --section LaunchStats \
    $build/novamd bench --case lj --backend cuda --precision mixed --sizes 62500 --warmup 3 \
    --steps 3 > "$OUT/ncu_lj.txt" 2>&1
  grep -E "^  [a-z_]+.*\(|Duration|Memory Throughput|DRAM Throughput|Compute \(SM\) Throughput|Achieved Occupancy|Registers Per" \
    "$OUT/ncu_lj.txt" | sed 's/  */ /g' | cut -c1-150 | head -150
fi
if [[ $what == profile ]]; then
  # Nsight Compute on the force kernels at 27,648 ions: throughput, pipes, occupancy, stalls.
  for precision in double mixed; do
    ncu --clock-control none --kernel-name regex:all_pairs --launch-skip 8 --launch-count 2 \
      --section SpeedOfLight --section ComputeWorkloadAnalysis --section Occupancy \
      --section LaunchStats --section WarpStateStats --section InstructionStats \
      $build/novamd bench --backend cuda --precision $precision --sizes 27648 --steps 2 \
      --warmup 0 > "$OUT/ncu_$precision.txt" 2>&1
    grep -E "all_pairs|Duration|Compute \(SM\) Throughput|Issue Slots Busy|Achieved Occupancy|Theoretical Occupancy|Registers Per|Executed Ipc Active|No Eligible" \
      "$OUT/ncu_$precision.txt" | sed 's/  */ /g' | cut -c1-150
  done
fi
exit $status
