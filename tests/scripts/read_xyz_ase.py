#!/usr/bin/env python3
"""Reads a NovaMD extended XYZ trajectory with ASE and checks its per-atom columns against the
values NovaMD says it wrote.

    read_xyz_ase.py FILE.xyz --charge-of-id "0.25*i-3" --images IMAGES.txt

The charges must equal the expression of the atom's line number i (particle id order); the
image counts must equal the integer triples of IMAGES.txt (one line per atom, id order). ASE
reads the `charge` column as the atoms' initial charges and keeps the columns it does not know
under their own names (atoms.arrays). Exits 0 when
everything matches, 1 naming the first mismatch, 2 when a module is missing.
"""

import argparse
import sys

try:
    import numpy as np
    from ase.io import read
except ImportError as error:
    print(f"read_xyz_ase.py: cannot import {error.name} ({error}); install python3-ase "
          "python3-numpy (scripts/setup.sh --tests does)", file=sys.stderr)
    sys.exit(2)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--charge-of-id", required=True)
    parser.add_argument("--images", required=True)
    args = parser.parse_args()
    frames = read(args.file, index=":", format="extxyz")
    atoms = frames[-1]
    ids = np.arange(len(atoms))
    charges = eval(args.charge_of_id, {"i": ids})  # an arithmetic expression of the test's
    names = sorted(atoms.arrays)
    if "initial_charges" not in atoms.arrays or "image" not in atoms.arrays:
        sys.exit(f"{args.file}: ASE found the columns {names}; expected initial_charges (from "
                 "charge) and image")
    if not np.array_equal(atoms.get_initial_charges(), charges):
        sys.exit(f"{args.file}: charges differ from {args.charge_of_id}")
    images = np.loadtxt(args.images, dtype=int).reshape(-1, 3)
    if not np.array_equal(atoms.arrays["image"], images):
        sys.exit(f"{args.file}: image counts differ from {args.images}")
    print(f"ASE read {len(frames)} frame(s) of {len(atoms)} atoms with columns {names}")


if __name__ == "__main__":
    main()
