#pragma once
/// @file device_topology.cuh
/// What the pair kernels need of the topology on the device (DESIGN principle 4: it stays there
/// for the whole run): the exclusion lists (separations 1..3, CSR, full rows), as the host
/// Topology lays them out (topology.hpp). Uploaded once at setup; kernels take a
/// DeviceTopologyView by value. Ids, not storage indices: a kernel finds particle `id` at the
/// storage index the device copy of the IdIndexMap gives. The bonded terms keep their own copies
/// of the terms they evaluate (forces/cuda_bonded_force.cu).

#include <cuda_runtime.h>

#include <cstdint>

#include "novamd/core/cuda_check.cuh"
#include "novamd/core/device_buffer.cuh"
#include "novamd/core/topology.hpp"

namespace novamd::core {

/// Owns the device copy of a Topology.
class DeviceTopology {
 public:
  /// Copies the exclusions of separations 1..kExcludedSeparations of `topology` to the device.
  /// Returns when the copies are done, so the host temporaries it builds may go: it runs once at
  /// setup.
  void upload(const Topology& topology, cudaStream_t stream) {
    particle_count_ = topology.particle_count();
    const ExclusionLists exclusions = topology.exclusions(kExcludedSeparations);
    exclusion_offsets_.copy_from_host(exclusions.offsets, stream);
    exclusion_ids_.copy_from_host(exclusions.ids, stream);
    exclusion_span_ = exclusions.span();
    NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));
  }

  DeviceTopologyView view() const {
    DeviceTopologyView v;
    v.particle_count = particle_count_;
    v.exclusion_offsets = exclusion_offsets_.data();
    v.exclusion_ids = exclusion_ids_.data();
    v.exclusion_count = static_cast<std::int32_t>(exclusion_ids_.size());
    v.exclusion_span = exclusion_span_;
    return v;
  }

 private:
  std::int32_t particle_count_ = 0;
  std::int32_t exclusion_span_ = 0;
  DeviceBuffer<std::int32_t> exclusion_offsets_;
  DeviceBuffer<std::int32_t> exclusion_ids_;
};

}  // namespace novamd::core
