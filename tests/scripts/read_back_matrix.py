#!/usr/bin/env python3
"""Which tool reads which of NovaMD's trajectory formats: writes one short run in every format
(extended XYZ, DCD with its PSF, H5MD, GSD), reads each file with every reader installed (ASE,
MDAnalysis, h5py, gsd, OVITO's Python module), and prints a table: the frames each read and the
largest difference of its positions from the XYZ file's (written with 17 digits) in every frame,
against float32's rounding of the box (DCD, H5MD and GSD store float32 positions).

    read_back_matrix.py --novamd build/novamd [--workdir DIR]
    QT_QPA_PLATFORM=offscreen read_back_matrix.py ...   # with OVITO (pip install ovito)

Not part of the test suite: OVITO's wheel is large; the suite's read-back tests cover the other
readers (docs/validation.md). Exits 1 when an installed reader that should read a format does
not, or reads it wrong.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import warnings

import numpy as np

warnings.filterwarnings("ignore")

CONFIG = """units: real
seed: 5
system:
  topology:
    read: DATA
    styles: {pair: lj_charmm, bond: harmonic, angle: charmm, dihedral: charmm, improper: harmonic}
forces:
  - lennard_jones: {cutoff: 10.0, switch: 8.0}
  - coulomb: {method: shift, cutoff: 10.0}
neighbors: {skin: 2.0}
integrator: {type: velocity_verlet, timestep: 0.25}
run: {steps: 40}
output:
  thermo: {every: 20, file: thermo.csv}
  trajectory:
    - {file: t.xyz, every: 10, fields: [position, velocity]}
    - {file: t.dcd, every: 10}
    - {file: t.h5, every: 10, fields: [position, velocity]}
    - {file: t.gsd, every: 10, fields: [position, velocity]}
"""


def wrapped(xyz, box):
    return xyz - box * np.floor(xyz / box)


def worst(frames, reference, box):
    """The largest periodic difference of any frame's positions from the reference's."""
    if len(frames) != len(reference):
        return None
    d = 0.0
    for a, b in zip(frames, reference):
        delta = np.asarray(a, float) - b
        delta -= box * np.round(delta / box)
        d = max(d, float(np.abs(delta).max()))
    return d


def readers(folder, box):
    out = {}

    def attempt(name, fmt, read):
        try:
            out[(name, fmt)] = read()
        except ImportError:
            out[(name, fmt)] = "not installed"
        except Exception as error:  # a reader that fails says why
            out[(name, fmt)] = f"fails: {type(error).__name__}: {str(error)[:60]}"

    path = lambda f: os.path.join(folder, f)

    def ase_xyz():
        import ase.io
        return [a.get_positions() for a in ase.io.read(path("t.xyz"), index=":")]

    def mda(topology, trajectory=None, fmt=None):
        import MDAnalysis as mda
        if trajectory is None:
            u = mda.Universe(path(topology))
        else:
            u = mda.Universe(path(topology), path(trajectory), format=fmt)
        return [ts.positions.copy() for ts in u.trajectory]

    def mda_h5md():
        import MDAnalysis as mda
        import h5py
        with h5py.File(path("t.h5")) as f:
            n = f["particles/all/position/value"].shape[1]
        u = mda.Universe.empty(n, trajectory=True)
        u.load_new(path("t.h5"), format="H5MD")
        return [ts.positions.copy() for ts in u.trajectory]

    def h5py_h5md():
        import h5py
        with h5py.File(path("t.h5")) as f:
            return list(f["particles/all/position/value"][()])

    def gsd_gsd():
        import gsd.hoomd
        with gsd.hoomd.open(path("t.gsd"), "rb") as t:  # HOOMD's box is centred on 0
            return [f.particles.position + box / 2 for f in t]

    def ovito(fmt_file):  # positions from the cell's origin (its DCD and GSD cells are centred)
        from ovito.io import import_file
        pipeline = import_file(path(fmt_file))
        frames = []
        for k in range(pipeline.source.num_frames):
            data = pipeline.compute(k)
            frames.append(np.asarray(data.particles.positions) - np.asarray(data.cell[:, 3]))
        return frames

    attempt("ASE", "XYZ", ase_xyz)
    attempt("MDAnalysis", "XYZ", lambda: mda("t.xyz"))
    attempt("MDAnalysis", "DCD", lambda: mda("t.psf", "t.dcd"))
    attempt("MDAnalysis", "H5MD", mda_h5md)
    # MDAnalysis gives GSD positions as stored, in HOOMD's box centred on 0.
    attempt("MDAnalysis", "GSD", lambda: [x + box / 2 for x in mda("t.gsd")])
    attempt("h5py", "H5MD", h5py_h5md)
    attempt("gsd", "GSD", gsd_gsd)
    for fmt, f in (("XYZ", "t.xyz"), ("DCD", "t.dcd"), ("GSD", "t.gsd"), ("H5MD", "t.h5")):
        attempt("OVITO", fmt, lambda f=f: ovito(f))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--novamd", required=True)
    parser.add_argument("--workdir")
    parser.add_argument("--data", default=os.path.join(os.path.dirname(__file__), "..", "..",
                                                         "examples", "peptide", "data.peptide"))
    args = parser.parse_args()
    folder = args.workdir or tempfile.mkdtemp(prefix="novamd_read_back_")
    with open(os.path.join(folder, "run.yaml"), "w") as f:
        f.write(CONFIG.replace("DATA", os.path.abspath(args.data)))
    run = subprocess.run([os.path.abspath(args.novamd), "run", "run.yaml", "--backend", "cpu"],
                         cwd=folder, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"novamd failed:\n{run.stdout}\n{run.stderr}")
    import ase.io  # the reference: 17 digits, every frame
    reference_atoms = ase.io.read(os.path.join(folder, "t.xyz"), index=":")
    box = np.array(reference_atoms[0].cell.lengths())
    reference = [wrapped(a.get_positions(), box) for a in reference_atoms]
    tolerance = 2.0 ** -24 * float(box.max()) * 2  # two float32 roundings of a coordinate
    print(f"{len(reference)} frames of {len(reference[0])} atoms (the LAMMPS peptide), box "
          f"{box.round(4).tolist()} A; float32 bound {tolerance:.2g} A\n")
    print(f"| reader | format | frames | largest difference from the XYZ (A) | reads it |")
    print("| --- | --- | --- | --- | --- |")
    failed = False
    expected_unreadable = {("OVITO", "H5MD")}  # OVITO 3 has no H5MD reader (docs/config.md)
    for (name, fmt), result in readers(folder, box).items():
        if isinstance(result, str):
            ok = "no" if result.startswith("fails") else "-"
            print(f"| {name} | {fmt} | - | {result} | {ok} |")
            failed |= result.startswith("fails") and (name, fmt) not in expected_unreadable
            continue
        d = worst([wrapped(np.asarray(x, float), box) for x in result], reference, box)
        good = d is not None and d <= tolerance
        print(f"| {name} | {fmt} | {len(result)} | {'frame count differs' if d is None else f'{d:.3g}'} "
              f"| {'yes' if good else 'NO'} |")
        failed |= not good
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
