#pragma once
/// @file topology_output.hpp
/// What the topology writers (io/psf_writer.hpp, io/lammps_data_writer.hpp) take besides the
/// state: the species, the bonded terms, per-atom names where a force field gives them, and the
/// coefficients as the topology file stated them. A run builds it once, at its start.
///
/// Conventions shared by both writers:
/// - Particles are written in id order, whatever their storage order; ids must be 0..N-1 and
///   N must be the topology's particle count.
/// - Files are 1-based (atom numbers, types, molecules as written): id k is atom k + 1, type t
///   is type t + 1.
/// - A particle's charge is its `charge` field where the particles have one, else its species'
///   charge; its mass the `mass` field where present, else its species' mass.
/// - A particle's molecule is its `molecule` field where present, written as it is (the file's
///   own numbering, as io::TopologyFile keeps it); else the connected component of the bond
///   graph that holds it (core::Topology::molecules), numbered from 1.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "novamd/core/particles.hpp"
#include "novamd/core/species.hpp"
#include "novamd/core/topology.hpp"
#include "novamd/io/topology_file.hpp"

namespace novamd::io {

/// The force field's coefficients as a LAMMPS data file writes them (Pair Coeffs and the
/// Bond/Angle/Dihedral/Improper Coeffs sections), each kind absent when not known.
struct ForceFieldCoefficients {
  std::string pair_style;  ///< the hint after "Pair Coeffs #" (empty: none)
  /// One per type, or empty: no Pair Coeffs section. All types or none must have coefficients.
  std::vector<std::optional<LennardJonesCoefficients>> lj_by_type;
  std::optional<StyleCoefficients> bond, angle, dihedral, improper;
};

/// Everything about a molecular system that does not change during a run and that the topology
/// writers need.
struct TopologyOutput {
  core::SpeciesTable species;  ///< by type: names (PSF atom types, LAMMPS Masses comments), masses
  core::Topology topology;     ///< bonded terms by particle id (0-based ids and types)
  std::vector<std::string> atom_name;     ///< per particle id, or empty: the species names
  std::vector<std::string> residue_name;  ///< per particle id, or empty: "MOL" for every atom
  ForceFieldCoefficients coefficients;    ///< written to LAMMPS data files only
};

/// Residue name of every atom when the topology names none.
inline constexpr const char* kDefaultResidueName = "MOL";

/// The topology output of a system read from `file`: its types as species (name and mass), its
/// bonded terms, atom and residue names and coefficients.
TopologyOutput topology_output_of(const TopologyFile& file);

/// The particles in id order, with the per-atom values both writers need.
struct OrderedAtoms {
  std::vector<std::size_t> order;      ///< storage index of id 0, 1, ...
  std::vector<std::int32_t> molecule;  ///< by id (see the file comment)
  std::vector<double> charge;          ///< by id
  std::vector<double> mass;            ///< by id
};

/// The atoms of `particles` for a file `file` of `topology`.
/// @throws core::InputError "<file>: ..." when the particle count differs from the topology's,
///   the ids are not 0..N-1, a type has no species, or a per-atom name list is neither empty
///   nor N long.
OrderedAtoms ordered_atoms(const TopologyOutput& topology, const core::ParticleData& particles,
                           const std::filesystem::path& file);

/// Writes `text` to `file` through a temporary beside it, renamed over it (io::
/// write_file_atomically). @throws core::RunError naming the file when writing fails.
void write_text_atomically(const std::filesystem::path& file, const std::string& text);

}  // namespace novamd::io
