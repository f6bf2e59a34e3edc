#pragma once
/// @file device_topology.cuh
/// The topology on the device (DESIGN principle 4: it stays there for the whole run): the type
/// and id arrays of each term kind, the exclusion lists (separations 1..3, CSR, full rows) and
/// the 1-4 pairs, as the host Topology lays them out (topology.hpp). Uploaded once at setup;
/// kernels take a DeviceTopologyView by value. Ids, not storage indices: a kernel finds particle
/// `id` at the storage index the device copy of the IdIndexMap gives.

#include <cuda_runtime.h>

#include <array>
#include <cstdint>
#include <vector>

#include "novamd/core/cuda_check.cuh"
#include "novamd/core/device_buffer.cuh"
#include "novamd/core/topology.hpp"

namespace novamd::core {

/// One term kind on the device.
template <int K>
struct DeviceTermList {
  DeviceBuffer<std::int32_t> type;
  DeviceBuffer<std::int32_t> ids;  ///< K per term, as TermList::ids

  void upload(const TermList<K>& host, cudaStream_t stream) {
    type.copy_from_host(host.type, stream);
    ids.copy_from_host(host.ids, stream);
  }
  TermListView<K> view() const {
    return {type.data(), ids.data(), static_cast<std::int32_t>(type.size())};
  }
};

/// Owns the device copy of a Topology.
class DeviceTopology {
 public:
  /// Copies the terms, the exclusions of separations 1..kExcludedSeparations and the 1-4 pairs
  /// of `topology` to the device. Returns when the copies are done, so the host temporaries it
  /// builds (exclusions, pairs) may go: it runs once at setup.
  void upload(const Topology& topology, cudaStream_t stream) {
    particle_count_ = topology.particle_count();
    bonds_.upload(topology.bonds(), stream);
    angles_.upload(topology.angles(), stream);
    dihedrals_.upload(topology.dihedrals(), stream);
    impropers_.upload(topology.impropers(), stream);
    scaled_pairs_.upload(topology.scaled_pairs(), stream);
    correction_pairs_.upload(topology.correction_pairs(), stream);
    const ExclusionLists exclusions = topology.exclusions(kExcludedSeparations);
    exclusion_offsets_.copy_from_host(exclusions.offsets, stream);
    exclusion_ids_.copy_from_host(exclusions.ids, stream);
    exclusion_span_ = exclusions.span();
    const std::vector<std::array<std::int32_t, 2>> pairs = topology.pairs_14();
    std::vector<std::int32_t> flat;
    flat.reserve(2 * pairs.size());
    for (const auto& p : pairs) flat.insert(flat.end(), p.begin(), p.end());
    pairs_14_.copy_from_host(flat, stream);
    NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));
  }

  DeviceTopologyView view() const {
    DeviceTopologyView v;
    v.particle_count = particle_count_;
    v.bonds = bonds_.view();
    v.angles = angles_.view();
    v.dihedrals = dihedrals_.view();
    v.impropers = impropers_.view();
    v.scaled_pairs = scaled_pairs_.view();
    v.correction_pairs = correction_pairs_.view();
    v.exclusion_offsets = exclusion_offsets_.data();
    v.exclusion_ids = exclusion_ids_.data();
    v.exclusion_count = static_cast<std::int32_t>(exclusion_ids_.size());
    v.exclusion_span = exclusion_span_;
    v.pairs_14 = pairs_14_.data();
    v.pair_14_count = static_cast<std::int32_t>(pairs_14_.size() / 2);
    return v;
  }

 private:
  std::int32_t particle_count_ = 0;
  std::int32_t exclusion_span_ = 0;
  DeviceTermList<2> bonds_;
  DeviceTermList<3> angles_;
  DeviceTermList<4> dihedrals_;
  DeviceTermList<4> impropers_;
  DeviceTermList<2> scaled_pairs_;
  DeviceTermList<2> correction_pairs_;
  DeviceBuffer<std::int32_t> exclusion_offsets_;
  DeviceBuffer<std::int32_t> exclusion_ids_;
  DeviceBuffer<std::int32_t> pairs_14_;
};

}  // namespace novamd::core
