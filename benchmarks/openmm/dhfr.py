"""OpenMM beside NovaMD on the JAC (DHFR) benchmark, same GPU (scripts/device/test.sh dhfr).

    python3 benchmarks/openmm/dhfr.py JAC.prmtop JAC.rst7 [--timesteps 2 4] [--steps 500]

The system as benchmarks/dhfr/dhfr.yaml runs it in NovaMD: the prmtop's masses as they are
(hydrogens 3.024 g/mol), PME at 9 A with ewaldErrorTolerance 5e-4, the dispersion correction,
bonds to hydrogens and rigid waters held at a constraint tolerance of 1e-5 (OpenMM's default),
LangevinMiddleIntegrator at 300 K and 1/ps, mixed precision on the CUDA platform. Prints ms/step
and ns/day per time step: the median of 5 batches of --steps steps after --warmup steps, each
batch waited for by reading the state.
"""

import argparse

import openmm
from openmm import app, unit

from molecular import median_ms_per_step


def ms_per_step(prmtop, coordinates, timestep_fs, steps, warmup):
    system = prmtop.createSystem(nonbondedMethod=app.PME, nonbondedCutoff=0.9 * unit.nanometer,
                                 constraints=app.HBonds, rigidWater=True,
                                 ewaldErrorTolerance=5e-4)
    integrator = openmm.LangevinMiddleIntegrator(300 * unit.kelvin, 1 / unit.picosecond,
                                                 timestep_fs * unit.femtosecond)
    integrator.setConstraintTolerance(1e-5)
    platform = openmm.Platform.getPlatformByName("CUDA")
    context = openmm.Context(system, integrator, platform, {"Precision": "mixed"})
    context.setPositions(coordinates.positions)
    if coordinates.boxVectors is not None:
        context.setPeriodicBoxVectors(*coordinates.boxVectors)
    context.setVelocitiesToTemperature(300 * unit.kelvin, 2026)
    integrator.step(warmup)
    return median_ms_per_step(context, integrator, steps)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("prmtop")
    parser.add_argument("coordinates")
    parser.add_argument("--timesteps", type=float, nargs="+", default=[2.0, 4.0])
    parser.add_argument("--steps", type=int, default=500)
    parser.add_argument("--warmup", type=int, default=1000)
    args = parser.parse_args()
    prmtop = app.AmberPrmtopFile(args.prmtop)
    coordinates = app.AmberInpcrdFile(args.coordinates)
    print(f"OpenMM {openmm.version.full_version}, CUDA platform, mixed precision")
    print(f"{'system':>8} {'atoms':>7} {'dt fs':>6} {'ms/step':>9} {'ns/day':>8}")
    for dt in args.timesteps:
        ms = ms_per_step(prmtop, coordinates, dt, args.steps, args.warmup)
        print(f"{'dhfr':>8} {prmtop.topology.getNumAtoms():>7} {dt:>6.1f} {ms:>9.4f} "
              f"{86400e3 * dt * 1e-6 / ms:>8.0f}", flush=True)


if __name__ == "__main__":
    main()
