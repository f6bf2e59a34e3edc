#pragma once
/// @file cluster_pair_force_cuda.cuh
/// Pair forces over cluster pair lists (cluster_pairs_cuda.cuh) on the GPU, each pair computed
/// once. A warp takes a run of consecutive tiles; lane l holds particle l of the tile's cluster,
/// and the tile's 32 partners travel round the warp (one lane down per step, by shuffles),
/// together with the reaction forces they collect, so that after 32 steps every lane has met
/// every partner its mask allows and holds the total reaction on its own partner (OpenMM's tile
/// scheme; Eastman and Pande, J. Comput. Chem. 31, 1268 (2010)). The reactions, and the
/// cluster's forces when the warp moves to another cluster, are added to per-particle
/// accumulators in 64-bit fixed point (2^32 units per force unit: a range of +-2^31 and a
/// quantum of 2.3e-10; OpenMM's scale), whose integer sums do not depend on the order of the
/// additions: forces are bitwise reproducible. A sum that is not finite or outside the range
/// marks its particle, whose output then is NaN, so that the run's state check stops the run
/// as it does for other layouts. A last kernel turns the sums into the output's doubles and
/// clears them. A cluster's own tile holds both orders of each pair: its lanes add
/// their own forces only, and half of each pair's energy and virial. Where the box is large
/// enough beside the cluster (ClusterPairsView::image_centers), each particle is moved once to
/// its periodic image nearest the cluster's centre, and the pairs' separations are plain
/// differences; else each pair takes the minimum image.

#include <cuda_runtime.h>

#include <array>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "novamd/core/box.hpp"
#include "novamd/core/cuda_check.cuh"
#include "novamd/core/device_buffer.cuh"
#include "novamd/core/math.hpp"
#include "novamd/core/tensor.hpp"
#include "novamd/neighbors/cluster_pairs_cuda.cuh"
#include "novamd/neighbors/force_output.hpp"
#include "novamd/neighbors/pair_parameters_cuda.cuh"
#include "novamd/neighbors/pair_position.hpp"
#include "novamd/neighbors/target_lanes_cuda.cuh"
#include "novamd/physics/charge_scaled.hpp"

namespace novamd::neighbors {

/// Fixed-point units per force (and energy, virial) unit of the accumulators.
inline constexpr double kPairFixedScale = 4294967296.0;  // 2^32

/// Per-particle accumulators in 64-bit fixed point (two's complement in unsigned words, so that
/// atomicAdd wraps as signed addition does), and a word per particle that marks a sum out of
/// range.
struct FixedForceView {
  unsigned long long *fx, *fy, *fz, *energy;
  unsigned long long* virial[core::kTensorComponents];
  unsigned int* out_of_range;
};

/// The accumulators, zero between evaluations (the output kernel clears what it reads).
class DeviceFixedForces {
 public:
  /// Room for n particles, all zero.
  void resize(int n, cudaStream_t stream) {
    if (std::size_t(n) == fx_.size()) return;
    for (auto* b : buffers()) {
      b->resize(n);
      b->fill_zero(stream);
    }
    out_of_range_.resize(n);
    out_of_range_.fill_zero(stream);
  }
  FixedForceView view() {
    FixedForceView v{fx_.data(), fy_.data(), fz_.data(), energy_.data(), {}, out_of_range_.data()};
    for (int k = 0; k < core::kTensorComponents; ++k) v.virial[k] = virial_[k].data();
    return v;
  }
  std::size_t bytes() const {
    return fx_.bytes() * (4 + core::kTensorComponents) + out_of_range_.bytes();
  }

