"""Reporters: what a simulation writes and calls while it runs.

File reporters are the config's outputs (docs/config.md, ``output``) as objects; the engine
writes them as the command line does::

    sim = novamd.Simulation("lj.yaml", reporters=[
        novamd.reporters.Thermo("thermo.csv", every=100, columns=["pxx", "pyy", "pzz"]),
        novamd.reporters.Trajectory("traj.dcd", every=1000),
        novamd.reporters.Progress(every=500),
    ])

Run-time reporters call Python while the engine runs: ``Progress`` shows how far a run is, in a
terminal (one line redrawn) or a notebook (one line per update); ``Callback`` calls a function
of the simulation every few steps, as ``sim.run(steps, callbacks=[(every, f)])`` does for one
run.
"""

import sys
import time


class Reporter:
    """Something a simulation writes or calls. File reporters add config overrides; run-time
    reporters are called after every ``every``-th step."""

    every = 0

    def add_to(self, sets, trajectories, callbacks):
        """Adds this reporter's config overrides, trajectory file or callback."""
        raise NotImplementedError

    def start(self, simulation, steps):
        """Before a run of ``steps`` steps."""

    def finish(self, simulation):
        """After a run (also one stopped by an exception)."""

    def __call__(self, simulation):
        """After every ``every``-th step."""


class Thermo(Reporter):
    """The thermo CSV file (``output.thermo``): every ``every`` steps, the standard columns and
    ``columns`` (docs/config.md lists them)."""

    def __init__(self, file="thermo.csv", every=100, columns=()):
        self.file, self.every, self.columns = file, int(every), list(columns)

    def add_to(self, sets, trajectories, callbacks):
        thermo = {"file": str(self.file), "every": self.every}
        if self.columns:
            thermo["columns"] = self.columns
        sets["output.thermo"] = thermo


class Trajectory(Reporter):
    """A trajectory file (``output.trajectory``): XYZ, DCD or H5MD by the extension (or
    ``format``), a frame every ``every`` steps with ``fields`` (``position``, ``velocity``,
    ``force``). Several may be given."""

    def __init__(self, file, every, fields=("position",), format=None, sites=None):
        self.file, self.every = file, int(every)
        self.fields, self.format, self.sites = list(fields), format, sites

    def add_to(self, sets, trajectories, callbacks):
        entry = {"file": str(self.file), "every": self.every, "fields": self.fields}
        if self.format is not None:
            entry["format"] = self.format
        if self.sites is not None:
            entry["sites"] = bool(self.sites)
        trajectories.append(entry)


class Checkpoint(Reporter):
    """Checkpoints (``output.checkpoint``): every ``every`` steps (0: at the end of each run),
    each replacing the last."""

    def __init__(self, file="run.chk", every=0):
        self.file, self.every_steps = file, int(every)

    def add_to(self, sets, trajectories, callbacks):
        sets["output.checkpoint"] = {"file": str(self.file), "every": self.every_steps}


class Callback(Reporter):
    """Calls ``function(simulation)`` after every ``every``-th step of every run."""

    def __init__(self, every, function):
        if not callable(function):
            raise TypeError(f"Callback: {function!r} is not callable")
        self.every, self.function = int(every), function

    def add_to(self, sets, trajectories, callbacks):
        callbacks.append(self)

    def __call__(self, simulation):
        self.function(simulation)


def _in_notebook():
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and type(shell).__name__ == "ZMQInteractiveShell"


class Progress(Reporter):
    """Shows the run's progress every ``every`` steps: step, per cent, steps per second, time
    left and the temperature. A terminal gets one line redrawn in place; a notebook or a file
    one line per update. ``stream``: where to write (standard error by default)."""

    def __init__(self, every=1000, stream=None):
        self.every, self.stream = int(every), stream
        self._first = self._last = 0
        self._started = 0.0

    def add_to(self, sets, trajectories, callbacks):
        callbacks.append(self)

    def start(self, simulation, steps):
        self._first, self._last = simulation.step, simulation.step + steps
        self._started = time.perf_counter()
        out = self.stream or sys.stderr
        self._redraw = hasattr(out, "isatty") and out.isatty() and not _in_notebook()

    def line(self, simulation):
        """The progress text at the simulation's step."""
        step = simulation.step
        done = step - self._first
        total = max(self._last - self._first, 1)
        elapsed = time.perf_counter() - self._started
        rate = done / elapsed if elapsed > 0 else 0.0
        left = (self._last - step) / rate if rate > 0 else float("nan")
        temperature = simulation.thermo()["temperature"]
        return (f"step {step}/{self._last} ({100 * done / total:.0f}%), {rate:,.0f} steps/s, "
                f"{left:.0f} s left, T = {temperature:.4g}")

    def __call__(self, simulation):
        out = self.stream or sys.stderr
        if self._redraw:
            out.write("\r" + self.line(simulation) + "\033[K")
        else:
            out.write(self.line(simulation) + "\n")
        out.flush()

    def finish(self, simulation):
        if getattr(self, "_redraw", False):
            (self.stream or sys.stderr).write("\n")
