#!/usr/bin/env python3
"""Rigid SPC/E water at 300 K and 1 bar with OpenMM's Monte Carlo barostat.

The system is built by hand (no force field files) from the LAMMPS data file
examples/water/water.data (atom_style full, units real), the model of
examples/water/water_rigid.yaml:

  * masses, charges, positions, box and LJ Pair Coeffs read from the file
    (kcal/mol, Angstrom -> kJ/mol, nm);
  * NonbondedForce: PME, cutoff 0.9 nm, ewaldErrorTolerance 1e-5, no switching,
    long-range dispersion correction; every intramolecular pair excluded
    (exception with zero charge product and epsilon);
  * each water rigid: constraints O-H at the Bond Coeffs' r0, H-H at the length
    that the Angle Coeffs' theta0 implies (OpenMM applies SETTLE to them);
  * LangevinMiddleIntegrator(300 K, 1/ps, 2 fs); MonteCarloBarostat(1 bar, 300 K, 25).

Samples (every 25 steps = every barostat attempt): step, time, box volume, density.
Usage:
  PYTHONPATH=/tmp/openmm-local python3 run_npt.py [--data ../../../examples/water/water.data]
      [--equil-ps 50] [--sample-ps 500] [--out /tmp/water-npt/samples.dat]
"""
import argparse
import json
import math
import os
import sys
import time

import openmm as mm
from openmm import unit

KCAL = 4.184          # kJ per kcal
ANG = 0.1             # nm per Angstrom
AVOGADRO = 6.02214076e23


def read_lammps_data(path):
    """Minimal reader for an atom_style full LAMMPS data file."""
    with open(path) as f:
        lines = [ln.split('#')[0].rstrip() for ln in f]
    header = {}
    box = {}
    sections = {}
    i = 1  # first line is the title
    section_names = {'Masses', 'Pair Coeffs', 'Bond Coeffs', 'Angle Coeffs', 'Atoms',
                     'Bonds', 'Angles', 'Velocities', 'Dihedrals', 'Impropers',
                     'Dihedral Coeffs', 'Improper Coeffs', 'PairIJ Coeffs'}
    current = None
    while i < len(lines):
        s = lines[i].strip()
        i += 1
        if not s:
            continue
        if s in section_names:
            current = s
            sections[current] = []
            continue
        tok = s.split()
        if current is None:
            if s.endswith('xlo xhi') or s.endswith('ylo yhi') or s.endswith('zlo zhi'):
                box[tok[2][0]] = (float(tok[0]), float(tok[1]))
            elif s.endswith('xy xz yz'):
                if any(float(t) != 0.0 for t in tok[:3]):
                    raise ValueError('triclinic boxes are not handled')
            else:
                header[' '.join(tok[1:])] = int(tok[0])
        else:
            sections[current].append(tok)
    if 'PairIJ Coeffs' in sections:
        raise ValueError('PairIJ Coeffs not handled')
    masses = {int(t[0]): float(t[1]) for t in sections['Masses']}
    pair = {int(t[0]): (float(t[1]), float(t[2])) for t in sections['Pair Coeffs']}
    bond_coeffs = {int(t[0]): (float(t[1]), float(t[2])) for t in sections['Bond Coeffs']}
    angle_coeffs = {int(t[0]): (float(t[1]), float(t[2])) for t in sections['Angle Coeffs']}
    atoms = sorted((int(t[0]), int(t[1]), int(t[2]), float(t[3]),
                    float(t[4]), float(t[5]), float(t[6])) for t in sections['Atoms'])
    if [a[0] for a in atoms] != list(range(1, len(atoms) + 1)):
        raise ValueError('atom ids are not 1..N')
    if len(atoms) != header['atoms']:
        raise ValueError('atom count does not match the header')
    bonds = [(int(t[1]), int(t[2]), int(t[3])) for t in sections.get('Bonds', [])]
    angles = [(int(t[1]), int(t[2]), int(t[3]), int(t[4])) for t in sections.get('Angles', [])]
    return dict(box=box, masses=masses, pair=pair, bond_coeffs=bond_coeffs,
                angle_coeffs=angle_coeffs, atoms=atoms, bonds=bonds, angles=angles)


