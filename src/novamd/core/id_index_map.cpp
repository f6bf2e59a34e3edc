#include "novamd/core/id_index_map.hpp"

#include <limits>
#include <string>
#include <utility>

#include "novamd/core/error.hpp"

namespace novamd::core {

void IdIndexMap::rebuild(const std::int32_t* ids, std::size_t n) {
  index_.clear();
  if (n > std::size_t(std::numeric_limits<std::int32_t>::max())) {
    throw InputError("particle ids: " + std::to_string(n) +
                     " particles: expected at most 2^31 - 1");
  }
  std::vector<std::int32_t> index(n, -1);
  for (std::size_t k = 0; k < n; ++k) {
    const std::int32_t id = ids[k];
    if (id < 0 || std::size_t(id) >= n) {
      throw InputError("particle ids: id " + std::to_string(id) + " at storage index " +
                       std::to_string(k) + " is out of range: expected 0 to " +
                       std::to_string(n - 1) + " (" + std::to_string(n) + " particles)");
    }
    if (index[id] >= 0) {
      throw InputError("particle ids: id " + std::to_string(id) + " appears at storage indices " +
                       std::to_string(index[id]) + " and " + std::to_string(k) +
                       ": expected each id once");
    }
    index[id] = static_cast<std::int32_t>(k);
  }
  index_ = std::move(index);
}

}  // namespace novamd::core
