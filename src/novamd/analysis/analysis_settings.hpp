#pragma once
/// @file analysis_settings.hpp
/// The `analysis` section of the config (docs/config.md): which structure and transport
/// analyses a run does, how often, and into which CSV files. Values the box decides (r_max,
/// q_max, bins of S(q)) stay unset here and are resolved once the box is known.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

namespace novamd::analysis {

/// When an analysis samples: every `every` steps from step `start` on (steps that are multiples
/// of `every` and at least `start`).
struct SampleSchedule {
  std::int64_t every = 100;
  std::int64_t start = 0;

  bool due(std::int64_t step) const { return step >= start && every > 0 && step % every == 0; }
};

/// `analysis.rdf`: radial distribution functions per species pair and in total.
struct RdfSettings {
  SampleSchedule schedule{100, 0};
  std::int64_t write_every = 0;  ///< steps between rewrites of the file; 0: at every sample
  std::filesystem::path file = "rdf.csv";
  std::int64_t bins = 200;
  std::optional<double> r_max;  ///< default: half the shortest box edge
};

/// `analysis.structure_factor`: S(q) per species pair, in total and weighted (by charge).
struct StructureFactorSettings {
  SampleSchedule schedule{100, 0};
  std::int64_t write_every = 0;  ///< steps between rewrites of the file; 0: at every sample
  std::filesystem::path file = "sq.csv";
  std::optional<double> q_max;       ///< default: 4 pi n^(1/3)
  std::optional<std::int64_t> bins;  ///< default: bins 2 pi / L_max wide
  std::vector<double> weights;       ///< per species type; empty: the species charges
};

/// `analysis.msd`: mean-squared displacement per species and in total, and D = MSD / (6 t).
struct MsdSettings {
  SampleSchedule schedule{10, 0};
  std::filesystem::path file = "msd.csv";
};

struct AnalysisSettings {
  std::optional<RdfSettings> rdf;
  std::optional<StructureFactorSettings> structure_factor;
  std::optional<MsdSettings> msd;

  bool any() const { return rdf || structure_factor || msd; }
};

}  // namespace novamd::analysis
