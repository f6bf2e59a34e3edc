#!/usr/bin/env bash
# `pip install .` from the repository root into a new virtual environment, as a user installs
# the Python package; then the package imports outside the repository, runs a short simulation,
# and the `novamd` program it installed runs. The CPU backend only (CUDA builds on the GPU
# machine), without the tests and fuzz targets.
#
#   tests/scripts/pip_install_check.sh WORK_DIR
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$1"
rm -rf "$work"
mkdir -p "$work"
# Debian's Python, whose NumPy the environment sees (pip would fetch one otherwise).
/usr/bin/python3 -m venv --system-site-packages "$work/env"
"$work/env/bin/python" -m pip install -q \
  --config-settings=cmake.define.NOVAMD_ENABLE_CUDA=OFF --config-settings=build-dir="$work/build" \
  "$root"
cd "$work"
"$work/env/bin/python" - <<'PY'
import novamd
sim = novamd.Simulation({
    "units": "lj",
    "system": {"density": 0.8442, "species": [{"name": "Ar", "mass": 1.0}],
               "structure": {"generate": {"lattice": "fcc", "cells": 4, "fractions": {"Ar": 1.0}}},
               "velocities": {"temperature": 1.44}},
    "forces": [{"lennard_jones": {"pairs": [{"types": ["Ar", "Ar"], "epsilon": 1.0, "sigma": 1.0}],
                                  "cutoff": 2.5}}],
    "integrator": {"type": "velocity_verlet", "timestep": 0.005},
    "run": {"steps": 20}, "output": {"thermo": {"file": "none"}}})
sim.run()
assert sim.step == 20 and sim.state().positions.shape == (256, 3), sim
print("installed:", novamd.__file__, novamd.__version__, sim)
PY
"$work/env/bin/novamd" --version
echo "pip install: passed"
