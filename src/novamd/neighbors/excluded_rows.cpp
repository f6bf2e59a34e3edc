#include "novamd/neighbors/excluded_rows.hpp"

#include <algorithm>

namespace novamd::neighbors {

void ExcludedRows::update(const ExclusionView& lists, const std::int32_t* id, std::size_t n) {
  if (lists.offsets == offsets_ && id_.size() == n && std::equal(id_.begin(), id_.end(), id))
    return;
  offsets_ = lists.offsets;
  id_.assign(id, id + n);
  std::vector<std::int32_t> index_of_id(n);
  for (std::size_t k = 0; k < n; ++k) index_of_id[id[k]] = static_cast<std::int32_t>(k);
  index_.resize(static_cast<std::size_t>(lists.offsets[n]));
  for (std::size_t a = 0; a < n; ++a) {
    const auto first = index_.begin() + lists.offsets[a];
    const auto last = index_.begin() + lists.offsets[a + 1];
    std::transform(lists.excluded + lists.offsets[a], lists.excluded + lists.offsets[a + 1], first,
                   [&](std::int32_t partner) { return index_of_id[partner]; });
    std::sort(first, last);
  }
}

}  // namespace novamd::neighbors
