"""The Lennard-Jones melt from Python, with an analysis of one's own in NumPy.

Runs examples/lj_liquid.yaml (4,000 atoms melting from fcc at rho* = 0.8442, T* = 1.44) and,
every 10 steps, takes the velocities to build the velocity autocorrelation function
C(t) = <v(0) . v(t)> / <v(0) . v(0)> and the mean-squared displacement from unwrapped positions.
The diffusion coefficient follows twice: from the integral of C(t) (Green-Kubo) and from the
slope of the MSD (Einstein); the two agree within their noise on a liquid.

    python examples/python/lj_liquid_analysis.py [--steps 2000] [--cells 10]
"""

import argparse
import pathlib

import numpy as np

import novamd

HERE = pathlib.Path(__file__).resolve().parent


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2000, help="steps after melting")
    parser.add_argument("--cells", type=int, default=10, help="fcc cells per edge (4 atoms each)")
    parser.add_argument("--every", type=int, default=10, help="steps between samples")
    args = parser.parse_args()

    sim = novamd.Simulation(HERE.parent / "lj_liquid.yaml",
                            set={"system.structure.generate.cells": args.cells,
                                 "output.thermo.file": "none"},
                            reporters=[novamd.reporters.Progress(every=500)])
    sim.run(1000)  # melt the crystal first
    print(f"{sim}: T = {sim.thermo()['temperature']:.3f} after melting")

    start = sim.state()
    v0, box = start.velocities, start.box
    last = start.positions.copy()
    unwrapped = start.positions.copy()
    vacf, msd = [1.0], [0.0]
    norm = np.einsum("ij,ij->", v0, v0)

    def sample(s):
        nonlocal last
        state = s.state()
        step = state.positions - last  # nearest image: no atom moves half a box in 10 steps
        step -= box * np.round(step / box)
        unwrapped[:] += step
        last = state.positions
        vacf.append(np.einsum("ij,ij->", v0, state.velocities) / norm)
        msd.append(np.mean(np.sum((unwrapped - start.positions) ** 2, axis=1)))

    sim.run(args.steps, callbacks=[(args.every, sample)])

    dt = args.every * sim.timestep
    t = dt * np.arange(len(vacf))
    kT = sim.thermo()["temperature"]  # k_B = 1 in lj units; m = 1
    v2 = norm / len(sim) / 3.0        # <v_x^2> at t = 0
    c = np.asarray(vacf)
    d_green_kubo = v2 * dt * np.sum(0.5 * (c[1:] + c[:-1]))  # the trapezoid rule
    half = len(t) // 2               # the linear regime: the second half of the run
    d_einstein = np.polyfit(t[half:], np.asarray(msd)[half:], 1)[0] / 6.0
    print(f"T = {kT:.3f}; D from the VACF (Green-Kubo): {d_green_kubo:.4f} sigma^2/tau; "
          f"from the MSD (Einstein): {d_einstein:.4f} sigma^2/tau")
    np.savetxt("lj_vacf_msd.csv", np.column_stack([t, vacf, msd]), delimiter=",",
               header="time,vacf,msd", comments="")
    print("wrote lj_vacf_msd.csv")


if __name__ == "__main__":
    main()
