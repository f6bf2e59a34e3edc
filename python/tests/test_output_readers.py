"""Every trajectory format NovaMD writes, read back by the tools people use: ASE and
MDAnalysis (extended XYZ), gsd and MDAnalysis (GSD), h5py and MDAnalysis (H5MD, without
options where the units have names MDAnalysis knows), and MDAnalysis (DCD). The files of one
run hold the same frames, so each reader's values are checked against the H5MD file's doubles,
within the precision its format stores."""

import json
import warnings

import numpy as np
import pytest

warnings.filterwarnings("ignore", category=DeprecationWarning)
h5py = pytest.importorskip("h5py")  # Debian python3-h5py (scripts/setup.sh --tests)
gsd_hoomd = pytest.importorskip("gsd.hoomd")  # Debian python3-gsd
mda = pytest.importorskip("MDAnalysis")  # Debian python3-mdanalysis
ase_io = pytest.importorskip("ase.io")  # Debian python3-ase

F32 = 2.0 ** -24  # float32 rounding, relative

# Three species whose names are no element (A), an element by chance (B) or an isotope (Ne22),
# in `real` units.
SPECIES = [{"name": "A", "mass": 39.948}, {"name": "B", "mass": 39.948},
           {"name": "Ne22", "mass": 21.991}]
EXPECTED_ELEMENTS = {"A": "X", "B": "B", "Ne22": "Ne"}  # B is boron by its name


def fields_of(file):
    """XYZ with velocities, DCD with positions (all it holds), the others with every field."""
    if file.endswith(".xyz"):
        return ["position", "velocity"]
    return ["position"] if file.endswith(".dcd") else ["position", "velocity", "force"]


def mixture(steps=20, every=10, files=("t.xyz", "t.gsd", "t.h5md"), **extra):
    eps, sigma = 0.2381, 3.405
    pairs = [{"types": [a["name"], b["name"]], "epsilon": eps, "sigma": sigma}
             for k, a in enumerate(SPECIES) for b in SPECIES[k:]]
    config = {
        "units": "real", "seed": 7,
        "system": {"density": 0.0170,  # atoms per A^3
                   "species": SPECIES,
                   "structure": {"generate": {"lattice": "fcc", "cells": 3,
                                              "fractions": {"A": 0.5, "B": 0.3, "Ne22": 0.2}}},
                   "velocities": {"temperature": 120.0}},
        "forces": [{"lennard_jones": {"pairs": pairs, "cutoff": 8.5, "truncation": "shift"}}],
        "integrator": {"type": "velocity_verlet", "timestep": 5.0},
        "run": {"steps": steps},
        "output": {"thermo": {"every": every, "file": "thermo.csv"},
                   "trajectory": [{"every": every, "file": f,
                                   "fields": fields_of(f)}
                                  for f in files]},
    }
    config.update(extra)
    return config


@pytest.fixture
def mixture_run(in_tmp, run_cli):
    (in_tmp / "run.yaml").write_text(json.dumps(mixture()))
    result = run_cli(["run", "run.yaml"], cwd=in_tmp)
    with h5py.File(in_tmp / "t.h5md", "r") as f:
        particles = f["particles/all"]
        names = [s.decode() for s in f["parameters/novamd/species_names"][()]]
        frames = {
            "steps": list(particles["position/step"][()]),
            "time": particles["position/time"][()],
            "box": particles["box/edges/value"][()],
            "position": particles["position/value"][()],
            "velocity": particles["velocity/value"][()],
            "force": particles["force/value"][()],
            "species": [names[t] for t in particles["species"][()]],
        }
    return in_tmp, frames, result


