#pragma once
/// @file config_analysis.hpp
/// The `analysis` section of the config: g(r), S(q) and MSD, validated key by key.

#include <array>
#include <optional>

#include "novamd/analysis/analysis_settings.hpp"
#include "novamd/core/species.hpp"
#include "novamd/io/yaml_reader.hpp"

namespace novamd::io {

/// `analysis: {rdf, structure_factor, msd}`. `species` names the keys of
/// `structure_factor.weights`; `box`, where the config gives it, bounds `rdf.r_max` (otherwise
/// it is checked once the box is known, still before the first step).
analysis::AnalysisSettings parse_analysis(const YamlReader& node, const core::SpeciesTable& species,
                                          const std::optional<std::array<double, 3>>& box);

}  // namespace novamd::io
