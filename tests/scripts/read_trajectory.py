#!/usr/bin/env python3
"""Reads a NovaMD DCD or H5MD trajectory with independent readers and compares it with an
extended XYZ reference of the same frames, written with round-trip digits.

    read_trajectory.py dcd FILE.dcd REF.xyz --istart I --nsavc K --delta D [--dt-ps T]
    read_trajectory.py h5md FILE.h5 REF.xyz --species C,O --steps position=0,1,2 ...
                       [--units position=Angstrom ...] [--mdanalysis [--convert-units]]

DCD is read with MDAnalysis (a topology-less Universe), H5MD with h5py (layout, steps, exact
values) and, with --mdanalysis, with MDAnalysis's H5MDReader as well. Exits 0 when everything
matches, 1 with a message naming the first mismatch, 2 when a module is missing.
"""

import argparse
import shlex
import sys
import warnings

warnings.filterwarnings("ignore")  # MDAnalysis's deprecation notes are not ours to read

try:
    import numpy as np
    import h5py
    import MDAnalysis as mda
except ImportError as error:
    print(f"read_trajectory.py: cannot import {error.name} ({error}); install python3-numpy "
          "python3-h5py python3-mdanalysis (scripts/setup.sh --tests does)", file=sys.stderr)
    sys.exit(2)

F32 = 2.0 ** -24  # float32 rounding: the nearest float is within 2^-24 |x| of x


class Mismatch(Exception):
    pass


def expect(condition, message):
    if not condition:
        raise Mismatch(message)


def read_reference(path):
    """The frames of an extended XYZ file as dicts: step, time, box (3), species (N), and the
    arrays pos, vel, forces (N x 3) that the file has."""
    frames = []
    with open(path) as f:
        lines = f.read().splitlines()
    i = 0
    while i < len(lines) and lines[i].strip():
        n = int(lines[i])
        fields = dict(t.split("=", 1) for t in shlex.split(lines[i + 1]) if "=" in t)
        lattice = [float(x) for x in fields["Lattice"].split()]
        props = fields["Properties"].split(":")
        rows = [lines[i + 2 + k].split() for k in range(n)]
        frame = {"step": int(fields["Step"]), "time": float(fields["Time"]),
                 "box": np.array([lattice[0], lattice[4], lattice[8]]),
                 "species": [r[0] for r in rows]}
        column = 0
        for name, _, count in zip(props[0::3], props[1::3], props[2::3]):
            count = int(count)
            if name == "name":  # the species names where the species column holds elements
                frame["species"] = [r[column] for r in rows]
            elif name != "species":
                key = "vel" if name == "velo" else name
                frame[key] = np.array([[float(x) for x in r[column:column + count]]
                                       for r in rows])
            column += count
        frames.append(frame)
        i += 2 + n
    return frames


def parse_steps(items):
    out = {}
    for item in items or []:
        name, _, values = item.partition("=")
        out[name] = [int(v) for v in values.split(",") if v]
    return out


def check_dcd(args):
    ref = read_reference(args.reference)
    n = len(ref[0]["species"])
    u = mda.Universe.empty(n, trajectory=True)
    u.load_new(args.file, format="DCD", convert_units=False)
    traj = u.trajectory
    expect(traj.n_atoms == n, f"n_atoms {traj.n_atoms}, expected {n}")
    expect(traj.n_frames == len(ref), f"n_frames {traj.n_frames}, expected {len(ref)}")
    header = traj._file.header
    expect(header["istart"] == args.istart, f"ISTART {header['istart']}, expected {args.istart}")
    expect(header["nsavc"] == args.nsavc, f"NSAVC {header['nsavc']}, expected {args.nsavc}")
    # DELTA is a float32 in the file: equal to the float32 nearest the expected value
    expect(np.float32(header["delta"]) == np.float32(args.delta),
           f"DELTA {header['delta']!r}, expected float32({args.delta!r})")
    expect("NovaMD" in header["remarks"], f"the title has no 'NovaMD': {header['remarks']!r}")
    if args.dt_ps is not None:
        # dt = DELTA x NSAVC converted from AKMA to ps: float32 DELTA, and MDAnalysis's AKMA
        # constant (4.888821e-2 ps) differs from CHARMM's (4.88882129e-2) by 6e-8 relative
        expect(abs(traj.dt - args.dt_ps) <= (F32 + 1e-7) * abs(args.dt_ps),
               f"dt {traj.dt!r} ps, expected {args.dt_ps!r}")
    worst = 0.0
    for k, ts in enumerate(traj):
        frame = ref[k]
        step = header["istart"] + k * header["nsavc"]
        expect(step == frame["step"], f"frame {k}: step {step}, expected {frame['step']}")
        box = frame["box"]
        # unit cell: doubles in the file; MDAnalysis's dimensions are float32
        expect(np.all(np.abs(ts.dimensions[:3] - box) <= F32 * box),
               f"frame {k}: box {ts.dimensions[:3]}, expected {box}")
        expect(np.all(ts.dimensions[3:] == 90.0), f"frame {k}: angles {ts.dimensions[3:]}")
        # positions are float32: relative 2^-24 of |x| plus box-size x 2^-24
        error = np.abs(ts.positions.astype(np.float64) - frame["pos"])
        bound = F32 * np.abs(frame["pos"]) + F32 * box
        bad = np.argwhere(error > bound)
        expect(bad.size == 0, f"frame {k} (step {step}): position of id {bad[0][0] if bad.size else 0}"
               f" axis {bad[0][1] if bad.size else 0} off by more than float32 rounding")
        worst = max(worst, float(np.max(error / bound)))
    print(f"read_trajectory.py: DCD {len(ref)} frames match; largest position error "
          f"{worst:.3f} of the float32 bound")