def test_h5md_has_units_on_every_field_and_aligned_steps(mixture_run):
    folder, frames, _ = mixture_run
    with h5py.File(folder / "t.h5md", "r") as f:
        p = f["particles/all"]
        units = {name: p[name].attrs["unit"] for name in
                 ("position/value", "velocity/value", "force/value", "box/edges/value",
                  "position/time", "velocity/time", "force/time")}
        assert units == {"position/value": "Angstrom", "velocity/value": "Angstrom fs-1",
                         "force/value": "kcal mol-1 Angstrom-1",
                         "box/edges/value": "Angstrom", "position/time": "fs",
                         "velocity/time": "fs", "force/time": "fs"}
        for field in ("velocity", "force"):  # the same steps for every field
            assert list(p[f"{field}/step"][()]) == frames["steps"] == [0, 10, 20]


def test_mdanalysis_reads_h5md_without_options(mixture_run):
    folder, frames, _ = mixture_run
    u = mda.Universe.empty(len(frames["species"]), trajectory=True)
    u.load_new(str(folder / "t.h5md"), format="H5MD")  # convert_units=True, MDAnalysis's default
    assert u.trajectory.n_frames == 3
    to_kj = mda.units.get_conversion_factor("force", "kcal/(mol*Angstrom)", "kJ/(mol*Angstrom)")
    to_ps = mda.units.get_conversion_factor("speed", "Angstrom/fs", "Angstrom/ps")
    for k, ts in enumerate(u.trajectory):
        assert ts.data["step"] == frames["steps"][k]
        assert ts.time == pytest.approx(frames["time"][k] * 1e-3, rel=1e-12)  # fs -> ps
        # float32 storage, then a float32 multiplication by the factor: 3 roundings at most
        for name, expected in (("positions", frames["position"][k]),
                               ("velocities", frames["velocity"][k] * to_ps),
                               ("forces", frames["force"][k] * to_kj)):
            got = getattr(ts, name).astype(np.float64)
            assert np.all(np.abs(got - expected) <= 3 * F32 * np.abs(expected) + 1e-30), name


