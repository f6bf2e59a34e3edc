#pragma once
/// @file for_each_particle_cuda.cuh
/// The CUDA backend's loop over particles: one thread per particle calls f(i) for i in [0, n)
/// on `stream`, in blocks of kBlock threads (256; smaller for few long threads, such as the
/// constraint groups'). The functor is passed by value and captures device arrays only
/// (integrate/particle_updates.hpp); the CPU twin is for_each_particle.hpp.

#include <cuda_runtime.h>

#include "novamd/core/cuda_check.cuh"

namespace novamd::backend {

template <class F>
__global__ void for_each_particle_kernel(int n, F f) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) f(i);
}

template <int kBlock = 256, class F>
void for_each_particle(int n, const F& f, cudaStream_t stream) {
  if (n <= 0) return;
  for_each_particle_kernel<<<(n + kBlock - 1) / kBlock, kBlock, 0, stream>>>(n, f);
  NOVAMD_CUDA_CHECK_LAUNCH();
}

}  // namespace novamd::backend
