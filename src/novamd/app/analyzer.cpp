#include "novamd/app/analyzer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <numbers>
#include <span>

#include "novamd/core/error.hpp"
#include "novamd/io/binary_io.hpp"

namespace novamd::app {
namespace {

/// Wave vectors one S(q) may hold: their density modes take 16 bytes per species each, on the
/// host and on the device (256 MiB per species at this limit).
constexpr double kMaxModes = 16777216.0;  // 2^24

std::vector<std::string> species_names(const core::SpeciesTable& species) {
  std::vector<std::string> names;
  for (const auto& s : species.all()) names.push_back(s.name);
  return names;
}

std::int64_t total_of(const std::vector<std::int64_t>& counts) {
  std::int64_t total = 0;
  for (auto c : counts) total += c;
  return total;
}

void write_text(const std::filesystem::path& file, const std::string& text) {
  io::write_file_atomically(
      file, std::span(reinterpret_cast<const unsigned char*>(text.data()), text.size()));
}

/// Whether a table is rewritten after a sample at `step`.
bool write_due(std::int64_t write_every, std::int64_t step) {
  return write_every == 0 || step % write_every == 0;
}

/// " fm" after a number, or nothing in reduced units.
std::string unit(const std::string& name) {
  return name.empty() ? "" : " " + name;
}

RadialDistribution make_rdf(RdfSettings& settings, const AnalysisSystem& system) {
  const double half_edge = 0.5 * system.box.shortest_edge();
  if (!settings.r_max) settings.r_max = half_edge;
  if (*settings.r_max > half_edge)
    throw core::InputError(fmt::format(
        "{}: analysis.rdf.r_max: {} exceeds half the shortest box edge ({:.6g}); expected at most "
        "{:.6g} (pairs are taken at their nearest image)",
        system.config_file, *settings.r_max, half_edge, half_edge));
  const analysis::DistanceBins bins{*settings.r_max, static_cast<int>(settings.bins)};
  return {bins, system.species_counts, system.box.volume(), species_names(system.species)};
}

/// q_max and the bins resolved (defaults, then checks), and the weights (charges by default).
StructureFactor make_sq(StructureFactorSettings& settings, const AnalysisSystem& system) {
  const auto& L = system.box.length();
  const double q_min = 2.0 * std::numbers::pi / std::max({L.x, L.y, L.z});
  const double density = static_cast<double>(total_of(system.species_counts)) / system.box.volume();
  if (!settings.q_max) settings.q_max = 4.0 * std::numbers::pi * std::cbrt(density);
  if (*settings.q_max < q_min)
    throw core::InputError(fmt::format(
        "{}: analysis.structure_factor.q_max: {} is below the smallest wave number of the box, "
        "2 pi / L_max = {:.6g}; expected a number >= {:.6g}",
        system.config_file, *settings.q_max, q_min, q_min));
  const double modes = analysis::estimated_modes(system.box, *settings.q_max);
  if (modes > kMaxModes)
    throw core::InputError(fmt::format(
        "{}: analysis.structure_factor.q_max: {} gives about {:.3g} wave vectors; expected a q_max "
        "with at most {} (below {:.6g})",
        system.config_file, *settings.q_max, modes, kMaxModes,
        *settings.q_max * std::cbrt(kMaxModes / modes)));
  if (!settings.bins) settings.bins = static_cast<std::int64_t>(std::ceil(*settings.q_max / q_min));
  if (settings.weights.empty()) {
    for (const auto& s : system.species.all()) settings.weights.push_back(s.charge);
  }
  return {analysis::reciprocal_modes(system.box, *settings.q_max, static_cast<int>(*settings.bins)),
          system.species_counts, settings.weights, species_names(system.species)};
}

}  // namespace

Analyzer::Analyzer(const AnalysisSettings& settings, AnalysisSystem system)
    : system_(std::move(system)) {
  if (settings.rdf) {
    RdfSettings s = *settings.rdf;
    RadialDistribution table = make_rdf(s, system_);
    rdf_.emplace(Rdf{s, std::move(table), 0, system_.writes_files});
  }
  if (settings.structure_factor) {
    StructureFactorSettings s = *settings.structure_factor;
    StructureFactor table = make_sq(s, system_);
    sq_.emplace(Sq{s, std::move(table), 0, system_.writes_files});
  }
  if (settings.msd) {
    msd_.emplace(Msd{*settings.msd, MeanSquaredDisplacement(system_.species_counts,
                                                            species_names(system_.species))});
  }
}

Analyzer::~Analyzer() = default;

SamplerSetup Analyzer::sampler_setup() const {
  SamplerSetup setup;
  setup.box = system_.box;
  setup.species = system_.species.size();
  setup.particles = static_cast<std::size_t>(total_of(system_.species_counts));
  if (rdf_) setup.pair_bins = rdf_->table.bins();
  if (sq_) {
    setup.modes = &sq_->table.modes();
    setup.weights = sq_->table.weights();
  }
  return setup;
}

template <class Settings, class Table>
template <class Sample>
void Analyzer::Averaged<Settings, Table>::add(std::int64_t step, const Sample& sample) {
  table.add_sample(sample);
  if (write_due(settings.write_every, step)) flush();
}

template <class Settings, class Table>
void Analyzer::Averaged<Settings, Table>::flush() {
  if (table.samples() == written) return;
  if (writes_files) write_text(settings.file, table.csv());
  written = table.samples();
}

template <class Settings, class Table>
std::string Analyzer::Averaged<Settings, Table>::summary(const std::string& name,
                                                         const std::string& key) const {
  if (table.samples() == 0)
    return fmt::format("{}: no sample ({}.start {} is past the run)", name, key,
                       settings.schedule.start);
  return fmt::format("{} averaged over {} sample{}: {}", name, table.samples(),
                     table.samples() == 1 ? "" : "s", settings.file.string());
}

void Analyzer::after_step(std::int64_t step, backend::Backend& backend) {
  const bool tracking = msd_ && msd_->origin && step > *msd_->origin;
  const bool rdf_due = rdf_ && rdf_->settings.schedule.due(step);
  const bool sq_due = sq_ && sq_->settings.schedule.due(step);
  const bool msd_due = msd_ && msd_->settings.schedule.due(step);
  if (!tracking && !rdf_due && !sq_due && !msd_due) return;
  const backend::ParticleArrays particles = backend.particle_arrays();
  if (!sampler_) sampler_ = analysis::make_sampler(sampler_setup(), particles);
  if (msd_) sample_msd(step, particles);
  if (rdf_due) {
    sampler_->count_pairs(particles, counts_);
    rdf_->add(step, counts_);
  }
  if (sq_due) {
    sampler_->structure_factor_sums(particles, sums_);
    sq_->add(step, sums_);
  }
}

void Analyzer::open_msd_file(Msd& msd) {
  msd.file.reset(std::fopen(msd.settings.file.c_str(), "w"));
  if (!msd.file)
    throw core::RunError(fmt::format("{}: cannot open the MSD file for writing: {}",
                                     msd.settings.file.string(), std::strerror(errno)));
  fmt::print(msd.file.get(), "{}\n", msd.table.header());
}

void Analyzer::sample_msd(std::int64_t step, const backend::ParticleArrays& particles) {
  auto& msd = *msd_;
  if (msd.origin && step > *msd.origin) sampler_->track_displacements(particles);
  if (!msd.settings.schedule.due(step)) return;
  if (!msd.origin) {
    sampler_->start_displacements(particles);
    msd.origin = step;
    msd.origin_time = system_.time.time(step);
    if (system_.writes_files) open_msd_file(msd);
  }
  // Lags in time, not steps: a stage with another timestep keeps them right.
  const double time = system_.time.time(step);
  const std::string row = msd.table.add_row(step, time, time - msd.origin_time,
                                            sampler_->squared_displacement_sums(particles));
  ++msd.rows;
  if (!msd.file) return;
  fmt::print(msd.file.get(), "{}\n", row);
  if (std::fflush(msd.file.get()) != 0)
    throw core::RunError(fmt::format("{}: writing the MSD file failed: {}",
                                     msd.settings.file.string(), std::strerror(errno)));
}

void Analyzer::flush() {
  if (rdf_) rdf_->flush();
  if (sq_) sq_->flush();
  if (msd_ && msd_->file) std::fflush(msd_->file.get());
}

std::vector<std::string> Analyzer::finish() {
  std::vector<std::string> lines;
  if (rdf_) {
    rdf_->flush();
    lines.push_back(rdf_->summary("g(r)", "analysis.rdf"));
  }
  if (sq_) {
    sq_->flush();
    lines.push_back(sq_->summary("S(q)", "analysis.structure_factor"));
    if (sq_->table.samples() > 0)
      lines.back() += fmt::format(" ({} wave vectors)", 2 * sq_->table.modes().vectors.size());
  }
  if (msd_) {
    msd_->file.reset();
    lines.push_back(msd_->rows > 0
                        ? fmt::format("MSD: {} rows: {}", msd_->rows, msd_->settings.file.string())
                        : fmt::format("MSD: no sample (analysis.msd.start {} is past the run)",
                                      msd_->settings.schedule.start));
    if (msd_->rows > 0) lines.push_back(diffusion_summary());
  }
  return lines;
}

std::string Analyzer::diffusion_summary() const {
  const auto fit = msd_->table.fit();
  if (!fit) return "Diffusion: too few MSD samples for a fit (at least 3 are needed)";
  std::string values;
  const auto& names = msd_->table.column_names();
  for (std::size_t c = 0; c < names.size(); ++c)
    values += fmt::format("{}{} {:.6g}", c == 0 ? "" : ", ", names[c], fit->diffusion[c]);
  const std::string units =
      system_.length_unit.empty()
          ? ""
          : fmt::format(", in {}^2/({})", system_.length_unit, system_.time_unit);
  return fmt::format(
      "Diffusion coefficients (MSD slope / 6 over lag times {:.6g} to {:.6g}{}, {} "
      "samples{}): {}",
      fit->first_lag, fit->last_lag, unit(system_.time_unit), fit->samples, units, values);
}

std::vector<std::string> Analyzer::describe() const {
  std::vector<std::string> lines;
  const auto from = [](const analysis::SampleSchedule& s) {
    return s.start > 0 ? fmt::format(" from step {}", s.start) : std::string();
  };
  if (rdf_) {
    const auto& s = rdf_->settings;
    lines.push_back(fmt::format("g(r) every {} steps{}: {} bins to r = {:.6g}{} -> {}",
                                s.schedule.every, from(s.schedule), s.bins, *s.r_max,
                                unit(system_.length_unit), s.file.string()));
  }
  if (sq_) {
    const auto& s = sq_->settings;
    lines.push_back(fmt::format(
        "S(q) every {} steps{}: {} wave vectors to q = {:.6g}{}, {} bins -> {}", s.schedule.every,
        from(s.schedule), 2 * sq_->table.modes().vectors.size(), *s.q_max,
        system_.length_unit.empty() ? "" : " /" + system_.length_unit, *s.bins, s.file.string()));
  }
  if (msd_) {
    const auto& s = msd_->settings;
    lines.push_back(fmt::format("MSD every {} steps{} -> {}", s.schedule.every, from(s.schedule),
                                s.file.string()));
  }
  return lines;
}

}  // namespace novamd::app
