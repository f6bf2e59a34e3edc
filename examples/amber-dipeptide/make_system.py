"""Builds the AMBER example system: alanine dipeptide (ACE-ALA-NME) in a cubic box of TIP3P water,
with the amber14 force field (ff14SB protein, TIP3P water) of OpenMM, written as an AMBER
prmtop/inpcrd pair by ParmEd.

    python make_system.py            # writes dipeptide.prmtop and dipeptide.inpcrd here

The heavy atoms of the peptide are placed from internal coordinates (standard bond lengths and
angles, phi = -80, psi = 150, trans peptide bonds); OpenMM's Modeller adds the hydrogens (from a fixed random seed, on the
Reference platform, so that a rerun writes the same files) and the water. Water is kept flexible (rigidWater=False) and no bond is constrained, so that every bond
and angle has its parameters in the prmtop. The atoms get their force-field type names
(protein-CT -> CT, tip3p-O -> OW, ...) as AMBER_ATOM_TYPE.
"""

import math
import pathlib
import random

import numpy as np
import openmm
import parmed
from openmm import app, unit

HERE = pathlib.Path(__file__).resolve().parent
BOX_EDGE_NM = 3.0
PHI, PSI, OMEGA = -80.0, 150.0, 180.0  # backbone dihedrals of the dipeptide, degrees
WATER_TYPE_NAMES = {"tip3p-O": "OW", "tip3p-H": "HW"}


def place(a, b, c, length, angle_deg, dihedral_deg):
    """The position of d bonded to c with |cd| = length, angle b-c-d and dihedral a-b-c-d."""
    angle, dihedral = math.radians(angle_deg), math.radians(dihedral_deg)
    bc = (c - b) / np.linalg.norm(c - b)
    n = np.cross(b - a, bc)
    n /= np.linalg.norm(n)
    m = np.cross(n, bc)
    local = np.array([-length * math.cos(angle),
                      length * math.sin(angle) * math.cos(dihedral),
                      length * math.sin(angle) * math.sin(dihedral)])
    return c + local[0] * bc + local[1] * m + local[2] * n


def dipeptide_heavy_atoms():
    """(residue, atom name, element symbol, position in Angstrom) of ACE-ALA-NME's heavy atoms."""
    ace_ch3 = np.array([0.0, 0.0, 0.0])
    ace_c = np.array([1.52, 0.0, 0.0])
    ala_n = place(np.array([0.0, 1.0, 0.0]), ace_ch3, ace_c, 1.33, 116.0, 180.0)
    ace_o = place(ala_n, ace_ch3, ace_c, 1.23, 121.0, 180.0)
    ala_ca = place(ace_ch3, ace_c, ala_n, 1.46, 122.0, OMEGA)
    ala_c = place(ace_c, ala_n, ala_ca, 1.52, 111.0, PHI)
    nme_n = place(ala_n, ala_ca, ala_c, 1.33, 116.0, PSI)
    ala_o = place(nme_n, ala_ca, ala_c, 1.23, 121.0, 180.0)
    ala_cb = place(ala_n, ala_c, ala_ca, 1.53, 110.0, 122.7)  # L-alanine
    nme_c = place(ala_ca, ala_c, nme_n, 1.45, 122.0, OMEGA)
    return [("ACE", "CH3", "C", ace_ch3), ("ACE", "C", "C", ace_c), ("ACE", "O", "O", ace_o),
            ("ALA", "N", "N", ala_n), ("ALA", "CA", "C", ala_ca), ("ALA", "C", "C", ala_c),
            ("ALA", "O", "O", ala_o), ("ALA", "CB", "C", ala_cb),
            ("NME", "N", "N", nme_n), ("NME", "C", "C", nme_c)]


def dipeptide_topology():
    topology = app.Topology()
    chain = topology.addChain()
    residues, positions, atoms = {}, [], {}
    for res_name, atom_name, symbol, xyz in dipeptide_heavy_atoms():
        if res_name not in residues:
            residues[res_name] = topology.addResidue(res_name, chain)
        atoms[(res_name, atom_name)] = topology.addAtom(
            atom_name, app.Element.getBySymbol(symbol), residues[res_name])
        positions.append(openmm.Vec3(*xyz) * 0.1)
    for a, b in [(("ACE", "CH3"), ("ACE", "C")), (("ACE", "C"), ("ACE", "O")),
                 (("ACE", "C"), ("ALA", "N")), (("ALA", "N"), ("ALA", "CA")),
                 (("ALA", "CA"), ("ALA", "C")), (("ALA", "C"), ("ALA", "O")),
                 (("ALA", "CA"), ("ALA", "CB")), (("ALA", "C"), ("NME", "N")),
                 (("NME", "N"), ("NME", "C"))]:
        topology.addBond(atoms[a], atoms[b])
    return topology, positions * unit.nanometer


