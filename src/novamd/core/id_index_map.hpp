#pragma once
/// @file id_index_map.hpp
/// Where each particle is stored now: the storage index of every particle id. Bonded terms name
/// their particles by id (topology.hpp); after the store is reordered (spatial sorting), the map
/// is rebuilt from the store's id array and a loop over terms reads particle a of term t at
/// `index_of(term id)`. The map is a dense array over ids, so it uploads as it is.

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace novamd::core {

class IdIndexMap {
 public:
  IdIndexMap() = default;

  /// Maps ids[k] to k for every k < n. The ids must be 0..n-1, each once (a permutation);
  /// throws InputError naming the first id out of range or repeated, and its storage indices.
  /// On a throw the map is left empty.
  void rebuild(const std::int32_t* ids, std::size_t n);

  /// The storage index of particle `id` (0 <= id < size(); checked only by assert).
  std::int32_t index_of(std::int32_t id) const {
    assert(id >= 0 && std::size_t(id) < index_.size());
    return index_[id];
  }

  /// Number of particles mapped.
  std::size_t size() const { return index_.size(); }
  /// The storage index of each id, in id order: what a device copy of the map uploads.
  const std::vector<std::int32_t>& indices() const { return index_; }

 private:
  std::vector<std::int32_t> index_;
};

}  // namespace novamd::core
