"""Fixtures of the Python package's tests: the novamd program the command line's side runs
(NOVAMD_BINARY, else build/novamd), the repository's examples, and a small Lennard-Jones
liquid as a config dict."""

import os
import pathlib
import subprocess

import pytest

import novamd

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="session")
def novamd_binary():
    path = pathlib.Path(os.environ.get("NOVAMD_BINARY", ROOT / "build" / "novamd"))
    if not path.exists():
        pytest.fail(f"{path}: the novamd program is not built (set NOVAMD_BINARY)")
    return path


@pytest.fixture
def run_cli(novamd_binary):
    """Runs ``novamd ARGS`` in a folder; returns the completed process."""

    def run(args, cwd, check=True):
        result = subprocess.run([str(novamd_binary), *map(str, args)], cwd=cwd,
                                capture_output=True, text=True)
        if check and result.returncode != 0:
            raise AssertionError(f"novamd {args} exited {result.returncode}:\n{result.stderr}")
        return result

    return run


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    """The test runs in a fresh folder (outputs land there)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def lj_liquid(cells=4, steps=100, **extra):
    """A Lennard-Jones liquid of 4 cells^3 atoms at rho* = 0.8442, T* = 1.44, as a config dict."""
    config = {
        "units": "lj",
        "seed": 11,
        "system": {
            "density": 0.8442,
            "species": [{"name": "Ar", "mass": 1.0}],
            "structure": {"generate": {"lattice": "fcc", "cells": cells,
                                       "fractions": {"Ar": 1.0}}},
            "velocities": {"temperature": 1.44},
        },
        "forces": [{"lennard_jones": {"pairs": [{"types": ["Ar", "Ar"], "epsilon": 1.0,
                                                 "sigma": 1.0}],
                                      "cutoff": 2.5, "truncation": "shift"}}],
        "neighbors": {"method": "auto", "skin": 0.3},
        "integrator": {"type": "velocity_verlet", "timestep": 0.005},
        "run": {"steps": steps},
        "output": {"thermo": {"every": 10, "file": "thermo.csv"}},
    }
    config.update(extra)
    return config


def whole_and_in_pieces(backend, pieces=(1, 29, 50, 0, 40)):
    """The LJ liquid run once for sum(pieces) steps and once in `pieces`: their simulations."""
    config = lj_liquid(steps=sum(pieces), output={"thermo": {"file": "none"}}, backend=backend)
    whole = novamd.Simulation(config)
    whole.run(sum(pieces))
    parts = novamd.Simulation(config)
    for steps in pieces:
        parts.run(steps)
    return whole, parts
