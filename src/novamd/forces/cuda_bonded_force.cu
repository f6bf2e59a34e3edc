#include <array>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "novamd/core/cuda_check.cuh"
#include "novamd/core/device_buffer.cuh"
#include "novamd/core/error.hpp"
#include "novamd/forces/bonded_gather.hpp"
#include "novamd/forces/cuda_bonded_force.cuh"
#include "novamd/neighbors/target_lanes_cuda.cuh"

namespace novamd::forces {
namespace {

constexpr int kBlock = 256;
constexpr int kFamilyKinds = static_cast<int>(std::variant_size_v<BondedSettings>);

/// index_of_id[id[i]] = i for every particle.
__global__ void index_of_id_kernel(int n, const std::int32_t* __restrict__ id,
                                   std::int32_t* __restrict__ index_of_id) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) index_of_id[id[i]] = i;
}

/// Particle i's share of one family's terms, written to (or added to) the output.
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

/// One gather per family kind of BondedSettings, in the variant's order; a kind the run lacks
/// keeps null pointers and is never called.
template <class... E>
struct GatherSet;

template <>
struct GatherSet<> {
  __device__ core::Vec3<double> force(int, int) const { return {}; }
};

template <class E, class... Rest>
struct GatherSet<E, Rest...> {
  BondedGather<E> head;
  GatherSet<Rest...> tail;

  /// The force on particle i from the terms of family kind `kind`.
  __device__ core::Vec3<double> force(int kind, int i) const {
    return kind == 0 ? head.template share<false>(i).force : tail.force(kind - 1, i);
  }
  template <std::size_t K>
  auto& at() {
    if constexpr (K == 0) {
      return head;
    } else {
      return tail.template at<K - 1>();
    }
  }
};

template <class Variant>
struct GatherSetOf;
template <class... S>
struct GatherSetOf<std::variant<S...>> {
  using type = GatherSet<typename S::Evaluator...>;
};
using AllGathers = typename GatherSetOf<BondedSettings>::type;

/// The families of a run in their order (kinds[k]: the variant index of part k).
struct FamilyOrder {
  int count = 0;
  int kinds[kFamilyKinds] = {};
};

/// Particles per block of the fused kernel; the block has one row of that many threads per
/// family (at most 320 threads: the kernel holds every evaluator, and its registers must fit).
constexpr int kFusedParticles = 32;

/// Every family's force on particle i, added in the order of `order` to the output (or to zero):
/// the same additions, in the same order, as the family-by-family kernels. Thread (x, p) of the
/// block evaluates family p for the block's particle x, so that the families' chains of
/// dependent loads (membership row, term, particle) run side by side; row 0 then adds the
/// families' shares from shared memory in the run's order.
template <bool Accumulate>
__global__ void __launch_bounds__(kFusedParticles* kFamilyKinds)
    fused_bonded_kernel(int n, AllGathers gathers, FamilyOrder order,
                        neighbors::ForceOutputView out) {
  __shared__ core::Vec3<double> share[kFamilyKinds][kFusedParticles];
  const int x = threadIdx.x, p = threadIdx.y;
  const int i = blockIdx.x * kFusedParticles + x;
  if (i < n) share[p][x] = gathers.force(order.kinds[p], i);
  __syncthreads();
  if (p != 0 || i >= n) return;
  core::Vec3<double> f;
  int first = 0;
  if constexpr (Accumulate) {
    f = {out.fx[i], out.fy[i], out.fz[i]};
  } else {
    f = share[0][x];
    first = 1;
  }
  for (int k = first; k < order.count; ++k) f += share[k][x];
  out.fx[i] = f.x;
  out.fy[i] = f.y;
  out.fz[i] = f.z;
}

/// One family's coefficients and its particles' term memberships, on the device.
template <class Settings>
struct FamilyBuffers {
  using Evaluator = typename Settings::Evaluator;
  core::DeviceBuffer<typename Evaluator::Params> params;
  core::DeviceBuffer<std::int32_t> offsets, entries;

  FamilyBuffers(const Settings& s, const core::Topology& topology) {
    const auto rows = core::memberships_of(s.terms_of(topology), topology.particle_count());
    params.copy_from_host(s.types, nullptr);
    offsets.copy_from_host(rows.offsets, nullptr);
    entries.copy_from_host(rows.entries, nullptr);
    NOVAMD_CUDA_CHECK(cudaDeviceSynchronize());  // the host vectors go out of scope
  }
  std::size_t bytes() const { return params.bytes() + offsets.bytes() + entries.bytes(); }
};

template <class Variant>
struct BufferSetOf;
template <class... S>
struct BufferSetOf<std::variant<S...>> {
  using type = std::tuple<std::optional<FamilyBuffers<S>>...>;
};

/// Calls f(std::integral_constant<std::size_t, kind>{}) for a family kind known at run time.
template <class F>
void with_kind(int kind, F&& f) {
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    ((kind == int(K) ? (f(std::integral_constant<std::size_t, K>{}), 0) : 0), ...);
  }
  (std::make_index_sequence<kFamilyKinds>{});
}

