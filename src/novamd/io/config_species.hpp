#pragma once
/// @file config_species.hpp
/// Config maps keyed by species name (`counts`, `fractions`, S(q) `weights`).

#include <utility>
#include <vector>

#include "novamd/core/species.hpp"
#include "novamd/io/yaml_reader.hpp"

namespace novamd::io {

/// The entries of a map keyed by species name, each checked to be declared in `species` (an
/// unknown name is reported with the nearest declared one) and named once, as (type id, value
/// reader). An empty map is an error.
std::vector<std::pair<int, YamlReader>> species_entries(const YamlReader& node,
                                                        const core::SpeciesTable& species);

}  // namespace novamd::io
