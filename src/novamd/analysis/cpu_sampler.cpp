#include <utility>

#include "novamd/analysis/mean_squared_displacement.hpp"
#include "novamd/analysis/radial_distribution.hpp"
#include "novamd/analysis/sampler.hpp"
#include "novamd/core/error.hpp"

namespace novamd::analysis {
namespace {

class CpuSampler final : public Sampler {
 public:
  explicit CpuSampler(SamplerSetup setup) : setup_(std::move(setup)) {}

  void count_pairs(const backend::ParticleArrays& p, std::vector<std::uint64_t>& counts) override {
    analysis::count_pairs(p.particles, setup_.box, *setup_.pair_bins, setup_.species, counts);
  }

  void structure_factor_sums(const backend::ParticleArrays& p, std::vector<double>& sums) override {
    density_modes(p.particles, setup_.box, setup_.modes->vectors, setup_.species, re_, im_);
    bin_mode_sums(*setup_.modes, re_, im_, setup_.species, setup_.weights, sums);
  }

  void start_displacements(const backend::ParticleArrays& p) override {
    displacements_.start(p.particles);
  }
  void track_displacements(const backend::ParticleArrays& p) override {
    displacements_.track(p.particles, setup_.box);
  }
  std::vector<double> squared_displacement_sums(const backend::ParticleArrays&) override {
    return displacements_.squared_sums(setup_.species);
  }

 private:
  SamplerSetup setup_;
  std::vector<double> re_, im_;  ///< density modes, reused between samples
  DisplacementTracker displacements_;
};

}  // namespace

std::unique_ptr<Sampler> make_cpu_sampler(SamplerSetup setup) {
  return std::make_unique<CpuSampler>(std::move(setup));
}

std::unique_ptr<Sampler> make_sampler(SamplerSetup setup,
                                      const backend::ParticleArrays& particles) {
  if (!particles.on_device()) return make_cpu_sampler(std::move(setup));
#ifdef NOVAMD_HAVE_CUDA
  return make_cuda_sampler(std::move(setup));
#else
  throw core::RunError("analysis: the particles are in device memory, but this build has no CUDA");
#endif
}

}  // namespace novamd::analysis
