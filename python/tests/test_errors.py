"""Bad input raises novamd.ConfigError with the command line's message; a run that goes wrong
raises novamd.RunError; neither crashes the interpreter."""

import numpy as np
import pytest

import novamd
from conftest import lj_liquid

QUIET = {"output": {"thermo": {"file": "none"}}}


def test_a_wrong_key_names_its_path_and_the_nearest_key(in_tmp):
    config = lj_liquid(**QUIET)
    config["forces"][0]["lennard_jones"]["cutof"] = 2.5
    with pytest.raises(novamd.ConfigError, match=r"forces\[0\]\.lennard_jones.*cutoff"):
        novamd.Simulation(config)
    assert issubclass(novamd.ConfigError, ValueError)


def test_a_bad_override_and_a_missing_file_are_config_errors(in_tmp):
    with pytest.raises(novamd.ConfigError, match="integrator.timestep"):
        novamd.Simulation(lj_liquid(**QUIET), set={"integrator.timestep": -0.1})
    with pytest.raises(novamd.ConfigError, match="missing.yaml"):
        novamd.Simulation("missing.yaml")
    with pytest.raises(TypeError):
        novamd.Simulation(42)


def test_nothing_is_written_on_bad_input(in_tmp):
    config = lj_liquid()
    config["integrator"]["timestep"] = 0
    with pytest.raises(novamd.ConfigError):
        novamd.Simulation(config)
    assert list(in_tmp.iterdir()) == []


def test_arrays_of_the_wrong_shape_or_with_nan_are_refused(in_tmp):
    sim = novamd.Simulation(lj_liquid(**QUIET))
    n = len(sim)
    before = sim.state().positions
    with pytest.raises(novamd.ConfigError, match=rf"shape \({n}, 2\); expected \({n}, 3\)"):
        sim.set_positions(np.zeros((n, 2)))
    with pytest.raises(novamd.ConfigError, match=r"expected \(256, 3\)"):
        sim.set_velocities(np.zeros((n + 1, 3)))
    bad = before.copy()
    bad[17, 1] = np.nan
    with pytest.raises(novamd.ConfigError, match="particle 17 along y is nan"):
        sim.set_positions(bad)
    with pytest.raises(novamd.ConfigError, match="cannot be read as numbers"):
        sim.set_positions([["a", "b", "c"]] * n)
    with pytest.raises(novamd.ConfigError, match="positive, finite"):
        sim.set_box([1.0, -1.0, 1.0])
    with pytest.raises(novamd.ConfigError, match="cutoff"):
        sim.set_box(3.0)  # half of 3 is below the cutoff of 2.5
    np.testing.assert_array_equal(sim.state().positions, before)  # nothing changed
    with pytest.raises(novamd.ConfigError, match="expected 0 or more"):
        sim.run(-1)
    with pytest.raises(novamd.ConfigError, match="a callback's interval is 0; expected 1 or more"):
        sim.run(5, callbacks=[(0, lambda s: None)])
    assert sim.step == 0  # refused before a step was taken
    sim.run(5)
    assert sim.step == 5


def test_arrays_given_at_construction_are_checked(in_tmp):
    lj = novamd.forces.LennardJones(pairs=[{"types": ["A", "A"], "epsilon": 1, "sigma": 1}],
                                    cutoff=2.5)
    vv = novamd.integrators.VelocityVerlet(timestep=0.005)
    args = dict(box=10.0, species=["A"], forces=[lj], integrator=vv)
    with pytest.raises(novamd.ConfigError, match=r"species \['B'\]"):
        novamd.Simulation.from_arrays(types=["B"], positions=[[1, 1, 1]], **args)
    with pytest.raises(novamd.ConfigError, match="particle 1 has type 3"):
        novamd.Simulation.from_arrays(types=[0, 3], positions=[[1, 1, 1], [2, 2, 2]], **args)
    with pytest.raises(novamd.ConfigError, match="same position"):
        novamd.Simulation.from_arrays(types=[0, 0], positions=[[1, 1, 1], [11, 1, 1]], **args)
    with pytest.raises(novamd.ConfigError, match="inf"):
        novamd.Simulation.from_arrays(types=[0], positions=[[np.inf, 1, 1]], **args)


def test_a_run_that_blows_up_raises_run_error_and_the_simulation_says_so_after(in_tmp):
    config = lj_liquid(**QUIET)
    config["integrator"]["timestep"] = 0.5  # a hundred times too long: atoms fly apart
    sim = novamd.Simulation(config)
    with pytest.raises(novamd.RunError, match="step"):
        sim.run(200)
    with pytest.raises(novamd.RunError, match="earlier run"):
        sim.state()
    assert issubclass(novamd.RunError, RuntimeError)


def test_a_closed_simulation_refuses_to_run(in_tmp):
    sim = novamd.Simulation(lj_liquid(**QUIET))
    sim.close()
    with pytest.raises(novamd.RunError, match="closed"):
        sim.run(1)
