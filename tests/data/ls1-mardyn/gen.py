#!/usr/bin/env python3
"""Generate ls1-mardyn reference inputs (reduced units). Deterministic (seeded)."""
import math, random, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))

# ---------- model (body frame, exactly as written to the XML) ----------
COMP1 = dict(lj=[(0.0, 0.0, -0.4, 0.5), (0.0, 0.0, 0.4, 0.5)],   # x y z mass
             quad=[((0.0, 0.0, 0.0), (0.0, 0.0, 1.0), 1.0)])       # pos, e, |Q|
COMP2 = dict(lj=[(0.0, 0.0, 0.0, 1.0)],
             dip=[((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), 1.2)],        # pos, e, |mu|
             I=(0.04, 0.04, 0.04))

def rotmat(q):
    w, x, y, z = q
    return [[w*w+x*x-y*y-z*z, 2*(x*y-w*z), 2*(x*z+w*y)],
            [2*(x*y+w*z), w*w-x*x+y*y-z*z, 2*(y*z-w*x)],
            [2*(x*z-w*y), 2*(y*z+w*x), w*w-x*x-y*y+z*z]]

def rot(R, v):
    return [sum(R[i][k]*v[k] for k in range(3)) for i in range(3)]

def rand_quat(rng):
    u1, u2, u3 = rng.random(), rng.random(), rng.random()
    a, b = math.sqrt(1-u1), math.sqrt(u1)
    q = (a*math.sin(2*math.pi*u2), a*math.cos(2*math.pi*u2), b*math.sin(2*math.pi*u3), b*math.cos(2*math.pi*u3))
    n = math.sqrt(sum(c*c for c in q))
    q = tuple(c/n for c in q)
    if q[0] < 0: q = tuple(-c for c in q)
    return q

def lj_sites(cid, r, q):
    R = rotmat(q)
    comp = COMP1 if cid == 1 else COMP2
    return [[r[d] + rot(R, s[:3])[d] for d in range(3)] for s in comp['lj']]

def make_bulk(N1, N2, L, seed, dmin=0.95, dcom=0.9, rc=3.0, rcgap=0.005):
    rng = random.Random(seed)
    mols = []
    cids = [1]*N1 + [2]*N2
    rng.shuffle(cids)
    for cid in cids:
        for attempt in range(200000):
            r = [rng.random()*L for _ in range(3)]
            q = rand_quat(rng)
            s = lj_sites(cid, r, q)
            ok = True
            for (c2, r2, q2, s2) in mols:
                dc = [r[d]-r2[d] - L*round((r[d]-r2[d])/L) for d in range(3)]
                dc2 = sum(x*x for x in dc)
                if dc2 < dcom*dcom: ok = False; break
                # keep every COM-COM distance at least rcgap away from the cutoff (no ambiguous pairs)
                if abs(math.sqrt(dc2) - rc) < rcgap: ok = False; break
                for a in s:
                    for b in s2:
                        dd = [a[d]-b[d] - L*round((a[d]-b[d])/L) for d in range(3)]
                        if sum(x*x for x in dd) < dmin*dmin: ok = False; break
                    if not ok: break
                if not ok: break
            if ok:
                mols.append((cid, r, q, s)); break
        else:
            sys.exit("could not insert")
    return [(cid, r, q) for (cid, r, q, s) in mols]

def write_psp(fname, mols):
    with open(fname, 'w') as f:
        f.write("mardyn trunk 20080701\n")
        f.write("NumberOfMolecules %d\n" % len(mols))
        f.write("MoleculeFormat ICRVQD\n")
        for i, (cid, r, q) in enumerate(mols):
            f.write("%d %d %.17g %.17g %.17g 0 0 0 %.17g %.17g %.17g %.17g 0 0 0\n" %
                    (i+1, cid, r[0], r[1], r[2], q[0], q[1], q[2], q[3]))

