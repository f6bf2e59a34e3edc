"""PME reference of the AMBER example system (examples/amber-dipeptide) from OpenMM's Reference
platform in double precision: the NonbondedForce with nonbondedMethod=PME at a given error
tolerance, the alpha and grid OpenMM chooses for it, its Coulomb and Lennard-Jones energies and
every particle's nonbonded force.

    python pme_reference.py [--tolerance 1e-6] [--out pme_reference.json]

The system as in ewald_reference.py (OpenMM's AMBER reader, cutoff 1.0 nm, no constraints, no
dispersion correction), the NonbondedForce alone: LJ cut at 1 nm, real space, PME reciprocal
space (B-spline order 5, OpenMM's only order), self energy, excluded-pair corrections and the
scaled 1-4 exceptions; `coulomb_energy` with every epsilon zeroed. Energies in kcal/mol, alpha
in 1/A, forces in kcal/mol/A (OpenMM's kJ/mol/nm divided by 41.84), in the prmtop's atom order.
"""

import argparse
import json
import pathlib

import openmm
from openmm import app, unit

HERE = pathlib.Path(__file__).resolve().parent
EXAMPLE = HERE.parents[2] / "examples" / "amber-dipeptide"
KJ_PER_KCAL = 4.184


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tolerance", type=float, default=1e-6)
    parser.add_argument("--out", default=str(HERE / "pme_reference.json"))
    args = parser.parse_args()
    prmtop = app.AmberPrmtopFile(str(EXAMPLE / "dipeptide.prmtop"))
    inpcrd = app.AmberInpcrdFile(str(EXAMPLE / "dipeptide.inpcrd"))
    system = prmtop.createSystem(nonbondedMethod=app.PME, nonbondedCutoff=1.0 * unit.nanometer,
                                 ewaldErrorTolerance=args.tolerance, constraints=None,
                                 rigidWater=False)
    for i in reversed(range(system.getNumForces())):
        if not isinstance(system.getForce(i), openmm.NonbondedForce):
            system.removeForce(i)
    force = system.getForce(0)
    force.setUseDispersionCorrection(False)
    system.setDefaultPeriodicBoxVectors(*inpcrd.boxVectors)
    platform = openmm.Platform.getPlatformByName("Reference")
    context = openmm.Context(system, openmm.VerletIntegrator(1.0), platform)
    context.setPositions(inpcrd.positions)
    alpha, nx, ny, nz = force.getPMEParametersInContext(context)
    state = context.getState(getEnergy=True, getForces=True)
    nonbonded = state.getPotentialEnergy().value_in_unit(unit.kilojoule_per_mole) / KJ_PER_KCAL
    forces = state.getForces(asNumpy=True).value_in_unit(
        unit.kilojoule_per_mole / unit.nanometer) / (10.0 * KJ_PER_KCAL)
    for i in range(force.getNumParticles()):
        q, sigma, _ = force.getParticleParameters(i)
        force.setParticleParameters(i, q, sigma, 0.0)
    for e in range(force.getNumExceptions()):
        i, j, qq, sigma, _ = force.getExceptionParameters(e)
        force.setExceptionParameters(e, i, j, qq, sigma, 0.0)
    force.updateParametersInContext(context)
    energy = context.getState(getEnergy=True).getPotentialEnergy().value_in_unit(
        unit.kilojoule_per_mole) / KJ_PER_KCAL
    out = {
        "openmm_version": openmm.version.full_version,
        "platform": "Reference (double)",
        "method": "NonbondedForce.PME",
        "ewald_error_tolerance": args.tolerance,
        "cutoff_angstrom": 10.0,
        "alpha_per_angstrom": alpha / 10.0,
        "grid": [nx, ny, nz],
        "order": 5,
        "units": "kcal/mol, kcal/mol/A",
        "coulomb_energy": float(f"{energy:.12g}"),
        "nonbonded_energy": float(f"{nonbonded:.12g}"),
        "forces": [[float(f"{c:.10g}") for c in f] for f in forces.tolist()],
    }
    print(f"alpha {alpha / 10.0:.12g} /A, grid {nx} {ny} {nz}, Coulomb {energy:.12g}, "
          f"nonbonded {nonbonded:.12g} kcal/mol")
    pathlib.Path(args.out).write_text(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
