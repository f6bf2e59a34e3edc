"""novamd.ase.Calculator: ASE's energies and forces from NovaMD's force field."""

import numpy as np
import pytest

ase = pytest.importorskip("ase")  # Debian python3-ase; scripts/setup.sh --tests installs it
from ase.lattice.cubic import FaceCenteredCubic  # noqa: E402

import novamd  # noqa: E402
import novamd.ase  # noqa: E402

ARGON = novamd.forces.LennardJones(
    pairs=[{"types": ["Ar", "Ar"], "epsilon": 0.2381, "sigma": 3.405}],
    cutoff=8.0, truncation="shift")


def argon(size=3, seed=5):
    atoms = FaceCenteredCubic("Ar", size=(size,) * 3, latticeconstant=5.8)
    rng = np.random.default_rng(seed)
    atoms.positions += rng.normal(0.0, 0.1, atoms.positions.shape)
    atoms.calc = novamd.ase.Calculator(forces=[ARGON])
    return atoms


def test_forces_are_minus_the_energys_central_differences(in_tmp):
    atoms = argon()
    forces = atoms.get_forces()
    assert forces.shape == (len(atoms), 3)
    h = 1e-4  # A: the O(h^2) error, ~1e-8 eV/A here, is far above double's rounding (~1e-11)
    for i, k in [(0, 0), (7, 1), (30, 2), (101, 0)]:
        plus, minus = atoms.copy(), atoms.copy()
        plus.calc = minus.calc = atoms.calc
        plus.positions[i, k] += h
        e_plus = plus.get_potential_energy()
        minus.positions[i, k] -= h
        e_minus = minus.get_potential_energy()
        assert -(e_plus - e_minus) / (2 * h) == pytest.approx(forces[i, k], abs=1e-6)
    assert np.abs(forces).max() > 1e-3  # the test could fail: the forces are not zero


def test_energy_is_in_ev_and_equals_the_engines_in_kcal_per_mol(in_tmp):
    atoms = argon(seed=9)
    energy = atoms.get_potential_energy()
    sim = atoms.calc.simulation
    assert energy == pytest.approx(sim.energies()["potential"] * 0.0433641043, rel=1e-8)
    assert -0.09 * len(atoms) < energy < 0  # a bound argon crystal: ~ -0.08 eV per atom


def test_a_new_cell_rebuilds_and_a_skewed_cell_is_refused(in_tmp):
    atoms = argon()
    e = atoms.get_potential_energy()
    atoms.set_cell(atoms.cell * 1.02, scale_atoms=True)
    assert atoms.get_potential_energy() > e  # stretched away from the minimum
    skewed = atoms.copy()
    skewed.calc = novamd.ase.Calculator(forces=[ARGON])
    cell = np.array(skewed.cell)
    cell[0, 1] = 1.0
    skewed.set_cell(cell)
    with pytest.raises(novamd.ConfigError, match="orthorhombic"):
        skewed.get_potential_energy()


def test_a_simulation_becomes_ase_atoms(in_tmp):
    atoms = argon()
    atoms.get_potential_energy()
    sim = atoms.calc.simulation
    back = novamd.ase.to_atoms(sim)
    assert back.get_chemical_symbols() == ["Ar"] * len(atoms)
    np.testing.assert_allclose(back.cell.lengths(), atoms.cell.lengths(), rtol=1e-15)
    wrapped = atoms.get_positions(wrap=True)
    np.testing.assert_allclose(back.positions, wrapped, atol=1e-12)
    back.calc = novamd.ase.Calculator(forces=[ARGON])
    assert back.get_potential_energy() == pytest.approx(atoms.get_potential_energy(), rel=1e-12)


def test_atoms_with_velocities_make_a_simulation_and_come_back(in_tmp):
    from ase.md.velocitydistribution import MaxwellBoltzmannDistribution
    atoms = argon()
    MaxwellBoltzmannDistribution(atoms, temperature_K=90, rng=np.random.default_rng(2))
    sim = novamd.ase.simulation_from_atoms(
        atoms, [ARGON], novamd.integrators.VelocityVerlet(timestep=2.0))
    back = novamd.ase.to_atoms(sim)
    # A/fs and back: one multiplication and one division by ASE's fs.
    np.testing.assert_allclose(back.get_velocities(), atoms.get_velocities(), rtol=1e-14)
    # The same kinetic energy in both unit systems (the constants of NovaMD's real units and
    # ASE's agree to ~1e-10).
    assert sim.thermo()["kinetic_energy"] * novamd.ase.KCAL_PER_MOL == pytest.approx(
        atoms.get_kinetic_energy(), rel=1e-9)
