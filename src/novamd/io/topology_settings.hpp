#pragma once
/// @file topology_settings.hpp
/// `system.topology` as the config states it (io/config_topology.hpp parses it).

#include <array>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "novamd/io/topology_file.hpp"

namespace novamd::io {

/// 1-2, 1-3 and 1-4 scale factors of the pairs the bond graph joins (LAMMPS special_bonds).
struct SpecialBonds {
  std::array<double, 3> lj{0.0, 0.0, 0.0};
  std::array<double, 3> coulomb{0.0, 0.0, 0.0};
};

/// `system.topology: {read, format, coordinates, styles, special_bonds}`
struct TopologySettings {
  std::filesystem::path read;                        ///< resolved against the config's folder
  std::string format;                                ///< lammps_data | amber
  std::optional<std::filesystem::path> coordinates;  ///< amber: inpcrd/rst7, resolved
  /// lammps_data: the style of each Coeffs section and of the atoms, by kind (`atom`, `pair`,
  /// `bond`, `angle`, `dihedral`, `improper`), as given.
  std::map<std::string, std::string, std::less<>> styles;
  /// Given in the config (lammps_data only); else LAMMPS's default, all zero.
  std::optional<SpecialBonds> special_bonds;
  /// `hydrogen_mass`: the hydrogens' mass after repartitioning (io/hydrogen_mass.hpp); none: the
  /// file's masses.
  std::optional<double> hydrogen_mass;
  /// The file's contents, read once while the config is checked.
  std::shared_ptr<const TopologyFile> file;
};

}  // namespace novamd::io
