#include "novamd/core/cuda_check.cuh"
#include "novamd/core/device_buffer.cuh"
#include "novamd/forces/bonded_gather.hpp"
#include "novamd/forces/cuda_bonded_force.cuh"
#include "novamd/neighbors/target_lanes_cuda.cuh"

namespace novamd::forces {
namespace {

constexpr int kBlock = 256;

/// index_of_id[id[i]] = i for every particle.
__global__ void index_of_id_kernel(int n, const std::int32_t* __restrict__ id,
                                   std::int32_t* __restrict__ index_of_id) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) index_of_id[id[i]] = i;
}

/// Particle i's share of the terms, written to (or added to) the output.
template <class Evaluator, bool WithEnergy, bool Accumulate>
__global__ void bonded_share_kernel(int n, BondedGather<Evaluator> gather,
                                    neighbors::ForceOutputView out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const BondedShare s = gather.template share<WithEnergy>(i);
  const auto put = [](double& to, double value) { to = Accumulate ? to + value : value; };
  put(out.fx[i], s.force.x);
  put(out.fy[i], s.force.y);
  put(out.fz[i], s.force.z);
  if constexpr (WithEnergy) {
    put(out.energy[i], s.energy);
    for (int k = 0; k < core::kTensorComponents; ++k) put(out.virial[k][i], s.virial.c[k]);
  }
}

/// The terms themselves are read from the backend's device topology
/// (CudaForceInput::fields.topology); this term keeps its coefficients, the particles' term
/// memberships and the id map.
template <class Settings, class PairT>
class CudaBondedForce final : public CudaForceTerm<PairT> {
 public:
  using Evaluator = typename Settings::Evaluator;
  static constexpr int K = Evaluator::kParticles;

  CudaBondedForce(const core::TermList<K>& terms,
                  const std::vector<typename Evaluator::Params>& params,
                  std::int32_t particle_count) {
    const auto rows = core::memberships_of(terms, particle_count);
    params_.copy_from_host(params, nullptr);
    offsets_.copy_from_host(rows.offsets, nullptr);
    entries_.copy_from_host(rows.entries, nullptr);
    index_of_id_.resize(static_cast<std::size_t>(particle_count));
    NOVAMD_CUDA_CHECK(cudaDeviceSynchronize());  // the host vectors go out of scope
  }

  void add_to(const CudaForceInput<PairT>& in, neighbors::ForceOutputView out,
              neighbors::OutputMode mode, cudaStream_t stream) override {
    const int n = in.n;
    if (n == 0) return;
    const int blocks = (n + kBlock - 1) / kBlock;
    if (map_stale_) {
      index_of_id_kernel<<<blocks, kBlock, 0, stream>>>(n, in.fields.id, index_of_id_.data());
      NOVAMD_CUDA_CHECK_LAUNCH();
      map_stale_ = false;
    }
    const BondedGather<Evaluator> gather{Settings::device_terms_of(in.fields.topology),
                                         params_.data(),
                                         offsets_.data(),
                                         entries_.data(),
                                         in.fields.x,
                                         in.fields.y,
                                         in.fields.z,
                                         in.fields.id,
                                         index_of_id_.data(),
                                         in.host_box.template view<double>()};
    neighbors::with_output_mode(mode, [&](auto with_energy, auto accumulate) {
      bonded_share_kernel<Evaluator, decltype(with_energy)::value, decltype(accumulate)::value>
          <<<blocks, kBlock, 0, stream>>>(n, gather, out);
    });
    NOVAMD_CUDA_CHECK_LAUNCH();
  }

  // The storage order changed: the id map is rebuilt at the next evaluation.
  void invalidate_lists() override { map_stale_ = true; }
  std::size_t bytes() const override {
    return params_.bytes() + offsets_.bytes() + entries_.bytes() + index_of_id_.bytes();
  }
  void restore_neighbors(const neighbors::NeighborState&, const neighbors::PairPosition<PairT>*,
                         const CudaForceInput<PairT>&, cudaStream_t) override {
    map_stale_ = true;
  }

 private:
  core::DeviceBuffer<std::int32_t> offsets_, entries_, index_of_id_;
  core::DeviceBuffer<typename Evaluator::Params> params_;
  bool map_stale_ = true;
};

}  // namespace

template <core::Precision P>
std::unique_ptr<CudaForceTerm<PairTypeOf<P>>> make_cuda_bonded_force(
    const BondedSettings& settings, const core::Topology& topology) {
  check_term_types(settings, topology);
  return std::visit(
      [&](const auto& s) -> std::unique_ptr<CudaForceTerm<PairTypeOf<P>>> {
        using Settings = std::decay_t<decltype(s)>;
        return std::make_unique<CudaBondedForce<Settings, PairTypeOf<P>>>(
            s.terms_of(topology), s.types, topology.particle_count());
      },
      settings);
}

template std::unique_ptr<CudaForceTerm<PairTypeOf<core::Precision::Double>>>
make_cuda_bonded_force<core::Precision::Double>(const BondedSettings&, const core::Topology&);
template std::unique_ptr<CudaForceTerm<PairTypeOf<core::Precision::Mixed>>>
make_cuda_bonded_force<core::Precision::Mixed>(const BondedSettings&, const core::Topology&);
template std::unique_ptr<CudaForceTerm<PairTypeOf<core::Precision::Single>>>
make_cuda_bonded_force<core::Precision::Single>(const BondedSettings&, const core::Topology&);

}  // namespace novamd::forces
