"""Writes a box of SPC/E or TIP3P water as a LAMMPS data file (atom style full) for NovaMD.

    python3 make_water.py [--per-edge 10] [--seed 2026] [--model spce|tip3p] [--out water.data]

per_edge^3 molecules on a cubic lattice at 1 g/cm^3, each turned by a random rotation.
SPC/E (Berendsen, Grigera and Straatsma, J. Phys. Chem. 91, 6269 (1987)): O -0.8476 e,
H +0.4238 e, LJ on O only (epsilon 0.1553 kcal/mol, sigma 3.166 A), O-H 1 A and H-O-H 109.47
degrees. TIP3P (Jorgensen et al., J. Chem. Phys. 79, 926 (1983), as AMBER and OpenMM's
tip3p.xml give it): O -0.834 e, H +0.417 e, LJ on O only (epsilon 0.1521 kcal/mol, sigma
3.15061 A), O-H 0.9572 A and H-O-H 104.52 degrees. The geometry is written as harmonic terms
(K_b 450 kcal/mol/A^2, K_theta 55 kcal/mol/rad^2, V = K (x - x0)^2 as LAMMPS's harmonic styles):
flexible water as it stands, rigid with `constraints: {water: settle}`, which holds r0 and
theta0. The same construction as `novamd bench --case ornl` (17^3 = 4,913 SPC/E molecules
there). Standard library only.
"""

MODELS = {  # charge of O, epsilon (kcal/mol), sigma (A), r_OH (A), H-O-H (degrees), name
    "spce": (-0.8476, 0.1553, 3.166, 1.0, 109.47, "SPC/E"),
    "tip3p": (-0.834, 0.1521, 3.15061, 0.9572, 104.52, "TIP3P"),
}

import argparse
import math
import random


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-edge", type=int, default=10)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--model", choices=sorted(MODELS), default="spce")
    parser.add_argument("--out", default="water.data")
    args = parser.parse_args()
    q_o, epsilon, sigma, r_oh, theta, name = MODELS[args.model]
    n = args.per_edge
    molecules = n ** 3
    edge = (molecules * 18.0153 / 0.6022140857) ** (1.0 / 3.0)  # A, 1 g/cm^3
    spacing = edge / n
    rng = random.Random(args.seed)
    half = 0.5 * math.radians(theta)

    def unit_vector():
        z = rng.uniform(-1.0, 1.0)
        phi = rng.uniform(0.0, 2.0 * math.pi)
        s = math.sqrt(1.0 - z * z)
        return (s * math.cos(phi), s * math.sin(phi), z)

    atoms, bonds, angles = [], [], []
    for m in range(molecules):
        o = ((m % n + 0.5) * spacing, (m // n % n + 0.5) * spacing, (m // n ** 2 + 0.5) * spacing)
        a = unit_vector()
        b = unit_vector()
        ab = sum(x * y for x, y in zip(a, b))
        b = tuple(y - ab * x for x, y in zip(a, b))
        norm = math.sqrt(sum(y * y for y in b))
        b = tuple(y / norm for y in b)
        c, s = math.cos(half), math.sin(half)
        h1 = tuple(oi + r_oh * (c * ai + s * bi) for oi, ai, bi in zip(o, a, b))
        h2 = tuple(oi + r_oh * (c * ai - s * bi) for oi, ai, bi in zip(o, a, b))
        first = 3 * m + 1
        atoms.append((first, m + 1, 1, q_o, o))
        atoms.append((first + 1, m + 1, 2, -0.5 * q_o, h1))
        atoms.append((first + 2, m + 1, 2, -0.5 * q_o, h2))
        bonds.append((first, first + 1))
        bonds.append((first, first + 2))
        angles.append((first + 1, first, first + 2))

    with open(args.out, "w") as f:
        f.write(f"{'Flexible SPC/E' if args.model == 'spce' else name} water, {molecules} "
                f"molecules at 1 g/cm^3 (make_water.py, seed {args.seed})\n\n")
        f.write(f"{len(atoms)} atoms\n{len(bonds)} bonds\n{len(angles)} angles\n\n")
        f.write("2 atom types\n1 bond types\n1 angle types\n\n")
        f.write(f"0.0 {edge:.10f} xlo xhi\n0.0 {edge:.10f} ylo yhi\n0.0 {edge:.10f} zlo zhi\n\n")
        f.write("Masses\n\n1 15.9994  # OW\n2 1.008  # HW\n\n")
        f.write(f"Pair Coeffs # lj/cut/coul/long\n\n1 {epsilon} {sigma}\n2 0.0 1.0\n\n")
        f.write(f"Bond Coeffs # harmonic\n\n1 450.0 {r_oh}\n\n")
        f.write(f"Angle Coeffs # harmonic\n\n1 55.0 {theta}\n\n")
        f.write("Atoms # full\n\n")
        for i, mol, t, q, (x, y, z) in atoms:
            f.write(f"{i} {mol} {t} {q} {x:.8f} {y:.8f} {z:.8f}\n")
        f.write("\nBonds\n\n")
        for k, (i, j) in enumerate(bonds, 1):
            f.write(f"{k} 1 {i} {j}\n")
        f.write("\nAngles\n\n")
        for k, (i, j, l) in enumerate(angles, 1):
            f.write(f"{k} 1 {i} {j} {l}\n")
    print(f"wrote {args.out}: {molecules} molecules, {len(atoms)} atoms, box {edge:.4f} A")


if __name__ == "__main__":
    main()
