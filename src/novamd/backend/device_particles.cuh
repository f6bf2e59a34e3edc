#pragma once
/// @file device_particles.cuh
/// The particle storage mirrored on the device: the same structure of arrays as
/// core::ParticleData, plus each particle's share of energy and virial.

#include <cstdint>

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

struct DeviceParticles {
  DeviceVec3Array position, velocity, force;
  core::DeviceBuffer<double> energy, virial;  ///< per-particle shares of the last evaluation
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

  void clear_forces(cudaStream_t stream) {
    force.fill_zero(stream);
    energy.fill_zero(stream);
    virial.fill_zero(stream);
  }

  neighbors::ForceOutputView force_output() {
    return {force.x.data(), force.y.data(), force.z.data(), energy.data(), virial.data()};
  }
};

}  // namespace novamd::backend
