#pragma once
/// @file radial_distribution.hpp
/// Radial distribution functions g_ab(r) of every species pair and the total g(r), averaged
/// over samples. Pairs are counted once (i < j) at their nearest periodic image, in bins of
/// width dr = r_max / bins; each count is divided by the count an ideal gas of the same
/// composition and volume V expects in the shell:
///
///     g_ab(r) = <n_ab(r)> / (P_ab  4 pi (r_out^3 - r_in^3) / (3 V))
///     P_aa = N_a (N_a - 1) / 2,   P_ab = N_a N_b (a != b),   total: P = N (N - 1) / 2
///
/// so that an ideal gas has g = 1 in every bin exactly on average (r_max <= L/2, where the
/// nearest image of a uniformly placed particle is uniform over the shell). The total is the
/// pair-weighted sum of the species pairs: P g(r) = sum_{a <= b} P_ab g_ab(r).

#include <cstdint>
#include <string>
#include <vector>

#include "novamd/analysis/pair_bins.hpp"
#include "novamd/core/box.hpp"
#include "novamd/core/particle_view.hpp"

namespace novamd::analysis {

/// Counts every pair (i < j) of `particles` at a distance below bins.r_max into `counts`
/// (replacing its content), laid out species pair by species pair: counts[species_pair_index(a, b)
/// * bins + bin] (OpenMP; integer sums, so the result does not depend on the threads).
void count_pairs(const core::ParticleView& particles, const core::Box& box,
                 const DistanceBins& bins, int species, std::vector<std::uint64_t>& counts);

class RadialDistribution {
 public:
  /// `species_counts`: N_a per species type; `names`: the species names for the CSV header.
  RadialDistribution(DistanceBins bins, std::vector<std::int64_t> species_counts, double volume,
                     std::vector<std::string> names);

  const DistanceBins& bins() const { return bins_; }
  int species() const { return static_cast<int>(species_counts_.size()); }

  /// Adds one sample's pair counts (layout of count_pairs).
  void add_sample(const std::vector<std::uint64_t>& counts);
  std::int64_t samples() const { return samples_; }

  /// g_ab(r) in bin `bin` averaged over the samples; NaN where no pair of the kind exists.
  double g(int a, int b, int bin) const;
  /// The total g(r) in bin `bin`.
  double g_total(int bin) const;

  /// The CSV file: `r,g,g_A_A,g_A_B,...` (r the bin centre; species pairs with at least one
  /// pair), one row per bin.
  std::string csv() const;

 private:
  /// Ideal-gas count of `pairs` pairs in bin `bin`, per sample.
  double ideal(double pairs, int bin) const;
  double pairs_of(int a, int b) const;

  DistanceBins bins_;
  std::vector<std::int64_t> species_counts_;
  double volume_;
  std::vector<std::string> names_;
  std::vector<std::uint64_t> counts_;  ///< summed over the samples
  std::int64_t samples_ = 0;
};

}  // namespace novamd::analysis