/// The terms themselves are read from the backend's device topology
/// (CudaForceInput::fields.topology); this term keeps each family's coefficients and
/// memberships, and one id map for all of them.
template <class PairT>
class CudaBondedTerms final : public CudaForceTerm<PairT> {
 public:
  CudaBondedTerms(const std::vector<BondedSettings>& families, const core::Topology& topology) {
    index_of_id_.resize(static_cast<std::size_t>(topology.particle_count()));
    for (const auto& family : families) {
      check_term_types(family, topology);
      const int kind = static_cast<int>(family.index());
      for (int k = 0; k < order_.count; ++k)
        if (order_.kinds[k] == kind)
          throw core::InputError(std::string("bonded terms: the family ") +
                                 std::visit([](const auto& s) { return s.kName; }, family) +
                                 " is given twice");
      order_.kinds[order_.count++] = kind;
      with_kind(kind,
                [&](auto K) { std::get<K>(buffers_).emplace(std::get<K>(family), topology); });
    }
  }

  int parts() const override { return order_.count; }

  // Steps without energy: every family in one kernel. With energy: part by part.
  void add_to(const CudaForceInput<PairT>& in, neighbors::ForceOutputView out,
              neighbors::OutputMode mode, cudaStream_t stream) override {
    if (mode.with_energy) {
      for (int p = 0; p < order_.count; ++p)
        add_part_to(p, in, out, {mode.accumulate || p > 0, true}, stream);
      return;
    }
    if (in.n == 0 || order_.count == 0) return;
    refresh_map(in, stream);
    AllGathers gathers{};
    for (int p = 0; p < order_.count; ++p)
      with_kind(order_.kinds[p], [&](auto K) { gathers.template at<K>() = gather_of<K>(in); });
    const dim3 block(kFusedParticles, order_.count);
    const int fused_blocks = (in.n + kFusedParticles - 1) / kFusedParticles;
    if (mode.accumulate) {
      fused_bonded_kernel<true><<<fused_blocks, block, 0, stream>>>(in.n, gathers, order_, out);
    } else {
      fused_bonded_kernel<false><<<fused_blocks, block, 0, stream>>>(in.n, gathers, order_, out);
    }
    NOVAMD_CUDA_CHECK_LAUNCH();
  }

  void add_part_to(int part, const CudaForceInput<PairT>& in, neighbors::ForceOutputView out,
                   neighbors::OutputMode mode, cudaStream_t stream) override {
    if (in.n == 0) return;
    refresh_map(in, stream);
    with_kind(order_.kinds[part], [&](auto K) {
      const auto gather = gather_of<K>(in);
      using Evaluator = typename std::variant_alternative_t<K, BondedSettings>::Evaluator;
      neighbors::with_output_mode(mode, [&](auto with_energy, auto accumulate) {
        bonded_share_kernel<Evaluator, decltype(with_energy)::value, decltype(accumulate)::value>
            <<<blocks(in.n), kBlock, 0, stream>>>(in.n, gather, out);
      });
      NOVAMD_CUDA_CHECK_LAUNCH();
    });
  }

  // The storage order changed: the id map is rebuilt at the next evaluation.
  void invalidate_lists() override { map_stale_ = true; }
  std::size_t bytes() const override {
    std::size_t b = index_of_id_.bytes();
    std::apply([&](const auto&... f) { ((b += f ? f->bytes() : 0), ...); }, buffers_);
    return b;
  }
  void restore_neighbors(const neighbors::NeighborState&, const neighbors::PairPosition<PairT>*,
                         const CudaForceInput<PairT>&, cudaStream_t) override {
    map_stale_ = true;
  }

 private:
  static int blocks(int n) { return (n + kBlock - 1) / kBlock; }

  void refresh_map(const CudaForceInput<PairT>& in, cudaStream_t stream) {
    if (!map_stale_) return;
    index_of_id_kernel<<<blocks(in.n), kBlock, 0, stream>>>(in.n, in.fields.id,
                                                            index_of_id_.data());
    NOVAMD_CUDA_CHECK_LAUNCH();
    map_stale_ = false;
  }

  template <std::size_t K>
  auto gather_of(const CudaForceInput<PairT>& in) const {
    using Settings = std::variant_alternative_t<K, BondedSettings>;
    const auto& f = *std::get<K>(buffers_);
    return BondedGather<typename Settings::Evaluator>{Settings::device_terms_of(in.fields.topology),
                                                      f.params.data(),
                                                      f.offsets.data(),
                                                      f.entries.data(),
                                                      in.fields.x,
                                                      in.fields.y,
                                                      in.fields.z,
                                                      in.fields.id,
                                                      index_of_id_.data(),
                                                      in.host_box.template view<double>()};
  }

  typename BufferSetOf<BondedSettings>::type buffers_;
  FamilyOrder order_;
  core::DeviceBuffer<std::int32_t> index_of_id_;
  bool map_stale_ = true;
};

}  // namespace

template <core::Precision P>
std::unique_ptr<CudaForceTerm<PairTypeOf<P>>> make_cuda_bonded_terms(
    const std::vector<BondedSettings>& families, const core::Topology& topology) {
  return std::make_unique<CudaBondedTerms<PairTypeOf<P>>>(families, topology);
}

template std::unique_ptr<CudaForceTerm<PairTypeOf<core::Precision::Double>>>
make_cuda_bonded_terms<core::Precision::Double>(const std::vector<BondedSettings>&,
                                                const core::Topology&);
template std::unique_ptr<CudaForceTerm<PairTypeOf<core::Precision::Mixed>>>
make_cuda_bonded_terms<core::Precision::Mixed>(const std::vector<BondedSettings>&,
                                               const core::Topology&);
template std::unique_ptr<CudaForceTerm<PairTypeOf<core::Precision::Single>>>
make_cuda_bonded_terms<core::Precision::Single>(const std::vector<BondedSettings>&,
                                                const core::Topology&);

}  // namespace novamd::forces
