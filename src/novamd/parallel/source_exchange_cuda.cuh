#pragma once
/// @file source_exchange_cuda.cuh
/// The column allreduce of a decomposed CUDA run, on device buffers: every rank puts the
/// positions of its targets that are sources of its column (T_p ∩ S_q) in a buffer of 3 |S_q|
/// doubles, zeros elsewhere; after the allreduce (NCCL), the column's sources are copied back
/// and packed for the pair kernels. Owned entries keep their bits (x + 0 is x, but -0 + 0 is +0).

#include <cstdint>

#include "novamd/integrate/vec3_pointers.hpp"
#include "novamd/neighbors/pair_position.hpp"

namespace novamd::parallel {

/// buffer[c * count + k] = component c of particle source_begin + k if it is owned, else 0.
/// (A template, as every kernel in a header: one definition however many files include it.)
template <class Real = double>
__global__ void pack_owned_sources_kernel(int source_begin, int count, int owned_begin,
                                          int owned_end, integrate::Vec3Pointers position,
                                          Real* __restrict__ buffer) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count) return;
  const int i = source_begin + k;
  const bool owned = i >= owned_begin && i < owned_end;
  buffer[k] = owned ? position.x[i] : Real(0);
  buffer[count + k] = owned ? position.y[i] : Real(0);
  buffer[2 * count + k] = owned ? position.z[i] : Real(0);
}

/// The summed buffer back into the positions of the sources not owned here, and every source
/// packed (type included) for the pair kernels.
template <class PairT>
__global__ void unpack_sources_kernel(int source_begin, int count, int owned_begin, int owned_end,
                                      const double* __restrict__ buffer,
                                      const std::int32_t* __restrict__ type,
                                      integrate::Vec3Pointers position,
                                      neighbors::PairPosition<PairT>* __restrict__ packed) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count) return;
  const int i = source_begin + k;
  if (i >= owned_begin && i < owned_end) return;  // packed by the drift already
  const double x = buffer[k], y = buffer[count + k], z = buffer[2 * count + k];
  position.set(i, {x, y, z});
  packed[i] = {static_cast<PairT>(x), static_cast<PairT>(y), static_cast<PairT>(z), type[i]};
}

}  // namespace novamd::parallel
