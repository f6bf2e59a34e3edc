#include <array>
#include <climits>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "novamd/core/cuda_check.cuh"
#include "novamd/core/device_buffer.cuh"
#include "novamd/core/error.hpp"
#include "novamd/forces/bonded_gather.hpp"
#include "novamd/forces/cuda_bonded_force.cuh"
#include "novamd/forces/held_terms.hpp"
#include "novamd/forces/staged_forces_cuda.cuh"

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

/// Particle i's share of one family's energy and virial (for i from `first`, `count` of them),
/// written to (or added to) the output,
/// with its share of the held terms' constant energy (`held_energy` by id; null: none held); the
/// forces of energy steps come from the term and sum kernels, as on other steps.
template <class Evaluator, bool Accumulate>
__global__ void bonded_energy_share_kernel(int first, int count, BondedGather<Evaluator> gather,
                                           const double* __restrict__ held_energy,
                                           neighbors::ForceOutputView out) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count) return;
  const int i = first + k;
  BondedShare s = gather.template share<true>(i);
  if (held_energy != nullptr) s.energy += held_energy[gather.id[i]];
  const auto put = [](double& to, double value) { to = Accumulate ? to + value : value; };
  put(out.energy[i], s.energy);
  for (int k = 0; k < core::kTensorComponents; ++k) put(out.virial[k][i], s.virial.c[k]);
}

/// One gather per family kind of BondedSettings, in the variant's order; a kind the run lacks
/// keeps null pointers and is never called.
template <class... E>
struct GatherSet;

template <>
struct GatherSet<> {
  __device__ void term_forces(int, int, core::Vec3<double>*) const {}
};

template <class E, class... Rest>
struct GatherSet<E, Rest...> {
  BondedGather<E> head;
  GatherSet<Rest...> tail;

