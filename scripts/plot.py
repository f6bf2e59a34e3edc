#!/usr/bin/env python3
"""Plots NovaMD CSV output as PNG files.

    scripts/plot.py thermo.csv rdf.csv sq.csv msd.csv [--out-dir plots]

Each file is recognised by its header row (docs/file-formats.md):

    thermo  step,time,temperature,kinetic_energy,...   energies and temperature vs time
    rdf     r,g,...                                    g(r), total and per species pair
    S(q)    q,modes,S,...                              S(q), total, weighted, per species pair
    MSD     step,time,lag_time,msd...                  MSD vs lag time, and D = MSD / (6 t)

and gives FILE.png (in --out-dir, or next to the CSV). Needs python3-matplotlib (Debian); draws
with the Agg backend, so no display is needed. Exit code 2 for a file that cannot be read or is
not one of these.
"""

import argparse
import csv
import math
import os
import sys

THERMO_START = ["step", "time", "temperature", "kinetic_energy", "potential_energy",
                "total_energy"]


class InputFileError(Exception):
    """A file that cannot be plotted; the message names it."""


def read_rows(path):
    """The rows of a CSV file, the header first."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
    except OSError as error:
        raise InputFileError(f"{path}: cannot read ({error.strerror})") from error
    if not rows:
        raise InputFileError(f"{path}: the file is empty; expected a header row")
    return rows


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


def plot_thermo(plt, columns):
    figure, (energies, totals, temperature) = plt.subplots(3, 1, sharex=True, figsize=(7, 8))
    time = columns["time"]
    energies.plot(time, columns["kinetic_energy"], label="kinetic")
    energies.plot(time, columns["potential_energy"], label="potential")
    energies.set_ylabel("energy")
    energies.legend()
    totals.plot(time, columns["total_energy"], label="total")
    if "conserved_energy" in columns:
        totals.plot(time, columns["conserved_energy"], "--", label="conserved")
    totals.set_ylabel("energy")
    totals.legend()
    temperature.plot(time, columns["temperature"], color="C3")
    temperature.set_ylabel("temperature")
    temperature.set_xlabel("time")
    return figure


def plot_rdf(plt, columns):
    figure, axes = plt.subplots(figsize=(7, 5))
    r = columns["r"]
    axes.plot(r, columns["g"], color="black", linewidth=2, label="all")
    for name in columns:
        if name.startswith("g_"):
            axes.plot(r, columns[name], label=name[2:].replace("_", "-"))
    axes.axhline(1.0, color="grey", linewidth=0.5)
    axes.set_xlabel("r")
    axes.set_ylabel("g(r)")
    axes.legend()
    return figure


def plot_sq(plt, columns):
    figure, axes = plt.subplots(figsize=(7, 5))
    q = columns["q"]
    axes.plot(q, columns["S"], "o-", color="black", markersize=3, label="S (all)")
    if "S_Z" in columns:
        axes.plot(q, columns["S_Z"], "s-", markersize=3, label="S_Z (weighted)")
    for name in columns:
        if name.startswith("S_") and name != "S_Z":
            axes.plot(q, columns[name], ".-", linewidth=0.8, label=name[2:].replace("_", "-"))
    axes.set_xlabel("q")
    axes.set_ylabel("S(q)")
    axes.legend()
    return figure


def plot_msd(plt, columns):
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
    msd_axes.set_ylabel("MSD")
    msd_axes.legend()
    d_axes.set_ylabel("D = MSD / (6 t)")
    d_axes.set_xlabel("lag time")
    d_axes.legend()
    return figure


PLOTTERS = {"thermo": plot_thermo, "rdf": plot_rdf, "sq": plot_sq, "msd": plot_msd}


def output_path(csv_path, out_dir):
    stem = os.path.splitext(os.path.basename(csv_path))[0]
    return os.path.join(out_dir if out_dir else os.path.dirname(csv_path), stem + ".png")


def main():
    parser = argparse.ArgumentParser(
        description="Plot NovaMD thermo and analysis CSV files (recognised by their header) "
                    "as PNG files.")
    parser.add_argument("files", nargs="+", metavar="FILE.csv")
    parser.add_argument("--out-dir", help="folder for the PNG files (default: next to each CSV)")
    parser.add_argument("--dpi", type=int, default=120, help="resolution (default 120)")
    args = parser.parse_args()

    tables = []
    try:
        for path in args.files:  # every file checked before anything is written
            rows = read_rows(path)
            header = rows[0]
            kind = kind_of(header)
            if kind is None:
                raise InputFileError(
                    f"{path}: not a NovaMD thermo, rdf, S(q) or MSD file (header "
                    f"'{','.join(header)}'); expected a header starting with "
                    f"'{','.join(THERMO_START)}', 'r,g', 'q,modes,S' or 'step,time,lag_time,msd'")
            tables.append((path, kind, columns_of(path, rows)))
    except InputFileError as error:
        print(f"plot.py: {error}", file=sys.stderr)
        return 2

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as error:
        print(f"plot.py: cannot import matplotlib ({error}); install python3-matplotlib "
              "(scripts/setup.sh --tests does)", file=sys.stderr)
        return 2

    if args.out_dir:
        os.makedirs(args.out_dir, exist_ok=True)
    for path, kind, columns in tables:
        figure = PLOTTERS[kind](plt, columns)
        figure.suptitle(os.path.basename(path))
        figure.tight_layout()
        target = output_path(path, args.out_dir)
        figure.savefig(target, dpi=args.dpi)
        plt.close(figure)
        print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
