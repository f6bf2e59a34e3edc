#!/usr/bin/env bash
# Installs what a fresh Debian/Ubuntu machine lacks (apt), then configures NovaMD in build/ and
# builds the `novamd` command first. Safe to run again: it installs nothing that is there and
# rebuilds only what changed.
#
#   scripts/setup.sh [--tests] [CMAKE_ARGS...]
#
# --tests also installs what the test suite needs (the Python packages that read trajectories
# back, clang for the fuzz targets, LAMMPS to read written data files back), makes the Python
# environment build/python-env (Debian's Python with its packages, plus nanobind and
# scikit-build-core from PyPI) for the Python package's extension, and builds the tests. Other arguments go to CMake's configure step, e.g. scripts/setup.sh
# -DNOVAMD_ENABLE_CUDA=OFF. Ninja and ccache are used where present.
set -euo pipefail
cd "$(dirname "$0")/.."

with_tests=0
cmake_args=()
for arg in "$@"; do
  case "$arg" in
    --tests) with_tests=1 ;;
    -h|--help) sed -n '2,10p' "$0" | cut -c3-; exit 0 ;;
    *) cmake_args+=("$arg") ;;
  esac
done

packages=(g++ cmake ninja-build git pkg-config libyaml-cpp-dev libcli11-dev libfmt-dev
          libspdlog-dev libgtest-dev librandom123-dev zlib1g-dev libhdf5-dev libfftw3-dev
          libopenmpi-dev
          openmpi-bin)
if ((with_tests)); then
  packages+=(python3-h5py python3-mdanalysis python3-ase python3-gsd python3-numpy python3-matplotlib clang
             libclang-rt-dev lammps python3-dev python3-venv python3-pytest)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The Python package's build tools, in an environment that sees Debian's Python packages.
if ((with_tests)); then
  env_dir=build/python-env
  if [[ ! -x $env_dir/bin/python ]]; then
    /usr/bin/python3 -m venv --system-site-packages "$env_dir"
  fi
  if ! "$env_dir/bin/python" -c "import nanobind, scikit_build_core" 2>/dev/null; then
    echo "setup: installing nanobind and scikit-build-core into $env_dir"
    "$env_dir/bin/python" -m pip install -q nanobind scikit-build-core
  fi
  cmake_args+=(-DPython_EXECUTABLE="$PWD/$env_dir/bin/python")
fi

# Ninja for a new build directory (an existing one keeps the generator it was made with).
if [[ ! -f build/CMakeCache.txt ]] && command -v ninja >/dev/null; then
  cmake_args=(-G Ninja "${cmake_args[@]}")
fi
if command -v ccache >/dev/null; then
  cmake_args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
fi

jobs=$(nproc 2>/dev/null || echo 2)
started=$SECONDS
cmake -S . -B build "${cmake_args[@]}" >/dev/null
cmake --build build -j "$jobs" --target novamd
echo "setup: build/novamd is ready ($((SECONDS - started)) s); try: mkdir -p runs && cd runs &&" \
  "../build/novamd run ../examples/white_dwarf_co.yaml"
if ((with_tests)); then
  cmake --build build -j "$jobs"
  echo "setup: the tests are built; run them with: ctest --test-dir build --output-on-failure -j 2"
fi
