"""Reference energies of the AMBER example system (examples/amber-dipeptide), term by term, from
OpenMM's Reference platform in double precision, and a numerical check of OpenMM's
reaction-field convention on systems of one and two charges.

    python reference_energies.py [--prmtop P] [--inpcrd C] [--out reference_energies.json]

The system is built by OpenMM's own AMBER reader (app.AmberPrmtopFile / AmberInpcrdFile) with
nonbondedMethod=CutoffPeriodic, nonbondedCutoff=1.0 nm, constraints=None, rigidWater=False,
removeCMMotion=False; the NonbondedForce then has no dispersion correction and no switching. The
energies are printed and written in kcal/mol (kJ/mol / 4.184) to 12 significant digits, for the
default reaction-field dielectric (78.3) and for epsilon_rf set explicitly to 1 and to 80.

Terms:
- bonds, angles: HarmonicBondForce, HarmonicAngleForce.
- proper dihedrals, impropers: OpenMM puts both in one PeriodicTorsionForce, in the order of
  DIHEDRALS_INC_HYDROGEN then DIHEDRALS_WITHOUT_HYDROGEN; the impropers (negative fourth index in
  the prmtop) are moved to a force of their own.
- lj_pair, coulomb_pair: the NonbondedForce with every exception turned into a plain exclusion,
  once with all charges zero (LJ) and once with all epsilons zero (Coulomb, reaction field).
- lj_14, coulomb_14: the 1-4 exceptions (OpenMM's chargeProd = q_i q_j / SCEE, epsilon =
  epsilon_ij / SCNB), each as the difference of the NonbondedForce with and without that part of
  the exceptions; checked against a direct sum over the exceptions.
- total: the whole System.
"""

import argparse
import json
import math
import pathlib
import sys

import numpy as np
import openmm
import parmed
from openmm import app, unit

HERE = pathlib.Path(__file__).resolve().parent
EXAMPLE = HERE.parents[2] / "examples" / "amber-dipeptide"
KJ_PER_KCAL = 4.184
CUTOFF_NM = 1.0
DIGITS = 12
REFERENCE = openmm.Platform.getPlatformByName("Reference")


def energy_kj(system, positions, groups=-1):
    context = openmm.Context(system, openmm.VerletIntegrator(1.0), REFERENCE)
    context.setPositions(positions)
    state = context.getState(getEnergy=True, groups=groups)
    return state.getPotentialEnergy().value_in_unit(unit.kilojoule_per_mole)


# ---------------------------------------------------------------------------------------------
# OpenMM's reaction-field convention, checked on one and two charges.

def one_4pi_eps0():
    """OpenMM's Coulomb constant in kJ/mol nm e^-2: two unit charges 1 nm apart, no cutoff."""
    return two_charge_energy(1.0, 1.0, 1.0, method=openmm.NonbondedForce.NoCutoff)


def two_charge_energy(q1, q2, r, method=openmm.NonbondedForce.CutoffPeriodic, epsilon_rf=None,
                      exception=None, box=3.0, cutoff=CUTOFF_NM):
    """Energy in kJ/mol of two charges r nm apart along x (q2 omitted: one charge alone)."""
    system = openmm.System()
    system.setDefaultPeriodicBoxVectors(openmm.Vec3(box, 0, 0), openmm.Vec3(0, box, 0),
                                        openmm.Vec3(0, 0, box))
    force = openmm.NonbondedForce()
    force.setNonbondedMethod(method)
    force.setCutoffDistance(cutoff)
    force.setUseDispersionCorrection(False)
    if epsilon_rf is not None:
        force.setReactionFieldDielectric(epsilon_rf)
    charges = [q1] if q2 is None else [q1, q2]
    for q in charges:
        system.addParticle(1.0)
        force.addParticle(q, 0.3, 0.0)
    if exception is not None:
        force.addException(0, 1, exception, 0.3, 0.0)
    system.addForce(force)
    positions = [openmm.Vec3(0, 0, 0), openmm.Vec3(r, 0, 0)][: len(charges)]
    return energy_kj(system, positions)


def check_close(what, got, expected, rel=1e-13):
    """Both are double-precision sums of a few terms: 1e-13 relative is many roundings wide."""
    if not math.isclose(got, expected, rel_tol=rel, abs_tol=1e-13):
        sys.exit(f"reaction-field check failed: {what}: OpenMM {got!r}, expected {expected!r}")


