#!/usr/bin/env python3
"""Generate ls1-mardyn benchmark inputs (reduced units, eps = sigma = 1, k_e = 1).

Data sets (fcc lattice filling a cubic periodic box, Shoemake-random orientations,
zero velocities and angular momenta, fixed seed):
  1j   : 4*27^3 = 78732 one-site LJ molecules (m = 1), number density 0.8
  3j1d : 4*23^3 = 48668 three-site LJ + point dipole (along body y, mu = 1), density 0.25
  mix  : 4*23^3 = 48668, alternating on the lattice (even index -> 3j1d = cid 1,
         odd index -> 2j1d = cid 2: LJ at z = -+0.5, m = 0.5 each, dipole along body z, mu = 1),
         LB mixing xi = eta = 1, density 0.25
For each data set XML configs with rc = 2.5, 3.5, 5.0 (defaultCutoff = radiusLJ = rc).

Usage: python3 make_inputs.py   (writes into the directory of this script)
"""
import math, os, random

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20260506
RCS = ["2.5", "3.5", "5.0"]

S3 = 0.4330127  # sqrt(3)/4: the triangle of side sqrt(3)/2 = 0.866 about its centre

COMPONENTS = {
    "1j": dict(name="1CLJ",
               lj=[((0.0, 0.0, 0.0), 1.0)],
               dip=[], I=None),
    "3j1d": dict(name="3CLJ1D",
                 lj=[((0.0, 0.5, 0.0), 1.0 / 3.0), ((S3, -0.25, 0.0), 1.0 / 3.0), ((-S3, -0.25, 0.0), 1.0 / 3.0)],
                 dip=[((0.0, 0.0, 0.0), (0.0, 1.0, 0.0), 1.0)], I="auto"),
    "2j1d": dict(name="2CLJ1D",
                 lj=[((0.0, 0.0, -0.5), 0.5), ((0.0, 0.0, 0.5), 0.5)],
                 dip=[((0.0, 0.0, 0.0), (0.0, 0.0, 1.0), 1.0)], I="auto"),
}

DATASETS = {
    "1j":   dict(ncell=27, rho=0.8,  comps=["1j"]),
    "3j1d": dict(ncell=23, rho=0.25, comps=["3j1d"]),
    "mix":  dict(ncell=23, rho=0.25, comps=["3j1d", "2j1d"]),
}


def inertia(comp):
    """Diagonal inertia tensor about the origin (= centre of mass for all components here)."""
    I = [0.0, 0.0, 0.0]
    off = [0.0, 0.0, 0.0]
    for (x, y, z), m in comp["lj"]:
        I[0] += m * (y * y + z * z)
        I[1] += m * (x * x + z * z)
        I[2] += m * (x * x + y * y)
        off[0] += m * x * y; off[1] += m * x * z; off[2] += m * y * z
    com = [sum(m * p[d] for p, m in comp["lj"]) for d in range(3)]
    assert all(abs(c) < 1e-6 for c in com), com
    assert all(abs(o) < 1e-6 for o in off), off   # principal frame
    return I


def rand_quat(rng):
    """Shoemake (1992) uniform random unit quaternion, returned as (w, x, y, z) with w >= 0."""
    u1, u2, u3 = rng.random(), rng.random(), rng.random()
    a, b = math.sqrt(1.0 - u1), math.sqrt(u1)
    q = (a * math.sin(2 * math.pi * u2), a * math.cos(2 * math.pi * u2),
         b * math.sin(2 * math.pi * u3), b * math.cos(2 * math.pi * u3))
    n = math.sqrt(sum(c * c for c in q))
    q = tuple(c / n for c in q)
    if q[0] < 0:
        q = tuple(-c for c in q)
    return q


def fcc(ncell, L):
    a = L / ncell
    basis = [(0.0, 0.0, 0.0), (0.5, 0.5, 0.0), (0.5, 0.0, 0.5), (0.0, 0.5, 0.5)]
    for i in range(ncell):
        for j in range(ncell):
            for k in range(ncell):
                for b in basis:
                    yield ((i + b[0] + 0.25) * a, (j + b[1] + 0.25) * a, (k + b[2] + 0.25) * a)


def write_psp(fname, ncell, L, ncomp, rng):
    n = 0
    with open(fname, "w") as f:
        f.write("mardyn trunk 20080701\n")
        f.write("NumberOfMolecules %d\n" % (4 * ncell ** 3))
        f.write("MoleculeFormat ICRVQD\n")
        for idx, r in enumerate(fcc(ncell, L)):
            cid = 1 + (idx % ncomp)
            q = rand_quat(rng)
            f.write("%d %d %.15g %.15g %.15g 0 0 0 %.15g %.15g %.15g %.15g 0 0 0\n" %
                    (idx + 1, cid, r[0], r[1], r[2], q[0], q[1], q[2], q[3]))
            n += 1
    return n