def check_h5md_layout(f, args, ref):
    expect(list(f["h5md"].attrs["version"]) == [1, 1],
           f"/h5md version {f['h5md'].attrs['version']}, expected [1, 1]")
    expect(f["h5md/creator"].attrs["name"] == b"NovaMD",
           f"creator name {f['h5md/creator'].attrs['name']!r}")
    expect(len(f["h5md/creator"].attrs["version"]) > 0, "creator version is empty")
    expect("name" in f["h5md/author"].attrs, "/h5md/author has no name")
    box = f["particles/all/box"]
    expect(box.attrs["dimension"] == 3, f"box dimension {box.attrs['dimension']}")
    expect(list(box.attrs["boundary"]) == [b"periodic"] * 3,
           f"box boundary {list(box.attrs['boundary'])}")
    names = [s.decode() for s in f["parameters/novamd/species_names"][()]]
    expect(names == args.species.split(","), f"species_names {names}, expected {args.species}")
    species = [names[t] for t in f["particles/all/species"][()]]
    expect(species == ref[0]["species"], "species (in id order) differ from the reference")


def check_h5md_values(f, args, ref):
    by_step = {frame["step"]: frame for frame in ref}
    steps = parse_steps(args.steps)
    columns = {"position": "pos", "velocity": "vel", "force": "forces"}
    particles = f["particles/all"]
    for field, column in columns.items():
        if field not in steps:
            expect(field not in particles, f"the file holds {field}; expected it not to")
            continue
        group = particles[field]
        got = [int(s) for s in group["step"][()]]
        expect(got == steps[field], f"{field}/step {got}, expected {steps[field]}")
        expect(group["time"].shape == (len(got),) and group["value"].shape[0] == len(got),
               f"{field}: time or value rows differ from step rows")
        for row, step in enumerate(got):
            frame = by_step[step]
            # doubles, written from the same doubles the reference holds: exact
            expect(group["time"][row] == frame["time"], f"{field} time of step {step}")
            expect(np.array_equal(group["value"][row], frame[column]),
                   f"{field} values of step {step} differ from the reference")
    lead = next(field for field in columns if field in steps)
    edges = particles["box/edges"]
    expect(list(edges["step"][()]) == list(particles[lead]["step"][()]),
           f"box/edges/step differs from {lead}/step")
    for row, step in enumerate(edges["step"][()]):
        expected = np.diag(by_step[int(step)]["box"])
        expect(np.array_equal(edges["value"][row], expected), f"box edges of step {step}")
    for item in args.units or []:
        name, _, unit = item.partition("=")
        dataset = particles[name]
        got = dataset.attrs.get("unit")
        expect((got is None and unit == "none") or got == unit,
               f"{name} unit {got!r}, expected {unit!r}")


def register_unknown_units(h5md_file):
    """Lets MDAnalysis's H5MDReader load a file whose unit strings it does not know (it refuses
    them even with convert_units=False): each unknown string is registered as no known unit."""
    from MDAnalysis.coordinates.H5MD import H5MDReader
    kinds = {"position": "length", "velocity": "velocity", "force": "force"}
    with h5py.File(h5md_file, "r") as f:
        for field, kind in kinds.items():
            if field in f["particles/all"]:
                for dataset, unit_kind in (("value", kind), ("time", "time")):
                    unit = f["particles/all"][field][dataset].attrs.get("unit")
                    if unit is not None:
                        H5MDReader._unit_translation[unit_kind].setdefault(unit, None)


