#pragma once
/// @file for_each_particle_cuda.cuh
/// The CUDA backend's loop over particles: one thread per particle calls f(i) for i in [0, n)
/// on `stream`, in blocks of kBlock threads (256; smaller for few long threads, such as the
/// constraint groups'). The functor is passed by value and captures device arrays only
/// (integrate/particle_updates.hpp); the CPU twin is for_each_particle.hpp.
///
/// The loops of a step follow each other on one stream (the kick, the velocity condition, the
/// drift, the position condition), each short. They are launched as programmatic dependent
/// launches (Hopper and later): the GPU may start a loop's blocks while the kernel before it in
/// the stream finishes, and each block first waits until that kernel is complete and its writes
/// are visible (griddepcontrol.wait), so that only the launch latency is saved, never an
/// ordering. Each loop allows the kernel after it to start as soon as all its own blocks run.

#include <cuda_runtime.h>

#include "novamd/core/cuda_check.cuh"

namespace novamd::backend {

/// The kernel before this one in the stream complete, its writes visible (a no-op where this
/// kernel was launched without a programmatic dependency, or before Hopper).
__device__ inline void wait_for_previous_kernel() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/// The next kernel in the stream, if launched with a programmatic dependency, may start its
/// blocks (which wait for this kernel's completion themselves).
__device__ inline void allow_next_kernel() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;");
#endif
}

template <class F>
__global__ void for_each_particle_kernel(int n, F f) {
  wait_for_previous_kernel();
  allow_next_kernel();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) f(i);
}

template <int kBlock = 256, class F>
void for_each_particle(int n, const F& f, cudaStream_t stream) {
  if (n <= 0) return;
  cudaLaunchAttribute dependency{};
  dependency.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  dependency.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>((n + kBlock - 1) / kBlock));
  config.blockDim = dim3(kBlock);
  config.stream = stream;
  config.attrs = &dependency;
  config.numAttrs = 1;
  NOVAMD_CUDA_CHECK(cudaLaunchKernelEx(&config, for_each_particle_kernel<F>, n, f));
}

}  // namespace novamd::backend
