#pragma once
/// @file mean_squared_displacement.hpp
/// Mean-squared displacement and the diffusion coefficient.
///
/// The backends keep positions wrapped into the box, so the displacement of each particle is
/// followed step by step: every step adds the nearest image of (r_now - r_previous), which is
/// the true step as long as no particle moves half a box edge in one step (MD never does).
/// Particles are followed by id, whatever order the backend stores them in.
///
///     MSD_a(t) = (1 / N_a) sum_{j in a} |r_j(t0 + t) - r_j(t0)|^2,   MSD(t) over all particles
///     D_a(t) = MSD_a(t) / (6 t)      (Einstein relation, at long t; reported at each sample)
///
/// and at the end D from a least-squares line MSD = 6 D t + c through the second half of the
/// samples, where the motion is diffusive rather than ballistic.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/core/particle_view.hpp"
#include "novamd/core/particles.hpp"

namespace novamd::analysis {

/// The displacement of every particle since a time origin, kept by id on the host (the CPU
/// version; the CUDA one keeps the same arrays on the device).
class DisplacementTracker {
 public:
  /// Takes the current positions as the origin.
  void start(const core::ParticleView& particles);
  /// Adds the nearest image of each particle's step since the last call (or the origin).
  void track(const core::ParticleView& particles, const core::Box& box);
  /// The sum over the particles of each species type of |displacement|^2.
  std::vector<double> squared_sums(int species) const;

 private:
  core::Vec3Array previous_;        ///< wrapped positions at the last call, by id
  core::Vec3Array displacement_;    ///< since the origin, by id
  std::vector<std::int32_t> type_;  ///< by id
};

/// The MSD table: one CSV row per sample, and the fit at the end.
class MeanSquaredDisplacement {
 public:
  MeanSquaredDisplacement(std::vector<std::int64_t> species_counts, std::vector<std::string> names);

  /// `step,time,lag_time,msd_A,...,msd,D_A,...,D`: per species with particles, then all.
  std::string header() const;
  /// Records one sample (squared_sums per species type) and returns its CSV row. D is NaN at
  /// lag 0.
  std::string add_row(std::int64_t step, double time, double lag, const std::vector<double>& sums);

  struct Fit {
    std::vector<double> diffusion;  ///< D per column of the table (species, then all)
    double first_lag = 0.0, last_lag = 0.0;
    std::size_t samples = 0;
  };
  /// D = slope / 6 of a least-squares line through the second half of the rows; nothing with
  /// fewer than two rows there.
  std::optional<Fit> fit() const;
  /// The names of the table's columns (species with particles, then "all").
  const std::vector<std::string>& column_names() const { return columns_; }

 private:
  std::vector<std::int64_t> species_counts_;
  std::vector<std::string> columns_;
  std::vector<int> column_types_;  ///< species type per column, -1 for all
  std::vector<double> lags_;
  std::vector<std::vector<double>> msd_;  ///< per row, per column
};

}  // namespace novamd::analysis
