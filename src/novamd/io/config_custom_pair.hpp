#pragma once
/// @file config_custom_pair.hpp
/// Reading `forces: - custom_pair: {energy, parameters, pairs, cutoff, shift}`.

#include "novamd/core/species.hpp"
#include "novamd/forces/custom_pair_settings.hpp"
#include "novamd/io/yaml_reader.hpp"

namespace novamd::io {

/// The term's formula (read once: a fault names the character), its parameters' defaults and
/// each listed species pair's own values.
/// @throws core::InputError naming the file, line and key of the first problem.
forces::CustomPairSettings parse_custom_pair(const YamlReader& node,
                                             const core::SpeciesTable& species);

}  // namespace novamd::io