def short_type_name(ff_type):
    """The AMBER name of an OpenMM amber14 type: protein-CT -> CT, tip3p-O -> OW."""
    if ff_type in WATER_TYPE_NAMES:
        return WATER_TYPE_NAMES[ff_type]
    return ff_type.split("-", 1)[1]


def template_types(residue, template):
    """The force-field type of each atom of `residue` from its matching `template`: heavy atoms by
    name (Modeller's NME carbon "C" is the template's "CH3"), a hydrogen by the type of the
    template's hydrogens on the same parent (Modeller and the templates name hydrogens apart)."""
    by_name = {a.name: a for a in template.atoms}
    heavy_alias = {("NME", "C"): "CH3"}
    parent = {}
    for bond in residue.bonds():
        for h, other in ((bond.atom1, bond.atom2), (bond.atom2, bond.atom1)):
            if h.element.symbol == "H":
                parent[h] = other
    types = []
    for atom in residue.atoms():
        if atom.element.symbol != "H":
            types.append(by_name[heavy_alias.get((residue.name, atom.name), atom.name)].type)
            continue
        parent_name = parent[atom].name
        parent_name = heavy_alias.get((residue.name, parent_name), parent_name)
        parent_index = template.atoms.index(by_name[parent_name])
        h_types = {a.type for a in template.atoms
                   if a.element.symbol == "H" and parent_index in a.bondedTo}
        assert len(h_types) == 1, (residue.name, atom.name, h_types)
        types.append(h_types.pop())
    return types


def main():
    forcefield = app.ForceField("amber14-all.xml", "amber14/tip3p.xml")
    topology, positions = dipeptide_topology()
    modeller = app.Modeller(topology, positions)
    # Modeller starts new hydrogens from random offsets and minimizes them: a fixed seed and the
    # Reference platform make the output the same on every run.
    random.seed(20260101)
    modeller.addHydrogens(forcefield, platform=openmm.Platform.getPlatformByName("Reference"))
    # Centre the peptide in the box before the water fills it.
    xyz = modeller.positions.value_in_unit(unit.nanometer)
    centre = np.mean(np.array([[p.x, p.y, p.z] for p in xyz]), axis=0)
    shift = 0.5 * BOX_EDGE_NM - centre
    modeller.positions = [openmm.Vec3(p.x + shift[0], p.y + shift[1], p.z + shift[2])
                          for p in xyz] * unit.nanometer
    modeller.addSolvent(forcefield, model="tip3p",
                        boxSize=openmm.Vec3(BOX_EDGE_NM, BOX_EDGE_NM, BOX_EDGE_NM) * unit.nanometer)

    system = forcefield.createSystem(modeller.topology, nonbondedMethod=app.CutoffPeriodic,
                                     nonbondedCutoff=1.0 * unit.nanometer, constraints=None,
                                     rigidWater=False, removeCMMotion=False)
    # The atom ids name ParmEd's atom types (see parmed.openmm.load_topology).
    templates, _ = forcefield.generateTemplatesForUnmatchedResidues(modeller.topology)
    assert not templates, "every residue should match an amber14 template"
    for residue, template in zip(modeller.topology.residues(),
                                 forcefield.getMatchingTemplates(modeller.topology)):
        for atom, ff_type in zip(residue.atoms(), template_types(residue, template)):
            atom.id = short_type_name(ff_type)

    structure = parmed.openmm.load_topology(modeller.topology, system,
                                            xyz=modeller.positions)
    structure.save(str(HERE / "dipeptide.prmtop"), format="amber", overwrite=True)
    structure.save(str(HERE / "dipeptide.inpcrd"), format="rst7", overwrite=True)
    print(f"{len(structure.atoms)} atoms, {len(structure.residues)} residues, "
          f"box {structure.box[:3]} A")


if __name__ == "__main__":
    main()
