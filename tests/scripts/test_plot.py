#!/usr/bin/env python3
"""Tests of scripts/plot.py (ctest: scripts.plot).

    test_plot.py [--novamd build/novamd] [unittest options]

Run by a Python with matplotlib (Debian's /usr/bin/python3 with python3-matplotlib). Checks that
every axis of the thermo figure carries the unit of the file's `# units:` line, that an older
file without one still plots (labels without units), that the conserved energy is plotted as
its relative drift (E - E0) / |E0|, that a Python without matplotlib first on the PATH still
plots (the script runs itself again under one that has it) and that, when no Python has it, the
message names the interpreters tried. With --novamd it also plots the thermo file of a short run.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLOT = os.path.join(SOURCE, "scripts", "plot.py")
sys.path.insert(0, os.path.join(SOURCE, "scripts"))

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import plot  # noqa: E402

NOVAMD = None  # from --novamd

HEADER = "step,time,temperature,kinetic_energy,potential_energy,total_energy,pressure,conserved_energy"
REAL_UNITS = ("# units: time=fs temperature=K kinetic_energy=kcal/mol potential_energy=kcal/mol "
              "total_energy=kcal/mol pressure=atm conserved_energy=kcal/mol")
LJ_UNITS = ("# units: time=tau temperature=epsilon/k_B kinetic_energy=epsilon "
            "potential_energy=epsilon total_energy=epsilon pressure=epsilon/sigma^3 "
            "conserved_energy=epsilon")
# Conserved energy -2000 at the start, then -1999 and -2002: drifts of +5e-4 and -1e-3.
ROWS = ["0,0,300,100,-2100,-2000,1.5,-2000",
        "10,10,301,101,-2100,-1999,2.5,-1999",
        "20,20,299,99,-2100,-2001,0.5,-2002"]


def is_png(path):
    with open(path, "rb") as f:
        return f.read(8) == b"\x89PNG\r\n\x1a\n"


class PlotTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="novamd-plot-test-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def write(self, name, lines):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        return path

    def thermo_axes(self, path):
        figure = plot.figure_for(path)
        self.addCleanup(matplotlib.pyplot.close, figure)
        return {axes.get_ylabel().split(" [")[0].split("\n")[0]: axes for axes in figure.axes}

    def test_every_axis_carries_its_unit(self):
        path = self.write("real.csv", [REAL_UNITS, HEADER] + ROWS)
        axes = self.thermo_axes(path)
        self.assertEqual(set(axes), {"kinetic energy", "potential energy",
                                     "conserved energy drift", "temperature", "pressure"})
        self.assertEqual(axes["kinetic energy"].get_ylabel(), "kinetic energy [kcal/mol]")
        self.assertEqual(axes["potential energy"].get_ylabel(), "potential energy [kcal/mol]")
        self.assertEqual(axes["temperature"].get_ylabel(), "temperature [K]")
        self.assertEqual(axes["pressure"].get_ylabel(), "pressure [atm]")
        self.assertEqual(axes["pressure"].get_xlabel(), "time [fs]")  # the shared time axis
        # Kinetic and potential energy on axes of their own.
        self.assertIsNot(axes["kinetic energy"], axes["potential energy"])
        self.assertEqual(len(axes["kinetic energy"].get_lines()), 1)
        self.assertEqual(len(axes["potential energy"].get_lines()), 1)

    def test_reduced_units(self):
        path = self.write("lj.csv", [LJ_UNITS, HEADER] + ROWS)
        axes = self.thermo_axes(path)
        self.assertEqual(axes["temperature"].get_ylabel(), "temperature [epsilon/k_B]")
        self.assertEqual(axes["pressure"].get_ylabel(), "pressure [epsilon/sigma^3]")
        self.assertEqual(axes["pressure"].get_xlabel(), "time [tau]")

    def test_drift_panel_is_relative(self):
        path = self.write("real.csv", [REAL_UNITS, HEADER] + ROWS)
        drift = self.thermo_axes(path)["conserved energy drift"]
        self.assertIn("(E - E0) / |E0|", drift.get_ylabel())
        line = drift.get_lines()[0]
        self.assertEqual(list(line.get_xdata()), [0.0, 10.0, 20.0])
        for got, want in zip(line.get_ydata(), [0.0, 5e-4, -1e-3]):
            self.assertAlmostEqual(got, want, delta=1e-15)
        self.assertIn("E0 = -2000 kcal/mol", line.get_label())

    def test_file_without_units_line(self):
        path = self.write("old.csv", [HEADER] + ROWS)
        axes = self.thermo_axes(path)
        self.assertEqual(axes["kinetic energy"].get_ylabel(), "kinetic energy")
        self.assertEqual(axes["pressure"].get_xlabel(), "time")
        self.assertIn("(E - E0) / |E0|", axes["conserved energy drift"].get_ylabel())

    def test_a_file_without_rows_is_refused_with_exit_code_2(self):
        path = self.write("empty.csv", [REAL_UNITS, HEADER])
        result = subprocess.run([sys.executable, PLOT, path], capture_output=True, text=True)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn("empty.csv: no rows below the header", result.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "empty.png")))

    def test_units_line_parsing(self):
        self.assertEqual(plot.parse_units("# units: time=fs pressure=atm"),
                         {"time": "fs", "pressure": "atm"})
        self.assertEqual(plot.parse_units("# a comment"), {})

    def test_command_line_writes_the_image_named_by_output(self):
        path = self.write("real.csv", [REAL_UNITS, HEADER] + ROWS)
        target = os.path.join(self.dir, "thermo.png")
        result = subprocess.run([sys.executable, PLOT, path, "-o", target],
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertTrue(is_png(target))

    def python_without_matplotlib(self):
        """A virtual environment's bin folder whose python3 cannot import matplotlib."""
        venv = os.path.join(self.dir, "venv")
        made = subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv],
                              capture_output=True, text=True)
        self.assertEqual(made.returncode, 0, "python3 -m venv (python3-venv) is needed: " +
                         made.stderr)
        bin_dir = os.path.join(venv, "bin")
        check = subprocess.run([os.path.join(bin_dir, "python3"), "-c", "import matplotlib"],
                               capture_output=True, text=True)
        self.assertNotEqual(check.returncode, 0, "the environment should lack matplotlib")
        return bin_dir

    def test_python_without_matplotlib_first_on_path(self):
        bin_dir = self.python_without_matplotlib()
        path = self.write("real.csv", [REAL_UNITS, HEADER] + ROWS)
        env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""))
        env.pop(plot.TRIED_ENV, None)
        # As a user runs it: the script's `#!/usr/bin/env python3` finds the environment's.
        result = subprocess.run([PLOT, path, "--out-dir", os.path.join(self.dir, "plots")],
                                capture_output=True, text=True, env=env, cwd=self.dir)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertTrue(is_png(os.path.join(self.dir, "plots", "real.png")))
        self.assertIn("wrote", result.stdout)

    def test_message_when_no_python_has_matplotlib(self):
        bin_dir = self.python_without_matplotlib()
        path = self.write("real.csv", [REAL_UNITS, HEADER] + ROWS)
        # Every interpreter with matplotlib counts as tried already: only the PATH's remain.
        env = dict(os.environ, PATH=bin_dir)
        env[plot.TRIED_ENV] = os.pathsep.join(
            p for p in ["/usr/bin/python3", sys.executable] if os.path.exists(p))
        result = subprocess.run([os.path.join(bin_dir, "python3"), PLOT, path],
                                capture_output=True, text=True, env=env, cwd=self.dir)
        self.assertEqual(result.returncode, 2, result.stdout + result.stderr)
        self.assertIn("cannot import matplotlib", result.stderr)
        self.assertIn(os.path.join(bin_dir, "python3"), result.stderr)
        self.assertIn("/usr/bin/python3", result.stderr)
        self.assertIn("apt-get install python3-matplotlib", result.stderr)
        self.assertIn("pip install matplotlib", result.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "real.png")))

    def test_thermo_file_of_a_run(self):
        if not NOVAMD:
            self.skipTest("no --novamd given")
        config = os.path.join(SOURCE, "examples", "lj_liquid.yaml")
        run = subprocess.run([NOVAMD, "run", config, "--steps", "20", "--set",
                              "output.thermo.every=10", "--set", "system.structure.generate.cells=4"],
                             capture_output=True, text=True, cwd=self.dir,
                             env=dict(os.environ, OMP_NUM_THREADS="1"))
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        path = os.path.join(self.dir, "lj_liquid_thermo.csv")
        with open(path) as f:
            first = f.readline()
        axes = self.thermo_axes(path)
        if first.startswith("#"):  # a file with its units: each label carries one
            self.assertEqual(axes["temperature"].get_ylabel(), "temperature [epsilon/k_B]")
            self.assertEqual(axes["pressure"].get_xlabel(), "time [tau]")
        else:
            self.assertEqual(axes["temperature"].get_ylabel(), "temperature")
        self.assertEqual(list(axes["pressure"].get_lines()[0].get_xdata()), [0.0, 0.05, 0.1])


if __name__ == "__main__":
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--novamd")
    known, rest = parser.parse_known_args()
    NOVAMD = os.path.abspath(known.novamd) if known.novamd else None
    unittest.main(argv=[sys.argv[0]] + rest)