def check_reaction_field_convention():
    """Asserts OpenMM's reaction-field rules and returns them, with the numbers that show them."""
    k = one_4pi_eps0()
    findings = {"one_4pi_eps0_kj_mol_nm": k,
                "one_4pi_eps0_kcal_mol_angstrom": k * 10.0 / KJ_PER_KCAL,
                "kj_per_kcal": KJ_PER_KCAL}
    rc, r = CUTOFF_NM, 0.5
    for eps in (78.3, 1.0, 80.0):
        k_rf = (eps - 1.0) / (2.0 * eps + 1.0) / rc**3
        c_rf = 3.0 * eps / (2.0 * eps + 1.0) / rc
        pair = two_charge_energy(1.0, -1.0, r, epsilon_rf=eps)
        check_close(f"pair within the cutoff, eps_rf {eps}", pair,
                    -k * (1.0 / r + k_rf * r * r - c_rf))
        check_close(f"pair beyond the cutoff, eps_rf {eps}",
                    two_charge_energy(1.0, -1.0, 1.2, epsilon_rf=eps), 0.0)
        check_close(f"excluded pair, eps_rf {eps}",
                    two_charge_energy(1.0, -1.0, r, epsilon_rf=eps, exception=0.0), 0.0)
        check_close(f"one charge alone, eps_rf {eps}",
                    two_charge_energy(1.0, None, 0.0, epsilon_rf=eps), 0.0)
        check_close(f"exception, eps_rf {eps}",
                    two_charge_energy(1.0, -1.0, r, epsilon_rf=eps, exception=-0.5), -0.5 * k / r)
    default_eps = openmm.NonbondedForce().getReactionFieldDielectric()
    # An exception beyond the cutoff still counts, at its plain distance (no minimum image).
    far = two_charge_energy(1.0, -1.0, 0.5, exception=-0.5, box=1.0, cutoff=0.4)
    check_close("exception beyond the cutoff", far, -0.5 * k / 0.5)
    unwrapped = two_charge_energy(1.0, -1.0, 2.5, exception=-0.5, box=3.0)
    check_close("exception across the box", unwrapped, -0.5 * k / 2.5)
    findings.update({
        "default_epsilon_rf": default_eps,
        "pair_energy": "ONE_4PI_EPS0 q_i q_j (1/r + k_rf r^2 - c_rf) for r < r_c, 0 beyond; "
                       "k_rf = (eps_rf - 1) / ((2 eps_rf + 1) r_c^3), "
                       "c_rf = 3 eps_rf / ((2 eps_rf + 1) r_c)",
        "excluded_pairs": "contribute nothing (no reaction-field term for excluded pairs, no "
                          "self term for a charge alone)",
        "exceptions": "plain Coulomb ONE_4PI_EPS0 chargeProd / r without reaction field, "
                      "counted at any distance (no cutoff) and at the plain distance between "
                      "the two positions (no minimum image)",
        "lj": "4 eps ((sigma/r)^12 - (sigma/r)^6) for r < r_c, not shifted; exceptions the same "
              "form without cutoff",
        "checks": {"pair_r_0.5nm_eps_78.3_kj": two_charge_energy(1.0, -1.0, r, epsilon_rf=78.3),
                   "exception_chargeprod_-0.5_r_2.5nm_in_3nm_box_kj": unwrapped},
    })
    return findings


# ---------------------------------------------------------------------------------------------
# The example system, term by term.

