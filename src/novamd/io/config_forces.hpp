#pragma once
/// @file config_forces.hpp
/// The `forces` list of the config: one entry per force term, each validated key by key.

#include <string>
#include <utility>
#include <vector>

#include "novamd/core/species.hpp"
#include "novamd/forces/force_settings.hpp"
#include "novamd/io/topology_file.hpp"
#include "novamd/io/yaml_reader.hpp"
#include "novamd/neighbors/neighbor_settings.hpp"

namespace novamd::io {

/// Reads `forces`; species names in force terms must be declared in `species`. With a
/// `topology` file, `lennard_jones` takes its pairs and mixing rule from the file.
std::vector<forces::ForceSettings> parse_forces(const YamlReader& node,
                                                const core::SpeciesTable& species,
                                                const TopologyFile* topology = nullptr);

/// `types: [A, B]`: the names of two species declared in `species`.
/// @throws core::InputError naming the key where there are not two or one is not declared.
std::pair<std::string, std::string> parse_pair_types(const YamlReader& node,
                                                     const core::SpeciesTable& species);

/// Reads `neighbors: {method, skin, check_every, reorder_every, layout}`.
neighbors::NeighborSettings parse_neighbors(const YamlReader& node);

/// Into `settings` (its method set): `tolerance` and `alpha` (methods ewald and pme), `kmax` and
/// `kmax_squared` (ewald), `order` and `grid` (pme); each refused under another method.
/// @throws core::InputError naming the file, line and key of the first problem.
void parse_ewald_parameters(const YamlReader& node, forces::CoulombSettings& settings);

}  // namespace novamd::io
