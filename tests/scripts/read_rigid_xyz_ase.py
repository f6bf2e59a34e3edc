#!/usr/bin/env python3
"""Reads a NovaMD extended XYZ trajectory of rigid molecules with ASE and checks the rotation's
columns.

    read_rigid_xyz_ase.py FILE.xyz --first X,Y,Z,W

ASE keeps the columns it does not know under their names (atoms.arrays): `Orientation` (OVITO's
standard property: quaternion x y z w), `angular_momentum` and `torque`. Every orientation must
be a unit quaternion, and the first molecule's (of the first frame) the one given, to 1e-9. Exits
0 when everything matches, 1 naming the first mismatch, 2 when a module is missing.
"""

import argparse
import sys

try:
    import numpy as np
    from ase.io import read
except ImportError as error:
    print(f"read_rigid_xyz_ase.py: cannot import {error.name} ({error}); install python3-ase "
          "python3-numpy (scripts/setup.sh --tests does)", file=sys.stderr)
    sys.exit(2)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--first", required=True)
    args = parser.parse_args()
    atoms = read(args.file, index=0, format="extxyz")
    arrays = atoms.arrays
    for name, width in (("Orientation", 4), ("angular_momentum", 3), ("torque", 3)):
        if name not in arrays or arrays[name].shape != (len(atoms), width):
            sys.exit(f"{args.file}: ASE found {sorted(arrays)}; expected {name} with {width} "
                     "columns per atom")
    q = arrays["Orientation"]
    norms = np.linalg.norm(q, axis=1)
    if np.max(np.abs(norms - 1.0)) > 1e-9:
        sys.exit(f"{args.file}: an orientation's norm is {norms[np.argmax(np.abs(norms - 1))]}")
    first = np.array([float(x) for x in args.first.split(",")])
    if np.max(np.abs(q[0] - first)) > 1e-9:
        sys.exit(f"{args.file}: the first orientation is {q[0]}; expected {first}")
    print(f"ASE read {len(atoms)} molecules with Orientation, angular_momentum and torque")


if __name__ == "__main__":
    main()
