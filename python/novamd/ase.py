"""An ASE calculator: energies and forces of an ASE ``Atoms`` from a NovaMD force field.

    from ase.lattice.cubic import FaceCenteredCubic
    import novamd, novamd.ase

    atoms = FaceCenteredCubic("Ar", size=(3, 3, 3), latticeconstant=5.26)
    atoms.calc = novamd.ase.Calculator(
        forces=[novamd.forces.LennardJones(
            pairs=[{"types": ["Ar", "Ar"], "epsilon": 0.2381, "sigma": 3.405}],
            cutoff=7.0, truncation="shift")])
    atoms.get_potential_energy()     # eV
    atoms.get_forces()               # eV/A

The force field is in NovaMD's ``real`` units (A, kcal/mol, charges in e, masses in g/mol), as
in a config file; the calculator converts energies and forces to ASE's eV and eV/A. Species are
the chemical symbols of the atoms, with ASE's masses and the ``charges`` given. The cell must be
periodic along all three axes and orthorhombic. The simulation is built at the first calculation
and again when the atoms or the cell change; positions alone are set in place.
"""

import numpy as np
from ase import units as ase_units
from ase.calculators.calculator import Calculator as AseCalculator
from ase.calculators.calculator import all_changes

from . import _core, integrators
from .simulation import Simulation

#: One kcal/mol in eV.
KCAL_PER_MOL = ase_units.kcal / ase_units.mol


def orthorhombic_box(atoms):
    """The edges of an orthorhombic, periodic cell, or a ConfigError."""
    if not all(atoms.pbc):
        raise _core.ConfigError("novamd.ase.Calculator: the cell is not periodic along every "
                                "axis; expected pbc=True")
    cell = np.asarray(atoms.cell)
    edges = np.diag(cell).copy()
    if np.any(np.abs(cell - np.diag(edges)) > 1e-12 * max(edges.max(), 1.0)) or np.any(edges <= 0):
        raise _core.ConfigError("novamd.ase.Calculator: the cell is not orthorhombic; expected a "
                                "diagonal cell")
    return edges


class Calculator(AseCalculator):
    """Energies and forces from NovaMD (``energy``, ``free_energy``, ``forces``).

    forces
        novamd.forces objects (or config maps), in real units.
    charges
        ``{"Na": 1.0, "Cl": -1.0}``: the charge of each chemical symbol (default 0).
    backend, precision
        as in a config (``"cpu"`` by default: small systems are fastest there).
    config
        further top-level config keys (``neighbors``, ...).
    """

    implemented_properties = ["energy", "free_energy", "forces"]

    def __init__(self, forces, *, charges=None, backend="cpu", precision="double", config=None,
                 **kwargs):
        super().__init__(**kwargs)
        self.force_terms = list(forces)
        self.charges = dict(charges or {})
        self.backend, self.precision = backend, precision
        self.config = dict(config or {})
        self.simulation = None

    def _build(self, atoms):
        self.simulation = simulation_from_atoms(
            atoms, self.force_terms, integrators.VelocityVerlet(timestep=1.0),
            charges=self.charges, backend=self.backend, precision=self.precision, **self.config)

    def calculate(self, atoms=None, properties=("energy",), system_changes=all_changes):
        super().calculate(atoms, properties, system_changes)
        rebuild = self.simulation is None or any(
            c in system_changes for c in ("numbers", "cell", "pbc", "initial_charges", "masses"))
        if rebuild:
            self._build(self.atoms)
        else:
            self.simulation.set_positions(self.atoms.get_positions())
        energy = self.simulation.energies()["potential"] * KCAL_PER_MOL
        self.results["energy"] = self.results["free_energy"] = energy
        self.results["forces"] = self.simulation.state().forces * KCAL_PER_MOL


def simulation_from_atoms(atoms, forces, integrator, *, charges=None, **config):
    """A simulation of an ASE ``Atoms`` in ``real`` units: species from the chemical symbols
    with ASE's masses (g/mol) and ``charges`` (``{"Na": 1.0}``, default 0), positions in A,
    velocities converted from ASE's unit to A/fs where the atoms have them. Further keyword
    arguments are config keys, as for ``Simulation.from_arrays``."""
    symbols = atoms.get_chemical_symbols()
    names = list(dict.fromkeys(symbols))
    masses = atoms.get_masses()
    charges = dict(charges or {})
    species = [{"name": name, "mass": float(masses[symbols.index(name)]),
                "charge": float(charges.get(name, 0.0))} for name in names]
    types = np.array([names.index(s) for s in symbols], dtype=np.int32)
    velocities = atoms.get_velocities()
    if velocities is not None and np.any(velocities):
        config.setdefault("velocities", velocities * ase_units.fs)
    return Simulation.from_arrays(box=orthorhombic_box(atoms), species=species, types=types,
                                  positions=atoms.get_positions(), forces=forces,
                                  integrator=integrator, units="real", **config)


def to_atoms(simulation):
    """The simulation's particles now as an ASE ``Atoms``: positions, the periodic cell and
    velocities (in ASE's units where the simulation is in ``real`` units: A and A/fs x ASE's
    time unit; other unit systems' numbers as they stand), with the species names as symbols
    (names that are no chemical symbol, such as ``A`` in reduced units, become ``X``)."""
    from ase import Atoms
    from ase.data import chemical_symbols

    state = simulation.state()
    names = simulation.species
    symbols = [names[t] if names[t] in chemical_symbols else "X" for t in state.types]
    atoms = Atoms(symbols=symbols, positions=state.positions, cell=np.diag(state.box), pbc=True)
    velocities = state.velocities
    if simulation.units == "real":  # A/fs to ASE's velocity unit
        velocities = velocities / ase_units.fs
    atoms.set_velocities(velocities)
    atoms.info["step"] = state.step
    return atoms
