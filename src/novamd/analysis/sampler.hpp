#pragma once
/// @file sampler.hpp
/// The particle side of the analyses, computed where the particles live: pair counts for g(r),
/// density-mode sums for S(q), displacements for the MSD. The CPU version works on host arrays
/// (the CPU backend's own storage, or any core::ParticleData); the CUDA version runs kernels on
/// the CUDA backend's device arrays and copies only the small results (histogram counts, sums
/// per bin and per species) to the host. Both are deterministic: integer pair counts, and
/// floating-point sums in a fixed order.

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "novamd/analysis/pair_bins.hpp"
#include "novamd/analysis/structure_factor.hpp"
#include "novamd/backend/backend.hpp"
#include "novamd/core/box.hpp"

namespace novamd::analysis {

/// What a sampler is asked to compute, fixed for the run.
struct SamplerSetup {
  core::Box box;
  int species = 1;
  std::size_t particles = 0;
  std::optional<DistanceBins> pair_bins;  ///< for g(r)
  const ModeSet* modes = nullptr;         ///< for S(q); must outlive the sampler
  std::vector<double> weights;            ///< per species type, for the weighted S(q)
};

class Sampler {
 public:
  virtual ~Sampler() = default;

  /// Pair counts of the current configuration, layout of count_pairs (radial_distribution.hpp).
  virtual void count_pairs(const backend::ParticleArrays& particles,
                           std::vector<std::uint64_t>& counts) = 0;
  /// Sums over each bin's modes of every S(q) column, layout of bin_mode_sums.
  virtual void structure_factor_sums(const backend::ParticleArrays& particles,
                                     std::vector<double>& sums) = 0;

  /// Takes the current positions as the MSD's time origin.
  virtual void start_displacements(const backend::ParticleArrays& particles) = 0;
  /// Adds each particle's step since the last call; call it after every step.
  virtual void track_displacements(const backend::ParticleArrays& particles) = 0;
  /// The sum over the particles of each species type of |r(t) - r(t0)|^2.
  virtual std::vector<double> squared_displacement_sums(
      const backend::ParticleArrays& particles) = 0;
};

/// The CPU sampler, for arrays in host memory.
std::unique_ptr<Sampler> make_cpu_sampler(SamplerSetup setup);

/// The CUDA sampler, for arrays in device memory (defined only where CUDA is compiled in).
std::unique_ptr<Sampler> make_cuda_sampler(SamplerSetup setup);

/// The sampler for arrays where `particles` lives.
/// @throws core::RunError for device arrays in a build without CUDA.
std::unique_ptr<Sampler> make_sampler(SamplerSetup setup, const backend::ParticleArrays& particles);

}  // namespace novamd::analysis
