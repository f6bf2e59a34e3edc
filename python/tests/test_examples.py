"""The Python examples (examples/python) run, shortened, and say what they found."""

import os
import subprocess
import sys

from conftest import EXAMPLES


def run_example(name, args, cwd):
    env = dict(os.environ, MPLBACKEND="Agg")
    result = subprocess.run([sys.executable, str(EXAMPLES / "python" / name), *args], cwd=cwd,
                            capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_lj_liquid_analysis_finds_a_diffusion_coefficient(in_tmp):
    out = run_example("lj_liquid_analysis.py", ["--cells", "4", "--steps", "300"], in_tmp)
    line = [l for l in out.splitlines() if "Green-Kubo" in l][0]
    d_gk = float(line.split("Green-Kubo): ")[1].split()[0])
    d_msd = float(line.split("Einstein): ")[1].split()[0])
    # A liquid near T* = 1 diffuses at D ~ 0.03 to 0.1 sigma^2/tau; a crystal would give ~0.
    assert 0.01 < d_gk < 0.3 and 0.01 < d_msd < 0.3
    assert (in_tmp / "lj_vacf_msd.csv").read_text().startswith("time,vacf,msd")


def test_the_white_dwarf_example_plots_a_structure_factor_with_its_liquid_peak(in_tmp):
    out = run_example("white_dwarf_structure_factor.py",
                      ["--steps", "100", "--every", "50", "--n-max", "17"], in_tmp)
    peak = float(out.split("peaks at q a = ")[1].split()[0])
    assert 3.0 < peak < 6.0  # the first peak of a strongly coupled plasma, q a ~ 4.4
    assert (in_tmp / "white_dwarf_sq.png").stat().st_size > 1000
