#!/usr/bin/env python3
"""Plots NovaMD CSV output as PNG files.

    scripts/plot.py thermo.csv rdf.csv sq.csv msd.csv [--out-dir plots]
    scripts/plot.py thermo.csv -o thermo.pdf

Each file is recognised by its header row (docs/file-formats.md):

    thermo  step,time,temperature,kinetic_energy,...   one panel each: kinetic energy, potential
                                                       energy, the conserved energy's relative
                                                       drift (E - E0) / |E0|, temperature and
                                                       pressure, against time
    rdf     r,g,...                                    g(r), total and per species pair
    S(q)    q,modes,S,...                              S(q), total, weighted, per species pair
    MSD     step,time,lag_time,msd...                  MSD vs lag time, and D = MSD / (6 t)

and gives FILE.png (in --out-dir, or next to the CSV; -o names the image of a single file, its
extension the format: .png, .pdf, .svg). Axes carry the units of a first line
`# units: time=fs temperature=K ...` where the file has one (older files have none: the axes are
then labelled without units). Lines starting with `#` are comments.

Needs matplotlib. If the Python running this script has none (a pyenv or conda python3 first on
the PATH), it runs itself again under one that has it: /usr/bin/python3 (Debian's
python3-matplotlib), then each python3 and python on the PATH; if none has it, it names the
interpreters it tried and how to install matplotlib. Draws with the Agg backend, so no display is
needed. Exit code 2 for a file that cannot be read or is not one of these, or without matplotlib.

From Python (the figure, to change or save yourself):

    import plot                     # with scripts/ on sys.path
    figure = plot.figure_for("thermo.csv")
"""

import argparse
import csv
import math
import os
import subprocess
import sys

THERMO_START = ["step", "time", "temperature", "kinetic_energy", "potential_energy",
                "total_energy"]
# The interpreters tried so far, os.pathsep-separated, passed on to the one this script runs
# itself again under (so that it never loops).
TRIED_ENV = "NOVAMD_PLOT_TRIED_PYTHONS"


class InputFileError(Exception):
    """A file that cannot be plotted; the message names it."""


class NoMatplotlib(Exception):
    """No Python with matplotlib was found; the message says which were tried."""


# --- finding a Python with matplotlib --------------------------------------------------------

def candidate_pythons():
    """The interpreters to try, in order: this one, /usr/bin/python3, then each python3 and
    python on the PATH (absolute paths, each once, only files that can be run)."""
    names = [sys.executable, "/usr/bin/python3"]
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        if folder:
            names += [os.path.join(folder, "python3"), os.path.join(folder, "python")]
    found = []
    for name in names:
        if not name:
            continue
        path = os.path.abspath(name)
        if path not in found and os.path.isfile(path) and os.access(path, os.X_OK):
            found.append(path)
    return found


def has_matplotlib(python):
    """Whether `python` is a Python 3.7 or later that imports matplotlib."""
    check = "import sys, matplotlib; sys.exit(sys.version_info < (3, 7))"
    try:
        return subprocess.run([python, "-c", check], stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              timeout=60).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def find_matplotlib_python(candidates, tried):
    """The first of `candidates` not in `tried` that imports matplotlib, or None; appends every
    interpreter it tries to `tried`."""
    for python in candidates:
        if python in tried:
            continue
        tried.append(python)
        if has_matplotlib(python):
            return python
    return None


def missing_message(tried, error):
    listed = "\n".join(f"  {python}" for python in tried) or "  (none found)"
    return (f"cannot import matplotlib ({error}) in any Python tried:\n{listed}\n"
            "Install it for one of them: on Debian or Ubuntu `sudo apt-get install "
            "python3-matplotlib` (for /usr/bin/python3; scripts/setup.sh --tests does), or "
            "`PYTHON -m pip install matplotlib` for the Python you run; then run "
            "scripts/plot.py again (or `PYTHON scripts/plot.py ...`).")


def ensure_matplotlib(argv):
    """Returns when this interpreter imports matplotlib; otherwise runs this script again, with
    `argv`, under the first candidate that does (os.execve: it does not return), or raises
    NoMatplotlib naming every interpreter tried."""
    try:
        import matplotlib  # noqa: F401
        return
    except ImportError as error:
        reason = error
    inherited = os.environ.get(TRIED_ENV, "")
    tried = [p for p in inherited.split(os.pathsep) if p]
    here = os.path.abspath(sys.executable) if sys.executable else ""
    if here and here not in tried:
        tried.append(here)
    python = find_matplotlib_python(candidate_pythons(), tried)
    if python is None:
        raise NoMatplotlib(missing_message(tried, reason))
    environment = dict(os.environ)
    environment[TRIED_ENV] = os.pathsep.join(tried)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(python, [python, os.path.abspath(__file__)] + list(argv), environment)


