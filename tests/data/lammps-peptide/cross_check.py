#!/usr/bin/env python3
"""An independent check of energies_<k>.txt: the pair and 1-4 energies of data.peptide, and its
bond and angle energies, summed directly from the data file with NovaMD's definitions (pure
Python, no LAMMPS; about 20 s). Usage: python3 cross_check.py [energies_lammps.txt]. Prints each
sum beside the LAMMPS number and their absolute and relative differences.

Definitions (README.md): pairs closer than 3 bonds along the bond graph are excluded; LJ with
Lorentz-Berthelot mixing and CHARMM switching from 8 to 10 A; Coulomb cut V = k qi qj / r and
force-shifted V = k qi qj [1/r - 1/rc + (r - rc)/rc^2] below rc = 10 A; the 1-4 pairs of every
charmm dihedral weighted by its w, with epsilon14 and sigma14 and plain Coulomb, no cutoff."""

import math
import sys
from collections import defaultdict

RC, RON = 10.0, 8.0
# LAMMPS coul/dsf's erfc(alpha r) at alpha = 0: its polynomial A1 + A2 + A3 + A4 + A5.
ERFC0 = 0.254829592 + (-0.284496736 + (1.421413741 + (-1.453152027 + 1.061405429)))


def sections(path):
    """Section name -> list of token lists (comments removed), and the header lines."""
    out, name, header = defaultdict(list), None, []
    with open(path) as f:
        next(f)
        for line in f:
            text = line.split("#")[0].strip()
            if not text:
                continue
            if text[0].isalpha():
                name = text
            elif name is None:
                header.append(text.split())
            else:
                out[name].append(text.split())
    return out, header


def main():
    reference = sys.argv[1] if len(sys.argv) > 1 else "energies_lammps.txt"
    ref = {}
    k = 332.06371
    with open(reference) as f:
        for line in f:
            if line.startswith("# Coulomb constant k = "):
                k = float(line.split()[5])
            elif line.strip() and not line.startswith("#"):
                fields = line.split()
                ref[fields[0]] = float(fields[1])
    data, header = sections("../../../examples/peptide/data.peptide")
    box = [float(h[1]) - float(h[0]) for h in header if h[-1] in ("xhi", "yhi", "zhi")]
    atoms = {int(a[0]): (int(a[2]), float(a[3]), [float(x) for x in a[4:7]]) for a in data["Atoms"]}
    eps = {int(p[0]): (float(p[1]), float(p[2]), float(p[3]), float(p[4])) for p in data["Pair Coeffs"]}
    ids = sorted(atoms)

    def delta(a, b):
        d = [atoms[a][2][c] - atoms[b][2][c] for c in range(3)]
        return [x - box[c] * round(x / box[c]) for c, x in enumerate(d)]

    def dist(a, b):
        return math.sqrt(sum(x * x for x in delta(a, b)))

    bonded = defaultdict(set)
    for b in data["Bonds"]:
        bonded[int(b[2])].add(int(b[3]))
        bonded[int(b[3])].add(int(b[2]))
    excluded = set()
    for i in ids:
        reach = {i}
        for _ in range(3):
            reach |= {n for r in reach for n in bonded[r]}
        excluded |= {(i, j) for j in reach if j > i}

    def lj(ti, tj, r, one_four):
        e = math.sqrt(eps[ti][2] * eps[tj][2]) if one_four else math.sqrt(eps[ti][0] * eps[tj][0])
        s = (eps[ti][3] + eps[tj][3]) / 2 if one_four else (eps[ti][1] + eps[tj][1]) / 2
        return 4 * e * ((s / r) ** 12 - (s / r) ** 6)

    sums = defaultdict(float)
    for n, i in enumerate(ids):
        for j in ids[n + 1:]:
            d = delta(i, j)
            r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2]
            if r2 >= RC * RC:
                continue
            r = math.sqrt(r2)
            qq = k * atoms[i][1] * atoms[j][1]
            # coul/dsf 0.0 10.0 as LAMMPS sums it: erfc(0) as its polynomial, excluded pairs kept
            # with their k qi qj / r taken away (src/pair_coul_dsf.cpp).
            dsf = qq * (ERFC0 / r - 2 / RC + r / RC**2)
            if (i, j) in excluded:
                sums["coulomb_dsf_as_lammps"] += dsf - qq / r
                continue
            sums["coulomb_dsf_as_lammps"] += dsf
            sums["coulomb_cut_pair"] += qq / r
            sums["coulomb_shift_pair"] += qq * (1 / r - 1 / RC + (r - RC) / RC**2)
            switch = 1.0
            if r2 > RON * RON:
                switch = (RC**2 - r2) ** 2 * (RC**2 + 2 * r2 - 3 * RON**2) / (RC**2 - RON**2) ** 3
            sums["lj_switched_pair"] += switch * lj(atoms[i][0], atoms[j][0], r, False)
    weight = {int(c[0]): float(c[4]) for c in data["Dihedral Coeffs"]}
    for d in data["Dihedrals"]:
        w, a, b = weight[int(d[1])], int(d[2]), int(d[5])
        r = dist(a, b)
        sums["lj_14"] += w * lj(atoms[a][0], atoms[b][0], r, True)
        sums["coulomb_14"] += w * k * atoms[a][1] * atoms[b][1] / r
    bond = {int(c[0]): (float(c[1]), float(c[2])) for c in data["Bond Coeffs"]}
    for b in data["Bonds"]:
        kb, r0 = bond[int(b[1])]
        sums["ebond"] += kb * (dist(int(b[2]), int(b[3])) - r0) ** 2
    angle = {int(c[0]): [float(x) for x in c[1:5]] for c in data["Angle Coeffs"]}
    for a in data["Angles"]:
        ka, theta0, kub, rub = angle[int(a[1])]
        i, j, l = int(a[2]), int(a[3]), int(a[4])
        u, v = delta(i, j), delta(l, j)
        cos = sum(x * y for x, y in zip(u, v)) / (dist(i, j) * dist(l, j))
        theta = math.acos(max(-1.0, min(1.0, cos)))
        sums["eangle"] += ka * (theta - math.radians(theta0)) ** 2 + kub * (dist(i, l) - rub) ** 2
    sums["total_charge"] = sum(a[1] for a in atoms.values())
    # coul/dsf's self energy: -(e_shift / 2) k qi^2 per atom, e_shift = 2 / rc at alpha = 0.
    sums["coulomb_dsf_as_lammps"] -= k / RC * sum(a[1] ** 2 for a in atoms.values())
    for name, value in sums.items():
        lammps = ref.get(name, float("nan"))
        difference = abs(value - lammps)
        print(f"{name:22s} {value: .15g} {lammps: .15g}  absolute {difference:.1e}  relative "
              f"{difference / max(abs(lammps), 1e-300):.1e}")


if __name__ == "__main__":
    main()
