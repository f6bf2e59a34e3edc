#pragma once
/// @file target_lanes_cuda.cuh
/// One target's sums over its sources on the GPU, spread over G consecutive lanes of a warp
/// (G = 1, 2, 4 or 8): lane l takes every G-th source, and the G partial sums are combined by a
/// butterfly of shuffles. IEEE addition is commutative, so every lane of the group ends with
/// bitwise the same sum, and the order is fixed: results are reproducible. More lanes per target
/// keep enough loads in flight when there are few targets; one lane suffices for millions.

#include <cuda_runtime.h>

#include <type_traits>
#include <unordered_map>

#include "novamd/core/box.hpp"
#include "novamd/core/cuda_check.cuh"
#include "novamd/core/tensor.hpp"
#include "novamd/neighbors/all_pairs_cuda.cuh"
#include "novamd/neighbors/pair_position.hpp"
#include "novamd/physics/charge_scaled.hpp"

namespace novamd::neighbors {

/// Lanes per target that keep about `rounds` x `resident_threads` threads busy for n targets: a
/// power of two from 1 to 8.
inline int lanes_per_target(int n, int resident_threads, int rounds = 1) {
  int lanes = 1;
  while (lanes < 8 && static_cast<long long>(n) * lanes * 2 <= 1LL * rounds * resident_threads)
    lanes *= 2;
  return lanes;
}

template <class T, bool WithEnergy>
struct LaneSums {
  T fx = 0, fy = 0, fz = 0, energy = 0;
  core::SymmetricTensor<T> virial;  ///< with energy only

  /// The pair (target, source) under the minimum image; `row` is the target type's parameters;
  /// qi, qj the charges where the evaluator is scaled by them (physics/charge_scaled.hpp).
  template <class Evaluator>
  __device__ void add(const PairPosition<T>& target, const PairPosition<T>& source,
                      const core::BoxView<T>& box, const typename Evaluator::Params* row, T qi,
                      T qj) {
    const auto d =
        box.minimum_image({target.x - source.x, target.y - source.y, target.z - source.z});
    const T r2 = d.x * d.x + d.y * d.y + d.z * d.z;
    accumulate(physics::evaluate_pair<Evaluator>(r2, row[source.type], qi, qj), d);
  }

  /// Adds a pair's force on this target (force_over_r d, d from the source to the target) and
  /// `share` of its energy and virial (1 where each pair is met from both ends and the store
  /// halves them; a half where one pass meets a pair twice).
  __device__ void accumulate(const physics::PairResult<T>& pair, const core::Vec3<T>& d,
                             T share = T(1)) {
    fx = fma(pair.force_over_r, d.x, fx);
    fy = fma(pair.force_over_r, d.y, fy);
    fz = fma(pair.force_over_r, d.z, fz);
    if constexpr (WithEnergy) {
      energy += share * pair.energy;
      virial.add_outer(share * pair.force_over_r, d.x, d.y, d.z);
    }
  }

  /// Every lane of each aligned group of G ends with the group's total. All 32 lanes of the
  /// warp must call it.
  template <int G>
  __device__ void combine_lanes() {
#pragma unroll
    for (int offset = G / 2; offset > 0; offset /= 2) {
      fx += __shfl_xor_sync(0xffffffffu, fx, offset);
      fy += __shfl_xor_sync(0xffffffffu, fy, offset);
      fz += __shfl_xor_sync(0xffffffffu, fz, offset);
      if constexpr (WithEnergy) {
        energy += __shfl_xor_sync(0xffffffffu, energy, offset);
#pragma unroll
        for (int k = 0; k < core::kTensorComponents; ++k)
          virial.c[k] += __shfl_xor_sync(0xffffffffu, virial.c[k], offset);
      }
    }
  }

