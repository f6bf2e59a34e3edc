#include "novamd/backend/brick_groups.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "novamd/core/error.hpp"

namespace novamd::backend {

std::vector<std::int32_t> slots_of_ids(const std::vector<std::int32_t>& id) {
  std::vector<std::int32_t> slot(id.size());
  for (std::size_t i = 0; i < id.size(); ++i)
    slot[static_cast<std::size_t>(id[i])] = static_cast<std::int32_t>(i);
  return slot;
}

std::pair<std::vector<std::size_t>, double> constraint_anchors(
    const std::vector<std::int32_t>& id, const std::vector<std::int32_t>& anchor_of_id,
    const core::Vec3Array& position, const core::Box& box) {
  const auto slot_of_id = slots_of_ids(id);
  const auto view = box.view<double>();
  std::vector<std::size_t> anchor(id.size());
  double farthest = 0.0;
  for (std::size_t i = 0; i < id.size(); ++i) {
    const auto first = anchor_of_id[static_cast<std::size_t>(id[i])];
    anchor[i] = static_cast<std::size_t>(slot_of_id[static_cast<std::size_t>(first)]);
    const auto d = view.minimum_image(position.get(i) - position.get(anchor[i]));
    farthest = std::max(farthest, core::dot(d, d));
  }
  return {std::move(anchor), std::sqrt(farthest)};
}

void check_partners_within_halo(const core::ParticleData& particles,
                                const core::ExclusionLists& exclusions, parallel::IndexRange own,
                                const core::Box& box, double halo) {
  const auto slot_of_id = slots_of_ids(particles.id);
  const auto view = box.view<double>();
  const auto& position = particles.position;
  for (std::size_t i = own.begin; i < own.end; ++i) {
    for (const std::int32_t j : exclusions.of(particles.id[i])) {
      const auto slot = static_cast<std::size_t>(slot_of_id[static_cast<std::size_t>(j)]);
      const auto d = view.minimum_image(position.get(i) - position.get(slot));
      if (core::dot(d, d) >= halo * halo)
        throw core::RunError(fmt::format(
            "particles {} and {} of a bonded term are {:.6g} apart, beyond the spatial "
            "decomposition's halo ({:.6g}: the longest cutoff plus its skin), so a rank could "
            "not see both; the structure is broken, or run it on one rank",
            particles.id[i], j, std::sqrt(core::dot(d, d)), halo));
    }
  }
}

}  // namespace novamd::backend
