"""novamd.Simulation against the command line: the same library code, so the same bits."""

import json
import sys
import subprocess

import numpy as np
import pytest

import novamd
from conftest import EXAMPLES, lj_liquid, whole_and_in_pieces

LJ_SETS = {"system.structure.generate.cells": 5, "run.steps": 200,
           "output.thermo": {"file": "thermo.csv", "every": 20},
           "output.trajectory": {"file": "traj.xyz", "every": 100,
                                 "fields": ["position", "velocity"]},
           "output.checkpoint": {"file": "end.chk"}}


def cli_sets(sets):
    return [a for k, v in sets.items()
            for a in ("--set", f"{k}={v if isinstance(v, (str, int)) else json.dumps(v)}")]


def test_a_run_from_python_equals_the_command_lines_bit_for_bit(tmp_path, run_cli, monkeypatch):
    config = EXAMPLES / "lj_liquid.yaml"
    (tmp_path / "cli").mkdir()
    run_cli(["run", config, *cli_sets(LJ_SETS)], cwd=tmp_path / "cli")
    (tmp_path / "py").mkdir()
    monkeypatch.chdir(tmp_path / "py")
    with novamd.Simulation(config, set=LJ_SETS) as sim:
        sim.run()
        assert sim.step == 200
        final = sim.state()
    for name in ("thermo.csv", "traj.xyz"):
        assert (tmp_path / "py" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name
    # The command line's final state, from its checkpoint: equal in every bit.
    monkeypatch.chdir(tmp_path / "cli")
    cli = novamd.Simulation.from_checkpoint(
        "end.chk", set={"output.thermo.file": "none", "output.trajectory": [],
                        "output.checkpoint.file": "again.chk"})
    reference = cli.state()
    assert cli.step == 200
    np.testing.assert_array_equal(final.positions, reference.positions)
    np.testing.assert_array_equal(final.velocities, reference.velocities)
    np.testing.assert_array_equal(final.forces, reference.forces)


def test_runs_in_pieces_give_the_bits_of_one_run(in_tmp):
    # On the CPU every step is read (its check runs each step). On a GPU the end of a piece is
    # read where one run would have joined two half kicks: test_cuda.py has that case.
    whole, pieces = whole_and_in_pieces("cpu")
    assert pieces.step == whole.step == 120
    a, b = whole.state(), pieces.state()
    np.testing.assert_array_equal(a.positions, b.positions)
    np.testing.assert_array_equal(a.velocities, b.velocities)
    assert whole.energies() == pieces.energies()


def test_a_dict_config_runs_as_the_same_yaml_file(in_tmp, run_cli):
    config = lj_liquid(steps=50)
    (in_tmp / "cli").mkdir()
    (in_tmp / "cli" / "run.yaml").write_text(json.dumps(config))  # JSON is YAML
    run_cli(["run", "run.yaml"], cwd=in_tmp / "cli")
    novamd.Simulation(config).run()
    assert (in_tmp / "thermo.csv").read_bytes() == (in_tmp / "cli" / "thermo.csv").read_bytes()


def test_state_has_the_shapes_types_and_id_order_of_the_input(in_tmp):
    sim = novamd.Simulation(lj_liquid(cells=5, output={"thermo": {"file": "none"}}))
    n = len(sim)
    assert n == 500
    s = sim.state()
    for array in (s.positions, s.velocities, s.forces):
        assert array.shape == (n, 3) and array.dtype == np.float64
    assert s.ids.dtype == np.int32 and s.types.dtype == np.int32
    np.testing.assert_array_equal(s.ids, np.arange(n))
    np.testing.assert_array_equal(s.box, np.full(3, (n / 0.8442) ** (1 / 3)))
    assert s.step == 0 and s.time == 0.0
    # Momentum is zero at the start (velocities from the temperature, drift removed).
    np.testing.assert_allclose(s.velocities.sum(axis=0), 0.0, atol=1e-12)
    # After steps the store is sorted along the space-filling curve; output stays in id order:
    # a particle's new position is near its old one.
    sim.run(20)
    t = sim.state()
    moved = t.positions - s.positions
    moved -= t.box * np.round(moved / t.box)
    assert np.abs(moved).max() < 0.5
    np.testing.assert_array_equal(t.ids, np.arange(n))
    # Positions set are the positions read back, particle by particle.
    rng = np.random.default_rng(3)
    new = t.positions + rng.uniform(-0.02, 0.02, t.positions.shape)
    new %= t.box
    sim.set_positions(new)
    np.testing.assert_array_equal(sim.state().positions, new)


def write_xyz(path, box, positions):
    lines = [str(len(positions)),
             f'Lattice="{box[0]:.17g} 0 0 0 {box[1]:.17g} 0 0 0 {box[2]:.17g}" '
             "Properties=species:S:1:pos:R:3"]
    lines += [f"Ar {x:.17g} {y:.17g} {z:.17g}" for x, y, z in positions]
    path.write_text("\n".join(lines) + "\n")


def test_set_positions_then_energies_equals_the_command_lines_energy_of_the_same_positions(
        in_tmp, run_cli):
    sim = novamd.Simulation(lj_liquid(cells=5, output={"thermo": {"file": "none"}}))
    sim.run(30)
    state = sim.state()
    rng = np.random.default_rng(7)
    positions = (state.positions + rng.normal(0.0, 0.03, state.positions.shape)) % state.box
    sim.set_positions(positions)
    energy = sim.energies()
    write_xyz(in_tmp / "start.xyz", state.box, positions)
    config = lj_liquid(cells=5, steps=0)
    del config["system"]["density"], config["system"]["velocities"]
    config["system"]["structure"] = {"read": "start.xyz"}
    (in_tmp / "run.yaml").write_text(json.dumps(config))
    run_cli(["run", "run.yaml"], cwd=in_tmp)
    units, header, row = (in_tmp / "thermo.csv").read_text().splitlines()[:3]
    assert units.startswith("# units: time=tau ")  # the lj units' names
    reference = dict(zip(header.split(","), map(float, row.split(","))))
    # The same pairs in both; their sums may run in another order (the lists were built from
    # other positions), so the two agree to double's rounding over ~10^4 pair terms.
    assert energy["potential"] == pytest.approx(reference["potential_energy"], rel=1e-12)
    assert energy["lennard_jones"] == pytest.approx(energy["potential"], rel=1e-15)
    np.testing.assert_array_equal(sim.state().positions, positions)


def test_energies_and_thermo_name_every_term(in_tmp):
    config = lj_liquid(cells=4)
    config["forces"][0]["lennard_jones"].update(truncation="cut", tail_correction=True)
    sim = novamd.Simulation(config)
    e = sim.energies()
    assert set(e) == {"potential", "kinetic", "total", "lennard_jones", "tail"}
    assert e["lennard_jones"] + e["tail"] == pytest.approx(e["potential"], rel=1e-14)
    assert e["tail"] < 0.0
    assert e["total"] == pytest.approx(e["potential"] + e["kinetic"], rel=1e-15)
    t = sim.thermo()
    assert t["potential_energy"] == e["potential"]
    assert t["temperature"] == pytest.approx(1.44, rel=1e-12)  # exact at the start
    assert t["vdw_energy"] == pytest.approx(e["potential"], rel=1e-15)


def test_callbacks_run_after_their_steps_and_an_exception_stops_the_run_there(in_tmp):
    sim = novamd.Simulation(lj_liquid(output={"thermo": {"file": "none"}}))
    seen = []
    sim.run(30, callbacks=[(10, lambda s: seen.append((s.step, s.state().step))),
                           (15, lambda s: seen.append(("e", s.energies()["total"])))])
    assert [x for x in seen if x[0] != "e"] == [(10, 10), (20, 20), (30, 30)]
    assert [x[0] for x in seen].count("e") == 2

    def fail(s):
        if s.step == 45:
            raise ZeroDivisionError("from the callback")

    with pytest.raises(ZeroDivisionError, match="from the callback"):
        sim.run(50, callbacks=[(5, fail)])
    assert sim.step == 45
    sim.run(5)  # the state was whole at step 45: the simulation goes on
    assert sim.step == 50


def test_a_checkpoint_continues_bit_for_bit(in_tmp):
    config = lj_liquid(output={"thermo": {"file": "none"}},
                       integrator={"type": "langevin", "timestep": 0.005, "temperature": 1.2,
                                   "friction": 1.0})
    sim = novamd.Simulation(config)
    sim.run(60)
    sim.save_checkpoint("at60.chk")
    sim.run(40)
    again = novamd.Simulation.from_checkpoint("at60.chk")
    assert again.step == 60
    again.run(40)
    np.testing.assert_array_equal(sim.state().positions, again.state().positions)
    np.testing.assert_array_equal(sim.state().velocities, again.state().velocities)


def test_a_simulation_from_arrays_runs_as_the_same_config(in_tmp):
    config = lj_liquid(cells=4, output={"thermo": {"file": "none"}})
    same = novamd.Simulation(config)
    positions = same.state().positions  # the config's fcc crystal
    lj = novamd.forces.LennardJones(pairs=[{"types": ["Ar", "Ar"], "epsilon": 1.0, "sigma": 1.0}],
                                    cutoff=2.5, truncation="shift")
    sim = novamd.Simulation.from_arrays(
        box=same.state().box, species=["Ar"], types=["Ar"] * len(positions), positions=positions,
        forces=[lj], integrator=novamd.integrators.VelocityVerlet(timestep=0.005),
        temperature=1.44, seed=11, neighbors={"method": "auto", "skin": 0.3})
    assert sim.species == ["Ar"] and len(sim) == 256 and sim.units == "lj"
    # Velocities from the same seed, ids and masses: the same; and so is every step after.
    np.testing.assert_array_equal(sim.state().velocities, same.state().velocities)
    sim.run(100)
    same.run(100)
    np.testing.assert_array_equal(sim.state().positions, same.state().positions)
    assert not (in_tmp / "thermo.csv").exists()  # no file unless a Thermo reporter asks
    e0 = sim.thermo()["conserved_energy"]
    sim.run(200)
    assert abs(sim.thermo()["conserved_energy"] - e0) < 1e-3 * abs(e0)


def test_reporters_write_the_configs_outputs_and_show_progress(in_tmp):
    import io
    stream = io.StringIO()
    sim = novamd.Simulation(
        lj_liquid(), reporters=[novamd.reporters.Thermo("t.csv", every=25, columns=["pxx"]),
                                novamd.reporters.Trajectory("t.xyz", every=50),
                                novamd.reporters.Progress(every=40, stream=stream)])
    sim.run(100)
    sim.close()
    rows = (in_tmp / "t.csv").read_text().splitlines()
    assert rows[0].endswith(" pxx=epsilon/sigma^3")  # the units line
    assert rows[1].endswith(",pxx") and len(rows) == 2 + 5  # steps 0, 25, 50, 75, 100
    assert not (in_tmp / "thermo.csv").exists()
    frames = (in_tmp / "t.xyz").read_text().count("Lattice=")
    assert frames == 3  # steps 0, 50, 100
    lines = stream.getvalue().splitlines()
    assert [l.split()[1] for l in lines] == ["40/100", "80/100"]


def test_a_dcd_reporter_is_read_by_mdanalysis(in_tmp):
    pytest.importorskip("MDAnalysis")  # Debian python3-mdanalysis (scripts/setup.sh --tests)
    from MDAnalysis.coordinates.DCD import DCDReader
    sim = novamd.Simulation(lj_liquid(**{"output": {"thermo": {"file": "none"}}}),
                            reporters=[novamd.reporters.Trajectory("t.dcd", every=50)])
    sim.run(100)
    sim.close()
    frames = DCDReader(str(in_tmp / "t.dcd"))
    assert len(frames) == 3  # steps 0, 50, 100
    # DCD holds float32: positions to 2^-24 relative of the box edge, ~4e-7.
    np.testing.assert_allclose(frames[-1].positions, sim.state().positions, atol=1e-5)


def test_python_m_novamd_is_the_command_line(in_tmp):
    (in_tmp / "run.yaml").write_text(json.dumps(lj_liquid(steps=10)))
    ok = subprocess.run([sys.executable, "-m", "novamd", "run", "run.yaml"], cwd=in_tmp,
                        capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    assert (in_tmp / "thermo.csv").exists()
    bad = subprocess.run([sys.executable, "-m", "novamd", "run", "run.yaml", "--set",
                          "integrator.timestep=-1"], cwd=in_tmp, capture_output=True, text=True)
    assert bad.returncode == 2
    assert "integrator.timestep" in bad.stderr


def test_a_custom_pair_formula_gives_the_built_in_lennard_jones(in_tmp):
    # The same liquid with lennard_jones and with its formula: energies and forces agree to
    # the formula's rounding (pow against the built-in's products: 64 eps of the magnitudes).
    config = lj_liquid(cells=4, output={"thermo": {"file": "none"}})
    builtin = novamd.Simulation(config)
    formula = novamd.forces.CustomPair(energy="4*eps*((sigma/r)^12 - (sigma/r)^6)",
                                       parameters={"eps": 1.0, "sigma": 1.0}, cutoff=2.5,
                                       shift="energy")
    config["forces"] = [formula.to_config()]
    custom = novamd.Simulation(config)
    moved = builtin.state().positions + np.random.default_rng(5).normal(0, 0.05, (256, 3))
    builtin.set_positions(moved)
    custom.set_positions(moved)
    a, b = builtin.energies(), custom.energies()
    # About 70 pairs per particle, each within 64 eps of its magnitude: 1e-11 of the largest.
    assert b["custom_pair"] == pytest.approx(a["lennard_jones"], rel=1e-11)
    f = builtin.state().forces
    np.testing.assert_allclose(custom.state().forces, f, rtol=0, atol=1e-11 * np.abs(f).max())
    assert repr(formula).startswith("CustomPair(energy='4*eps")
