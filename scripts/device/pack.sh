#!/usr/bin/env bash
# Builds the program and the CUDA tests on this machine (no GPU needed: nvcc compiles for sm_90)
# in a clone of the working tree at /tmp/ci, and packs them into build-ci/ (git-ignored) for
# `PREBUILT=1 scripts/device/test.sh MODE` on the GPU machine (run with carry: [".r123", ".fftw",
# "build-ci"]). The binaries carry the clone's paths (/tmp/ci), which test.sh links to the
# machine's copy of the tree. The GPU machine lacks yaml-cpp's shared library: it travels in
# build-ci/lib. Some 15 minutes on 2 cores from nothing; a clone left by an earlier call is
# brought to HEAD and its build reused (minutes where few files changed).
#
#   scripts/device/pack.sh            # commits only: the clone is of HEAD
#   FRESH=1 scripts/device/pack.sh    # a new clone and build
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
if [[ ${FRESH:-0} == 1 || ! -d /tmp/ci/.git || ! -f /tmp/ci/build/build.ninja ]]; then
  rm -rf /tmp/ci
  git clone -q "$root" /tmp/ci
else
  git -C /tmp/ci fetch -q "$root" HEAD
  git -C /tmp/ci checkout -q --detach FETCH_HEAD
fi
cp -r "$root/.r123" "$root/.fftw" /tmp/ci/ 2>/dev/null || true
cmake -S /tmp/ci -B /tmp/ci/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DNOVAMD_ENABLE_CUDA=ON \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DNOVAMD_ENABLE_MPI=OFF > /dev/null
cmake --build /tmp/ci/build --target novamd novamd_cuda_tests
mkdir -p build-ci/lib
(cd /tmp/ci/build && tar -cf - novamd tests/novamd_cuda_tests) | xz -T0 -2 > build-ci/bins.tar.xz
cp -L /lib/x86_64-linux-gnu/libyaml-cpp.so.0.7 build-ci/lib/
git -C /tmp/ci log --oneline -1
ls -l build-ci/bins.tar.xz