def improper_flags(prmtop_path):
    """For each dihedral of the prmtop, in OpenMM's order (with H, then without), whether it is
    an improper (negative fourth index), and its atoms (0-based)."""
    data = parmed.amber.AmberFormat(str(prmtop_path)).parm_data
    raw = list(data["DIHEDRALS_INC_HYDROGEN"]) + list(data["DIHEDRALS_WITHOUT_HYDROGEN"])
    out = []
    for t in range(0, len(raw), 5):
        atoms = tuple(abs(int(x)) // 3 for x in raw[t:t + 4])
        out.append((int(raw[t + 3]) < 0, atoms))
    return out


def split_torsions(system, flags):
    """Replaces the PeriodicTorsionForce by a proper one (group 2) and an improper one (group 3)."""
    index = next(i for i, f in enumerate(system.getForces())
                 if isinstance(f, openmm.PeriodicTorsionForce))
    torsions = system.getForce(index)
    assert torsions.getNumTorsions() == len(flags), "torsion count differs from the prmtop"
    proper, improper = openmm.PeriodicTorsionForce(), openmm.PeriodicTorsionForce()
    for t, (is_improper, atoms) in enumerate(flags):
        i, j, k, l, n, phase, kd = torsions.getTorsionParameters(t)
        assert (i, j, k, l) == atoms, f"torsion {t} is not the prmtop's dihedral {t}"
        (improper if is_improper else proper).addTorsion(i, j, k, l, n, phase, kd)
    system.removeForce(index)
    proper.setForceGroup(2)
    improper.setForceGroup(3)
    system.addForce(proper)
    system.addForce(improper)
    return proper.getNumTorsions(), improper.getNumTorsions()


def nonbonded_of(system):
    return next(f for f in system.getForces() if isinstance(f, openmm.NonbondedForce))


def nonbonded_variant(system, charges, epsilons, exception_charge, exception_lj):
    """A System holding only a copy of `system`'s NonbondedForce with charges and/or epsilons
    zeroed (particles and exceptions separately)."""
    copy = openmm.XmlSerializer.deserialize(openmm.XmlSerializer.serialize(system))
    for i in reversed(range(copy.getNumForces())):
        if not isinstance(copy.getForce(i), openmm.NonbondedForce):
            copy.removeForce(i)
    force = nonbonded_of(copy)
    force.setForceGroup(0)
    for i in range(force.getNumParticles()):
        q, sigma, eps = force.getParticleParameters(i)
        force.setParticleParameters(i, q if charges else 0.0, sigma, eps if epsilons else 0.0)
    for e in range(force.getNumExceptions()):
        i, j, qq, sigma, eps = force.getExceptionParameters(e)
        force.setExceptionParameters(e, i, j, qq if exception_charge else 0.0, sigma,
                                     eps if exception_lj else 0.0)
    return copy


def direct_14_sums(system, positions_nm):
    """The 1-4 exceptions' Coulomb and LJ energies (kJ/mol) summed here, at plain distances."""
    force = nonbonded_of(system)
    k = one_4pi_eps0()
    coulomb = lj = 0.0
    count = 0
    for e in range(force.getNumExceptions()):
        i, j, qq, sigma, eps = force.getExceptionParameters(e)
        qq = qq.value_in_unit(unit.elementary_charge**2)
        eps = eps.value_in_unit(unit.kilojoule_per_mole)
        sigma = sigma.value_in_unit(unit.nanometer)
        if qq == 0.0 and eps == 0.0:
            continue
        count += 1
        r = float(np.linalg.norm(positions_nm[i] - positions_nm[j]))
        coulomb += k * qq / r
        lj += 4.0 * eps * ((sigma / r) ** 12 - (sigma / r) ** 6)
    return coulomb, lj, count


def term_energies(prmtop, inpcrd, flags, epsilon_rf):
    system = prmtop.createSystem(nonbondedMethod=app.CutoffPeriodic,
                                 nonbondedCutoff=CUTOFF_NM * unit.nanometer, constraints=None,
                                 rigidWater=False, removeCMMotion=False)
    nonbonded = nonbonded_of(system)
    nonbonded.setUseDispersionCorrection(False)
    nonbonded.setUseSwitchingFunction(False)
    if epsilon_rf is not None:
        nonbonded.setReactionFieldDielectric(epsilon_rf)
    for force in system.getForces():
        if isinstance(force, openmm.HarmonicBondForce):
            force.setForceGroup(0)
        elif isinstance(force, openmm.HarmonicAngleForce):
            force.setForceGroup(1)
        elif isinstance(force, openmm.NonbondedForce):
            force.setForceGroup(4)
        elif not isinstance(force, openmm.PeriodicTorsionForce):
            sys.exit(f"unexpected force {force.__class__.__name__} in the System")
    n_proper, n_improper = split_torsions(system, flags)
    positions = inpcrd.getPositions()
    system.setDefaultPeriodicBoxVectors(*inpcrd.getBoxVectors())

    kj = {"bonds": energy_kj(system, positions, {0}),
          "angles": energy_kj(system, positions, {1}),
          "proper_dihedrals": energy_kj(system, positions, {2}),
          "impropers": energy_kj(system, positions, {3})}
    nb_total = energy_kj(system, positions, {4})
    lj_pair = energy_kj(nonbonded_variant(system, False, True, False, False), positions)
    coulomb_pair = energy_kj(nonbonded_variant(system, True, False, False, False), positions)
    lj_with_14 = energy_kj(nonbonded_variant(system, False, True, False, True), positions)
    coulomb_with_14 = energy_kj(nonbonded_variant(system, True, False, True, False), positions)
    kj.update({"lj_pair": lj_pair, "coulomb_pair": coulomb_pair,
               "lj_14": lj_with_14 - lj_pair, "coulomb_14": coulomb_with_14 - coulomb_pair})
    kj["total"] = energy_kj(system, positions)

    # The parts add up to the whole; the 1-4 differences agree with a direct sum. A sum of ~3e6
    # pair terms of magnitude up to ~1e2 kJ/mol rounds to ~1e-9 relative: 1e-8 leaves margin.
    parts = sum(v for key, v in kj.items() if key != "total")
    if not math.isclose(parts, kj["total"], rel_tol=1e-8):
        sys.exit(f"terms add to {parts!r}, total {kj['total']!r}")
    if not math.isclose(kj["lj_pair"] + kj["coulomb_pair"] + kj["lj_14"] + kj["coulomb_14"],
                        nb_total, rel_tol=1e-8):
        sys.exit("nonbonded parts do not add up to the NonbondedForce")
    xyz = np.array(positions.value_in_unit(unit.nanometer))
    coulomb_14, lj_14, n_14 = direct_14_sums(system, xyz)
    for name, direct in (("coulomb_14", coulomb_14), ("lj_14", lj_14)):
        if not math.isclose(direct, kj[name], rel_tol=1e-9, abs_tol=1e-9):
            sys.exit(f"{name}: direct sum {direct!r}, OpenMM {kj[name]!r}")

    return {"epsilon_rf": nonbonded.getReactionFieldDielectric(),
            "epsilon_rf_explicit": epsilon_rf is not None,
            "energies_kcal_mol": {key: float(f"{v / KJ_PER_KCAL:.{DIGITS}g}")
                                  for key, v in kj.items()},
            "counts": {"proper_dihedrals": n_proper, "impropers": n_improper,
                       "exceptions_14": n_14,
                       "exceptions_all": nonbonded.getNumExceptions()}}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--prmtop", default=EXAMPLE / "dipeptide.prmtop", type=pathlib.Path)
    parser.add_argument("--inpcrd", default=EXAMPLE / "dipeptide.inpcrd", type=pathlib.Path)
    parser.add_argument("--out", default=HERE / "reference_energies.json", type=pathlib.Path)
    args = parser.parse_args()

    conventions = check_reaction_field_convention()
    prmtop = app.AmberPrmtopFile(str(args.prmtop))
    inpcrd = app.AmberInpcrdFile(str(args.inpcrd))
    flags = improper_flags(args.prmtop)
    runs = [term_energies(prmtop, inpcrd, flags, eps) for eps in (None, 1.0, 80.0)]

    result = {"openmm_version": openmm.__version__, "parmed_version": parmed.__version__,
              "platform": "Reference (double)",
              "prmtop": args.prmtop.name, "inpcrd": args.inpcrd.name,
              "atoms": prmtop.topology.getNumAtoms(),
              "box_angstrom": [v[d].value_in_unit(unit.angstrom)
                               for d, v in enumerate(inpcrd.getBoxVectors())],
              "cutoff_angstrom": CUTOFF_NM * 10.0, "units": "kcal/mol",
              "reaction_field_convention": conventions, "runs": runs}
    args.out.write_text(json.dumps(result, indent=2) + "\n")

    k = conventions
    print(f"OpenMM {openmm.__version__}: ONE_4PI_EPS0 = {k['one_4pi_eps0_kj_mol_nm']!r} kJ/mol nm"
          f" = {k['one_4pi_eps0_kcal_mol_angstrom']:.{DIGITS}g} kcal/mol A; default epsilon_rf "
          f"{k['default_epsilon_rf']}")
    for run in runs:
        print(f"epsilon_rf = {run['epsilon_rf']}"
              f"{' (set)' if run['epsilon_rf_explicit'] else ' (default)'}:")
        for name, value in run["energies_kcal_mol"].items():
            print(f"  {name:18s} {value:.{DIGITS}g}")
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
