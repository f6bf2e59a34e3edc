#pragma once
/// @file structure_factor.hpp
/// The static structure factor on the reciprocal lattice of the periodic box, q = 2 pi (nx/Lx,
/// ny/Ly, nz/Lz) with 0 < |q| <= q_max, binned by |q| and averaged over the modes of each bin
/// and over the samples:
///
///     S_ab(q) = Re <rho_a(q) rho_b(-q)> / (N_a N_b)^(1/2)       per species pair
///     S(q)    = <|rho(q)|^2> / N,   rho = sum_a rho_a            total
///     S_Z(q)  = <|sum_j Z_j exp(i q . r_j)|^2> / sum_j Z_j^2     weighted (charges by default)
///
/// with rho_a(q) = sum_{j in a} exp(i q . r_j). S_Z, with the weak charges of the ions as
/// weights, is the static response that sets the coherent neutrino-scattering opacity of an ion
/// mixture (O. L. Caballero, C. J. Horowitz and D. K. Berry, Phys. Rev. C 74, 065801 (2006),
/// arXiv:astro-ph/0607564); with the charges Z it is the charge-charge structure factor. Since
/// S(-q) = S(q) for each column, only one of each pair +-q is evaluated (the half space whose
/// first nonzero integer is positive), which halves the cost and changes no average. q = 0 is
/// left out.

#include <cstdint>
#include <string>
#include <vector>

#include "novamd/analysis/density_modes.hpp"
#include "novamd/core/box.hpp"
#include "novamd/core/particle_view.hpp"

namespace novamd::analysis {

/// The wave vectors of one S(q) histogram, ordered by bin so that each bin is a contiguous
/// range: vectors[bin_begin[b] .. bin_begin[b + 1]).
struct ModeSet {
  std::vector<WaveVector> vectors;      ///< one of each +-q
  std::vector<std::int64_t> bin_begin;  ///< bins + 1 offsets
  std::vector<double> mean_q;           ///< mean |q| of each bin's vectors (0 if none)
  double q_max = 0.0;
  int bins = 1;
};

/// Every reciprocal-lattice vector with 0 < |q| <= q_max, in `bins` bins of width q_max / bins.
ModeSet reciprocal_modes(const core::Box& box, double q_max, int bins);

/// About how many vectors reciprocal_modes gives (one of each +-q): half the volume of the
/// sphere |q| <= q_max over that of a reciprocal cell, (2 pi)^3 / V. For checking a q_max before
/// building the modes.
double estimated_modes(const core::Box& box, double q_max);

/// The normalisation of each column of S(q) (density_modes.hpp): 1/N, 1/sum_j w_j^2 and
/// 1/(N_a N_b)^(1/2); 0 where the column is undefined (no particles of a species, or no
/// weight). `weights` per species type.
std::vector<double> column_scales(const std::vector<std::int64_t>& species_counts,
                                  const std::vector<double>& weights);

/// rho_a(q) of every mode: re[k * species + a], im[k * species + a] (OpenMP over the modes;
/// each mode sums the particles in their storage order).
void density_modes(const core::ParticleView& particles, const core::Box& box,
                   const std::vector<WaveVector>& vectors, int species, std::vector<double>& re,
                   std::vector<double>& im);

/// Sums over the modes of each bin of every column, unnormalised: sums[bin * columns + column].
void bin_mode_sums(const ModeSet& modes, const std::vector<double>& re,
                   const std::vector<double>& im, int species, const std::vector<double>& weights,
                   std::vector<double>& sums);

/// S(q) averaged over the samples added.
class StructureFactor {
 public:
  StructureFactor(ModeSet modes, std::vector<std::int64_t> species_counts,
                  std::vector<double> weights, std::vector<std::string> names);

  const ModeSet& modes() const { return modes_; }
  const std::vector<double>& weights() const { return weights_; }
  int species() const { return static_cast<int>(species_counts_.size()); }

  /// Adds one sample's bin sums (layout of bin_mode_sums).
  void add_sample(const std::vector<double>& sums);
  std::int64_t samples() const { return samples_; }

  /// Column `column` (density_modes.hpp) in bin `bin`, averaged over its modes and the samples.
  double value(int column, int bin) const;

  /// The CSV file: `q,modes,S,S_Z,S_A_A,S_A_B,...`, one row per bin that holds modes: q the
  /// mean |q| of the bin, modes the number of wave vectors in it (+q and -q both counted).
  /// S_Z only with a nonzero weight, species pairs only of species that have particles.
  std::string csv() const;

 private:
  ModeSet modes_;
  std::vector<std::int64_t> species_counts_;
  std::vector<double> weights_;
  std::vector<double> scales_;
  std::vector<std::string> names_;
  std::vector<double> sums_;  ///< summed over the samples
  std::int64_t samples_ = 0;
};

}  // namespace novamd::analysis
