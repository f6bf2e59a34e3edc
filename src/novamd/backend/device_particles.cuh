#pragma once
/// @file device_particles.cuh
/// The particle storage mirrored on the device: the same structure of arrays as
/// core::ParticleData, plus each particle's share of energy and virial.

#include <cstdint>
#include <utility>

#include "novamd/core/device_buffer.cuh"
#include "novamd/core/particles.hpp"
#include "novamd/neighbors/all_pairs_cuda.cuh"

namespace novamd::backend {

struct DeviceVec3Array {
  core::DeviceBuffer<double> x, y, z;

  void upload(const core::Vec3Array& host, cudaStream_t stream) {
    x.copy_from_host(host.x, stream);
    y.copy_from_host(host.y, stream);
    z.copy_from_host(host.z, stream);
  }
  void download(core::Vec3Array& host, cudaStream_t stream) const {
    x.copy_to_host(host.x, stream);
    y.copy_to_host(host.y, stream);
    z.copy_to_host(host.z, stream);
  }
  void fill_zero(cudaStream_t stream) {
    x.fill_zero(stream);
    y.fill_zero(stream);
    z.fill_zero(stream);
  }
};

/// out[k] = in[order[k]].
template <class T>
__global__ void gather_kernel(int n, const std::uint32_t* __restrict__ order,
                              const T* __restrict__ in, T* __restrict__ out) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) out[k] = in[order[k]];
}

/// Rearranges a device array by `order` through a scratch array of the same size, which then
/// holds the old contents.
template <class T>
void gather_in_place(core::DeviceBuffer<T>& a, core::DeviceBuffer<T>& scratch,
                     const std::uint32_t* order, cudaStream_t stream) {
  constexpr int kBlock = 256;
  const int n = static_cast<int>(a.size());
  scratch.resize(a.size());
  if (n == 0) return;
  gather_kernel<T><<<(n + kBlock - 1) / kBlock, kBlock, 0, stream>>>(n, order, a.data(),
                                                                    scratch.data());
  NOVAMD_CUDA_CHECK_LAUNCH();
  std::swap(a, scratch);
}

struct DeviceParticles {
  DeviceVec3Array position, velocity, force;
  core::DeviceBuffer<double> energy, virial;  ///< per-particle shares of the last evaluation
  core::DeviceBuffer<double> heat;  ///< kinetic energy added by Langevin O steps (empty if none)
  core::DeviceBuffer<std::int32_t> type, id;

  std::size_t size() const { return type.size(); }

  void upload(const core::ParticleData& host, cudaStream_t stream) {
    position.upload(host.position, stream);
    velocity.upload(host.velocity, stream);
    force.upload(host.force, stream);
    type.copy_from_host(host.type, stream);
    id.copy_from_host(host.id, stream);
    energy.resize(host.size());
    virial.resize(host.size());
    energy.fill_zero(stream);
    virial.fill_zero(stream);
  }

  /// Positions, velocities and forces to the host (types and ids never change on the device).
  void download_state(core::ParticleData& host, cudaStream_t stream) const {
    position.download(host.position, stream);
    velocity.download(host.velocity, stream);
    force.download(host.force, stream);
  }

  /// Every per-particle array rearranged so that particle k is the old particle order[k].
  void permute(const std::uint32_t* order, cudaStream_t stream) {
    for (auto* a : {&position, &velocity, &force}) {
      gather_in_place(a->x, scratch_real_, order, stream);
      gather_in_place(a->y, scratch_real_, order, stream);
      gather_in_place(a->z, scratch_real_, order, stream);
    }
    gather_in_place(energy, scratch_real_, order, stream);
    if (heat.size() > 0) gather_in_place(heat, scratch_real_, order, stream);
    gather_in_place(virial, scratch_real_, order, stream);
    gather_in_place(type, scratch_int_, order, stream);
    gather_in_place(id, scratch_int_, order, stream);
  }

  /// Device memory held, in bytes.
  std::size_t bytes() const {
    std::size_t total = energy.bytes() + virial.bytes() + heat.bytes() + type.bytes() + id.bytes() +
                        scratch_real_.bytes() + scratch_int_.bytes();
    for (const auto* a : {&position, &velocity, &force})
      total += a->x.bytes() + a->y.bytes() + a->z.bytes();
    return total;
  }

  void clear_forces(cudaStream_t stream) {
    force.fill_zero(stream);
    energy.fill_zero(stream);
    virial.fill_zero(stream);
  }

  neighbors::ForceOutputView force_output() {
    return {force.x.data(), force.y.data(), force.z.data(), energy.data(), virial.data()};
  }

 private:
  core::DeviceBuffer<double> scratch_real_;
  core::DeviceBuffer<std::int32_t> scratch_int_;
};

}  // namespace novamd::backend
