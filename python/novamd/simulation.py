"""novamd.Simulation: a simulation built from a config, from arrays or from a checkpoint, run
step by step from Python. The command line (``novamd run``) runs the same library code, so a
run from Python equals the command line's run of the same config, bit for bit."""

import os
from dataclasses import dataclass
from typing import Optional

import numpy as np

from . import _config, _core
from .reporters import Reporter


@dataclass(frozen=True)
class State:
    """The particles at one step, in id order (the input's order, whatever order the engine
    stores them in). Arrays are float64 copies of shape (N, 3) unless noted."""

    positions: np.ndarray  #: wrapped into the box
    velocities: np.ndarray
    forces: np.ndarray
    ids: np.ndarray  #: (N,) int32: 0 .. N-1
    types: np.ndarray  #: (N,) int32: indices into the species
    box: np.ndarray  #: (3,) edge lengths
    step: int
    time: float
    charges: Optional[np.ndarray] = None  #: (N,) where the system has per-particle charges
    orientations: Optional[np.ndarray] = None  #: (N, 4) w, x, y, z: rigid molecules only
    angular_momenta: Optional[np.ndarray] = None  #: body frame: rigid molecules only
    torques: Optional[np.ndarray] = None  #: rigid molecules only


def _vectors(array, n, what):
    """An (n, 3) float64 C-ordered array of finite numbers, or a clear error."""
    try:
        a = np.ascontiguousarray(array, dtype=np.float64)
    except (TypeError, ValueError) as e:
        raise _core.ConfigError(f"{what}: cannot be read as numbers ({e}); expected an (N, 3) array") from None
    if a.ndim != 2 or a.shape[1] != 3 or (n is not None and a.shape[0] != n):
        expected = f"({n}, 3)" if n is not None else "(N, 3)"
        raise _core.ConfigError(f"{what}: shape {a.shape}; expected {expected}")
    bad = np.argwhere(~np.isfinite(a))
    if bad.size:
        i, k = bad[0]
        raise _core.ConfigError(
            f"{what}: the value of particle {i} along {'xyz'[k]} is {a[i, k]}; expected finite numbers")
    return a


def _split_reporters(reporters):
    """Config overrides and run-time callbacks of the reporters."""
    sets, callbacks = {}, []
    trajectories = []
    for r in reporters or ():
        if not isinstance(r, Reporter):
            raise TypeError(f"reporters: {r!r} is not a novamd.reporters object")
        r.add_to(sets, trajectories, callbacks)
    if trajectories:
        sets["output.trajectory"] = trajectories
    return sets, callbacks