def comp_xml(cid, key):
    c = COMPONENTS[key]
    s = ['        <moleculetype id="%d" name="%s">' % (cid, c["name"])]
    sid = 1
    for (x, y, z), m in c["lj"]:
        s.append('          <site type="LJ126" id="%d" name="LJ%d">' % (sid, sid))
        s.append('            <coords> <x>%.10g</x> <y>%.10g</y> <z>%.10g</z> </coords>' % (x, y, z))
        s.append('            <mass>%.17g</mass> <sigma>1.0</sigma> <epsilon>1.0</epsilon>' % m)
        s.append('            <shifted>true</shifted>')
        s.append('          </site>')
        sid += 1
    for (x, y, z), (ex, ey, ez), mu in c["dip"]:
        s.append('          <site type="Dipole" id="%d" name="D">' % sid)
        s.append('            <coords> <x>%g</x> <y>%g</y> <z>%g</z> </coords>' % (x, y, z))
        s.append('            <mass>0.0</mass>')
        s.append('            <dipolemoment> <x>%g</x> <y>%g</y> <z>%g</z> <abs>%g</abs> </dipolemoment>' % (ex, ey, ez, mu))
        s.append('          </site>')
        sid += 1
    if c["I"] == "auto":
        I = inertia(c)
        s.append('          <momentsofinertia rotaxes="xyz">')
        s.append('            <Ixx>%.17g</Ixx> <Iyy>%.17g</Iyy> <Izz>%.17g</Izz>' % tuple(I))
        s.append('          </momentsofinertia>')
    s.append('        </moleculetype>')
    return "\n".join(s)


XML = """<?xml version="1.0" encoding="UTF-8"?>
<mardyn version="20100525">
  <simulation type="MD">
    <integrator type="Leapfrog">
      <timestep unit="reduced">0.001</timestep>
    </integrator>
    <run>
      <currenttime>0</currenttime>
      <production>
        <steps>100</steps>
      </production>
    </run>
    <!-- ls1 has no XML switch for NVE: with target temperature 0 the global velocity-scaling
         factors beta_trans = beta_rot = 1 (Domain::calculateGlobalValues), i.e. no thermostat. -->
    <ensemble type="NVT">
      <temperature unit="reduced">0.0</temperature>
      <domain type="box">
        <lx>{L}</lx>
        <ly>{L}</ly>
        <lz>{L}</lz>
      </domain>
      <components>
{COMPS}
{MIXING}
      </components>
      <phasespacepoint>
        <file type="ASCII">{PSP}</file>
      </phasespacepoint>
    </ensemble>
    <algorithm>
      <parallelisation type="DummyDecomposition"></parallelisation>
      <datastructure type="LinkedCells">
        <cellsInCutoffRadius>1</cellsInCutoffRadius>
      </datastructure>
      <cutoffs type="CenterOfMass">
        <defaultCutoff unit="reduced">{RC}</defaultCutoff>
        <radiusLJ unit="reduced">{RC}</radiusLJ>
      </cutoffs>
      <electrostatic type="ReactionField">
        <epsilon>1.0e10</epsilon>
      </electrostatic>
      <longrange type="none"></longrange>
    </algorithm>
    <output>
    </output>
  </simulation>
</mardyn>
"""


def main():
    for ds, p in DATASETS.items():
        N = 4 * p["ncell"] ** 3
        L = (N / p["rho"]) ** (1.0 / 3.0)
        rng = random.Random(SEED)
        psp = "%s.inp" % ds
        n = write_psp(os.path.join(HERE, psp), p["ncell"], L, len(p["comps"]), rng)
        assert n == N
        comps = "\n".join(comp_xml(i + 1, k) for i, k in enumerate(p["comps"]))
        mixing = ""
        if len(p["comps"]) == 2:
            mixing = ('        <mixing>\n'
                      '          <rule type="LB" cid1="1" cid2="2"> <eta>1.0</eta> <xi>1.0</xi> </rule>\n'
                      '        </mixing>')
        for rc in RCS:
            assert L > 2 * float(rc)
            with open(os.path.join(HERE, "%s_rc%s.xml" % (ds, rc)), "w") as f:
                f.write(XML.format(L="%.17g" % L, COMPS=comps, MIXING=mixing, PSP=psp, RC=rc))
        print("%-5s N=%d L=%.6f rho=%.4f a_fcc=%.6f" % (ds, N, L, N / L ** 3, L / p["ncell"]))


if __name__ == "__main__":
    main()
