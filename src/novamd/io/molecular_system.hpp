#pragma once
/// @file molecular_system.hpp
/// A molecular system from its topology file (`system.topology`): the particles, the box, the
/// topology the backends evaluate (bonded terms, exclusions, scaled 1-4 pairs) and the bonded
/// force terms with their coefficients.
///
/// Scaled pairs (DESIGN principle 10: excluded from the pair lists, computed apart, as plain
/// Lennard-Jones and Coulomb without cutoff):
/// - a CHARMM dihedral (style charmm or charmmfsw) of weight w > 0 adds the pair of its end
///   atoms with the 1-4 Lennard-Jones parameters (epsilon14, sigma14) and Coulomb, both times w,
///   once per dihedral, as LAMMPS's dihedral_style charmm does;
/// - `special_bonds` factors w_lj, w_coulomb > 0 at separation s (1-2, 1-3, 1-4 in the bond
///   graph) add each such pair with the ordinary parameters times w (LAMMPS special_bonds);
/// - an AMBER file's 1-4 pairs carry their own factors (1/SCNB, 1/SCEE).
/// The Lennard-Jones part exists where the run has a lennard_jones term, the Coulomb part where
/// it has a coulomb term (whose dielectric applies).

#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/core/topology.hpp"
#include "novamd/forces/bonded_settings.hpp"
#include "novamd/io/config.hpp"

namespace novamd::io {

struct MolecularSystem {
  core::Topology topology;  ///< the file's terms, exclusions and scaled pairs
  std::vector<forces::BondedSettings> bonded;
};

/// The bonded terms and scaled pairs of `config`'s topology file (`system.topology`, which must
/// be set), with the coefficients of the file. @throws core::InputError naming the file.
MolecularSystem molecular_system(const Config& config);

/// The box of a topology file, with its low corner at the origin. @throws core::InputError when
/// the file has none.
core::Box box_of(const TopologyFile& file, const std::filesystem::path& source);

/// The particles of a topology file in file order (id k = atom k): positions shifted by the
/// box's low corner and wrapped into it, with the file's image flags adjusted so that the
/// unwrapped positions stay; velocities (zero where the file has none), charges, molecules.
core::ParticleData particles_of(const TopologyFile& file, const core::Box& box);

}  // namespace novamd::io