class Simulation:
    """A simulation: its state on the CPU or a GPU, its integrator and its outputs.

    ``Simulation(config, set=None, reporters=(), console=False)``

    config
        a YAML file's path, or a dict of the same structure (docs/config.md). Relative paths in
        a dict are taken from the working directory.
    set
        overrides, ``{"key.path": value}``, as ``novamd run --set`` (``{"backend": "cpu",
        "forces.0.lennard_jones.cutoff": 3.0}``).
    reporters
        novamd.reporters objects: files to write (Thermo, Trajectory, Checkpoint) and functions
        to call while running (Progress, Callback).
    console
        print the thermo table and the progress line as the command line does.

    A bad config raises :class:`novamd.ConfigError` with the command line's message (the key
    path and what is expected); a run that goes wrong raises :class:`novamd.RunError`.
    """

    def __init__(self, config, *, set=None, reporters=(), console=False, _restart=None,
                 _particles=None, _text=None):
        sets, self._reporters = _split_reporters(reporters)
        overrides = _config.overrides(set) + _config.overrides(sets)
        if _text is not None:
            name, text = _text
        elif isinstance(config, dict):
            name, text = "<dict>", _config.yaml_text(config)
        elif isinstance(config, (str, os.PathLike)):
            name, text = os.fspath(config), None
        else:
            raise TypeError("config: expected a YAML file's path or a dict")
        types, positions, velocities = _particles or (None, None, None)
        self._sim = _core.Simulation.create(name, text, overrides, _restart, types, positions,
                                            velocities, console)

    @classmethod
    def from_arrays(cls, *, box, species, types, positions, forces, integrator,
                    velocities=None, temperature=None, units="lj", set=None, reporters=(),
                    console=False, **config):
        """A simulation of the particles given as arrays.

        box
            [Lx, Ly, Lz] (or one edge: a cube), in the units' length.
        species
            a list of species maps as in ``system.species`` (``{"name": "Ar", "mass": 1.0}``),
            or names alone (mass 1, no charge).
        types
            (N,) indices into ``species``, or species names.
        positions, velocities
            (N, 3) arrays; velocities None: zero, or Maxwell-Boltzmann at ``temperature``.
        forces
            novamd.forces objects (or config maps).
        integrator
            a novamd.integrators object (or the config's integrator map).

        Further keyword arguments are top-level config keys (``backend="cuda"``,
        ``precision="mixed"``, ``seed=7``, ``neighbors={...}``, ``constraints={...}``).
        No thermo file is written unless a reporters.Thermo asks for one.
        """
        species = [s if isinstance(s, dict) else {"name": str(s), "mass": 1.0} for s in species]
        names = [s["name"] for s in species]
        types = np.asarray(types)
        if types.dtype.kind in "US":
            unknown = sorted({*types.tolist()} - {*names})
            if unknown:
                raise _core.ConfigError(f"types: species {unknown} are not in species {names}")
            types = np.array([names.index(t) for t in types.tolist()], dtype=np.int32)
        if types.ndim != 1 or types.dtype.kind not in "iu":
            raise _core.ConfigError(f"types: shape {types.shape}, dtype {types.dtype}; expected (N,) integers")
        types = np.ascontiguousarray(types, dtype=np.int32)
        n = types.shape[0]
        positions = _vectors(positions, n, "positions")
        if velocities is not None:
            velocities = _vectors(velocities, n, "velocities")
            if temperature is not None:
                raise _core.ConfigError("velocities and temperature: expected one of the two")
        box = np.broadcast_to(np.asarray(box, dtype=np.float64), (3,)).tolist()
        system = {"box": box, "species": species}
        if temperature is not None:
            system["velocities"] = {"temperature": temperature}
        document = {"units": units, "system": system, "forces": list(forces),
                    "integrator": integrator, "run": {"steps": 0},
                    "output": {"thermo": {"file": "none"}}, **config}
        return cls(document, set=set, reporters=reporters, console=console,
                   _particles=(types, positions, velocities))

    @classmethod
    def from_checkpoint(cls, checkpoint, config=None, *, set=None, reporters=(), console=False):
        """Continues a checkpoint (``novamd run --restart``): bitwise where the backend and
        precision are the checkpoint's. ``config``: the run's config (path or dict); by default
        the config the checkpoint recorded. Output files of the config are continued from the
        checkpoint's step."""
        checkpoint = os.fspath(checkpoint)
        text = None
        if config is None:  # the config the checkpoint recorded
            text = (f"{checkpoint} (its config)", _core.checkpoint_config(checkpoint))
        return cls(config, set=set, reporters=reporters, console=console, _restart=checkpoint,
                   _text=text)

    # --- running ---------------------------------------------------------------------------

    def run(self, steps=None, callbacks=()):
        """Runs ``steps`` more steps (by default up to the config's ``run.steps``).

        callbacks: ``(every, function)`` pairs; ``function(simulation)`` is called after every
        ``every``-th step (the state complete then: ``state()``, ``energies()`` may be read).
        An exception in a callback stops the run and propagates. Ctrl-C stops the run at the
        next step boundary (with a checkpoint where the config asks for them) and raises
        KeyboardInterrupt.
        """
        if steps is None:
            steps = self._sim.config_steps - self.step
        steps = int(steps)
        if steps < 0:
            raise _core.ConfigError(f"run: steps is {steps}; expected 0 or more")
        calls = [(r.every, r) for r in self._reporters]
        for entry in callbacks:
            try:
                every, function = entry
            except (TypeError, ValueError):
                raise TypeError("callbacks: expected (every, function) pairs") from None
            if not callable(function):
                raise TypeError(f"callbacks: {function!r} is not callable")
            calls.append((int(every), function))
        wrapped = [(every, lambda step, f=f: f(self)) for every, f in calls]
        for r in self._reporters:
            r.start(self, steps)
        try:
            signal = self._sim.run(steps, wrapped)
        finally:
            for r in self._reporters:
                r.finish(self)
        if signal:
            raise KeyboardInterrupt(f"the run stopped at step {self.step} (signal {signal})")

    # --- the state ---------------------------------------------------------------------------

    def state(self):
        """The particles now (a :class:`State` of copies; on the CUDA backend brought from the
        device by this call)."""
        return State(**self._sim.state())

    def set_positions(self, positions):
        """Sets every position ((N, 3), id order); the forces are evaluated again. Positions
        are wrapped into the box. Constrained distances are not projected."""
        self._sim.set_positions(_vectors(positions, len(self), "positions"))

    def set_velocities(self, velocities):
        """Sets every velocity ((N, 3), id order)."""
        self._sim.set_velocities(_vectors(velocities, len(self), "velocities"))

    def set_box(self, box, scale_positions=True):
        """Changes the box to [Lx, Ly, Lz] (or one edge); positions scale with it unless
        ``scale_positions`` is False. A cutoff beyond half the new shortest edge is refused."""
        b = np.broadcast_to(np.asarray(box, dtype=np.float64), (3,))
        if not np.all(np.isfinite(b)) or not np.all(b > 0):
            raise _core.ConfigError(f"box: {b.tolist()}; expected three positive, finite edges")
        self._sim.set_box(float(b[0]), float(b[1]), float(b[2]), bool(scale_positions))

    def energies(self):
        """Energies now: ``potential``, ``kinetic``, ``total`` and each force term's by its
        config name (``lennard_jones``, ``harmonic_bond``, ...; a repeated term gets ``:2``),
        with ``tail`` for a tail correction. In the units' energy."""
        return self._sim.energies()

    def thermo(self):
        """Every thermo column's value now (docs/config.md, ``output.thermo``), as a dict."""
        return self._sim.thermo()

    def save_checkpoint(self, path):
        """Writes a checkpoint of the state now; ``Simulation.from_checkpoint`` and ``novamd
        run --restart`` continue it."""
        self._sim.save_checkpoint(os.fspath(path))

    def close(self):
        """Writes the analyses' last averages and closes the output files."""
        self._sim.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    # --- what it is ------------------------------------------------------------------------

    def __len__(self):
        return self._sim.size

    @property
    def step(self):
        """The step the state is at."""
        return self._sim.step

    @property
    def time(self):
        """The simulated time at this step, in the units' time."""
        return self._sim.step * self._sim.timestep

    @property
    def timestep(self):
        return self._sim.timestep

    @property
    def backend(self):
        """``"cpu"`` or ``"cuda"``."""
        return self._sim.backend

    @property
    def device(self):
        """The CPU's threads or the GPU's name."""
        return self._sim.description

    @property
    def precision(self):
        return self._sim.precision

    @property
    def units(self):
        return self._sim.units

    @property
    def species(self):
        """Species names, in the order of the type indices."""
        return list(self._sim.species)

    @property
    def config_yaml(self):
        """The config as the engine read it (after ``set``), as YAML."""
        return self._sim.config_yaml

    def __repr__(self):
        return (f"<novamd.Simulation {len(self)} particles, step {self.step}, "
                f"{self.backend} {self.precision}>")
