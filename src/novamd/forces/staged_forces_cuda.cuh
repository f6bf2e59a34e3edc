#pragma once
/// @file staged_forces_cuda.cuh
/// Forces computed beside the pairs (CudaForceTerm::start_staged): the arrays a term keeps
/// them in, and the pass that adds every term's to the output after the pairs. Each particle's
/// output gets its terms' forces one after the other, in term order: the additions, and so the
/// bits, are those of the terms adding their forces in turn.

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "novamd/core/cuda_check.cuh"
#include "novamd/core/device_buffer.cuh"
#include "novamd/forces/cuda_force_term.cuh"
#include "novamd/neighbors/force_output.hpp"

namespace novamd::forces {

/// A term's staged forces: three arrays of n doubles in one buffer, kept between steps.
class StagedForceArrays {
 public:
  void resize(int n) {
    n_ = static_cast<std::size_t>(n);
    data_.resize(3 * n_);
  }
  /// The arrays as an output to write or add to (forces only: no energy, no virial).
  neighbors::ForceOutputView output() {
    neighbors::ForceOutputView v{
        data_.data(), data_.data() + n_, data_.data() + 2 * n_, nullptr, {}};
    for (auto*& w : v.virial) w = nullptr;
    return v;
  }
  StagedForces staged() const { return {data_.data(), data_.data() + n_, data_.data() + 2 * n_}; }
  /// Queues copying the arrays over `out`'s forces.
  void copy_to(const neighbors::ForceOutputView& out, cudaStream_t stream) const {
    const std::size_t bytes = n_ * sizeof(double);
    const StagedForces s = staged();
    NOVAMD_CUDA_CHECK(cudaMemcpyAsync(out.fx, s.fx, bytes, cudaMemcpyDeviceToDevice, stream));
    NOVAMD_CUDA_CHECK(cudaMemcpyAsync(out.fy, s.fy, bytes, cudaMemcpyDeviceToDevice, stream));
    NOVAMD_CUDA_CHECK(cudaMemcpyAsync(out.fz, s.fz, bytes, cudaMemcpyDeviceToDevice, stream));
  }
  void fill_zero(cudaStream_t stream) { data_.fill_zero(stream); }
  std::size_t bytes() const { return data_.bytes(); }

 private:
  std::size_t n_ = 0;
  core::DeviceBuffer<double> data_;
};

/// Terms whose staged forces one pass adds.
inline constexpr int kStagedTermsPerPass = 4;

struct StagedForceList {
  StagedForces terms[kStagedTermsPerPass];
  int count = 0;
};

/// out.f[i] += terms[0].f[i], then terms[1].f[i], ... for each component.
template <class Output>
__global__ void add_staged_forces_kernel(int n, StagedForceList list, Output out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double fx = out.fx[i], fy = out.fy[i], fz = out.fz[i];
  for (int t = 0; t < list.count; ++t) {
    fx += list.terms[t].fx[i];
    fy += list.terms[t].fy[i];
    fz += list.terms[t].fz[i];
  }
  out.fx[i] = fx;
  out.fy[i] = fy;
  out.fz[i] = fz;
}

/// Queues adding `staged` (in its order) to the first n particles' forces of `out`.
inline void add_staged_forces(int n, const std::vector<StagedForces>& staged,
                              const neighbors::ForceOutputView& out, cudaStream_t stream) {
  constexpr int kBlock = 256;
  for (std::size_t first = 0; first < staged.size(); first += kStagedTermsPerPass) {
    StagedForceList list;
    for (std::size_t t = first; t < staged.size() && list.count < kStagedTermsPerPass; ++t)
      list.terms[list.count++] = staged[t];
    if (n == 0) return;
    add_staged_forces_kernel<<<(n + kBlock - 1) / kBlock, kBlock, 0, stream>>>(n, list, out);
    NOVAMD_CUDA_CHECK_LAUNCH();
  }
}

}  // namespace novamd::forces
