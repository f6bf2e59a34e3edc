"""Every bond held on the AMBER example system, by OpenMM's Reference platform (CCMA), the
reference for NovaMD's `constraints: {bonds: all_bonds}` (CoupledConstraints.* in
tests/unit/test_coupled_constraints.cpp). Writes all_bonds_reference.json.

The dipeptide's 22 atoms are moved off their bond lengths (normal displacements of 0.03 A,
numpy's default_rng(11)) and given random velocities (0.01 A/fs); the waters stay as the file
has them, at rest. OpenMM then projects the positions onto the constraints
(Context.applyConstraints, tolerance 1e-12) and the velocities (applyVelocityConstraints, at the
projected positions). The JSON holds the dipeptide's displaced positions and velocities (the
input) and OpenMM's projected ones, in A and A/fs, by atom.

    venv/bin/python all_bonds_reference.py   # the venv of reference_energies.py (openmm 8.6.1)
"""

import json
import pathlib

import numpy as np
import openmm
from openmm import app, unit

HERE = pathlib.Path(__file__).resolve().parent
EXAMPLE = HERE.parents[2] / "examples" / "amber-dipeptide"
SOLUTE = 22
TOLERANCE = 1e-12

prmtop = app.AmberPrmtopFile(str(EXAMPLE / "dipeptide.prmtop"))
inpcrd = app.AmberInpcrdFile(str(EXAMPLE / "dipeptide.inpcrd"))
system = prmtop.createSystem(nonbondedMethod=app.CutoffPeriodic,
                             nonbondedCutoff=1.0 * unit.nanometer, constraints=app.AllBonds,
                             rigidWater=True, removeCMMotion=False)
integrator = openmm.VerletIntegrator(0.001)
context = openmm.Context(system, integrator, openmm.Platform.getPlatformByName("Reference"))
context.setPeriodicBoxVectors(*inpcrd.boxVectors)

rng = np.random.default_rng(11)
positions = np.array(inpcrd.positions.value_in_unit(unit.angstrom))
positions[:SOLUTE] += rng.normal(0.0, 0.03, (SOLUTE, 3))
velocities = np.zeros_like(positions)
velocities[:SOLUTE] = rng.normal(0.0, 0.01, (SOLUTE, 3))  # A/fs

A_PER_FS = 100.0  # nm/ps per A/fs
context.setPositions(positions * 0.1)
context.setVelocities(velocities * A_PER_FS)
context.applyConstraints(TOLERANCE)
context.applyVelocityConstraints(TOLERANCE)
state = context.getState(getPositions=True, getVelocities=True)
held_positions = np.array(state.getPositions().value_in_unit(unit.angstrom))
held_velocities = np.array(state.getVelocities().value_in_unit(unit.nanometer / unit.picosecond))
held_velocities /= A_PER_FS

solute_constraints = sum(1 for k in range(system.getNumConstraints())
                         if max(system.getConstraintParameters(k)[:2]) < SOLUTE)
(HERE / "all_bonds_reference.json").write_text(json.dumps({
    "produced_by": f"all_bonds_reference.py, OpenMM {openmm.version.full_version}",
    "tolerance": TOLERANCE,
    "solute_atoms": SOLUTE,
    "solute_constraints": solute_constraints,
    "positions": positions[:SOLUTE].tolist(),
    "velocities": velocities[:SOLUTE].tolist(),
    "held_positions": held_positions[:SOLUTE].tolist(),
    "held_velocities": held_velocities[:SOLUTE].tolist()}, indent=1) + "\n")
print(f"{solute_constraints} solute constraints; largest position change "
      f"{np.abs(held_positions[:SOLUTE] - positions[:SOLUTE]).max():.3g} A")
