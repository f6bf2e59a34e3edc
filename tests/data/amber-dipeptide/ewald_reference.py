"""Ewald reference energies of the AMBER example system (examples/amber-dipeptide) from OpenMM's
Reference platform in double precision: the NonbondedForce with nonbondedMethod=Ewald at a tight
error tolerance, split into its Lennard-Jones and Coulomb parts.

    python ewald_reference.py [--tolerance 1e-8] [--out ewald_reference.json]

The system is built by OpenMM's AMBER reader (app.AmberPrmtopFile / AmberInpcrdFile) with
nonbondedMethod=Ewald, nonbondedCutoff=1.0 nm, ewaldErrorTolerance as given, constraints=None,
rigidWater=False; the NonbondedForce's dispersion correction is turned off. OpenMM chooses
alpha = sqrt(-ln(2 tol)) / r_c (as NovaMD does) and its own kmax; at 1e-8 both sums are
converged far below the 1e-6 the test asks. Parts, in kcal/mol (kJ/mol / 4.184):
- lj: the NonbondedForce with every charge (particles and exceptions) zeroed: LJ cut at 1 nm and
  the scaled 1-4 LJ exceptions;
- coulomb: with every epsilon zeroed: the Ewald sum (real space, reciprocal space, self energy,
  excluded-pair corrections) and the scaled 1-4 Coulomb exceptions;
- nonbonded: the NonbondedForce whole.
"""

import argparse
import json
import pathlib

import openmm
from openmm import app, unit

HERE = pathlib.Path(__file__).resolve().parent
EXAMPLE = HERE.parents[2] / "examples" / "amber-dipeptide"
KJ_PER_KCAL = 4.184


def nonbonded_energy_kcal(system, positions, charges, epsilons):
    copy = openmm.XmlSerializer.deserialize(openmm.XmlSerializer.serialize(system))
    for i in reversed(range(copy.getNumForces())):
        if not isinstance(copy.getForce(i), openmm.NonbondedForce):
            copy.removeForce(i)
    force = copy.getForce(0)
    for i in range(force.getNumParticles()):
        q, sigma, eps = force.getParticleParameters(i)
        force.setParticleParameters(i, q if charges else 0.0, sigma, eps if epsilons else 0.0)
    for e in range(force.getNumExceptions()):
        i, j, qq, sigma, eps = force.getExceptionParameters(e)
        force.setExceptionParameters(e, i, j, qq if charges else 0.0, sigma,
                                     eps if epsilons else 0.0)
    context = openmm.Context(copy, openmm.VerletIntegrator(1.0),
                             openmm.Platform.getPlatformByName("Reference"))
    context.setPositions(positions)
    kj = context.getState(getEnergy=True).getPotentialEnergy().value_in_unit(
        unit.kilojoule_per_mole)
    return kj / KJ_PER_KCAL


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tolerance", type=float, default=1e-8)
    parser.add_argument("--out", default=str(HERE / "ewald_reference.json"))
    args = parser.parse_args()
    prmtop = app.AmberPrmtopFile(str(EXAMPLE / "dipeptide.prmtop"))
    inpcrd = app.AmberInpcrdFile(str(EXAMPLE / "dipeptide.inpcrd"))
    system = prmtop.createSystem(nonbondedMethod=app.Ewald, nonbondedCutoff=1.0 * unit.nanometer,
                                 ewaldErrorTolerance=args.tolerance, constraints=None,
                                 rigidWater=False)
    force = next(f for f in system.getForces() if isinstance(f, openmm.NonbondedForce))
    force.setUseDispersionCorrection(False)
    system.setDefaultPeriodicBoxVectors(*inpcrd.boxVectors)
    positions = inpcrd.positions
    parts = {
        "lj": nonbonded_energy_kcal(system, positions, charges=False, epsilons=True),
        "coulomb": nonbonded_energy_kcal(system, positions, charges=True, epsilons=False),
        "nonbonded": nonbonded_energy_kcal(system, positions, charges=True, epsilons=True),
    }
    out = {
        "openmm_version": openmm.version.full_version,
        "platform": "Reference (double)",
        "method": "NonbondedForce.Ewald",
        "ewald_error_tolerance": args.tolerance,
        "cutoff_angstrom": 10.0,
        "dispersion_correction": False,
        "units": "kcal/mol",
        "energies_kcal_mol": {k: float(f"{v:.12g}") for k, v in parts.items()},
    }
    for k, v in parts.items():
        print(f"{k:>10} {v:.12g}")
    pathlib.Path(args.out).write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
