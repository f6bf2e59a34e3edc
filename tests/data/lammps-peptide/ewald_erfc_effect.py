"""How much LAMMPS's approximate erfc moves its Ewald energy of data.peptide (in.ewald).

    lmp -in in.ewald -log none -nocite && python3 ewald_erfc_effect.py
    python3 ewald_erfc_effect.py --data FILE --g-ewald G --out FILE   (another system)

LAMMPS's coul/long pair styles evaluate erfc(g r) with the polynomial of Abramowitz and Stegun
7.1.26 (absolute error up to 1.5e-7; pair_lj_charmm_coul_long.cpp, EWALD_P and A1..A5), for the
excluded pairs' corrections too (prefactor (erfc - 1) with special_bonds 0). Over the peptide's
pairs within 10 A that error adds up to about 0.013 kcal/mol, 2e-6 of the Coulomb energy. This
script sums k q_i q_j [erfc_AS(g r) - erfc(g r)] / r over every pair within the cutoff (minimum
image; excluded pairs included, as their correction uses the same erfc) and appends it to
energies_ewald.txt as `lammps_erfc_effect`: NovaMD's exact sum plus it is LAMMPS's number.
Needs numpy.
"""

import argparse
import math
import pathlib

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
DATA = HERE.parents[2] / "examples" / "peptide" / "data.peptide"
G_EWALD, CUTOFF, KC = 0.42, 10.0, 332.06371329919
EWALD_P = 0.3275911
A = (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)


def read_charges_and_positions(path):
    lines = path.read_text().splitlines()
    edges = []
    for line in lines[:40]:
        if any(tag in line for tag in ("xlo", "ylo", "zlo")):
            lo, hi = map(float, line.split()[:2])
            edges.append(hi - lo)
    start = next(k for k, line in enumerate(lines) if line.strip().startswith("Atoms")) + 2
    q, x = [], []
    for line in lines[start:]:
        if not line.strip():
            break
        f = line.split()
        q.append(float(f[3]))
        x.append([float(f[4]), float(f[5]), float(f[6])])
    return np.array(edges), np.array(q), np.array(x)


def erfc_lammps(x):
    t = 1.0 / (1.0 + EWALD_P * x)
    return t * (A[0] + t * (A[1] + t * (A[2] + t * (A[3] + t * A[4])))) * np.exp(-x * x)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(DATA), help="LAMMPS data file (atom style full)")
    parser.add_argument("--g-ewald", type=float, default=G_EWALD)
    parser.add_argument("--out", default=str(HERE / "energies_ewald.txt"), help="appended to")
    args = parser.parse_args()
    box, q, x = read_charges_and_positions(pathlib.Path(args.data))
    erfc = np.vectorize(math.erfc, otypes=[float])
    effect = 0.0
    for a in range(len(q) - 1):
        d = x[a + 1:] - x[a]
        d -= box * np.round(d / box)
        r = np.sqrt((d * d).sum(axis=1))
        within = r < CUTOFF
        r, qq = r[within], q[a] * q[a + 1:][within]
        gr = args.g_ewald * r
        effect += float((KC * qq * (erfc_lammps(gr) - erfc(gr)) / r).sum())
    line = (f"lammps_erfc_effect {effect:.15g}   # sum of k qi qj [erfc_AS(g r) - erfc(g r)] / r "
            f"below 10 A: LAMMPS's erfc polynomial (ewald_erfc_effect.py)\n")
    with open(args.out, "a") as out:
        out.write(line)
    print(line, end="")


if __name__ == "__main__":
    main()
