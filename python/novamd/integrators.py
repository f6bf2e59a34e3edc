"""Integrators (and with them thermostats), mirroring the config's ``integrator`` map
(docs/config.md)::

    novamd.integrators.Langevin(timestep=0.005, temperature=1.0, friction=1.0)
"""


class Integrator:
    """An integrator of the config: ``type`` and its keys."""

    type = ""

    def __init__(self, **keys):
        self.keys = {k: v for k, v in keys.items() if v is not None}

    def to_config(self):
        """The config's ``integrator`` map."""
        return {"type": self.type, **self.keys}

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self.keys.items())
        return f"{type(self).__name__}({args})"


class VelocityVerlet(Integrator):
    """NVE, velocity Verlet."""

    type = "velocity_verlet"

    def __init__(self, *, timestep):
        super().__init__(timestep=timestep)


class Leapfrog(Integrator):
    """NVE, leapfrog (velocities at half steps)."""

    type = "leapfrog"

    def __init__(self, *, timestep):
        super().__init__(timestep=timestep)


class Langevin(Integrator):
    """NVT, Langevin BAOAB: friction gamma per time unit."""

    type = "langevin"

    def __init__(self, *, timestep, temperature, friction):
        super().__init__(timestep=timestep, temperature=temperature, friction=friction)


class NoseHoover(Integrator):
    """NVT, Nose-Hoover chain of ``chain`` thermostats with relaxation time ``tau``."""

    type = "nose_hoover"

    def __init__(self, *, timestep, temperature, tau, chain=None):
        super().__init__(timestep=timestep, temperature=temperature, tau=tau, chain=chain)


class Bussi(Integrator):
    """NVT, stochastic velocity rescaling (Bussi, Donadio and Parrinello 2007)."""

    type = "bussi"

    def __init__(self, *, timestep, temperature, tau):
        super().__init__(timestep=timestep, temperature=temperature, tau=tau)
