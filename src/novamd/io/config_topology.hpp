#pragma once
/// @file config_topology.hpp
/// `system.topology`: a molecular system from a topology file (LAMMPS data, AMBER prmtop with
/// its coordinates). The file is read while the config is checked, since its atom types are the
/// species the force terms name.

#include <filesystem>
#include <vector>

#include "novamd/core/species.hpp"
#include "novamd/forces/force_settings.hpp"
#include "novamd/io/topology_file.hpp"
#include "novamd/io/topology_settings.hpp"
#include "novamd/io/yaml_reader.hpp"

namespace novamd::io {

/// Parses `system.topology` and reads the file(s); relative paths are taken from `folder` (the
/// config file's). Errors name the key, or the file and line.
TopologySettings parse_topology(const YamlReader& node, const std::filesystem::path& folder);

/// The species of a topology file: one per atom type, with its name and mass; charges are per
/// atom (the particles' charge field), so each species' charge is 0.
core::SpeciesTable species_of(const TopologyFile& file);

/// The Lennard-Jones parameters of a topology file as `lennard_jones.pairs`: each type's like
/// pair and the file's explicit pairs (empty when the file has none).
std::vector<forces::LennardJonesPair> lennard_jones_pairs(const TopologyFile& file);

/// How the file's unlike pairs mix: its own rule, else its pair style's (LAMMPS: geometric for
/// lj/cut, arithmetic for lj/charmm), else arithmetic.
forces::Mixing mixing_of(const TopologyFile& file);

}  // namespace novamd::io
