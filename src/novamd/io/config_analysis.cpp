#include "novamd/io/config_analysis.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "novamd/io/config_species.hpp"

namespace novamd::io {
namespace {

/// Bins of a histogram: enough for any resolution, few enough to stay a small file.
constexpr double kMaxBins = 1e6;

const NameList kAnalysisKeys{"rdf", "structure_factor", "msd"};
const NameList kRdfKeys{"every", "start", "write_every", "file", "bins", "r_max"};
const NameList kStructureFactorKeys{"every", "start", "write_every", "file",
                                    "q_max", "bins",  "weights"};
const NameList kMsdKeys{"every", "start", "file"};

/// `every` (>= 1) and `start` (>= 0) of an analysis.
analysis::SampleSchedule parse_schedule(const YamlReader& node, analysis::SampleSchedule fallback) {
  return {node.integer_or("every", fallback.every, ValueRange::at_least(1)),
          node.integer_or("start", fallback.start, ValueRange::non_negative())};
}

/// The map of an analysis; an empty value (`msd:`) takes every default.
std::optional<YamlReader> settings_map(const YamlReader& node, const NameList& keys) {
  if (node.is_null()) return std::nullopt;
  node.check_keys(keys);
  return node;
}

analysis::RdfSettings parse_rdf(const YamlReader& value,
                                const std::optional<std::array<double, 3>>& box) {
  analysis::RdfSettings settings;
  const auto node = settings_map(value, kRdfKeys);
  if (!node) return settings;
  settings.schedule = parse_schedule(*node, settings.schedule);
  settings.write_every = node->integer_or("write_every", 0, ValueRange::at_least(1));
  settings.file = node->string_or("file", settings.file.string());
  settings.bins = node->integer_or("bins", settings.bins, ValueRange::between(1, kMaxBins));
  if (const auto r_max = node->optional("r_max")) {
    settings.r_max = r_max->number(ValueRange::positive());
    if (box) {
      const double half_edge = 0.5 * std::min({(*box)[0], (*box)[1], (*box)[2]});
      if (*settings.r_max > half_edge)
        r_max->fail(
            fmt::format("{} is more than half the shortest box edge ({})", *settings.r_max,
                        half_edge),
            fmt::format("a number <= {} (pairs are taken at their nearest image)", half_edge));
    }
  }
  return settings;
}

/// `weights: {C: 6, O: 8}`: one number per species, by type; species left out weigh 0.
std::vector<double> parse_weights(const YamlReader& node, const core::SpeciesTable& species) {
  std::vector<double> weights(species.size(), 0.0);
  for (const auto& [type, value] : species_entries(node, species)) weights[type] = value.number();
  if (std::all_of(weights.begin(), weights.end(), [](double w) { return w == 0.0; }))
    node.fail("every weight is 0", "a nonzero weight for at least one species");
  return weights;
}

analysis::StructureFactorSettings parse_structure_factor(const YamlReader& value,
                                                         const core::SpeciesTable& species) {
  analysis::StructureFactorSettings settings;
  const auto node = settings_map(value, kStructureFactorKeys);
  if (!node) return settings;
  settings.schedule = parse_schedule(*node, settings.schedule);
  settings.write_every = node->integer_or("write_every", 0, ValueRange::at_least(1));
  settings.file = node->string_or("file", settings.file.string());
  if (const auto q_max = node->optional("q_max"))
    settings.q_max = q_max->number(ValueRange::positive());
  if (const auto bins = node->optional("bins"))
    settings.bins = bins->integer(ValueRange::between(1, kMaxBins));
  if (const auto weights = node->optional("weights"))
    settings.weights = parse_weights(*weights, species);
  return settings;
}

analysis::MsdSettings parse_msd(const YamlReader& value) {
  analysis::MsdSettings settings;
  const auto node = settings_map(value, kMsdKeys);
  if (!node) return settings;
  settings.schedule = parse_schedule(*node, settings.schedule);
  settings.file = node->string_or("file", settings.file.string());
  return settings;
}

}  // namespace

analysis::AnalysisSettings parse_analysis(const YamlReader& node, const core::SpeciesTable& species,
                                          const std::optional<std::array<double, 3>>& box) {
  analysis::AnalysisSettings settings;
  if (node.is_null()) return settings;
  node.check_keys(kAnalysisKeys);
  if (const auto rdf = node.optional("rdf")) settings.rdf = parse_rdf(*rdf, box);
  if (const auto sq = node.optional("structure_factor"))
    settings.structure_factor = parse_structure_factor(*sq, species);
  if (const auto msd = node.optional("msd")) settings.msd = parse_msd(*msd);
  return settings;
}

}  // namespace novamd::io
