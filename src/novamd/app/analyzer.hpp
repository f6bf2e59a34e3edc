#pragma once
/// @file analyzer.hpp
/// The structure and transport analyses of a run (`analysis` in the config): when each one
/// samples, where its results go, and the summary at the end. The particle side runs where the
/// particles live (sampler.hpp); this class keeps the averages on the host and writes the CSV
/// files: g(r) and S(q) rewritten whole (io::write_file_atomically) with the averages so far,
/// the MSD one row per sample.

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "novamd/analysis/analysis_settings.hpp"
#include "novamd/analysis/mean_squared_displacement.hpp"
#include "novamd/analysis/radial_distribution.hpp"
#include "novamd/analysis/sampler.hpp"
#include "novamd/analysis/structure_factor.hpp"
#include "novamd/backend/backend.hpp"
#include "novamd/core/species.hpp"
#include "novamd/core/time_axis.hpp"

namespace novamd::app {

using analysis::AnalysisSettings;
using analysis::MeanSquaredDisplacement;
using analysis::MsdSettings;
using analysis::RadialDistribution;
using analysis::RdfSettings;
using analysis::Sampler;
using analysis::SamplerSetup;
using analysis::StructureFactor;
using analysis::StructureFactorSettings;

/// What the analyses need to know of the system; fixed for the run.
struct AnalysisSystem {
  core::Box box;
  core::SpeciesTable species;
  std::vector<std::int64_t> species_counts;  ///< N_a per species type
  core::TimeAxis time;  ///< the time of each step (set_time_axis follows a change of timestep)
  std::string length_unit, time_unit;  ///< for messages; empty in reduced units
  std::string config_file;             ///< named in the messages about bad settings
  /// False on MPI ranks other than 0: they sample alike (the gather is collective) but write
  /// no file.
  bool writes_files = true;
};

class Analyzer {
 public:
  /// Resolves the defaults that depend on the box (r_max, q_max, bins of S(q)) and checks them.
  /// Creates no file.
  /// @throws core::InputError naming the key (`analysis.rdf.r_max`, ...) and what is expected.
  Analyzer(const AnalysisSettings& settings, AnalysisSystem system);
  ~Analyzer();
  Analyzer(const Analyzer&) = delete;
  Analyzer& operator=(const Analyzer&) = delete;

  bool active() const { return rdf_ || sq_ || msd_; }
  /// The time of each step from now on (a stage or restart with another timestep).
  void set_time_axis(const core::TimeAxis& axis) { system_.time = axis; }

  /// After step `step` (and at the first step of the run): follows the displacements and takes
  /// the samples due, writing the files due.
  void after_step(std::int64_t step, backend::Backend& backend);

  /// Writes the averages not yet written; returns the lines for the run's summary (samples,
  /// files, the diffusion coefficients from the MSD fit).
  std::vector<std::string> finish();
  /// Writes the averages not yet written and flushes the MSD file, which stays open: sampling
  /// goes on after (a library user's runs in turn).
  void flush();

  /// One line per analysis for the run's header.
  std::vector<std::string> describe() const;

 private:
  /// An average rewritten whole to its file: g(r) or S(q).
  template <class Settings, class Table>
  struct Averaged {
    Settings settings;
    Table table;
    std::int64_t written = 0;  ///< samples in the file
    bool writes_files = true;

    /// Adds a sample taken at `step`; rewrites the file when due.
    template <class Sample>
    void add(std::int64_t step, const Sample& sample);
    /// Writes the samples not yet written.
    void flush();
    /// "g(r) averaged over 11 samples: rdf.csv", or why there was none.
    std::string summary(const std::string& name, const std::string& key) const;
  };
  using Rdf = Averaged<RdfSettings, RadialDistribution>;
  using Sq = Averaged<StructureFactorSettings, StructureFactor>;
  struct Msd {
    MsdSettings settings;
    MeanSquaredDisplacement table;
    std::optional<std::int64_t> origin{};  ///< the step of the time origin, once sampled
    double origin_time = 0.0;  ///< its time (a later stage's timestep does not reach back)
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file{nullptr, &std::fclose};
    std::int64_t rows = 0;
  };

  SamplerSetup sampler_setup() const;
  void sample_msd(std::int64_t step, const backend::ParticleArrays& particles);
  static void open_msd_file(Msd& msd);
  std::string diffusion_summary() const;

  AnalysisSystem system_;
  std::optional<Rdf> rdf_;
  std::optional<Sq> sq_;
  std::optional<Msd> msd_;
  std::unique_ptr<Sampler> sampler_;  ///< made at the first sample, where the particles live
  std::vector<std::uint64_t> counts_;
  std::vector<double> sums_;
};

}  // namespace novamd::app
