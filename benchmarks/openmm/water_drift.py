"""OpenMM's energy drift beside NovaMD's: rigid water in constant energy at 2 fs from the same
equilibrated state and with the same settings (scripts/device/test.sh drift).

    python3 benchmarks/openmm/water_drift.py equilibrated.data [--steps 25000] [--every 250]
        [--precision mixed] [--platform CUDA]

Reads a LAMMPS data file of water as examples/water/make_water.py writes it and NovaMD's
`output.data.file` writes it back after equilibration (atom style full, Velocities in A/fs):
charges, LJ on the first atom type (Pair Coeffs: epsilon kcal/mol, sigma A), the O-H length and
H-O-H angle from the Bond and Angle Coeffs. OpenMM then holds each water by its three distances
(solved by SETTLE), the intramolecular pairs excluded; LJ cut at 9 A with the dispersion
correction; PME at 9 A with ewaldErrorTolerance 1e-5; VerletIntegrator at 2 fs with a constraint
tolerance of 1e-8, as benchmarks/drift/water_nve.yaml runs NovaMD. Prints the total energy's
linear drift (least squares over every --every steps), in kcal/mol/ns and per molecule, and its
change from first to last.
"""

import argparse
import math

import numpy as np
import openmm
from openmm import unit

KCAL = 4.184  # kJ per kcal
A_PER_FS = 100.0  # nm/ps per A/fs


def read_data(path):
    """Sections of a LAMMPS data file: header lines and the rows of each titled section."""
    header, sections, title = [], {}, None
    with open(path) as f:
        lines = f.readlines()[1:]  # the first line is the file's title
    for raw in lines:
        line = raw.split("#")[0].strip()
        if not line:
            continue
        if line[0].isalpha():
            title = line
            sections[title] = []
        elif title is None:
            header.append(line.split())
        else:
            sections[title].append(line.split())
    return header, sections


def water_system(path):
    header, s = read_data(path)
    edge = {}
    for words in header:
        if len(words) == 4 and words[2] in ("xlo", "ylo", "zlo"):
            edge[words[2][0]] = float(words[1]) - float(words[0])
    masses = {int(r[0]): float(r[1]) for r in s["Masses"]}
    pair = {int(r[0]): (float(r[1]), float(r[2])) for r in s["Pair Coeffs"]}
    r_oh = float(s["Bond Coeffs"][0][2])
    theta = math.radians(float(s["Angle Coeffs"][0][2]))
    lengths = [edge["x"], edge["y"], edge["z"]]

    def unwrapped(r):  # x + image L: OpenMM's constraints take no periodic images
        images = [int(n) for n in r[7:10]] if len(r) >= 10 else [0, 0, 0]
        return [float(x) + n * length for x, n, length in zip(r[4:7], images, lengths)]

    atoms = sorted((int(r[0]), int(r[2]), float(r[3]), unwrapped(r)) for r in s["Atoms"])
    velocities = {int(r[0]): [float(x) for x in r[1:4]] for r in s.get("Velocities", [])}
    if not velocities:
        raise SystemExit(f"{path}: no Velocities section; expected an equilibrated state "
                         "(NovaMD's output.data.file)")
    system = openmm.System()
    nonbonded = openmm.NonbondedForce()
    nonbonded.setNonbondedMethod(openmm.NonbondedForce.PME)
    nonbonded.setCutoffDistance(0.9)
    nonbonded.setEwaldErrorTolerance(1e-5)
    nonbonded.setUseDispersionCorrection(True)
    positions, v = [], []
    for atom_id, atom_type, charge, x in atoms:
        system.addParticle(masses[atom_type])
        epsilon, sigma = pair[atom_type]
        nonbonded.addParticle(charge, sigma / 10.0, epsilon * KCAL)
        positions.append(openmm.Vec3(*(np.array(x) / 10.0)))
        v.append(openmm.Vec3(*(np.array(velocities[atom_id]) * A_PER_FS)))
    for m in range(len(atoms) // 3):  # O, H, H in id order, as make_water.py writes them
        o, h1, h2 = 3 * m, 3 * m + 1, 3 * m + 2
        system.addConstraint(o, h1, r_oh / 10.0)
        system.addConstraint(o, h2, r_oh / 10.0)
        system.addConstraint(h1, h2, 2.0 * r_oh * math.sin(0.5 * theta) / 10.0)
        for i, j in ((o, h1), (o, h2), (h1, h2)):
            nonbonded.addException(i, j, 0.0, 0.1, 0.0)
    system.addForce(nonbonded)
    box = [openmm.Vec3(edge["x"] / 10.0, 0, 0), openmm.Vec3(0, edge["y"] / 10.0, 0),
           openmm.Vec3(0, 0, edge["z"] / 10.0)]
    system.setDefaultPeriodicBoxVectors(*box)
    return system, positions, v, len(atoms) // 3


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data")
    parser.add_argument("--steps", type=int, default=25000)
    parser.add_argument("--every", type=int, default=250)
    parser.add_argument("--precision", default="mixed")
    parser.add_argument("--platform", default="CUDA")
    args = parser.parse_args()
    system, positions, velocities, molecules = water_system(args.data)
    integrator = openmm.VerletIntegrator(0.002 * unit.picoseconds)
    integrator.setConstraintTolerance(1e-8)
    platform = openmm.Platform.getPlatformByName(args.platform)
    properties = {"Precision": args.precision} if args.platform in ("CUDA", "OpenCL") else {}
    context = openmm.Context(system, integrator, platform, properties)
    context.setPositions(positions)
    context.setVelocities(velocities)
    times, energies = [], []
    for k in range(args.steps // args.every + 1):
        if k:
            integrator.step(args.every)
        state = context.getState(getEnergy=True)
        total = state.getPotentialEnergy() + state.getKineticEnergy()
        times.append(k * args.every * 2e-6)  # ns
        energies.append(total.value_in_unit(unit.kilocalorie_per_mole))
    slope = np.polyfit(times, energies, 1)[0]
    print(f"OpenMM {openmm.version.full_version} {args.platform} {args.precision}: "
          f"{molecules} waters, {args.steps} steps of 2 fs: drift {slope:.4g} kcal/mol/ns "
          f"({slope / molecules:.3g} per molecule), first to last "
          f"{energies[-1] - energies[0]:.4g} kcal/mol of {energies[0]:.6g}")


if __name__ == "__main__":
    main()
