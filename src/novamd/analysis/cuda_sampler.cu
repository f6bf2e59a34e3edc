/// @file cuda_sampler.cu
/// The CUDA sampler (sampler.hpp): kernels on the CUDA backend's device arrays, on its stream.

#include <memory>
#include <optional>
#include <utility>

#include "novamd/analysis/density_modes_cuda.cuh"
#include "novamd/analysis/displacements_cuda.cuh"
#include "novamd/analysis/pair_counts_cuda.cuh"
#include "novamd/analysis/sampler.hpp"

namespace novamd::analysis {
namespace {

class CudaSampler final : public Sampler {
 public:
  explicit CudaSampler(SamplerSetup setup) : setup_(std::move(setup)) {}

  void count_pairs(const backend::ParticleArrays& p, std::vector<std::uint64_t>& counts) override {
    pairs_.count(p.particles, setup_.box, *setup_.pair_bins, setup_.species, counts, p.stream);
  }

  void structure_factor_sums(const backend::ParticleArrays& p, std::vector<double>& sums) override {
    if (!modes_) modes_.emplace(*setup_.modes, setup_.weights, setup_.species, p.stream);
    modes_->bin_sums(p.particles, setup_.box, sums, p.stream);
  }

  void start_displacements(const backend::ParticleArrays& p) override {
    displacements_.start(p.particles, p.stream);
  }
  void track_displacements(const backend::ParticleArrays& p) override {
    displacements_.track(p.particles, setup_.box, p.stream);
  }
  std::vector<double> squared_displacement_sums(const backend::ParticleArrays& p) override {
    return displacements_.squared_sums(setup_.species, p.stream);
  }

 private:
  SamplerSetup setup_;
  DevicePairCounts pairs_;
  std::optional<DeviceDensityModes> modes_;  ///< the wave vectors, uploaded at the first sample
  DeviceDisplacements displacements_;
};

}  // namespace

std::unique_ptr<Sampler> make_cuda_sampler(SamplerSetup setup) {
  return std::make_unique<CudaSampler>(std::move(setup));
}

}  // namespace novamd::analysis
