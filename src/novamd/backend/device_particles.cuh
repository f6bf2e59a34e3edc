#pragma once
/// @file device_particles.cuh
/// The particle storage mirrored on the device: the same structure of arrays as
/// core::ParticleData, plus each particle's share of energy and of the virial tensor.

#include <array>
#include <cstdint>
#include <utility>

#include "novamd/core/device_buffer.cuh"
#include "novamd/core/particles.hpp"
#include "novamd/core/tensor.hpp"
#include "novamd/neighbors/all_pairs_cuda.cuh"

namespace novamd::backend {

/// Three device arrays (x, y, z).
using DeviceVec3Array = core::Vec3Of<core::DeviceBuffer<double>>;

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
  gather_kernel<T>
      <<<(n + kBlock - 1) / kBlock, kBlock, 0, stream>>>(n, order, a.data(), scratch.data());
  NOVAMD_CUDA_CHECK_LAUNCH();
  std::swap(a, scratch);
}

/// Every field of core::ParticleFields in device memory, plus each particle's share of
/// energy and virial and the Langevin heat. Upload, download and permutation iterate the field
/// list (core::for_each_field_array): a field added there is carried here too. Absent optional
/// fields are empty buffers.
struct DeviceParticles : core::ParticleFields<core::DeviceBuffer> {
  core::DeviceBuffer<double> energy;  ///< per-particle shares of the last evaluation
  /// Per-particle shares of the virial tensor, one array per component (core/tensor.hpp order).
  std::array<core::DeviceBuffer<double>, core::kTensorComponents> virial;
  core::DeviceBuffer<double> heat;  ///< kinetic energy added by Langevin O steps (empty if none)

  std::size_t size() const { return type.size(); }

  /// Every field of `host` (present optional fields included) to the device.
  void upload(const core::ParticleData& host, cudaStream_t stream) {
    core::for_each_field_array([&](const core::FieldInfo&, int, auto& device,
                                   const auto& from) { device.copy_from_host(from, stream); },
                               *this, host);
    energy.resize(host.size());
    energy.fill_zero(stream);
    for (auto& w : virial) {
      w.resize(host.size());
      w.fill_zero(stream);
    }
  }

  /// The fields that change during a run (positions, velocities, forces, ...) to the host;
  /// types, ids and other constant fields only with `everything`.
  void download(core::ParticleData& host, cudaStream_t stream, bool everything = false) const {
    core::for_each_field_array(
        [&](const core::FieldInfo& info, int, const auto& device, auto& to) {
          if (info.evolves || everything) device.copy_to_host(to, stream);
        },
        *this, host);
  }

  /// Every per-particle array rearranged so that particle k is the old particle order[k].
  void permute(const std::uint32_t* order, cudaStream_t stream) {
    core::for_each_field_array(
        [&](const core::FieldInfo&, int, auto& a) {
          if (a.size() > 0) gather_in_place(a, scratch_of(a), order, stream);
        },
        *this);
    gather_in_place(energy, scratch_real_, order, stream);
    if (heat.size() > 0) gather_in_place(heat, scratch_real_, order, stream);
    for (auto& w : virial) gather_in_place(w, scratch_real_, order, stream);
  }

  /// Device memory held, in bytes.
  std::size_t bytes() const {
    std::size_t total = energy.bytes() + core::kTensorComponents * virial[0].bytes() +
                        heat.bytes() + scratch_real_.bytes() + scratch_int_.bytes();
    core::for_each_field_array(
        [&](const core::FieldInfo&, int, const auto& a) { total += a.bytes(); }, *this);
    return total;
  }

  void clear_forces(cudaStream_t stream) {
    for (auto* a : force.components()) a->fill_zero(stream);
    energy.fill_zero(stream);
    for (auto& w : virial) w.fill_zero(stream);
  }

  neighbors::ForceOutputView force_output() {
    neighbors::ForceOutputView out{
        force.x.data(), force.y.data(), force.z.data(), energy.data(), {}};
    for (int k = 0; k < core::kTensorComponents; ++k) out.virial[k] = virial[k].data();
    if (torque.x.size() > 0) {  // rigid molecules
      out.tx = torque.x.data();
      out.ty = torque.y.data();
      out.tz = torque.z.data();
    }
    return out;
  }

 private:
  core::DeviceBuffer<double>& scratch_of(const core::DeviceBuffer<double>&) {
    return scratch_real_;
  }
  core::DeviceBuffer<std::int32_t>& scratch_of(const core::DeviceBuffer<std::int32_t>&) {
    return scratch_int_;
  }

  core::DeviceBuffer<double> scratch_real_;
  core::DeviceBuffer<std::int32_t> scratch_int_;
};

}  // namespace novamd::backend
