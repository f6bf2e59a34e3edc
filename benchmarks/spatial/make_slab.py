#!/usr/bin/env python3
"""A Lennard-Jones liquid slab beside vacuum, for the spatial decomposition's load balance
(`parallel.balance`): an fcc crystal at the melt's density (rho* = 0.8442, T* = 0.85, below
the critical point of LJ cut at 2.5 sigma, so the slab stays liquid with a thin vapour) filling
z in [0.05, 0.40] of a box three times as long in z as across. Equal bricks cut along z put the
whole slab in one brick of two; balanced ones halve it.

    make_slab.py DIR [--cells N]

writes DIR/slab.xyz (extended XYZ, 4 N^3 atoms; default N = 20: 32,000 atoms, the melt's
size) and DIR/slab.yaml, the run that reads it:

    python3 benchmarks/spatial/make_slab.py runs/slab
    OMP_NUM_THREADS=1 mpirun -np 2 build/novamd run runs/slab/slab.yaml --set parallel.grid=[1,1,2]
    OMP_NUM_THREADS=1 mpirun -np 2 build/novamd run runs/slab/slab.yaml --set parallel.grid=[1,1,2] \\
        --set parallel.balance=particles
"""

import argparse
import pathlib

DENSITY = 0.8442
SLAB = (0.05, 0.40)  # the slab's extent along z, as fractions of the box's edge

CONFIG = """# A Lennard-Jones liquid slab beside vacuum (benchmarks/spatial/make_slab.py): {n} atoms in
# a {lx:g} x {ly:g} x {lz:g} sigma box, the liquid at z in [{z0:g}, {z1:g}].
units: lj
seed: 2026
system:
  species:
    - {{name: Ar, mass: 1.0}}
  structure: {{read: slab.xyz}}
  velocities: {{temperature: 0.85}}
forces:
  - lennard_jones:
      pairs: [{{types: [Ar, Ar], epsilon: 1.0, sigma: 1.0}}]
      cutoff: 2.5
neighbors: {{method: auto, skin: 0.3}}
integrator: {{type: langevin, timestep: 0.005, temperature: 0.85, friction: 1.0}}
run: {{steps: 500}}
output:
  thermo: {{every: 100, file: slab_thermo.csv}}
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", type=pathlib.Path)
    parser.add_argument("--cells", type=int, default=20, help="fcc cells along each edge")
    args = parser.parse_args()
    cells = args.cells
    a = (4.0 / DENSITY) ** (1.0 / 3.0)  # the fcc cell's edge at the density
    across = cells * a
    length = (across, across, across / (SLAB[1] - SLAB[0]))
    z0 = SLAB[0] * length[2]
    basis = ((0.0, 0.0, 0.0), (0.5, 0.5, 0.0), (0.5, 0.0, 0.5), (0.0, 0.5, 0.5))
    lines = []
    for i in range(cells):
        for j in range(cells):
            for k in range(cells):
                for b in basis:
                    x, y, z = ((i + b[0]) * a, (j + b[1]) * a, z0 + (k + b[2]) * a)
                    lines.append(f"Ar {x:.10f} {y:.10f} {z:.10f}")
    args.dir.mkdir(parents=True, exist_ok=True)
    lattice = f"{length[0]:.10f} 0 0 0 {length[1]:.10f} 0 0 0 {length[2]:.10f}"
    (args.dir / "slab.xyz").write_text(
        f"{len(lines)}\nLattice=\"{lattice}\" Properties=species:S:1:pos:R:3 pbc=\"T T T\"\n"
        + "\n".join(lines) + "\n")
    (args.dir / "slab.yaml").write_text(CONFIG.format(
        n=len(lines), lx=round(length[0], 3), ly=round(length[1], 3), lz=round(length[2], 3),
        z0=round(z0, 3), z1=round(z0 + cells * a, 3)))
    print(f"{args.dir}/slab.xyz: {len(lines)} atoms, box {length[0]:.4g} x {length[1]:.4g} x "
          f"{length[2]:.4g}; {args.dir}/slab.yaml reads it")


if __name__ == "__main__":
    main()