def import_pyplot():
    """matplotlib.pyplot on the Agg backend (no display needed)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


# --- reading -----------------------------------------------------------------------------------

def parse_units(line):
    """{column: unit} from a line `# units: time=fs temperature=K ...`; {} for any other line."""
    text = line.lstrip("#").strip()
    if not text.startswith("units:"):
        return {}
    units = {}
    for token in text[len("units:"):].split():
        name, sep, unit = token.partition("=")
        if sep and name and unit:
            units[name] = unit
    return units


def read_rows(path):
    """(rows, units): the rows of a CSV file, the header first, without comment lines (those
    starting with '#'), and the units of its `# units:` line ({} where it has none)."""
    units = {}
    try:
        with open(path, newline="") as f:
            lines = []
            for line in f:
                if line.lstrip().startswith("#"):
                    units.update(parse_units(line))
                else:
                    lines.append(line)
    except OSError as error:
        raise InputFileError(f"{path}: cannot read ({error.strerror})") from error
    except UnicodeDecodeError as error:
        raise InputFileError(f"{path}: not a text file ({error.reason})") from error
    rows = [row for row in csv.reader(lines) if row]
    if not rows:
        raise InputFileError(f"{path}: the file is empty; expected a header row")
    return rows, units


def columns_of(path, rows):
    """The columns (lists of floats) of the rows below the header, by name."""
    header = rows[0]
    try:
        values = [[float(cell) for cell in row] for row in rows[1:] if row]
    except ValueError as error:
        raise InputFileError(f"{path}: a row is not numbers ({error})") from error
    return {name: [row[i] for row in values if i < len(row)] for i, name in enumerate(header)}


def kind_of(header):
    """thermo, rdf, sq or msd, from the header row; None for anything else."""
    if header[:len(THERMO_START)] == THERMO_START:
        return "thermo"
    if header[:2] == ["r", "g"]:
        return "rdf"
    if header[:3] == ["q", "modes", "S"]:
        return "sq"
    if header[:3] == ["step", "time", "lag_time"] and len(header) > 3 and header[3].startswith("msd"):
        return "msd"
    return None


class Table:
    """A NovaMD CSV file: its kind, columns by name and units by column name."""

    def __init__(self, path):
        rows, self.units = read_rows(path)
        header = rows[0]
        self.path = path
        self.kind = kind_of(header)
        if self.kind is None:
            raise InputFileError(
                f"{path}: not a NovaMD thermo, rdf, S(q) or MSD file (header "
                f"'{','.join(header)}'); expected a header starting with "
                f"'{','.join(THERMO_START)}', 'r,g', 'q,modes,S' or 'step,time,lag_time,msd'")
        self.columns = columns_of(path, rows)
        if len(rows) < 2:
            raise InputFileError(f"{path}: no rows below the header; expected at least one "
                                 "(a run that stopped before its first output writes none)")

    def label(self, text, column):
        """`text [unit]` with the unit of `column`, or `text` where the file gives none."""
        unit = self.units.get(column)
        return f"{text} [{unit}]" if unit else text


# --- plotting ----------------------------------------------------------------------------------

def relative_drift(values):
    """((E - E0) / |E0|, E0, label) for a series; where E0 is 0, relative to max |E| instead."""
    e0 = values[0]
    scale = abs(e0)
    label = "(E - E0) / |E0|"
    if scale == 0.0:
        scale = max((abs(v) for v in values), default=0.0) or 1.0
        label = "(E - E0) / max|E|"
    return [(v - e0) / scale for v in values], e0, label


def plot_thermo(plt, table):
    columns = table.columns
    has_pressure = "pressure" in columns
    panels = 5 if has_pressure else 4
    figure, axes = plt.subplots(panels, 1, sharex=True, figsize=(7, 2.1 * panels + 0.6))
    time = columns["time"]
    kinetic, potential, drift, temperature = axes[:4]

    kinetic.plot(time, columns["kinetic_energy"], color="C0")
    kinetic.set_ylabel(table.label("kinetic energy", "kinetic_energy"))
    potential.plot(time, columns["potential_energy"], color="C1")
    potential.set_ylabel(table.label("potential energy", "potential_energy"))

    conserved = "conserved_energy" if "conserved_energy" in columns else "total_energy"
    values, e0, ratio = relative_drift(columns[conserved])
    e0_text = f"{e0:.10g}" + (f" {table.units[conserved]}" if conserved in table.units else "")
    name = conserved.replace("_", " ")
    drift.plot(time, values, color="C2", label=f"{name}, E0 = {e0_text}")
    drift.axhline(0.0, color="grey", linewidth=0.5)
    drift.set_ylabel(f"{name} drift\n{ratio}")
    drift.legend(fontsize="small")

    temperature.plot(time, columns["temperature"], color="C3")
    temperature.set_ylabel(table.label("temperature", "temperature"))
    if has_pressure:
        axes[4].plot(time, columns["pressure"], color="C4")
        axes[4].set_ylabel(table.label("pressure", "pressure"))
    axes[-1].set_xlabel(table.label("time", "time"))
    figure.align_ylabels(axes)
    return figure


def plot_rdf(plt, table):
    columns = table.columns
    figure, axes = plt.subplots(figsize=(7, 5))
    r = columns["r"]
    axes.plot(r, columns["g"], color="black", linewidth=2, label="all")
    for name in columns:
        if name.startswith("g_"):
            axes.plot(r, columns[name], label=name[2:].replace("_", "-"))
    axes.axhline(1.0, color="grey", linewidth=0.5)
    axes.set_xlabel(table.label("r", "r"))
    axes.set_ylabel("g(r)")
    axes.legend()
    return figure


def plot_sq(plt, table):
    columns = table.columns
    figure, axes = plt.subplots(figsize=(7, 5))
    q = columns["q"]
    axes.plot(q, columns["S"], "o-", color="black", markersize=3, label="S (all)")
    if "S_Z" in columns:
        axes.plot(q, columns["S_Z"], "s-", markersize=3, label="S_Z (weighted)")
    for name in columns:
        if name.startswith("S_") and name != "S_Z":
            axes.plot(q, columns[name], ".-", linewidth=0.8, label=name[2:].replace("_", "-"))
    axes.set_xlabel(table.label("q", "q"))
    axes.set_ylabel("S(q)")
    axes.legend()
    return figure


def plot_msd(plt, table):
    columns = table.columns
    figure, (msd_axes, d_axes) = plt.subplots(2, 1, sharex=True, figsize=(7, 7))
    lag = columns["lag_time"]
    for name in columns:
        if not name.startswith("msd"):
            continue
        label = "all" if name == "msd" else name[4:]
        points = [(t, m) for t, m in zip(lag, columns[name]) if t > 0 and m > 0]
        if points:
            msd_axes.loglog(*zip(*points), label=label)
        diffusion = "D" if name == "msd" else "D_" + name[4:]
        points = [(t, d) for t, d in zip(lag, columns.get(diffusion, [])) if t > 0 and
                  math.isfinite(d)]
        if points:
            d_axes.semilogx(*zip(*points), label=label)
    msd_axes.set_ylabel(table.label("MSD", "msd"))
    msd_axes.legend()
    d_axes.set_ylabel(table.label("D = MSD / (6 t)", "D"))
    d_axes.set_xlabel(table.label("lag time", "lag_time"))
    d_axes.legend()
    return figure


PLOTTERS = {"thermo": plot_thermo, "rdf": plot_rdf, "sq": plot_sq, "msd": plot_msd}


def make_figure(table, plt=None):
    """The matplotlib figure of a Table (titled with the file's name)."""
    plt = plt or import_pyplot()
    figure = PLOTTERS[table.kind](plt, table)
    figure.suptitle(os.path.basename(table.path))
    figure.tight_layout()
    return figure


def figure_for(path):
    """The matplotlib figure of a NovaMD CSV file; raises InputFileError for a bad file."""
    return make_figure(Table(path))


def output_path(csv_path, out_dir):
    stem = os.path.splitext(os.path.basename(csv_path))[0]
    return os.path.join(out_dir if out_dir else os.path.dirname(csv_path), stem + ".png")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(
        description="Plot NovaMD thermo and analysis CSV files (recognised by their header) "
                    "as PNG files, with the units of the file's '# units:' line.")
    parser.add_argument("files", nargs="+", metavar="FILE.csv")
    parser.add_argument("--out-dir", help="folder for the PNG files (default: next to each CSV)")
    parser.add_argument("-o", "--output", metavar="IMAGE",
                        help="the image of a single CSV file; its extension gives the format "
                             "(.png, .pdf, .svg)")
    parser.add_argument("--dpi", type=int, default=120, help="resolution (default 120)")
    args = parser.parse_args(argv)
    if args.output and (len(args.files) != 1 or args.out_dir):
        parser.error("-o/--output takes one CSV file, without --out-dir")

    try:
        tables = [Table(path) for path in args.files]  # every file checked before any is written
    except InputFileError as error:
        print(f"plot.py: {error}", file=sys.stderr)
        return 2

    try:
        ensure_matplotlib(argv)
    except NoMatplotlib as error:
        print(f"plot.py: {error}", file=sys.stderr)
        return 2
    plt = import_pyplot()

    if args.out_dir:
        os.makedirs(args.out_dir, exist_ok=True)
    for table in tables:
        figure = make_figure(table, plt)
        target = args.output or output_path(table.path, args.out_dir)
        figure.savefig(target, dpi=args.dpi)
        plt.close(figure)
        print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
