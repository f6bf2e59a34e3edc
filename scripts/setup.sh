#!/usr/bin/env bash
# Installs what a fresh Debian/Ubuntu machine lacks (apt), then configures and builds NovaMD in
# build/. Safe to run again: it installs nothing that is there and rebuilds only what changed.
# Extra arguments go to CMake's configure step, e.g. scripts/setup.sh -DNOVAMD_ENABLE_CUDA=OFF
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(g++ cmake make git pkg-config libyaml-cpp-dev libcli11-dev libfmt-dev libspdlog-dev
          libgtest-dev librandom123-dev zlib1g-dev libhdf5-dev python3-h5py python3-mdanalysis
          python3-numpy python3-matplotlib libopenmpi-dev openmpi-bin clang libclang-rt-dev)
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

jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build "$@" >/dev/null
cmake --build build -j "$jobs"