  /// Writes (or adds) the force, and half of the pair energy and virial, of particle i.
  template <bool Accumulate>
  __device__ void store(const ForceOutputView& out, int i) const {
    const auto put = [](double& to, double value) { to = Accumulate ? to + value : value; };
    put(out.fx[i], fx);
    put(out.fy[i], fy);
    put(out.fz[i], fz);
    if constexpr (WithEnergy) {
      put(out.energy[i], 0.5 * double(energy));
#pragma unroll
      for (int k = 0; k < core::kTensorComponents; ++k)
        put(out.virial[k][i], 0.5 * double(virial.c[k]));
    }
  }
};

/// `count` entries copied to shared memory by the whole block; the entries in global memory
/// themselves where the launch gave too little dynamic shared memory to hold them (more than the
/// device's limit: shared_bytes_for).
template <class Entry>
__device__ const Entry* entries_in_shared(const Entry* __restrict__ entries, int count) {
  extern __shared__ unsigned char dynamic_shared[];
  unsigned int given;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(given));
  if (given < sizeof(Entry) * count) return entries;
  auto* copy = reinterpret_cast<Entry*>(dynamic_shared);
  for (int k = threadIdx.x; k < count; k += blockDim.x) copy[k] = entries[k];
  __syncthreads();
  return copy;
}

/// The evaluator's parameter table of num_types^2 entries in shared memory (entries_in_shared).
template <class Params>
__device__ const Params* table_in_shared(const Params* __restrict__ table, int num_types) {
  return entries_in_shared(table, num_types * num_types);
}

/// The dynamic shared memory a launch of `kernel` gives `bytes` of entries: all of them, the
/// kernel's limit raised to them where they and the kernel's own (static) shared memory pass the
/// default 48 KiB, or 0 where they pass the device's opt-in limit (227 KiB on Hopper; a table of
/// about 60 species of LJ + PME), and the kernel reads them from global memory. One device per
/// process: a raised limit holds for every later launch.
template <class Kernel>
std::size_t shared_bytes_for(Kernel* kernel, std::size_t bytes) {
  constexpr std::size_t kDefault = 48 * 1024;
  static std::unordered_map<const void*, std::size_t> own_bytes;  // per kernel
  const void* key = reinterpret_cast<const void*>(kernel);
  if (!own_bytes.contains(key)) {
    cudaFuncAttributes attributes{};
    NOVAMD_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
    own_bytes[key] = attributes.sharedSizeBytes;
  }
  const std::size_t own = own_bytes[key];
  if (bytes + own <= kDefault) return bytes;
  static const int opt_in = [] {
    int device = 0, limit = 0;
    NOVAMD_CUDA_CHECK(cudaGetDevice(&device));
    NOVAMD_CUDA_CHECK(
        cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    return limit;
  }();
  if (bytes + own > std::size_t(opt_in)) return 0;
  static std::unordered_map<const void*, std::size_t> raised_to;  // per kernel
  std::size_t& raised = raised_to[key];
  if (bytes > raised) {
    NOVAMD_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(bytes)));
    raised = bytes;
  }
  return bytes;
}

/// The dynamic shared memory for the evaluator's table of num_types^2 entries of `Params`.
template <class Params, class Kernel>
std::size_t table_shared_bytes(Kernel* kernel, int num_types) {
  return shared_bytes_for(kernel, sizeof(Params) * std::size_t(num_types) * std::size_t(num_types));
}

/// Calls `launch(std::integral_constant<int, G>{})` for the runtime lane count G.
template <class Launch>
void with_lanes(int lanes, Launch&& launch) {
  switch (lanes) {
    case 1:
      launch(std::integral_constant<int, 1>{});
      break;
    case 2:
      launch(std::integral_constant<int, 2>{});
      break;
    case 4:
      launch(std::integral_constant<int, 4>{});
      break;
    default:
      launch(std::integral_constant<int, 8>{});
      break;
  }
}

/// Calls `launch(with_energy, accumulate)` with std::bool_constant arguments for `mode`.
template <class Launch>
void with_output_mode(const OutputMode& mode, Launch&& launch) {
  if (mode.accumulate) {
    mode.with_energy ? launch(std::true_type{}, std::true_type{})
                     : launch(std::false_type{}, std::true_type{});
  } else {
    mode.with_energy ? launch(std::true_type{}, std::false_type{})
                     : launch(std::false_type{}, std::false_type{});
  }
}

}  // namespace novamd::neighbors
