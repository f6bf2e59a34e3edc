#!/usr/bin/env python3
"""Writes lj.table: the Lennard-Jones 12-6 potential (epsilon = sigma = 1), linearly force-shifted
at r_c = 2.5 so that energy and force reach zero there, as a LAMMPS pair table.

    python3 examples/tables/make_lj_table.py > examples/tables/lj.table

One section, LJ, of 1000 rows evenly spaced in r^2 from 0.8 to 2.5 (RSQ), with FPRIME, the
derivative of the force at both ends. With V = 4 (r^-12 - r^-6) and F = -dV/dr = 4 (12 r^-13 -
6 r^-7): E(r) = V(r) - V(r_c) + (r - r_c) F(r_c), F_s(r) = F(r) - F(r_c) (the same potential as
lennard_jones with truncation: force_shift).
"""

N, R_LO, R_HI = 1000, 0.8, 2.5


def lj_energy(r):
    return 4.0 * (r**-12 - r**-6)


def lj_force(r):
    return 4.0 * (12.0 * r**-13 - 6.0 * r**-7)


def energy(r):
    return lj_energy(r) - lj_energy(R_HI) + (r - R_HI) * lj_force(R_HI)


def force(r):
    return lj_force(r) - lj_force(R_HI)


def force_slope(r):
    return 4.0 * (-156.0 * r**-14 + 42.0 * r**-8)


print("# Lennard-Jones 12-6, epsilon = sigma = 1, force-shifted at 2.5: written by")
print("# examples/tables/make_lj_table.py")
print()
print("LJ")
print(f"N {N} RSQ {R_LO} {R_HI} FPRIME {force_slope(R_LO):.17g} {force_slope(R_HI):.17g}")
print()
for i in range(N):
    r = (R_LO**2 + (R_HI**2 - R_LO**2) * i / (N - 1)) ** 0.5
    print(f"{i + 1} {r:.17g} {energy(r):.17g} {force(r):.17g}")
