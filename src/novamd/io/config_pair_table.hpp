#pragma once
/// @file config_pair_table.hpp
/// The `pair_table` force term of the config: LAMMPS pair table files per species pair.

#include "novamd/core/species.hpp"
#include "novamd/forces/force_settings.hpp"
#include "novamd/io/yaml_reader.hpp"

namespace novamd::io {

/// Reads `pair_table: {file, interpolation, points, cutoff, pairs}`, each pair's table section
/// from its file (relative to the config's folder) and each pair's cutoff (its own, the term's,
/// or its table's last distance). Every species pair must be listed, once.
/// @throws core::InputError naming the config's line and key, and the table file's line where
/// the table is at fault.
forces::PairTableSettings parse_pair_table(const YamlReader& node,
                                           const core::SpeciesTable& species);

}  // namespace novamd::io
