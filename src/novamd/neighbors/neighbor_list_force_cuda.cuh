#pragma once
/// @file neighbor_list_force_cuda.cuh
/// Pair forces over Verlet lists on the GPU: one thread per target, its list read in list order
/// (the order of the build, fixed), so results are bitwise reproducible. Generic over the
/// evaluator. Sums over one target's list in the pair type, then stored in FP64.

#include <cuda_runtime.h>

#include "novamd/core/box.hpp"
#include "novamd/core/cuda_check.cuh"
#include "novamd/neighbors/all_pairs_cuda.cuh"
#include "novamd/neighbors/pair_position.hpp"

namespace novamd::neighbors {

template <class Evaluator, bool WithEnergy, bool Accumulate>
__global__ void neighbor_list_force_kernel(
    const PairPosition<typename Evaluator::Real>* __restrict__ pos, int n,
    core::BoxView<typename Evaluator::Real> box,
    const typename Evaluator::Params* __restrict__ table, int num_types,
    const int* __restrict__ list, const int* __restrict__ count, ForceOutputView out) {
  using T = typename Evaluator::Real;
  using Params = typename Evaluator::Params;
  extern __shared__ unsigned char dynamic_shared[];
  auto* params = reinterpret_cast<Params*>(dynamic_shared);
  for (int k = threadIdx.x; k < num_types * num_types; k += blockDim.x) params[k] = table[k];
  __syncthreads();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const PairPosition<T> target = pos[i];
  const Params* row = params + target.type * num_types;
  T fx = 0, fy = 0, fz = 0, energy = 0, virial = 0;
  const int neighbours = count[i];
  for (int k = 0; k < neighbours; ++k) {
    const PairPosition<T> s = pos[list[static_cast<std::size_t>(k) * n + i]];
    const auto d = box.minimum_image({target.x - s.x, target.y - s.y, target.z - s.z});
    const T r2 = d.x * d.x + d.y * d.y + d.z * d.z;
    const auto pair = Evaluator::evaluate(r2, row[s.type]);
    fx = fma(pair.force_over_r, d.x, fx);
    fy = fma(pair.force_over_r, d.y, fy);
    fz = fma(pair.force_over_r, d.z, fz);
    if constexpr (WithEnergy) {
      energy += pair.energy;
      virial = fma(pair.force_over_r, r2, virial);
    }
  }
  const auto store = [](double& to, double value) { to = Accumulate ? to + value : value; };
  store(out.fx[i], fx);
  store(out.fy[i], fy);
  store(out.fz[i], fz);
  if constexpr (WithEnergy) {
    store(out.energy[i], 0.5 * double(energy));
    store(out.virial[i], 0.5 * double(virial));
  }
}

template <class Evaluator, bool WithEnergy, bool Accumulate>
void launch_neighbor_list_force(const PairPosition<typename Evaluator::Real>* pos, int n,
                                const core::BoxView<typename Evaluator::Real>& box,
                                const typename Evaluator::Params* table, int num_types,
                                const int* list, const int* count, ForceOutputView out,
                                cudaStream_t stream) {
  constexpr int kBlock = 128;
  const std::size_t bytes = sizeof(typename Evaluator::Params) * num_types * num_types;
  neighbor_list_force_kernel<Evaluator, WithEnergy, Accumulate>
      <<<(n + kBlock - 1) / kBlock, kBlock, bytes, stream>>>(pos, n, box, table, num_types, list,
                                                             count, out);
  NOVAMD_CUDA_CHECK_LAUNCH();
}

/// Forces over the lists, written to or added to `out` as `mode` says.
template <class Evaluator>
void neighbor_list_force_cuda(const PairPosition<typename Evaluator::Real>* pos, int n,
                              const core::BoxView<typename Evaluator::Real>& box,
                              const typename Evaluator::Params* table, int num_types,
                              const int* list, const int* count, ForceOutputView out,
                              OutputMode mode, cudaStream_t stream) {
  if (n == 0) return;
  if (mode.accumulate) {
    mode.with_energy ? launch_neighbor_list_force<Evaluator, true, true>(
                           pos, n, box, table, num_types, list, count, out, stream)
                     : launch_neighbor_list_force<Evaluator, false, true>(
                           pos, n, box, table, num_types, list, count, out, stream);
  } else {
    mode.with_energy ? launch_neighbor_list_force<Evaluator, true, false>(
                           pos, n, box, table, num_types, list, count, out, stream)
                     : launch_neighbor_list_force<Evaluator, false, false>(
                           pos, n, box, table, num_types, list, count, out, stream);
  }
}

}  // namespace novamd::neighbors
