#!/usr/bin/env python3
"""Reads the trajectories one `novamd run` wrote in three formats and checks that they hold the
same positions, each to its format's precision:

    compare_run_outputs.py RUN.xyz RUN.dcd RUN.h5md

The extended XYZ (10 significant digits, read here by a small parser) is the reference; the
DCD is read by MDAnalysis (float32: 2^-24 |x| + 2^-24 L, plus the XYZ's rounding 5e-10 |x|);
the H5MD by h5py (doubles: the XYZ's rounding alone) and by MDAnalysis (which keeps float32).
Exits 0 when everything matches, 1 naming the first mismatch, 2 when a module is missing.
"""

import sys
import warnings

warnings.filterwarnings("ignore")

try:
    import numpy as np
    import h5py
    import MDAnalysis as mda
    from MDAnalysis.coordinates.H5MD import H5MDReader
except ImportError as error:
    print(f"compare_run_outputs.py: cannot import {error.name}; install python3-numpy "
          "python3-h5py python3-mdanalysis (scripts/setup.sh --tests does)", file=sys.stderr)
    sys.exit(2)

F32 = 2.0 ** -24
XYZ = 5e-10  # half a unit in the 10th significant digit


def read_xyz(path):
    """(steps, positions [frames, N, 3], boxes [frames, 3]) of an extended XYZ file."""
    steps, positions, boxes = [], [], []
    with open(path) as f:
        lines = f.read().splitlines()
    i = 0
    while i < len(lines) and lines[i].strip():
        n = int(lines[i])
        comment = lines[i + 1]
        steps.append(int(comment.split("Step=")[1].split()[0]))
        lattice = [float(x) for x in comment.split('Lattice="')[1].split('"')[0].split()]
        boxes.append([lattice[0], lattice[4], lattice[8]])
        positions.append([[float(x) for x in lines[i + 2 + k].split()[1:4]] for k in range(n)])
        i += n + 2
    return np.array(steps), np.array(positions), np.array(boxes)


def check(name, got, want, tolerance):
    error = np.abs(got - want)
    worst = np.max(error / tolerance)
    if worst > 1.0:
        k = np.unravel_index(np.argmax(error / tolerance), error.shape)
        raise SystemExit(f"{name}: {got[k]} against {want[k]} at index {k}: "
                         f"{worst:.3g} times the tolerance")
    print(f"{name}: largest error {worst:.3f} of the tolerance")


def main():
    xyz, dcd, h5 = sys.argv[1:4]
    steps, ref, boxes = read_xyz(xyz)
    L = boxes.max()

    universe = mda.Universe.empty(ref.shape[1], trajectory=True)
    universe.load_new(dcd, format="DCD")
    got = np.array([ts.positions.copy() for ts in universe.trajectory])
    if got.shape != ref.shape:
        raise SystemExit(f"DCD: {got.shape} frames x atoms x 3, the XYZ has {ref.shape}")
    check("DCD positions (MDAnalysis)", got, ref, F32 * np.abs(ref) + F32 * L + XYZ * np.abs(ref))

    with h5py.File(h5, "r") as f:
        position = f["particles/all/position"]
        if list(position["step"][:]) != list(steps):
            raise SystemExit(f"H5MD position steps {list(position['step'][:])}, XYZ {list(steps)}")
        check("H5MD positions (h5py)", position["value"][:], ref, XYZ * np.abs(ref) + 1e-300)
    reader = H5MDReader(h5, convert_units=False)
    got = np.array([ts.positions.copy() for ts in reader])
    check("H5MD positions (MDAnalysis)", got, ref, F32 * np.abs(ref) + XYZ * np.abs(ref) + 1e-30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
