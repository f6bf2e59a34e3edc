"""OpenMM beside NovaMD on the molecular benchmarks, same GPU (scripts/device/test.sh molecular).

    python3 benchmarks/openmm/molecular.py [--steps N] [--precision mixed|double ...]
        [--water-edges N ... [--integrator verlet|langevin ...] [--rigid] [--warmup N]
         [--barostat-every 0 25 100 ...]]

Five systems, each as NovaMD runs it:

- dipeptide: examples/amber-dipeptide (2,605 atoms, ff14SB and flexible TIP3P from the prmtop),
  LJ cut at 10 A and reaction-field Coulomb (CutoffPeriodic, epsilon_rf 78.3), no constraints,
  velocity Verlet at 0.5 fs. NovaMD: `novamd run examples/amber-dipeptide/dipeptide.yaml`.
- dipeptide-pme: the same with PME at ewaldErrorTolerance 1e-5 (OpenMM's alpha and grid rule,
  order 5). NovaMD: `novamd run examples/amber-dipeptide/dipeptide_pme.yaml`.
- water: seed 002's case of `novamd bench --case ornl`, 17^3 = 4,913 flexible SPC/E waters at
  1 g/cm^3 (14,739 atoms, box 52.77 A), harmonic O-H bonds and H-O-H angles, 1-2 and 1-3 pairs
  excluded, LJ and Coulomb cut at 10 A, 0.5 fs. OpenMM's cutoff Coulomb is reaction field
  (epsilon_rf 1 here: the potential shifted to zero at the cutoff) where NovaMD's bench uses the
  force-shifted form: the same pairs and the same work per pair. Molecules on the same lattice,
  oriented at random with another generator than NovaMD's.
- water-pme: the same water with PME at ewaldErrorTolerance 5e-4 (OpenMM's default; NovaMD's
  `bench --case ornl` times the same in its last table).
- water24k-pme: 20^3 = 8,000 such waters (24,000 atoms, 62.1 A) with PME at 5e-4: NovaMD's
  examples/water/water_pme.yaml on `make_water.py --per-edge 20` (scripts/device/test.sh).
- with --water-edges N and --barostat-every K ...: the same water under OpenMM's
  MonteCarloBarostat at 1 bar and 300 K, a try every K steps (0: none), as NovaMD's `barostat:
  {type: monte_carlo, pressure: 1 bar, every: K}` (scripts/device/test.sh barostat).
- with --water-edges N and --rigid: N^3 rigid SPC/E waters (OpenMM's three distance constraints
  of a water, which it solves with SETTLE; no bond or angle force), PME at 5e-4 with 9 A
  cutoffs, 2 fs: the constraints benchmark (`scripts/device/test.sh water-rigid`; NovaMD's
  water_pme.yaml with `constraints: {bonds: none, water: settle}` and the same settings).

Prints ms/step per system and precision (median of 5 batches of --steps steps after a warm-up,
each batch waited for by reading the state), and for the dipeptide the step-0 potential energy of
the CUDA platform beside the Reference platform's.
"""

import argparse
import math
import pathlib
import statistics
import time

import numpy as np
import openmm
from openmm import app, unit

ROOT = pathlib.Path(__file__).resolve().parents[2]
DIPEPTIDE = ROOT / "examples" / "amber-dipeptide"
TIMESTEP_FS = 0.5
CUTOFF_NM = 1.0


def dipeptide_system(method=app.CutoffPeriodic):
    prmtop = app.AmberPrmtopFile(str(DIPEPTIDE / "dipeptide.prmtop"))
    inpcrd = app.AmberInpcrdFile(str(DIPEPTIDE / "dipeptide.inpcrd"))
    system = prmtop.createSystem(nonbondedMethod=method,
                                 nonbondedCutoff=CUTOFF_NM * unit.nanometer,
                                 ewaldErrorTolerance=1e-5, constraints=None, rigidWater=False)
    for force in system.getForces():
        if isinstance(force, openmm.NonbondedForce):
            force.setReactionFieldDielectric(78.3)
            force.setUseDispersionCorrection(False)
    return system, inpcrd.positions, inpcrd.boxVectors


