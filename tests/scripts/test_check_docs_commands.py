#!/usr/bin/env python3
"""Tests of tests/scripts/check_docs_commands.py (ctest: scripts.docs_commands_rule).

    test_check_docs_commands.py --novamd build/novamd

On small pages written here: which commands the rule finds, that a failing command fails the
check with the page, line, command and its stderr, that an error the page shows must happen,
that skip marks need a reason, and how `novamd run` and `novamd bench` are shortened.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, "check_docs_commands.py")
sys.path.insert(0, HERE)

import check_docs_commands as check  # noqa: E402

NOVAMD = None  # from --novamd
FENCE = "```"


class RuleTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="novamd-docs-rule-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def page(self, text):
        path = os.path.join(self.dir, "page.md")
        with open(path, "w") as f:
            f.write(text)
        return path

    def commands(self, text):
        return [(c.line, c.text, c.expect) for c in check.commands_of(self.page(text), "page.md")]

    def run_check(self, text):
        return subprocess.run([sys.executable, CHECK, "--novamd", NOVAMD, self.page(text)],
                              capture_output=True, text=True)

    def test_which_commands_are_found(self):
        found = self.commands(
            f"{FENCE}sh\nscripts/setup.sh && mkdir -p runs && cd runs && ../build/novamd run x.yaml\n"
            f"cmake --build build\n{FENCE}\n\n"
            f"{FENCE}console\n$ novamd --version\nnovamd 0.1.0\n{FENCE}\n\n"
            f"{FENCE}text\nnovamd run CONFIG [--steps N]\n{FENCE}\n\n"
            f"{FENCE}yaml\nunits: lj\n{FENCE}\n\n"
            f"{FENCE}sh\npip install .\n{FENCE}\n")
        self.assertEqual(found, [(2, "mkdir -p runs && cd runs && ../build/novamd run x.yaml", 0),
                                 (7, "novamd --version", 0)])

    def test_shown_errors_set_the_expected_exit_code(self):
        found = self.commands(f"{FENCE}console\n$ novamd run a.yaml --set x=1\n"
                              f"novamd: error: a.yaml: ...\n$ novamd run b.yaml\n...\n"
                              f"novamd: run stopped: step 1: ...\n{FENCE}\n")
        self.assertEqual([c[2] for c in found], [2, 1])

    def test_skip_mark_needs_a_reason(self):
        self.assertEqual(self.commands(
            f"<!-- docs-check: skip (the reader's file) -->\n{FENCE}sh\nnovamd run my.yaml\n{FENCE}\n"),
            [])
        with self.assertRaises(check.DocsError) as error:
            self.commands(f"<!-- docs-check: skip -->\n{FENCE}sh\nnovamd run my.yaml\n{FENCE}\n")
        self.assertIn("page.md:1: a docs-check skip mark needs a reason", str(error.exception))

    def test_shortening(self):
        self.assertEqual(check.shortened(["run", "c.yaml"]), ["run", "c.yaml", "--steps", "10"])
        self.assertEqual(check.shortened(["run", "c.yaml", "--steps", "5"]),
                         ["run", "c.yaml", "--steps", "5"])
        self.assertEqual(check.shortened(["run", "c.yaml", "--restart", "r.chk", "--steps", "9000"]),
                         ["run", "c.yaml", "--restart", "r.chk", "--steps", "20"])
        self.assertEqual(check.shortened(["bench", "--case", "lj"]),
                         ["bench", "--case", "lj", "--steps", "1", "--warmup", "0", "--sizes", "500"])

    def test_python_module_and_analysis_shortening(self):
        self.assertEqual(check.shortened_python_module(
            "python -m novamd run c.yaml   # the package"), "python -m novamd run c.yaml --steps 10")
        config = os.path.join(self.dir, "a.yaml")
        with open(config, "w") as f:
            f.write("units: lj\nanalysis:\n  rdf: {every: 10}\n  msd: {}\nrun: {steps: 5}\n")
        self.assertEqual(check.analysis_keys(config), ["msd", "rdf"])
        self.assertEqual(check.shortened(["run", config])[-4:],
                         ["--set", "analysis.msd.start=0", "--set", "analysis.rdf.start=0"])

    def test_a_failing_command_fails_the_check_naming_it(self):
        result = self.run_check(f"Text.\n\n{FENCE}sh\nnovamd run missing.yaml\n{FENCE}\n")
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertIn("page.md:4: expected exit code 0, got 2", result.stderr)
        self.assertIn("novamd run missing.yaml", result.stderr)
        self.assertIn("missing.yaml", result.stderr.split("stderr:")[1])  # novamd's message

    def test_a_shown_error_that_does_not_happen_fails_the_check(self):
        result = self.run_check(f"{FENCE}console\n$ novamd --version\nnovamd: error: x\n{FENCE}\n")
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertIn("page.md:2: expected exit code 2, got 0", result.stderr)

    def test_commands_run_in_order_in_one_folder(self):
        example = os.path.join(check.os.path.dirname(check.os.path.dirname(HERE)), "examples",
                               "lj_liquid.yaml")
        result = self.run_check(
            f"{FENCE}sh\nmkdir -p work && cd work\n"
            f"novamd run $NOVAMD_SRC/examples/lj_liquid.yaml --set system.structure.generate.cells=3\n"
            f"$NOVAMD_SRC/scripts/plot.py lj_liquid_thermo.csv\nls lj_liquid_thermo.png\n{FENCE}\n")
        self.assertTrue(os.path.isfile(example))
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("4 commands from 1 pages, 0 failed", result.stdout)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--novamd", required=True)
    known, rest = parser.parse_known_args()
    NOVAMD = os.path.abspath(known.novamd)
    unittest.main(argv=[sys.argv[0]] + rest)