def build_system(d, cutoff_nm=0.9, ewald_tol=1e-5):
    L = [d['box'][k][1] - d['box'][k][0] for k in 'xyz']
    lo = [d['box'][k][0] for k in 'xyz']
    n = len(d['atoms'])
    system = mm.System()
    system.setDefaultPeriodicBoxVectors(mm.Vec3(L[0] * ANG, 0, 0), mm.Vec3(0, L[1] * ANG, 0),
                                        mm.Vec3(0, 0, L[2] * ANG))
    nb = mm.NonbondedForce()
    nb.setNonbondedMethod(mm.NonbondedForce.PME)
    nb.setCutoffDistance(cutoff_nm)
    nb.setEwaldErrorTolerance(ewald_tol)
    nb.setUseSwitchingFunction(False)
    nb.setUseDispersionCorrection(True)
    pos = []
    mol_of = []
    total_mass = 0.0
    for (aid, mol, typ, q, x, y, z) in d['atoms']:
        m = d['masses'][typ]
        total_mass += m
        system.addParticle(m)
        eps, sig = d['pair'][typ]
        nb.addParticle(q, sig * ANG, eps * KCAL)
        pos.append([x - lo[0], y - lo[1], z - lo[2]])
        mol_of.append(mol)
    # make every molecule whole (each atom placed at the minimum image of its bond partner)
    for (_, i, j) in d['bonds']:
        a, b = pos[i - 1], pos[j - 1]
        for k in range(3):
            b[k] -= L[k] * round((b[k] - a[k]) / L[k])
    # constraints: bonds at r0, angles through the law of cosines
    r0 = {}
    constraints = []
    for (bt, i, j) in d['bonds']:
        r = d['bond_coeffs'][bt][1]
        r0[frozenset((i, j))] = r
        constraints.append((i, j, r))
    for (at, i, j, k) in d['angles']:
        theta = math.radians(d['angle_coeffs'][at][1])
        rij = r0[frozenset((i, j))]
        rkj = r0[frozenset((k, j))]
        rik = math.sqrt(rij ** 2 + rkj ** 2 - 2 * rij * rkj * math.cos(theta))
        constraints.append((i, k, rik))
    for (i, j, r) in constraints:
        system.addConstraint(i - 1, j - 1, r * ANG)
    # exclude every intramolecular pair
    members = {}
    for idx, mol in enumerate(mol_of):
        members.setdefault(mol, []).append(idx)
    for atoms_in in members.values():
        for a in range(len(atoms_in)):
            for b in range(a + 1, len(atoms_in)):
                nb.addException(atoms_in[a], atoms_in[b], 0.0, 1.0, 0.0)
    system.addForce(nb)
    positions = [mm.Vec3(p[0] * ANG, p[1] * ANG, p[2] * ANG) for p in pos]
    info = dict(n_atoms=n, n_molecules=len(members), n_constraints=len(constraints),
                constraint_lengths_A=sorted({round(c[2], 10) for c in constraints}),
                total_mass_g_per_mol=total_mass, box_A=L)
    return system, positions, info


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--data', default=os.path.join(here, '..', '..', '..', 'examples', 'water', 'water.data'))
    ap.add_argument('--equil-ps', type=float, default=50.0)
    ap.add_argument('--sample-ps', type=float, default=500.0)
    ap.add_argument('--every', type=int, default=25, help='sample interval, steps')
    ap.add_argument('--energy-every', type=int, default=500, help='energy/temperature monitor interval, steps')
    ap.add_argument('--out', default='/tmp/water-npt/samples.dat')
    ap.add_argument('--platform', default='CPU')
    ap.add_argument('--threads', default='2')
    ap.add_argument('--seed', type=int, default=2026)
    ap.add_argument('--minimize-steps', type=int, default=200)
    args = ap.parse_args()

    T = 300.0 * unit.kelvin
    dt_ps = 0.002
    d = read_lammps_data(args.data)
    system, positions, info = build_system(d)
    barostat = mm.MonteCarloBarostat(1.0 * unit.bar, T, 25)
    barostat.setRandomNumberSeed(args.seed)
    system.addForce(barostat)
    integrator = mm.LangevinMiddleIntegrator(T, 1.0 / unit.picosecond, dt_ps * unit.picoseconds)
    integrator.setRandomNumberSeed(args.seed)
    platform = mm.Platform.getPlatformByName(args.platform)
    props = {'Threads': args.threads} if args.platform == 'CPU' else {}
    context = mm.Context(system, integrator, platform, props)
    context.setPositions(positions)
    context.applyConstraints(1e-8)
    e0 = context.getState(getEnergy=True).getPotentialEnergy().value_in_unit(unit.kilojoule_per_mole)
    mm.LocalEnergyMinimizer.minimize(context, 10.0, args.minimize_steps)
    e1 = context.getState(getEnergy=True).getPotentialEnergy().value_in_unit(unit.kilojoule_per_mole)
    context.setVelocitiesToTemperature(T, args.seed)

    meta = dict(openmm_version=mm.Platform.getOpenMMVersion(), python=sys.version.split()[0],
                platform=platform.getName(),
                platform_properties={k: platform.getPropertyValue(context, k) for k in platform.getPropertyNames()},
                info=info, seed=args.seed, equil_ps=args.equil_ps, sample_ps=args.sample_ps,
                every_steps=args.every, dt_ps=dt_ps, barostat_frequency=barostat.getFrequency(),
                constraint_tolerance=integrator.getConstraintTolerance(),
                pme_parameters=list(system.getForce(0).getPMEParametersInContext(context)),
                epot_before_min_kJmol=e0, epot_after_min_kJmol=e1, argv=sys.argv)
    print(json.dumps(meta, indent=1), flush=True)

    mass_g = info['total_mass_g_per_mol'] / AVOGADRO
    n_dof = 3 * info['n_atoms'] - info['n_constraints'] - 0  # no CM motion remover
    kB = unit.MOLAR_GAS_CONSTANT_R.value_in_unit(unit.kilojoule_per_mole / unit.kelvin)

    def volume():
        st = context.getState()
        a, b, c = st.getPeriodicBoxVectors(asNumpy=False)
        return a[0].value_in_unit(unit.nanometer) * b[1].value_in_unit(unit.nanometer) * \
            c[2].value_in_unit(unit.nanometer)

    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    n_eq = int(round(args.equil_ps / dt_ps))
    n_sa = int(round(args.sample_ps / dt_ps))
    t0 = time.time()
    integrator.step(n_eq)
    t_eq = time.time() - t0
    print(f'equilibrated {n_eq} steps in {t_eq:.1f} s, V = {volume():.4f} nm^3', flush=True)
    mon = open(args.out + '.energy', 'w')
    mon.write('# step  epot_kJmol  ekin_kJmol  T_kin_K(ndof=%d)  volume_nm3\n' % n_dof)
    t1 = time.time()
    with open(args.out, 'w') as f:
        f.write('# step  time_ps  volume_nm3  density_g_cm3   (step counted from the start of sampling)\n')
        step = 0
        while step < n_sa:
            integrator.step(args.every)
            step += args.every
            v = volume()
            rho = mass_g / (v * 1e-21)
            f.write(f'{step} {step * dt_ps:.3f} {v:.8f} {rho:.8f}\n')
            if step % args.energy_every == 0:
                st = context.getState(getEnergy=True)
                ep = st.getPotentialEnergy().value_in_unit(unit.kilojoule_per_mole)
                ek = st.getKineticEnergy().value_in_unit(unit.kilojoule_per_mole)
                mon.write(f'{step} {ep:.4f} {ek:.4f} {2 * ek / (n_dof * kB):.3f} {v:.6f}\n')
            if step % 25000 == 0:
                f.flush()
                mon.flush()
                el = time.time() - t1
                print(f'{step} steps ({step * dt_ps:.0f} ps) in {el:.0f} s, '
                      f'{step * dt_ps * 1e-3 / (el / 86400):.2f} ns/day, V = {v:.4f}', flush=True)
    mon.close()
    t_sa = time.time() - t1
    meta.update(wall_equil_s=t_eq, wall_sample_s=t_sa, wall_total_s=time.time() - t0,
                ns_per_day=n_sa * dt_ps * 1e-3 / (t_sa / 86400))
    with open(args.out + '.json', 'w') as f:
        json.dump(meta, f, indent=1)
    print(f'sampled {n_sa} steps in {t_sa:.1f} s; total wall {meta["wall_total_s"]:.1f} s', flush=True)


if __name__ == '__main__':
    main()
