#!/usr/bin/env python3
"""benchmarks/spatial/replicate_data.py against NovaMD itself: the solvated CHARMM peptide
(examples/peptide) replicated 2 x 1 x 1 and 1 x 1 x 2 has, at step 0, exactly twice each energy
of the original, term by term (bonds, angles, dihedrals, impropers, Lennard-Jones, force-shifted
Coulomb): the copies form the same periodic system, and every cutoff (10 A) is below half the
original box (27.4 A), so each atom sees the same neighbours under the minimum image. Only the
summation order differs (the particles' shares and each particle's pairs are added in another
order): measured, 5e-13 of each energy at most. The bound, 1e-10 of each energy, leaves that
a factor of 200; a bond joined to the wrong copy (image flags ignored) stretches it by a box
edge, 27 A, and changes the bond energy by some 1e5 times itself. Also: the counts, unique
ids, atoms inside the new box, and a triclinic input refused, naming the line.

    test_replicate_data.py --novamd build/novamd
"""

import argparse
import csv
import pathlib
import subprocess
import sys
import tempfile

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = REPOSITORY / "benchmarks" / "spatial" / "replicate_data.py"
DATA = REPOSITORY / "examples" / "peptide" / "data.peptide"
# The extra columns; potential_energy is always written.
EXTRA = ["bond_energy", "angle_energy", "dihedral_energy", "improper_energy", "vdw_energy",
         "coulomb_energy"]
COLUMNS = EXTRA + ["potential_energy"]
CONFIG = """units: real
backend: cpu
seed: 2026
system:
  topology:
    read: {data}
    styles: {{pair: lj_charmm, bond: harmonic, angle: charmm, dihedral: charmm, improper: harmonic}}
forces:
  - lennard_jones: {{cutoff: 10.0, switch: 8.0}}
  - coulomb: {{method: shift, cutoff: 10.0}}
integrator: {{type: velocity_verlet, timestep: 0.25}}
run: {{steps: 0}}
output:
  thermo:
    every: 1
    file: thermo.csv
    columns: [{columns}]
"""
RELATIVE_BOUND = 1e-10  # summation order alone: 5e-13 measured (docstring)


def fail(message):
    sys.exit(f"FAILED: {message}")


def energies(novamd, data, work):
    work.mkdir(parents=True, exist_ok=True)
    (work / "config.yaml").write_text(CONFIG.format(data=data, columns=", ".join(EXTRA)))
    result = subprocess.run([str(pathlib.Path(novamd).resolve()), "run", "config.yaml"], cwd=work, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            env={"OMP_NUM_THREADS": "2", "PATH": "/usr/bin:/bin"})
    if result.returncode != 0:
        fail(f"novamd on {data} exited {result.returncode}:\n{result.stdout[-2000:]}")
    with open(work / "thermo.csv") as f:
        rows = [r for r in csv.DictReader(line for line in f if not line.startswith("#"))]
    return {c: float(rows[0][c]) for c in COLUMNS}


def check_file(path, copies, atoms):
    lines = path.read_text().splitlines()
    box, ids, inside = {}, [], True
    section = None
    for line in lines:
        fields = line.split("#")[0].split()
        if len(fields) == 4 and fields[3] in ("xhi", "yhi", "zhi"):
            box[fields[2][0]] = (float(fields[0]), float(fields[1]))
        elif fields and fields[0][0].isalpha():
            section = fields[0]
        elif section == "Atoms" and fields:
            ids.append(int(fields[0]))
            for d, axis in enumerate("xyz"):
                inside &= box[axis][0] <= float(fields[4 + d]) < box[axis][1]
    if len(ids) != atoms * copies or len(set(ids)) != len(ids):
        fail(f"{path}: {len(ids)} atom lines ({len(set(ids))} ids), expected {atoms * copies}")
    if not inside:
        fail(f"{path}: an atom outside the box")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--novamd", required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = pathlib.Path(tmp)
        original = energies(args.novamd, DATA, work / "original")
        atoms = 2004
        for copies in ("2 1 1", "1 1 2"):
            out = work / f"peptide-{copies.replace(' ', 'x')}.data"
            subprocess.run([sys.executable, str(SCRIPT), str(DATA), str(out), "--copies",
                            *copies.split()], check=True, stdout=subprocess.DEVNULL)
            check_file(out, 2, atoms)
            doubled = energies(args.novamd, out, work / out.stem)
            for column in COLUMNS:
                want = 2.0 * original[column]
                bound = RELATIVE_BOUND * abs(want)
                error = abs(doubled[column] - want)
                print(f"{copies}: {column} {doubled[column]!r} against 2 x {original[column]!r}: "
                      f"difference {error:.3g} (bound {bound:.3g})")
                if not error <= bound:
                    fail(f"replicated {copies}: {column}")
        triclinic = work / "triclinic.data"
        text = DATA.read_text().replace("zlo zhi\n", "zlo zhi\n 0.0 0.0 0.0 xy xz yz\n", 1)
        triclinic.write_text(text)
        result = subprocess.run([sys.executable, str(SCRIPT), str(triclinic), str(work / "t.out"),
                                 "--copies", "2", "1", "1"], stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        if result.returncode == 0 or "triclinic" not in result.stdout or "line" not in result.stdout:
            fail(f"a triclinic box: exit {result.returncode}, said {result.stdout!r}")
        if (work / "t.out").exists():
            fail("a triclinic box: the output was written")
    print("PASSED")


if __name__ == "__main__":
    main()