XML = """<?xml version="1.0" encoding="UTF-8"?>
<mardyn version="20100525">
  <simulation type="MD">
    <integrator type="Leapfrog">
      <timestep unit="reduced">0.001</timestep>
    </integrator>
    <run>
      <currenttime>0</currenttime>
      <production>
        <steps>0</steps>
      </production>
    </run>
    <ensemble type="NVT">
      <temperature unit="reduced">1.0</temperature>
      <domain type="box">
        <lx>{L}</lx>
        <ly>{L}</ly>
        <lz>{L}</lz>
      </domain>
      <components>
        <moleculetype id="1" name="2CLJQ">
          <site type="LJ126" id="1" name="LJ_a">
            <coords> <x>0.0</x> <y>0.0</y> <z>-0.4</z> </coords>
            <mass>0.5</mass> <sigma>1.0</sigma> <epsilon>1.0</epsilon>
            <shifted>{SHIFT}</shifted>
          </site>
          <site type="LJ126" id="2" name="LJ_b">
            <coords> <x>0.0</x> <y>0.0</y> <z>0.4</z> </coords>
            <mass>0.5</mass> <sigma>1.0</sigma> <epsilon>1.0</epsilon>
            <shifted>{SHIFT}</shifted>
          </site>
          <site type="Quadrupole" id="3" name="Q">
            <coords> <x>0.0</x> <y>0.0</y> <z>0.0</z> </coords>
            <mass>0.0</mass>
            <quadrupolemoment> <x>0.0</x> <y>0.0</y> <z>1.0</z> <abs>1.0</abs> </quadrupolemoment>
          </site>
        </moleculetype>
        <moleculetype id="2" name="StockmayerX">
          <site type="LJ126" id="1" name="LJ">
            <coords> <x>0.0</x> <y>0.0</y> <z>0.0</z> </coords>
            <mass>1.0</mass> <sigma>1.0</sigma> <epsilon>1.0</epsilon>
            <shifted>{SHIFT}</shifted>
          </site>
          <site type="Dipole" id="2" name="D">
            <coords> <x>0.0</x> <y>0.0</y> <z>0.0</z> </coords>
            <mass>0.0</mass>
            <dipolemoment> <x>1.0</x> <y>0.0</y> <z>0.0</z> <abs>1.2</abs> </dipolemoment>
          </site>
          <momentsofinertia rotaxes="xyz">
            <Ixx>0.04</Ixx> <Iyy>0.04</Iyy> <Izz>0.04</Izz>
          </momentsofinertia>
        </moleculetype>
        <mixing>
          <rule type="LB" cid1="1" cid2="2"> <eta>1.0</eta> <xi>1.0</xi> </rule>
        </mixing>
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
        <epsilon>{EPSRF}</epsilon>
      </electrostatic>
      <longrange type="{LRC}"></longrange>
    </algorithm>
    <output>
      <outputplugin name="ForceDump">
        <filename>{DUMP}</filename>
      </outputplugin>
      <outputplugin name="ResultWriter">
        <writefrequency>1</writefrequency>
        <outputprefix>{PREFIX}</outputprefix>
        <writeprecision>16</writeprecision>
      </outputplugin>
    </output>
  </simulation>
</mardyn>
"""

def write_xml(fname, L, psp, rc, epsrf, shift, lrc, prefix):
    with open(fname, 'w') as f:
        f.write(XML.format(L=repr(L), PSP=psp, RC=repr(rc), EPSRF=epsrf, SHIFT=shift, LRC=lrc,
                           DUMP=prefix + ".forces.dat", PREFIX=prefix))

if __name__ == "__main__":
    os.chdir(HERE)
    RC = 3.0
    # bulk system
    L = 7.0
    mols = make_bulk(75, 75, L, seed=20260506)
    write_psp("bulk150.inp", mols)
    for tag, eps, shift, lrc in [("bulk_rfinf", "1.0e10", "true", "none"),
                                  ("bulk_rfoff", "1.0", "true", "none"),
                                  ("bulk_rfinf_noshift", "1.0e10", "false", "none"),
                                  ("bulk_rfinf_lrc", "1.0e10", "true", "homogeneous"),
                                  ("bulk_rfinf_noshift_lrc", "1.0e10", "false", "homogeneous")]:
        write_xml(tag + ".xml", L, "bulk150.inp", RC, eps, shift, lrc, tag)
    # small configs in a big box (L = 20)
    LB = 20.0
    qa = (math.cos(0.35), math.sin(0.35)*0.6, math.sin(0.35)*0.0, math.sin(0.35)*0.8)    # rot 0.7 rad about (0.6,0,0.8)
    qb = (math.cos(0.6), 0.0, math.sin(0.6), 0.0)                                          # rot 1.2 rad about y
    qc = (math.cos(0.25), math.sin(0.25)/math.sqrt(3), -math.sin(0.25)/math.sqrt(3), math.sin(0.25)/math.sqrt(3))
    small = {
        "pairQQ": [(1, [10.0, 10.0, 10.0], (1.0, 0.0, 0.0, 0.0)), (1, [11.1, 10.3, 10.6], qa)],
        "pairDD": [(2, [10.0, 10.0, 10.0], (1.0, 0.0, 0.0, 0.0)), (2, [10.9, 10.8, 9.6], qb)],
        "pairQD": [(1, [10.0, 10.0, 10.0], qa), (2, [11.2, 9.5, 10.7], qc)],
        "triple": [(1, [10.0, 10.0, 10.0], qa), (2, [11.2, 9.5, 10.7], qb), (1, [9.1, 11.0, 10.9], qc)],
    }
    for name, ms in small.items():
        write_psp(name + ".inp", ms)
        for tag, eps in [("rfinf", "1.0e10"), ("rfoff", "1.0")]:
            write_xml("%s_%s.xml" % (name, tag), LB, name + ".inp", RC, eps, "true", "none", "%s_%s" % (name, tag))
    print("ok")