def water_system(per_edge=17, seed=2026, pme=False, rigid=False, cutoff_nm=CUTOFF_NM):
    """SPC/E (Berendsen et al. 1987) on a cubic lattice, flexible: K_b 450 kcal/mol/A^2 at 1 A,
    K_theta 55 kcal/mol/rad^2 at 109.47 degrees (V = K (x - x0)^2, as in NovaMD); or rigid: the
    O-H and H-H distances constrained instead."""
    molecules = per_edge ** 3
    edge_a = (molecules * 18.0153 / 0.6022140857) ** (1.0 / 3.0)
    spacing = edge_a / per_edge
    kcal = 4.184  # kJ per kcal
    system = openmm.System()
    nonbonded = openmm.NonbondedForce()
    nonbonded.setNonbondedMethod(openmm.NonbondedForce.PME if pme
                                 else openmm.NonbondedForce.CutoffPeriodic)
    nonbonded.setEwaldErrorTolerance(5e-4)  # OpenMM's default; NovaMD's bench uses the same
    nonbonded.setCutoffDistance(cutoff_nm)
    nonbonded.setReactionFieldDielectric(1.0)
    nonbonded.setUseDispersionCorrection(False)
    bonds = openmm.HarmonicBondForce()
    angles = openmm.HarmonicAngleForce()
    rng = np.random.default_rng(seed)
    half = 0.5 * math.radians(109.47)
    positions = []
    bond_pairs = []
    sigma_nm, epsilon_kj = 0.3166, 0.1553 * kcal
    for m in range(molecules):
        o = np.array([(m % per_edge + 0.5), (m // per_edge % per_edge + 0.5),
                      (m // per_edge ** 2 + 0.5)]) * spacing
        a = rng.normal(size=3)
        a /= np.linalg.norm(a)
        b = rng.normal(size=3)
        b -= b.dot(a) * a
        b /= np.linalg.norm(b)
        first = 3 * m
        for p in (o, o + math.cos(half) * a + math.sin(half) * b,
                  o + math.cos(half) * a - math.sin(half) * b):
            positions.append(openmm.Vec3(*(p / 10.0)))
        system.addParticle(15.9994)
        system.addParticle(1.008)
        system.addParticle(1.008)
        nonbonded.addParticle(-0.8476, sigma_nm, epsilon_kj)
        nonbonded.addParticle(0.4238, 0.1, 0.0)
        nonbonded.addParticle(0.4238, 0.1, 0.0)
        for h in (first + 1, first + 2):
            if rigid:
                system.addConstraint(first, h, 0.1)
            else:
                bonds.addBond(first, h, 0.1, 2 * 450.0 * kcal * 100.0)  # OpenMM: (k/2)(r - r0)^2
            bond_pairs.append((first, h))
        if rigid:
            system.addConstraint(first + 1, first + 2, 0.2 * math.sin(half))
        else:
            angles.addAngle(first + 1, first, first + 2, math.radians(109.47), 2 * 55.0 * kcal)
    nonbonded.createExceptionsFromBonds(bond_pairs, 0.0, 0.0)
    for force in (nonbonded,) if rigid else (nonbonded, bonds, angles):
        system.addForce(force)
    edge_nm = edge_a / 10.0
    box = (openmm.Vec3(edge_nm, 0, 0), openmm.Vec3(0, edge_nm, 0), openmm.Vec3(0, 0, edge_nm))
    system.setDefaultPeriodicBoxVectors(*box)
    return system, positions, box


def make_integrator(name, timestep_fs=TIMESTEP_FS):
    """Velocity Verlet, or Langevin at 300 K with a friction of 1/ps (NovaMD's `langevin` with
    friction 0.001/fs, as examples/water/water_pme.yaml runs it)."""
    step = timestep_fs * 1e-3 * unit.picoseconds
    if name == "langevin":
        return openmm.LangevinMiddleIntegrator(300.0 * unit.kelvin, 1.0 / unit.picosecond, step)
    return openmm.VerletIntegrator(step)


def context_for(system, positions, box, platform, precision, integrator_name="verlet",
                timestep_fs=TIMESTEP_FS):
    integrator = make_integrator(integrator_name, timestep_fs)
    properties = {"Precision": precision} if platform != "Reference" else {}
    context = openmm.Context(system, integrator, openmm.Platform.getPlatformByName(platform),
                             properties)
    context.setPeriodicBoxVectors(*box)
    context.setPositions(positions)
    context.setVelocitiesToTemperature(300.0 * unit.kelvin, 2026)
    return context, integrator


def ms_per_step(system, positions, box, precision, steps, integrator_name="verlet",
                timestep_fs=TIMESTEP_FS, warmup=None):
    context, integrator = context_for(system, positions, box, "CUDA", precision, integrator_name,
                                      timestep_fs)
    integrator.step(steps if warmup is None else warmup)  # kernels compiled, lists built
    return median_ms_per_step(context, integrator, steps)


def median_ms_per_step(context, integrator, steps, batches=5):
    """The median over `batches` batches of `steps` steps of the time per step, in ms; each
    batch waited for by reading the state."""
    context.getState(getEnergy=False)
    times = []
    for _ in range(batches):
        start = time.perf_counter()
        integrator.step(steps)
        context.getState(getPositions=True)  # waits for the GPU
        times.append(1e3 * (time.perf_counter() - start) / steps)
    return statistics.median(times)


def potential_kcal(system, positions, box, platform, precision="double"):
    context, _ = context_for(system, positions, box, platform, precision)
    energy = context.getState(getEnergy=True).getPotentialEnergy()
    return energy.value_in_unit(unit.kilocalorie_per_mole)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--precision", nargs="+", default=["mixed", "double"])
    parser.add_argument("--water-edges", type=int, nargs="*", default=[],
                        help="only PME water boxes of N^3 molecules (make_water.py --per-edge N)")
    parser.add_argument("--integrator", nargs="+", choices=["verlet", "langevin"],
                        default=["verlet"], help="for --water-edges (the other systems: verlet)")
    parser.add_argument("--rigid", action="store_true",
                        help="for --water-edges: rigid water, 9 A cutoffs, 2 fs")
    parser.add_argument("--warmup", type=int, default=None,
                        help="steps before the timed batches (default: --steps)")
    parser.add_argument("--barostat-every", type=int, nargs="+", default=[0],
                        help="for --water-edges: a Monte Carlo barostat's interval (0: none)")
    args = parser.parse_args()
    if args.water_edges:
        print(f"OpenMM {openmm.version.full_version}, CUDA platform")
        print(f"{'system':>13} {'atoms':>7} {'precision':>9} {'integrator':>10} {'barostat':>8} "
              f"{'ms/step':>9}")
        name = "-rigid" if args.rigid else "-pme"
        timestep_fs = 2.0 if args.rigid else TIMESTEP_FS
        for edge in args.water_edges:
            for every in args.barostat_every:
                system, positions, box = water_system(
                    per_edge=edge, pme=True, rigid=args.rigid,
                    cutoff_nm=0.9 if args.rigid else CUTOFF_NM)
                if every > 0:
                    system.addForce(openmm.MonteCarloBarostat(1.0 * unit.bar, 300.0 * unit.kelvin,
                                                              every))
                for precision in args.precision:
                    for integrator in args.integrator:
                        ms = ms_per_step(system, positions, box, precision, args.steps,
                                         integrator, timestep_fs, args.warmup)
                        ns_day = 86400e3 * timestep_fs * 1e-6 / ms
                        barostat = f"mc/{every}" if every > 0 else "none"
                        print(f"{'water' + str(edge) + name:>13} {system.getNumParticles():>7} "
                              f"{precision:>9} {integrator:>10} {barostat:>8} {ms:>9.4f}  "
                              f"({ns_day:.0f} ns/day)", flush=True)
        return
    print(f"OpenMM {openmm.version.full_version}, CUDA platform "
          f"{openmm.Platform.getPlatformByName('CUDA').getPropertyDefaultValue('DeviceIndex') or 0}")
    dipeptide = dipeptide_system()
    reference = potential_kcal(*dipeptide, "Reference")
    cuda = potential_kcal(*dipeptide, "CUDA", "double")
    print(f"dipeptide step-0 potential, kcal/mol: Reference {reference:.9f}, CUDA double "
          f"{cuda:.9f} (relative difference {abs(cuda - reference) / abs(reference):.1e})")
    print(f"{'system':>13} {'atoms':>7} {'precision':>9} {'ms/step':>9}")
    systems = (("dipeptide", dipeptide), ("dipeptide-pme", dipeptide_system(app.PME)),
               ("water", water_system()), ("water-pme", water_system(pme=True)),
               ("water24k-pme", water_system(per_edge=20, pme=True)))
    for name, (system, positions, box) in systems:
        for precision in args.precision:
            ms = ms_per_step(system, positions, box, precision, args.steps)
            print(f"{name:>13} {system.getNumParticles():>7} {precision:>9} {ms:>9.4f}",
                  flush=True)


if __name__ == "__main__":
    main()
