"""NovaMD: molecular dynamics on CPUs and GPUs, from Python.

    import novamd
    sim = novamd.Simulation("examples/lj_melt.yaml", set={"run.steps": 1000})
    sim.run()
    state = sim.state()          # positions, velocities, forces: (N, 3) float64, id order
    print(sim.energies())        # potential, kinetic, total and each term's energy

The command line (``novamd run``, or ``python -m novamd run``) and this package run the same
library code. See the user guide's "Python" section (docs/user-guide.md) for the whole API:
Simulation (from a config, arrays or a checkpoint), forces, integrators, reporters and the ASE
calculator (novamd.ase).
"""

from . import _core, forces, integrators, reporters
from ._core import ConfigError, RunError
from .simulation import Simulation, State

__version__ = _core.__version__

__all__ = ["Simulation", "State", "ConfigError", "RunError", "forces", "integrators", "reporters",
           "version", "__version__"]


def version():
    """The engine's version, commit and CUDA support, as ``novamd --version`` prints them."""
    return _core.version()