def test_ase_reads_xyz_species_as_elements_and_names_apart(mixture_run):
    folder, frames, _ = mixture_run
    images = ase_io.read(folder / "t.xyz", index=":")
    assert len(images) == 3
    for k, atoms in enumerate(images):
        assert atoms.get_chemical_symbols() == [EXPECTED_ELEMENTS[s] for s in frames["species"]]
        assert list(atoms.arrays["name"]) == frames["species"]
        assert atoms.info["Step"] == frames["steps"][k]
        # 10 significant digits: relative rounding at most 5e-10
        np.testing.assert_allclose(atoms.positions, frames["position"][k], rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(atoms.arrays["velo"], frames["velocity"][k], rtol=1e-9,
                                   atol=1e-15)
        np.testing.assert_allclose(atoms.cell.lengths(), np.diag(frames["box"][k]), rtol=1e-15)


def test_novamd_reads_its_xyz_back_by_species_name(mixture_run, run_cli):
    folder, frames, _ = mixture_run
    config = mixture(steps=0, files=())
    config["system"]["structure"] = {"read": "t.xyz"}
    del config["system"]["density"]
    (folder / "again.yaml").write_text(json.dumps(config))
    run_cli(["run", "again.yaml"], cwd=folder)  # an unknown name 'X' would be refused


def test_gsd_reads_every_frame(mixture_run):
    folder, frames, _ = mixture_run
    with gsd_hoomd.open(str(folder / "t.gsd"), "rb") as trajectory:
        assert len(trajectory) == 3
        for k, frame in enumerate(trajectory):
            box = np.diag(frames["box"][k])
            assert frame.configuration.step == frames["steps"][k]
            np.testing.assert_allclose(frame.configuration.box[:3], box, rtol=F32)
            assert list(frame.configuration.box[3:]) == [0.0, 0.0, 0.0]
            assert frame.particles.N == len(frames["species"])
            assert frame.particles.types == [s["name"] for s in SPECIES]
            names = [frame.particles.types[t] for t in frame.particles.typeid]
            assert names == frames["species"]
            # HOOMD's box is centred on the origin: x - L/2, in float32
            expected = frames["position"][k] - box / 2
            assert np.all(np.abs(frame.particles.position - expected) <= F32 * box)
            assert np.all(frame.particles.position >= -box / 2)
            assert np.all(frame.particles.position < box / 2)
            np.testing.assert_allclose(frame.particles.velocity, frames["velocity"][k], rtol=F32,
                                       atol=1e-30)
            assert np.array_equal(frame.log["particles/force"], frames["force"][k])  # doubles
            assert frame.log["time"][0] == frames["time"][k]
            masses = {s["name"]: s["mass"] for s in SPECIES}
            np.testing.assert_allclose(frame.particles.mass,
                                       [masses[s] for s in frames["species"]], rtol=F32)


def test_mdanalysis_reads_gsd(mixture_run):
    folder, frames, _ = mixture_run
    u = mda.Universe(str(folder / "t.gsd"))
    assert u.trajectory.n_frames == 3
    assert list(u.atoms.types) == frames["species"]
    for k, ts in enumerate(u.trajectory):
        box = np.diag(frames["box"][k])
        expected = frames["position"][k] - box / 2
        assert np.all(np.abs(ts.positions - expected) <= F32 * box)


def test_dcd_note_on_the_last_step(in_tmp, run_cli):
    (in_tmp / "run.yaml").write_text(json.dumps(mixture(steps=25, files=("t.dcd",))))
    result = run_cli(["run", "run.yaml"], cwd=in_tmp)
    assert ("Note: t.dcd: DCD frames are evenly spaced, so its last frame is step 20, not the "
            "run's last step 25 (every 10)") in result.stdout
    u = mda.Universe.empty(108, trajectory=True)
    u.load_new(str(in_tmp / "t.dcd"), format="DCD")
    assert u.trajectory.n_frames == 3  # steps 0, 10, 20


def test_a_restart_continues_a_gsd_file_bitwise(in_tmp, run_cli):
    config = mixture(steps=20, files=("t.gsd",))
    config["output"]["checkpoint"] = {"every": 10, "file": "run.chk"}
    (in_tmp / "run.yaml").write_text(json.dumps(config))
    run_cli(["run", "run.yaml"], cwd=in_tmp)
    with gsd_hoomd.open(str(in_tmp / "t.gsd"), "rb") as t:
        whole = [(f.configuration.step, f.particles.position.copy()) for f in t]
    run_cli(["run", "run.yaml", "--restart", "run.chk", "--steps", "30"], cwd=in_tmp)
    with gsd_hoomd.open(str(in_tmp / "t.gsd"), "rb") as t:
        continued = [(f.configuration.step, f.particles.position.copy()) for f in t]
    assert [s for s, _ in continued] == [0, 10, 20, 30]
    for (s, a), (_, b) in zip(whole, continued):
        assert np.array_equal(a, b), f"step {s}"


def test_lj_example_h5md_iterates_in_mdanalysis(in_tmp, run_cli):
    from conftest import EXAMPLES
    result = run_cli(["run", EXAMPLES / "lj_nvt.yaml", "--steps", "2000"], cwd=in_tmp)
    assert "MDAnalysis" not in result.stdout  # no note: the fields share their steps
    u = mda.Universe.empty(2048, trajectory=True)
    # reduced units have no unit names: MDAnalysis reads them as they are with this option
    u.load_new(str(in_tmp / "lj_nvt.h5md"), format="H5MD", convert_units=False)
    steps = [ts.data["step"] for ts in u.trajectory]
    assert steps == [0, 1000, 2000]
    assert all(ts.has_velocities for ts in u.trajectory)


# The examples that write trajectories, run for 4 steps (their first and last frames), and the
# particles each file holds.
EXAMPLE_TRAJECTORIES = [
    ("white_dwarf_co.yaml", ["white_dwarf_co.xyz"]),
    ("tutorial/argon.yaml", ["argon.xyz"]),
    ("lj_nvt.yaml", ["lj_nvt.dcd", "lj_nvt.h5md"]),
    ("peptide/peptide.yaml", ["peptide.dcd"]),
    ("amber-dipeptide/dipeptide.yaml", ["dipeptide.dcd"]),
    ("rigid/co2.yaml", ["co2.xyz"]),
]


def read_with_every_tool(path, atoms):
    """Frames of `path` as each tool that reads its format sees them; asserts their counts."""
    suffix = path.suffix
    if suffix == ".xyz":
        images = ase_io.read(path, index=":")  # species must be elements (or X) for ASE
        assert all(len(a) == atoms for a in images)
        u = mda.Universe(str(path), format="XYZ")
        assert len(u.atoms) == atoms and u.trajectory.n_frames == len(images)
        return len(images)
    if suffix == ".dcd":
        topology = path.with_suffix(".psf")
        u = (mda.Universe(str(topology), str(path)) if topology.exists()
             else mda.Universe.empty(atoms, trajectory=True))
        if not topology.exists():
            u.load_new(str(path), format="DCD")
        assert len(u.atoms) == atoms
        return u.trajectory.n_frames
    if suffix == ".h5md":
        with h5py.File(path, "r") as f:
            assert f["particles/all/position/value"].shape[1] == atoms
        u = mda.Universe.empty(atoms, trajectory=True)
        u.load_new(str(path), format="H5MD", convert_units=False)  # lj units: no unit names
        return u.trajectory.n_frames
    raise AssertionError(f"no reader for {path}")


@pytest.mark.parametrize("example,files", EXAMPLE_TRAJECTORIES,
                         ids=[e for e, _ in EXAMPLE_TRAJECTORIES])
def test_every_examples_trajectory_opens_in_the_tools_that_read_it(in_tmp, run_cli, example,
                                                                    files):
    from conftest import EXAMPLES
    run_cli(["run", EXAMPLES / example, "--steps", "4", "--backend", "cpu"], cwd=in_tmp)
    thermo = next(in_tmp.glob("*thermo*.csv"))
    assert thermo.read_text().startswith("# units:")
    for name in files:
        path = in_tmp / name
        if path.suffix == ".xyz":
            atoms = int(path.read_text().split("\n", 1)[0])
        elif path.suffix == ".h5md":
            with h5py.File(path, "r") as f:
                atoms = f["particles/all/species"].shape[0]
        else:
            atoms = mda.coordinates.DCD.DCDReader(str(path)).n_atoms  # the header's N
        assert read_with_every_tool(path, atoms) >= 1


def test_a_gsd_file_without_positions_is_refused_before_anything_is_written(in_tmp, run_cli):
    config = mixture(files=("t.gsd",))
    config["output"]["trajectory"][0]["fields"] = ["velocity"]
    (in_tmp / "run.yaml").write_text(json.dumps(config))
    result = run_cli(["run", "run.yaml"], cwd=in_tmp, check=False)
    assert result.returncode == 2
    assert "output.trajectory[0].fields" in result.stderr
    assert "GSD frames hold the positions" in result.stderr
    assert not (in_tmp / "t.gsd").exists() and not (in_tmp / "thermo.csv").exists()


def test_a_restart_refuses_to_continue_a_file_that_is_no_gsd(in_tmp, run_cli):
    config = mixture(steps=10, files=("t.gsd",))
    config["output"]["checkpoint"] = {"every": 10, "file": "run.chk"}
    (in_tmp / "run.yaml").write_text(json.dumps(config))
    run_cli(["run", "run.yaml"], cwd=in_tmp)
    (in_tmp / "t.gsd").write_text("not a trajectory\n" * 20)
    result = run_cli(["run", "run.yaml", "--restart", "run.chk", "--steps", "20"], cwd=in_tmp,
                     check=False)
    assert result.returncode == 2
    assert "t.gsd: not a GSD 2 file that can be continued: no GSD magic number" in result.stderr
    assert (in_tmp / "t.gsd").read_text() == "not a trajectory\n" * 20  # left as it was
