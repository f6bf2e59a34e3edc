#!/usr/bin/env python3
"""A LAMMPS data file (atom style full) replicated a x b x c times, as LAMMPS's `replicate`
command does it: a larger molecular system from a small one, for the spatial decomposition on
the GPU (whose lists need three cells of the cutoff plus skin along each edge) and for the
multi-GPU measurements.

    replicate_data.py IN OUT --copies A B C

Copy (i, j, k) shifts every atom by (i Lx, j Ly, k Lz). Each atom's unwrapped position (its
coordinates plus its image flags times the box) is shifted, then wrapped into the new box with
new image flags, so that bonds across the old box's faces join the right copy's atoms. Atom,
molecule, bond, angle, dihedral and improper ids are offset by the copy's number times the
input's largest id of each (molecule 0, "none", stays 0); types, masses and coefficients are
kept. An orthogonal box only.

    python3 benchmarks/spatial/replicate_data.py examples/peptide/data.peptide \\
        /tmp/peptide-2x2x2.data --copies 2 2 2      # 16,032 atoms in a 54.7 A box
"""

import argparse
import math
import pathlib
import sys

# Sections whose lines are copied for every copy, with the number of atom ids after the
# entry's id and type (Atoms and Velocities are handled apart).
TOPOLOGY = {"Bonds": 2, "Angles": 3, "Dihedrals": 4, "Impropers": 4}
KEPT = {"Masses", "Pair Coeffs", "PairIJ Coeffs", "Bond Coeffs", "Angle Coeffs",
        "Dihedral Coeffs", "Improper Coeffs", "BondBond Coeffs", "BondAngle Coeffs",
        "MiddleBondTorsion Coeffs", "EndBondTorsion Coeffs", "AngleTorsion Coeffs",
        "AngleAngleTorsion Coeffs", "BondBond13 Coeffs", "AngleAngle Coeffs"}
COUNTED = {"atoms": "Atoms", "bonds": "Bonds", "angles": "Angles", "dihedrals": "Dihedrals",
           "impropers": "Impropers"}


def fail(path, message):
    sys.exit(f"replicate_data.py: {path}: {message}")


def read(path):
    """The header lines, the box (lo, hi per axis) and each section's lines (comments kept
    off), in file order."""
    lines = pathlib.Path(path).read_text().splitlines()
    header, box, sections, order = [], [None, None, None], {}, []
    current = None
    for number, raw in enumerate(lines[1:], start=2):
        text = raw.split("#", 1)[0].strip()
        name = raw.split("#", 1)[0].strip()
        if name and (name in KEPT or name in TOPOLOGY or name in ("Atoms", "Velocities")):
            current = name
            sections[current] = []
            order.append(current)
            if name == "Atoms" and "#" in raw and raw.split("#", 1)[1].strip() not in ("full", ""):
                fail(path, f"line {number}: atom style {raw.split('#', 1)[1].strip()!r}; only "
                           "full is replicated")
            continue
        if not text:
            continue
        if current is None:
            fields = text.split()
            if len(fields) == 4 and fields[2:] in (["xlo", "xhi"], ["ylo", "yhi"], ["zlo", "zhi"]):
                box["xyz".index(fields[2][0])] = (float(fields[0]), float(fields[1]))
            elif fields[-3:] == ["xy", "xz", "yz"]:
                fail(path, f"line {number}: a triclinic box; only orthogonal boxes replicate")
            else:
                header.append(fields)
            continue
        if text[0].isalpha():
            fail(path, f"line {number}: section {text!r} is not one this script replicates")
        sections[current].append(text.split())
    if None in box:
        fail(path, "the box's xlo xhi, ylo yhi and zlo zhi lines are missing")
    return header, box, sections, order


def replicate(header, box, sections, copies):
    """The replicated header, box and sections."""
    atoms = sections.get("Atoms", [])
    if any(len(a) not in (7, 10) for a in atoms):
        raise ValueError("an Atoms line of other than 7 or 10 fields (style full: id molecule "
                         "type charge x y z [ix iy iz])")
    n_atoms = max((int(a[0]) for a in atoms), default=0)
    n_molecules = max((int(a[1]) for a in atoms), default=0)
    length = [hi - lo for lo, hi in box]
    new_box = [(lo, hi if c == 1 else lo + c * L) for (lo, hi), c, L in zip(box, copies, length)]
    new_length = [hi - lo for lo, hi in new_box]
    shifts = [(i, j, k) for i in range(copies[0]) for j in range(copies[1])
              for k in range(copies[2])]
    out = {name: [] for name in sections}
    for name, lines in sections.items():
        if name in KEPT:
            out[name] = lines
    for copy, shift in enumerate(shifts):
        for a in atoms:
            image = [int(x) for x in a[7:10]] if len(a) == 10 else [0, 0, 0]
            position = []
            new_image = []
            for d in range(3):
                unwrapped = float(a[4 + d]) + image[d] * length[d] + shift[d] * length[d]
                wraps = math.floor((unwrapped - new_box[d][0]) / new_length[d])
                x = unwrapped - wraps * new_length[d]
                if x >= new_box[d][1]:  # rounding put it on the upper face
                    x, wraps = x - new_length[d], wraps + 1
                elif x < new_box[d][0]:
                    x, wraps = x + new_length[d], wraps - 1
                position.append(x)
                new_image.append(wraps)
            molecule = int(a[1])
            out["Atoms"].append([str(int(a[0]) + copy * n_atoms),
                                 str(molecule + copy * n_molecules if molecule else 0), a[2], a[3],
                                 *(repr(x) for x in position), *(str(i) for i in new_image)])
        for v in sections.get("Velocities", []):
            out["Velocities"].append([str(int(v[0]) + copy * n_atoms), *v[1:4]])
        for name, ids in TOPOLOGY.items():
            lines = sections.get(name, [])
            count = max((int(t[0]) for t in lines), default=0)  # the largest id
            for t in lines:
                out[name].append([str(int(t[0]) + copy * count), t[1],
                                  *(str(int(x) + copy * n_atoms) for x in t[2:2 + ids])])
    new_header = []
    for fields in header:
        if len(fields) == 2 and fields[1] in COUNTED:
            fields = [str(int(fields[0]) * len(shifts)), fields[1]]
        new_header.append(fields)
    return new_header, new_box, out


def write(path, header, box, sections, order, copies):
    lines = [f"LAMMPS data file replicated {copies[0]} x {copies[1]} x {copies[2]} "
             "(benchmarks/spatial/replicate_data.py)", ""]
    lines += [" ".join(fields) for fields in header]
    lines.append("")
    for (lo, hi), axis in zip(box, "xyz"):
        lines.append(f"{lo!r} {hi!r} {axis}lo {axis}hi")
    for name in order:
        lines += ["", name + (" # full" if name == "Atoms" else ""), ""]
        lines += [" ".join(fields) for fields in sections[name]]
    pathlib.Path(path).write_text("\n".join(lines) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--copies", type=int, nargs=3, required=True, metavar=("A", "B", "C"))
    args = parser.parse_args()
    if min(args.copies) < 1:
        sys.exit("replicate_data.py: --copies: three positive integers")
    header, box, sections, order = read(args.input)
    try:
        header, box, sections = replicate(header, box, sections, args.copies)
    except ValueError as error:
        fail(args.input, str(error))
    write(args.output, header, box, sections, order, args.copies)
    atoms = len(sections.get("Atoms", []))
    print(f"{args.output}: {atoms} atoms in a "
          + " x ".join(f"{hi - lo:g}" for lo, hi in box) + " box")


if __name__ == "__main__":
    main()
