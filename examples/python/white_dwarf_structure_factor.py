"""A white dwarf's C/O ion mixture from Python: the static structure factor S(q), computed in
NumPy from the positions during the run and plotted with matplotlib.

Runs examples/white_dwarf_co.yaml (2,000 ions, Yukawa, every pair) and samples
S(q) = |sum_j exp(i q . r_j)|^2 / N over the wave vectors q = 2 pi n / L of the periodic box,
averaged in shells of |q|. The first peak lies near q a ~ 4.4 (a the ion-sphere radius): the bcc
crystal's (110) reflection, where a strongly coupled liquid has its first peak too. The engine's
own analysis.structure_factor computes the same quantity where the particles live; this shows
how to do one's own.

    python examples/python/white_dwarf_structure_factor.py [--steps 400] [--plot sq.png]
"""

import argparse
import pathlib

import numpy as np

import novamd

HERE = pathlib.Path(__file__).resolve().parent


def wave_vectors(box, n_max):
    """Every q = 2 pi n / L with 0 < |n| <= n_max, one of each +/- pair."""
    n = np.stack(np.meshgrid(*[np.arange(-n_max, n_max + 1)] * 3, indexing="ij"), -1).reshape(-1, 3)
    r2 = np.sum(n * n, axis=1)
    keep = (r2 > 0) & (r2 <= n_max * n_max)
    first = (n[:, 0] > 0) | ((n[:, 0] == 0) & ((n[:, 1] > 0) | ((n[:, 1] == 0) & (n[:, 2] > 0))))
    return 2 * np.pi * n[keep & first] / box


def structure_factor(positions, q):
    """S(q) for each wave vector."""
    rho = np.zeros(len(q), dtype=complex)
    for chunk in np.array_split(np.arange(len(positions)), 8):  # bounded memory
        rho += np.exp(1j * positions[chunk] @ q.T).sum(axis=0)
    return np.abs(rho) ** 2 / len(positions)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--every", type=int, default=50, help="steps between samples")
    parser.add_argument("--n-max", type=int, default=20,
                        help="largest |n| of the wave vectors (the first peak is near 14)")
    parser.add_argument("--plot", default="white_dwarf_sq.png", help="the figure's file")
    args = parser.parse_args()

    sim = novamd.Simulation(HERE.parent / "white_dwarf_co.yaml",
                            set={"output.thermo.file": "none", "output.trajectory": []})
    box = sim.state().box
    q = wave_vectors(box, args.n_max)
    q_norm = np.linalg.norm(q, axis=1)
    sums = np.zeros(len(q))
    samples = 0

    def sample(s):
        nonlocal sums, samples
        sums += structure_factor(s.state().positions, q)
        samples += 1

    sim.run(args.steps, callbacks=[(args.every, sample)])
    a = (3 * box.prod() / (4 * np.pi * len(sim))) ** (1 / 3)  # ion-sphere radius, fm
    shells = np.round(q_norm / (2 * np.pi / box[0]) * 2) / 2  # |n| in half-integer shells
    centres = np.unique(shells)
    s_of_q = np.array([sums[shells == c].mean() / samples for c in centres])
    qa = centres * 2 * np.pi / box[0] * a
    peak = qa[np.argmax(s_of_q)]
    print(f"{samples} samples of {len(q)} wave vectors; S(q) peaks at q a = {peak:.2f} "
          f"(a = {a:.1f} fm) with S = {s_of_q.max():.2f}")

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.plot(qa, s_of_q, "o-", ms=3)
    ax.set_xlabel("q a")
    ax.set_ylabel("S(q)")
    ax.set_title(f"C/O ions, {len(sim)} ions, T = {sim.thermo()['temperature']:.2e} MeV")
    fig.tight_layout()
    fig.savefig(args.plot, dpi=120)
    print(f"wrote {args.plot}")


if __name__ == "__main__":
    main()