def check_h5md_mdanalysis(args, ref):
    if args.register_unknown_units:
        register_unknown_units(args.file)
    n = len(ref[0]["species"])
    u = mda.Universe.empty(n, trajectory=True)
    u.load_new(args.file, format="H5MD", convert_units=args.convert_units)
    traj = u.trajectory
    expect(traj.n_frames == len(ref), f"MDAnalysis n_frames {traj.n_frames}, expected {len(ref)}")
    velocity_scale, time_scale, force_scale = 1.0, 1.0, 1.0
    if args.convert_units:
        # MDAnalysis must read our unit strings as these units, and converts them to A/ps, ps and
        # kJ/(mol A) with its own factors (before the fix of MDAnalysis issue #5051 its A/fs ->
        # A/ps factor is 1e-3 instead of 1e3; the file is right either way)
        expected = {"length": "Angstrom", "time": "fs", "velocity": "Angstrom/fs",
                    "force": "kcal/(mol*Angstrom)"}
        known = {key: traj.units[key] for key in expected if traj.units[key] is not None}
        expect(known == {key: expected[key] for key in known} and "length" in known,
               f"MDAnalysis reads the units as {traj.units}")
        velocity_scale = mda.units.get_conversion_factor("speed", "Angstrom/fs", "Angstrom/ps")
        time_scale = mda.units.get_conversion_factor("time", "fs", "ps")
        force_scale = mda.units.get_conversion_factor("force", "kcal/(mol*Angstrom)",
                                                      "kJ/(mol*Angstrom)")
    # float32 storage (2^-24); a conversion multiplies in float32 by the factor rounded to float32:
    # two more roundings of at most 2^-24 each
    rounding = 3 * F32 if args.convert_units else F32
    worst = 0.0
    for k, ts in enumerate(traj):
        frame = ref[k]
        expect(ts.data["step"] == frame["step"], f"frame {k}: step {ts.data['step']}")
        expect(abs(ts.time - frame["time"] * time_scale) <= 1e-15 * abs(frame["time"]),
               f"frame {k}: time {ts.time}")
        box = frame["box"]
        expect(np.all(np.abs(ts.dimensions[:3] - box) <= F32 * box)
               and np.all(ts.dimensions[3:] == 90.0), f"frame {k}: dimensions {ts.dimensions}")
        # MDAnalysis keeps coordinates as float32 whatever the file holds: float32 rounding
        for name, column, scale in (("positions", "pos", 1.0), ("velocities", "vel", velocity_scale),
                                    ("forces", "forces", force_scale)):
            if not getattr(ts, f"has_{name}"):
                continue
            expected = frame[column] * scale
            error = np.abs(getattr(ts, name).astype(np.float64) - expected)
            bound = rounding * np.abs(expected) + 1e-300
            expect(np.all(error <= bound), f"frame {k}: MDAnalysis {name} beyond float32 rounding")
            worst = max(worst, float(np.max(error / bound)))
    print(f"read_trajectory.py: MDAnalysis reads {len(ref)} frames; largest error {worst:.3f} of "
          "the float32 bound")


def check_h5md(args):
    ref = read_reference(args.reference)
    with h5py.File(args.file, "r") as f:
        check_h5md_layout(f, args, ref)
        check_h5md_values(f, args, ref)
    if args.mdanalysis:
        check_h5md_mdanalysis(args, ref)
    print("read_trajectory.py: H5MD layout, steps and values match")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="format", required=True)
    dcd = sub.add_parser("dcd")
    dcd.add_argument("file")
    dcd.add_argument("reference")
    dcd.add_argument("--istart", type=int, required=True)
    dcd.add_argument("--nsavc", type=int, required=True)
    dcd.add_argument("--delta", type=float, required=True)
    dcd.add_argument("--dt-ps", type=float)
    h5 = sub.add_parser("h5md")
    h5.add_argument("file")
    h5.add_argument("reference")
    h5.add_argument("--species", required=True)
    h5.add_argument("--steps", action="append", help="FIELD=s0,s1,...: the steps FIELD holds")
    h5.add_argument("--units", action="append", help="DATASET=UNIT (or none), under particles/all")
    h5.add_argument("--mdanalysis", action="store_true")
    h5.add_argument("--convert-units", action="store_true")
    h5.add_argument("--register-unknown-units", action="store_true")
    args = parser.parse_args()
    try:
        check_dcd(args) if args.format == "dcd" else check_h5md(args)
    except Mismatch as mismatch:
        print(f"read_trajectory.py: MISMATCH in {args.file}: {mismatch}", file=sys.stderr)
        sys.exit(1)
    except Exception as error:  # a reader that cannot read the file at all
        print(f"read_trajectory.py: cannot read {args.file}: {type(error).__name__}: {error}",
              file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
