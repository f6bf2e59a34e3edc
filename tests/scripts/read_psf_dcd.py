#!/usr/bin/env python3
"""Reads a NovaMD PSF topology together with a NovaMD DCD trajectory in MDAnalysis and compares
what MDAnalysis sees with the expected values the test wrote as JSON.

    read_psf_dcd.py TOPOLOGY.psf TRAJECTORY.dcd EXPECTED.json

EXPECTED.json holds, per atom in id order, "names", "types", "resnames", "resids", "charges" and
"masses"; the terms "bonds", "angles", "dihedrals", "impropers" as lists of 0-based atom
indices; "layout" ("PSF" or "PSF NAMD", the first line of the file); and "frames", each with
"box" (3 edge lengths) and "positions" (N x 3). Exits 0 when everything matches, 1 with a message
naming the first mismatch, 2 when a module is missing.
"""

import json
import sys
import warnings

warnings.filterwarnings("ignore")  # MDAnalysis's deprecation notes are not ours to read

try:
    import numpy as np
    import MDAnalysis as mda
except ImportError as error:
    print(f"read_psf_dcd.py: cannot import {error.name} ({error}); install python3-numpy "
          "python3-mdanalysis (scripts/setup.sh --tests does)", file=sys.stderr)
    sys.exit(2)

# The PSF holds charges and masses with 6 decimals: within 5e-7 of the value, and MDAnalysis
# keeps charges as float32 (a relative rounding of 2^-24).
DECIMALS = 0.5e-6
F32 = 2.0 ** -24


class Mismatch(Exception):
    pass


def expect(condition, message):
    if not condition:
        raise Mismatch(message)


def canonical(term):
    """A term as MDAnalysis stores it: the lower end index first."""
    term = tuple(int(i) for i in term)
    return term if term[0] < term[-1] else term[::-1]


def check_strings(seen, expected, what):
    seen = [str(s) for s in seen]
    for i, (a, b) in enumerate(zip(seen, expected)):
        expect(a == b, f"{what} of atom index {i}: MDAnalysis reads '{a}', expected '{b}'")


def check_terms(universe, expected, name):
    seen = sorted(canonical(t) for t in getattr(universe, name).to_indices())
    wanted = sorted(canonical(t) for t in expected[name])
    expect(seen == wanted, f"{name}: MDAnalysis reads {seen}, expected {wanted}")


def check(psf, dcd, expected):
    with open(psf) as f:
        layout = f.readline().strip()
    expect(layout == expected["layout"], f"first line '{layout}', expected '{expected['layout']}'")
    u = mda.Universe(psf, dcd)
    n = len(expected["names"])
    expect(u.atoms.n_atoms == n, f"{u.atoms.n_atoms} atoms, expected {n}")
    check_strings(u.atoms.names, expected["names"], "name")
    check_strings(u.atoms.types, expected["types"], "type")
    check_strings(u.atoms.resnames, expected["resnames"], "residue name")
    check_strings(u.atoms.segids, ["SYS"] * n, "segment")
    resids = [int(r) for r in u.atoms.resids]
    expect(resids == expected["resids"], f"resids {resids}, expected {expected['resids']}")
    charges = np.asarray(expected["charges"])
    bound = DECIMALS + F32 * np.abs(charges)
    worst = np.abs(u.atoms.charges - charges)
    expect(np.all(worst <= bound), f"charges {list(u.atoms.charges)}, expected {list(charges)}")
    masses = np.asarray(expected["masses"])
    expect(np.all(np.abs(u.atoms.masses - masses) <= DECIMALS),
           f"masses {list(u.atoms.masses)}, expected {list(masses)}")
    for name in ("bonds", "angles", "dihedrals", "impropers"):
        check_terms(u, expected, name)
    frames = expected["frames"]
    expect(len(u.trajectory) == len(frames), f"{len(u.trajectory)} frames, expected {len(frames)}")
    for k, (ts, frame) in enumerate(zip(u.trajectory, frames)):
        # DCD stores float32: MDAnalysis must give exactly the float32 of each coordinate.
        want = np.asarray(frame["positions"], dtype=np.float64).astype(np.float32)
        expect(np.array_equal(ts.positions, want),
               f"frame {k}: positions differ, largest by {np.abs(ts.positions - want).max()}")
        box = np.asarray(frame["box"], dtype=np.float32)
        expect(np.array_equal(ts.dimensions[:3].astype(np.float32), box),
               f"frame {k}: box {ts.dimensions[:3]}, expected {box}")


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    psf, dcd, expected_file = sys.argv[1:]
    with open(expected_file) as f:
        expected = json.load(f)
    try:
        check(psf, dcd, expected)
    except Mismatch as mismatch:
        print(f"read_psf_dcd.py: {psf}: {mismatch}", file=sys.stderr)
        return 1
    print(f"read_psf_dcd.py: {psf} with {dcd}: atoms, terms and positions match")
    return 0


if __name__ == "__main__":
    sys.exit(main())
