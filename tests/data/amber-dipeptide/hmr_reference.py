"""Each atom's mass after OpenMM's hydrogen mass repartitioning of the AMBER example system, the
reference for NovaMD's `system.topology.hydrogen_mass` (HydrogenMass.* in
tests/unit/test_hydrogen_mass.cpp). Writes hmr_reference.json: the masses in g/mol, in atom
order, for hydrogenMass 3.024 amu with rigid water (OpenMM then leaves the waters' hydrogens as
they are) and bonds to hydrogens constrained, as benchmarks/dhfr runs.

    venv/bin/python hmr_reference.py   # the venv of reference_energies.py (openmm 8.6.1)
"""

import json
import pathlib

import openmm
from openmm import app, unit

HERE = pathlib.Path(__file__).resolve().parent
EXAMPLE = HERE.parents[2] / "examples" / "amber-dipeptide"

prmtop = app.AmberPrmtopFile(str(EXAMPLE / "dipeptide.prmtop"))
system = prmtop.createSystem(nonbondedMethod=app.CutoffPeriodic,
                             nonbondedCutoff=1.0 * unit.nanometer, constraints=app.HBonds,
                             rigidWater=True, hydrogenMass=3.024 * unit.amu)
masses = [system.getParticleMass(i).value_in_unit(unit.dalton)
          for i in range(system.getNumParticles())]
(HERE / "hmr_reference.json").write_text(json.dumps({
    "produced_by": f"hmr_reference.py, OpenMM {openmm.version.full_version}",
    "hydrogen_mass": 3.024,
    "masses": masses}, indent=1) + "\n")
print(f"{len(masses)} masses, total {sum(masses):.12g}")