  /// The forces of term t of family kind `kind` (BondedGather::term_forces).
  __device__ void term_forces(int kind, int t, core::Vec3<double>* to) const {
    if (kind == 0) {
      head.term_forces(t, to);
    } else {
      tail.term_forces(kind - 1, t, to);
    }
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

/// Where the term kernel of a step without energy works: part p's terms are evaluated by blocks
/// first_block[p] to first_block[p + 1] - 1, and term t's force on its particle a is entry
/// base[p] + t K + a of the buffer of term forces.
struct TermForceParts {
  FamilyOrder order;
  int first_block[kFamilyKinds + 1] = {};
  int term_count[kFamilyKinds] = {};
  long long base[kFamilyKinds] = {};
};

/// A thread per term of every part: the term's forces on its particles to the buffer.
__global__ void __launch_bounds__(kBlock)
    bonded_term_kernel(AllGathers gathers, TermForceParts parts, core::Vec3<double>* term_force) {
  const int block = static_cast<int>(blockIdx.x);
  int p = 0;
  while (p + 1 < parts.order.count && block >= parts.first_block[p + 1]) ++p;
  const int t = (block - parts.first_block[p]) * kBlock + static_cast<int>(threadIdx.x);
  if (t < parts.term_count[p])
    gathers.term_forces(parts.order.kinds[p], t, term_force + parts.base[p]);
}

/// Lanes that share a particle's row in bonded_sum_kernel, and the entries each has in flight.
inline constexpr int kSumLanes = 8;
inline constexpr int kSumInFlight = 4;

/// kSumLanes lanes per particle (`count` particles from `begin`) sum the term forces its row names
/// (row_offsets[id] to row_offsets[id + 1], every family's terms): lane j the entries j, j +
/// kSumLanes, ... in turn, kSumInFlight loads at a time, then the lanes' sums meet in a fixed tree
/// (lane j with j ^ 4, then j ^ 2, then j ^ 1) and the first lane writes the total (or adds it to
/// the output). A fixed order: the same bits every time. A protein atom's hundred entries (its
/// dihedrals, 1-4 pairs and exclusion corrections) take four rounds of loads per lane; a water
/// atom's few, one.
template <bool Accumulate>
__global__ void bonded_sum_kernel(int begin, int count, const std::int32_t* __restrict__ id,
                                  const std::int32_t* __restrict__ row_offsets,
                                  const std::int32_t* __restrict__ row_entries,
                                  const core::Vec3<double>* __restrict__ term_force,
                                  neighbors::ForceOutputView out) {
  const int thread = blockIdx.x * blockDim.x + threadIdx.x;
  const int target = thread / kSumLanes, lane = thread % kSumLanes;
  const bool active = target < count;
  const int i = begin + target;
  const std::int32_t* row = active ? row_offsets + id[i] : nullptr;
  const std::int32_t first = active ? row[0] : 0;
  const std::int32_t length = active ? row[1] - first : 0;  // entries addressed from `first`
  core::Vec3<double> sum;
  for (std::int32_t k = lane; k < length; k += kSumInFlight * kSumLanes) {
    core::Vec3<double> value[kSumInFlight];
#pragma unroll
    for (int j = 0; j < kSumInFlight; ++j) {
      const std::int32_t at = k + j * kSumLanes;
      value[j] = at < length ? term_force[row_entries[first + at]] : core::Vec3<double>{};
    }
#pragma unroll
    for (int j = 0; j < kSumInFlight; ++j) sum += value[j];
  }
#pragma unroll
  for (int offset = kSumLanes / 2; offset > 0; offset /= 2) {
    sum.x += __shfl_xor_sync(0xffffffffu, sum.x, offset);
    sum.y += __shfl_xor_sync(0xffffffffu, sum.y, offset);
    sum.z += __shfl_xor_sync(0xffffffffu, sum.z, offset);
  }
  if (!active || lane != 0) return;
  if constexpr (Accumulate) {
    out.fx[i] += sum.x;
    out.fy[i] += sum.y;
    out.fz[i] += sum.z;
  } else {
    out.fx[i] = sum.x;
    out.fy[i] = sum.y;
    out.fz[i] = sum.z;
  }
}

/// One family's terms still evaluated, their coefficients and its particles' memberships, and
/// the held terms' energy by id (empty: none held; held_terms.hpp), on the device.
template <class Settings>
struct FamilyBuffers {
  using Evaluator = typename Settings::Evaluator;
  static constexpr int K = Evaluator::kParticles;
  core::DeviceBuffer<std::int32_t> type, ids;
  core::DeviceBuffer<typename Evaluator::Params> params;
  core::DeviceBuffer<std::int32_t> offsets, entries;
  core::DeviceBuffer<double> held_energy;

  FamilyBuffers(const Settings& s, const HeldSplit<K>& split, const core::TermMemberships& rows) {
    type.copy_from_host(split.evaluated.type, nullptr);
    ids.copy_from_host(split.evaluated.ids, nullptr);
    params.copy_from_host(s.types, nullptr);
    offsets.copy_from_host(rows.offsets, nullptr);
    entries.copy_from_host(rows.entries, nullptr);
    held_energy.copy_from_host(split.held_energy, nullptr);
    NOVAMD_CUDA_CHECK(cudaDeviceSynchronize());  // the host vectors go out of scope
  }
  core::TermListView<K> terms() const {
    return {type.data(), ids.data(), static_cast<std::int32_t>(type.size())};
  }
  const double* held_energy_or_null() const {
    return held_energy.size() == 0 ? nullptr : held_energy.data();
  }
  std::size_t bytes() const {
    return type.bytes() + ids.bytes() + params.bytes() + offsets.bytes() + entries.bytes() +
           held_energy.bytes();
  }
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

/// Each family's terms (less those the constraints hold: held_terms.hpp), coefficients and
/// memberships, and one id map for all of them.
template <class PairT>
class CudaBondedTerms final : public CudaForceTerm<PairT> {
 public:
  CudaBondedTerms(const std::vector<BondedSettings>& families, const core::Topology& topology,
                  const core::HeldDistances* held) {
    index_of_id_.resize(static_cast<std::size_t>(topology.particle_count()));
    std::vector<core::TermMemberships> rows;  // each family's, in the run's order
    for (const auto& family : families) {
      check_term_types(family, topology);
      const int kind = static_cast<int>(family.index());
      for (int k = 0; k < order_.count; ++k)
        if (order_.kinds[k] == kind)
          throw core::InputError(std::string("bonded terms: the family ") +
                                 std::visit([](const auto& s) { return s.kName; }, family) +
                                 " is given twice");
      const int p = order_.count;
      order_.kinds[order_.count++] = kind;
      with_kind(kind, [&](auto K) {
        const auto& settings = std::get<K>(family);
        using Evaluator = typename std::decay_t<decltype(settings)>::Evaluator;
        const auto split = split_held_terms<Evaluator>(settings.terms_of(topology), settings.types,
                                                       held, topology.particle_count());
        rows.push_back(core::memberships_of(split.evaluated, topology.particle_count()));
        std::get<K>(buffers_).emplace(settings, split, rows.back());
        parts_.term_count[p] = static_cast<int>(split.evaluated.size());
        parts_.first_block[p + 1] = parts_.first_block[p] + blocks(parts_.term_count[p]);
        parts_.base[p] = p == 0
                             ? 0
                             : parts_.base[p - 1] +
                                   static_cast<long long>(rows[std::size_t(p) - 1].entries.size());
      });
    }
    parts_.order = order_;
    upload_gather_rows(rows);
  }

  int parts() const override { return order_.count; }
  /// Every term evaluated (those of other ranks' particles too, from stale positions, never
  /// summed), the targets' sums alone: a spatial decomposition's owned particles, whose bonded
  /// partners are all ghosts (the backend checks at each partition).
  bool restricts_targets(int, const core::Box&) const override { return true; }

  // Forces: a thread per term (every family in one kernel, on a side stream: start), then
  // kSumLanes threads per particle sum its terms' forces. Energy steps add each family's energy
  // and virial apart (add_part_to), a thread per particle, with the forces of the same two
  // kernels: the trajectory does not depend on the thermo interval.
  void start(const CudaForceInput<PairT>& in, neighbors::OutputMode, cudaStream_t stream) override {
    started_ = true;
    if (in.n == 0 || order_.count == 0) return;
    const cudaStream_t side = side_.follow(stream);
    refresh_map(in, side);
    if (parts_.first_block[order_.count] > 0) {
      AllGathers gathers{};
      for (int p = 0; p < order_.count; ++p)
        with_kind(order_.kinds[p], [&](auto K) { gathers.template at<K>() = gather_of<K>(in); });
      bonded_term_kernel<<<parts_.first_block[order_.count], kBlock, 0, side>>>(gathers, parts_,
                                                                                term_force_.data());
      NOVAMD_CUDA_CHECK_LAUNCH();
    }
  }

  /// Each particle's sum too, on the side stream, into staged_: nothing of the term waits
  /// behind the pairs.
  void start_staged(const CudaForceInput<PairT>& in, cudaStream_t stream) override {
    if (staged_pending_)
      throw std::logic_error("bonded terms: staged forces started again before being added");
    start(in, {false, false}, stream);
    if (in.n == 0 || order_.count == 0) return;
    staged_.resize(in.n);
    launch_sum(in, staged_.output(), false, side_.stream());
    staged_pending_ = true;
  }
  std::optional<StagedForces> staged_forces(cudaStream_t stream) override {
    if (!staged_pending_) return std::nullopt;
    staged_pending_ = false;
    side_.join(stream);
    return staged_.staged();
  }

  void add_to(const CudaForceInput<PairT>& in, neighbors::ForceOutputView out,
              neighbors::OutputMode mode, cudaStream_t stream) override {
    if (staged_pending_) {  // the sums are staged: written here only by the first term
      if (mode.with_energy)
        throw std::logic_error("bonded terms: forces staged for a step without energy");
      started_ = false;
      if (mode.accumulate) return;
      staged_pending_ = false;
      side_.join(stream);
      staged_.copy_to(out, stream);
      return;
    }
    if (mode.with_energy) {
      for (int p = 0; p < order_.count; ++p)
        add_part_to(p, in, out, {mode.accumulate || p > 0, true}, stream);
      return;
    }
    add_forces(in, out, mode.accumulate, stream);
  }

  /// Part 0 brings every family's forces; each part its family's energy and virial.
  void add_part_to(int part, const CudaForceInput<PairT>& in, neighbors::ForceOutputView out,
                   neighbors::OutputMode mode, cudaStream_t stream) override {
    if (staged_pending_)
      throw std::logic_error("bonded terms: forces staged for a step without energy");
    if (in.n == 0) return;
    if (part == 0) add_forces(in, out, mode.accumulate, stream);
    if (!mode.with_energy) return;
    refresh_map(in, stream);
    with_kind(order_.kinds[part], [&](auto K) {
      const auto gather = gather_of<K>(in);
      const double* held_energy = std::get<K>(buffers_)->held_energy_or_null();
      using Evaluator = typename std::variant_alternative_t<K, BondedSettings>::Evaluator;
      const int count = target_count(in);
      if (count == 0) return;
      const auto launch = [&](auto accumulate) {
        bonded_energy_share_kernel<Evaluator, decltype(accumulate)::value>
            <<<blocks(count), kBlock, 0, stream>>>(in.target_begin, count, gather, held_energy,
                                                   out);
      };
      mode.accumulate ? launch(std::true_type{}) : launch(std::false_type{});
      NOVAMD_CUDA_CHECK_LAUNCH();
    });
  }

  // The storage order changed: the id map is rebuilt at the next evaluation.
  void invalidate_lists() override { map_stale_ = true; }
  void follow_box(const core::Box&, cudaStream_t) override {}  // the map knows no positions
  std::size_t bytes() const override {
    std::size_t b = index_of_id_.bytes() + term_force_.bytes() + gather_offsets_.bytes() +
                    gather_entries_.bytes() + staged_.bytes();
    std::apply([&](const auto&... f) { ((b += f ? f->bytes() : 0), ...); }, buffers_);
    return b;
  }
  void restore_neighbors(const neighbors::NeighborState&, const neighbors::PairPosition<PairT>*,
                         const CudaForceInput<PairT>&, cudaStream_t) override {
    map_stale_ = true;
  }

 private:
  static int blocks(int n) { return (n + kBlock - 1) / kBlock; }

  /// Every term force, a thread per term, then each particle's sum, written to or added to
  /// the output.
  void add_forces(const CudaForceInput<PairT>& in, neighbors::ForceOutputView out, bool accumulate,
                  cudaStream_t stream) {
    if (!started_) start(in, {accumulate, false}, stream);
    started_ = false;
    if (in.n == 0 || order_.count == 0) return;
    side_.join(stream);
    launch_sum(in, out, accumulate, stream);
  }

  /// Each target's sum of its term forces, written to or added to `out`, on `stream`.
  void launch_sum(const CudaForceInput<PairT>& in, const neighbors::ForceOutputView& out,
                  bool accumulate, cudaStream_t stream) {
    const int count = target_count(in);
    if (count == 0) return;
    const auto launch = [&](auto accumulate_flag) {
      const long long threads = static_cast<long long>(count) * kSumLanes;
      bonded_sum_kernel<decltype(accumulate_flag)::value>
          <<<static_cast<int>((threads + kBlock - 1) / kBlock), kBlock, 0, stream>>>(
              in.target_begin, count, in.fields.id, gather_offsets_.data(), gather_entries_.data(),
              term_force_.data(), out);
    };
    accumulate ? launch(std::true_type{}) : launch(std::false_type{});
    NOVAMD_CUDA_CHECK_LAUNCH();
  }

  /// Each particle's row of the buffer of term forces (row id from offsets[id] to
  /// offsets[id + 1]): the entries of its terms, family by family in the run's order, family p's
  /// taking their place from parts_.base[p].
  void upload_gather_rows(const std::vector<core::TermMemberships>& rows) {
    const std::size_t families = rows.size();
    const std::size_t n = families == 0 ? 0 : rows[0].offsets.size() - 1;
    const long long total = families == 0 ? 0
                                          : parts_.base[families - 1] +
                                                static_cast<long long>(rows.back().entries.size());
    // The sum kernel addresses a row's entries from its first (an int32 offset into the rows).
    if (total > INT32_MAX) throw core::InputError("bonded terms: more than 2^31 term particles");
    std::vector<std::int32_t> offsets{0}, entries;
    entries.reserve(static_cast<std::size_t>(total));
    for (std::size_t id = 0; id < n; ++id) {
      for (std::size_t p = 0; p < families; ++p)
        for (auto k = rows[p].offsets[id]; k < rows[p].offsets[id + 1]; ++k)
          entries.push_back(
              static_cast<std::int32_t>(parts_.base[p] + rows[p].entries[std::size_t(k)]));
      offsets.push_back(static_cast<std::int32_t>(entries.size()));
    }
    gather_offsets_.copy_from_host(offsets, nullptr);
    gather_entries_.copy_from_host(entries, nullptr);
    term_force_.resize(static_cast<std::size_t>(total));
    NOVAMD_CUDA_CHECK(cudaDeviceSynchronize());  // the host vectors go out of scope
  }

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
    return BondedGather<typename Settings::Evaluator>{
        f.terms(),           f.params.data(),
        f.offsets.data(),    f.entries.data(),
        in.fields.x,         in.fields.y,
        in.fields.z,         in.fields.id,
        index_of_id_.data(), in.host_box.template view<double>()};
  }

  typename BufferSetOf<BondedSettings>::type buffers_;
  FamilyOrder order_;
  TermForceParts parts_;  ///< where the term kernel works, fixed by the topology
  core::DeviceBuffer<std::int32_t> index_of_id_;
  core::DeviceBuffer<core::Vec3<double>> term_force_;                 ///< TermForceParts' entries
  core::DeviceBuffer<std::int32_t> gather_offsets_, gather_entries_;  ///< upload_gather_rows
  bool map_stale_ = true;
  /// The term forces' kernel, beside the pairs: at the highest priority, between their blocks.
  core::SideStream side_;
  bool started_ = false;  ///< the term forces queued (start) and not yet summed
  /// The particles' sums of start_staged, and whether they wait for staged_forces.
  StagedForceArrays staged_;
  bool staged_pending_ = false;
};

}  // namespace

template <core::Precision P>
std::unique_ptr<CudaForceTerm<PairTypeOf<P>>> make_cuda_bonded_terms(
    const std::vector<BondedSettings>& families, const core::Topology& topology,
    const core::HeldDistances* held) {
  return std::make_unique<CudaBondedTerms<PairTypeOf<P>>>(families, topology, held);
}

template std::unique_ptr<CudaForceTerm<PairTypeOf<core::Precision::Double>>>
make_cuda_bonded_terms<core::Precision::Double>(const std::vector<BondedSettings>&,
                                                const core::Topology&, const core::HeldDistances*);
template std::unique_ptr<CudaForceTerm<PairTypeOf<core::Precision::Mixed>>>
make_cuda_bonded_terms<core::Precision::Mixed>(const std::vector<BondedSettings>&,
                                               const core::Topology&, const core::HeldDistances*);
template std::unique_ptr<CudaForceTerm<PairTypeOf<core::Precision::Single>>>
make_cuda_bonded_terms<core::Precision::Single>(const std::vector<BondedSettings>&,
                                                const core::Topology&, const core::HeldDistances*);

}  // namespace novamd::forces