 private:
  std::array<core::DeviceBuffer<unsigned long long>*, 4 + core::kTensorComponents> buffers() {
    std::array<core::DeviceBuffer<unsigned long long>*, 4 + core::kTensorComponents> all{
        &fx_, &fy_, &fz_, &energy_};
    for (int k = 0; k < core::kTensorComponents; ++k) all[4 + k] = &virial_[k];
    return all;
  }
  core::DeviceBuffer<unsigned long long> fx_, fy_, fz_, energy_;
  std::array<core::DeviceBuffer<unsigned long long>, core::kTensorComponents> virial_;
  core::DeviceBuffer<unsigned int> out_of_range_;
};

/// Adds value to particle a's accumulator `words` in fixed point; a value that is not finite or
/// not below 2^30 in magnitude marks the particle instead. (The accumulators hold +-2^31; a total
/// beyond that from several additions below 2^30 each, a blown-up state, wraps unmarked, and the
/// state check finds the blow-up from the positions and velocities a step later.)
template <class T>
__device__ void add_fixed(unsigned long long* words, const FixedForceView& acc, int a, T value) {
  const double units = double(value) * kPairFixedScale;
  if (!(fabs(units) < 0x1p62)) {  // NaN fails the test too
    atomicOr(acc.out_of_range + a, 1u);
    return;
  }
  atomicAdd(words + a, static_cast<unsigned long long>(__double2ll_rn(units)));
}

/// Adds a lane's sums for its particle a of the cluster (none where a < 0) to the accumulators,
/// and starts them again from zero.
template <class T, bool WithEnergy>
__device__ void flush_to_fixed(LaneSums<T, WithEnergy>& sums, const FixedForceView& acc, int a) {
  if (a >= 0) {
    add_fixed(acc.fx, acc, a, sums.fx);
    add_fixed(acc.fy, acc, a, sums.fy);
    add_fixed(acc.fz, acc, a, sums.fz);
    if constexpr (WithEnergy) {
      add_fixed(acc.energy, acc, a, sums.energy);
#pragma unroll
      for (int k = 0; k < core::kTensorComponents; ++k)
        add_fixed(acc.virial[k], acc, a, sums.virial.c[k]);
    }
  }
  sums = LaneSums<T, WithEnergy>{};
}

inline constexpr int kClusterForceBlock = 128;

/// Position p moved to its periodic image nearest `center`: p - L round((p - c) / L) per axis,
/// the shift exact, one rounding.
template <class T>
__device__ PairPosition<T> image_near(PairPosition<T> p, const float4& center,
                                      const core::BoxView<T>& box) {
  const auto near = [](T x, float c, T length, T inverse_length) {
    return fma(-length, core::round_nearest((x - T(c)) * inverse_length), x);
  };
  p.x = near(p.x, center.x, box.length.x, box.inverse_length.x);
  p.y = near(p.y, center.y, box.length.y, box.inverse_length.y);
  p.z = near(p.z, center.z, box.length.z, box.inverse_length.z);
  return p;
}

/// A partner of a tile as the warp's lanes read it: position (imaged near the cluster where one
/// image serves) and charge (0 where the evaluator reads none), one vector load. What the pairs'
/// parameters keep of it (its type, or its record per type: pair_parameters_cuda.cuh) lies in an
/// array of its own: at each step the 32 lanes read 32 consecutive entries of each array, which
/// in float cover each of shared memory's 32 banks once per 128 bytes (4 and 2 wavefronts), where
/// one array of 32-byte entries would take 16.
template <class T>
struct alignas(4 * sizeof(T)) PartnerPosition {
  T x, y, z, q;
};

/// The reaction g on the partner a lane holds travels one lane down the warp (lane + 1 wraps to
/// lane 0: a shuffle's source lane is taken modulo the warp).
template <class T>
__device__ void pass_reaction_on(T& gx, T& gy, T& gz, int next) {
  constexpr unsigned kAll = 0xffffffffu;
  gx = __shfl_sync(kAll, gx, next);
  gy = __shfl_sync(kAll, gy, next);
  gz = __shfl_sync(kAll, gz, next);
}

/// Whether bit `Bit` of x is set. In PTX of its own, so that it stays an AND and a test (one
/// LOP3 with a predicate result, which the cutoff's test then takes in): the compiler's front end
/// would rewrite `(x & (1 << Bit)) != 0` into a shift, a mask and a comparison.
template <int Bit>
__device__ bool bit_set(std::uint32_t x) {
  std::uint32_t set;
  asm("{\n\t.reg .pred p;\n\t.reg .b32 t;\n\tand.b32 t, %1, %2;\n\t"
      "setp.ne.u32 p, t, 0;\n\tselp.u32 %0, 1, 0, p;\n\t}"
      : "=r"(set)
      : "r"(x), "n"(1u << Bit));
  return set != 0;
}

/// step(std::integral_constant<int, s>) for s = 0 .. N-1, unrolled with s a constant.
template <int N, class Step>
__device__ void unrolled_steps(Step&& step) {
  [&]<int... S>(std::integer_sequence<int, S...>) {
    (step(std::integral_constant<int, S>{}), ...);
  }
  (std::make_integer_sequence<int, N>{});
}

/// `pairs`: the pairs' parameters (pair_parameters_cuda.cuh). A tile's 32 partners are written
/// twice into the warp's 64 entries of shared memory (PartnerPosition), so that at step s lane l
/// reads partner (l + s) mod 32 at entry l + s, an address the unrolled steps offset by
/// constants; only the reactions travel by shuffles. Every step evaluates every lane's pair and
/// keeps it where the mask has it (no divergent branch: most steps have some lane to evaluate).
template <class Evaluator, bool WithEnergy, class Pairs>
__global__ void __launch_bounds__(kClusterForceBlock)
    cluster_pair_force_kernel(const PairPosition<typename Evaluator::Real>* __restrict__ pos,
                              core::BoxView<typename Evaluator::Real> box, Pairs pairs,
                              const double* __restrict__ charge, ClusterPairsView list,
                              FixedForceView acc) {
  using T = typename Evaluator::Real;
  using Partner = typename Pairs::Partner;
  constexpr unsigned kAll = 0xffffffffu;
  constexpr int kWarps = kClusterForceBlock / kClusterSize;
  __shared__ PartnerPosition<T> positions[kWarps][2 * kClusterSize];
  __shared__ Partner partners[kWarps][2 * kClusterSize];
  if (list.stale.raised()) return;  // queued again over the fresh list
  const auto staged = pairs.stage();
  const int lane = threadIdx.x % kClusterSize;
  PartnerPosition<T>* const warp_positions = positions[threadIdx.x / kClusterSize];
  Partner* const warp_partners = partners[threadIdx.x / kClusterSize];
  const long long first = warp_index() * list.tiles_per_warp;
  const int first_tile = int(min(first, static_cast<long long>(list.tile_count)));
  const int end_tile = min(first_tile + list.tiles_per_warp, list.tile_count);
  LaneSums<T, WithEnergy> own;  // the sums of this lane's particle of the cluster
  int cluster = -1, a = -1;
  PairPosition<T> pi{};
  float4 center{};  // the cluster's image centre; w: one image per partner serves
  T qi = 0;
  typename Pairs::Row row{};
  for (int t = first_tile; t < end_tile; ++t) {
    const int2 tile = list.tiles[t];
    if (tile.x != cluster) {
      flush_to_fixed(own, acc, a);
      cluster = tile.x;
      a = list.slot_particle[cluster * kClusterSize + lane];
      center = list.image_centers[cluster];
      pi = pos[max(a, 0)];
      if (center.w != 0.0f) pi = image_near(pi, center, box);
      qi = physics::charge_of<Evaluator>(charge, max(a, 0));
      row = staged.row(pi.type);
    }
    const std::uint32_t mask = list.masks[std::size_t(t) * kClusterSize + lane];
    if (!__any_sync(kAll, mask != 0)) continue;
    const int b = list.partners[std::size_t(t) * kClusterSize + lane];
    PairPosition<T> pj = pos[max(b, 0)];
    if (center.w != 0.0f) pj = image_near(pj, center, box);
    const PartnerPosition<T> where{pj.x, pj.y, pj.z,
                                   physics::charge_of<Evaluator>(charge, max(b, 0))};
    const Partner what = staged.partner(pj.type);
    __syncwarp();  // the previous tile's steps have read their entries
    warp_positions[lane] = warp_positions[lane + kClusterSize] = where;
    warp_partners[lane] = warp_partners[lane + kClusterSize] = what;
    __syncwarp();
    T gx = 0, gy = 0, gz = 0;  // the reaction on the partner this lane holds
    const bool itself = tile.y != 0;
    const T share = itself ? T(0.5) : T(1);  // of each pair's energy and virial
    // Bit s: the partner this lane holds at step s, (lane + s) mod 32.
    const std::uint32_t met = __funnelshift_r(mask, mask, lane);
    const PartnerPosition<T>* const from = warp_positions + lane;
    const Partner* const from_partner = warp_partners + lane;
    // The 32 steps, the separations as plain differences (kSingleImage) or minimum images.
    const auto meet_partners = [&](auto single_image) {
      constexpr bool kSingleImage = decltype(single_image)::value;
      constexpr int kUnrolled = 8;  // steps with constant entry offsets and mask bits
      std::uint32_t bits = met;     // bit s: step first_step + s
#pragma unroll 1
      for (int first_step = 0; first_step < kClusterSize;
           first_step += kUnrolled, bits >>= kUnrolled) {
        const PartnerPosition<T>* const at = from + first_step;
        const Partner* const at_partner = from_partner + first_step;
        unrolled_steps<kUnrolled>([&](auto step) {
          constexpr int s = decltype(step)::value;
          const PartnerPosition<T> p = at[s];
          const core::Vec3<T> raw{pi.x - p.x, pi.y - p.y, pi.z - p.z};
          const auto d = kSingleImage ? raw : box.minimum_image(raw);
          const T r2 = d.x * d.x + d.y * d.y + d.z * d.z;
          const auto pair =
              row.template evaluate<Evaluator>(r2, at_partner[s], qi, p.q, bit_set<s>(bits));
          own.accumulate(pair, d, share);
          gx = fma(-pair.force_over_r, d.x, gx);
          gy = fma(-pair.force_over_r, d.y, gy);
          gz = fma(-pair.force_over_r, d.z, gz);
          pass_reaction_on(gx, gy, gz, lane + 1);
        });
      }
    };
    if (center.w != 0.0f) {
      meet_partners(std::true_type{});
    } else {
      meet_partners(std::false_type{});
    }
    if (!itself && b >= 0) {  // after 32 steps each lane holds its own particle's reaction again
      add_fixed(acc.fx, acc, b, gx);
      add_fixed(acc.fy, acc, b, gy);
      add_fixed(acc.fz, acc, b, gz);
    }
  }
  flush_to_fixed(own, acc, a);
}

/// One thread per particle: the accumulators to the output (written or added), cleared; NaN
/// for a particle whose sums went out of range. Every load is issued before the first store:
/// the compiler cannot tell that the arrays do not overlap, and a load after a store would wait
/// for the one before it (a chain of some ten memory latencies, where one serves).
template <bool WithEnergy, bool Accumulate>
__global__ void fixed_forces_to_output_kernel(int n, FixedForceView acc, ForceOutputView out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  constexpr int kSums = WithEnergy ? 4 + core::kTensorComponents : 3;
  unsigned long long* words[kSums] = {acc.fx, acc.fy, acc.fz};
  double* to[kSums] = {out.fx, out.fy, out.fz};
  if constexpr (WithEnergy) {
    words[3] = acc.energy;
    to[3] = out.energy;
    for (int k = 0; k < core::kTensorComponents; ++k) {
      words[4 + k] = acc.virial[k];
      to[4 + k] = out.virial[k];
    }
  }
  const bool lost = acc.out_of_range[i] != 0;
  long long fixed[kSums];
  double before[kSums];
#pragma unroll
  for (int k = 0; k < kSums; ++k) {
    fixed[k] = static_cast<long long>(words[k][i]);
    before[k] = Accumulate ? to[k][i] : 0.0;
  }
  acc.out_of_range[i] = 0;
#pragma unroll
  for (int k = 0; k < kSums; ++k) {
    const double value = lost ? __longlong_as_double(0x7ff8000000000000LL)  // quiet NaN
                              : double(fixed[k]) / kPairFixedScale;
    words[k][i] = 0;
    to[k][i] = Accumulate ? before[k] + value : value;
  }
}

/// Forces over the cluster pair lists, written to or added to `out` as `mode` says; `pairs`:
/// the pairs' parameters (TablePairs or RecordPairs); `fixed`: the accumulators (sized here).
template <class Evaluator, class Pairs>
void cluster_pair_force_cuda(const PairPosition<typename Evaluator::Real>* pos, int n,
                             const core::BoxView<typename Evaluator::Real>& box, const Pairs& pairs,
                             const double* charge, const ClusterPairsView& list,
                             DeviceFixedForces& fixed, ForceOutputView out, OutputMode mode,
                             cudaStream_t stream) {
  if (n == 0) return;
  fixed.resize(n, stream);
  with_output_mode(mode, [&](auto with_energy, auto accumulate) {
    constexpr bool kEnergy = decltype(with_energy)::value;
    auto* kernel = cluster_pair_force_kernel<Evaluator, kEnergy, Pairs>;
    const std::size_t shared = shared_bytes_for(kernel, pairs.bytes());
    if (list.tile_count > 0) {
      const long long warps = (list.tile_count + list.tiles_per_warp - 1) / list.tiles_per_warp;
      const int blocks =
          static_cast<int>((warps * kClusterSize + kClusterForceBlock - 1) / kClusterForceBlock);
      kernel<<<blocks, kClusterForceBlock, shared, stream>>>(pos, box, pairs, charge, list,
                                                             fixed.view());
      NOVAMD_CUDA_CHECK_LAUNCH();
    }
    fixed_forces_to_output_kernel<kEnergy, decltype(accumulate)::value>
        <<<(n + 255) / 256, 256, 0, stream>>>(n, fixed.view(), out);
    NOVAMD_CUDA_CHECK_LAUNCH();
  });
}

}  // namespace novamd::neighbors
