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

namespace {

/// Each pair of `terms`' members, both ways, to `rows` (by id).
template <int K>
void add_member_pairs(const core::TermList<K>& terms,
                      std::vector<std::vector<std::int32_t>>& rows) {
  for (std::size_t t = 0; t < terms.size(); ++t) {
    const std::int32_t* ids = terms.ids.data() + static_cast<std::size_t>(K) * t;
    for (int a = 0; a < K; ++a)
      for (int b = 0; b < K; ++b)
        if (a != b) rows[static_cast<std::size_t>(ids[a])].push_back(ids[b]);
  }
}

}  // namespace

std::optional<core::ExclusionLists> bonded_partners(const core::Topology& topology) {
  const auto& t = topology;
  const std::size_t terms = t.bonds().size() + t.angles().size() + t.dihedrals().size() +
                            t.impropers().size() + t.scaled_pairs().size() +
                            t.correction_pairs().size();
  if (terms == 0) return std::nullopt;
  std::vector<std::vector<std::int32_t>> rows(static_cast<std::size_t>(topology.particle_count()));
  add_member_pairs(topology.bonds(), rows);
  add_member_pairs(topology.angles(), rows);
  add_member_pairs(topology.dihedrals(), rows);
  add_member_pairs(topology.impropers(), rows);
  add_member_pairs(topology.scaled_pairs(), rows);
  add_member_pairs(topology.correction_pairs(), rows);
  core::ExclusionLists partners;
  partners.offsets.push_back(0);
  for (auto& row : rows) {
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    partners.ids.insert(partners.ids.end(), row.begin(), row.end());
    partners.offsets.push_back(static_cast<std::int32_t>(partners.ids.size()));
  }
  return partners;
}

void check_partners_within_halo(const core::ParticleData& particles,
                                const core::ExclusionLists& partners, parallel::IndexRange own,
                                const core::Box& box, double halo) {
  const auto slot_of_id = slots_of_ids(particles.id);
  const auto view = box.view<double>();
  const auto& position = particles.position;
  for (std::size_t i = own.begin; i < own.end; ++i) {
    for (const std::int32_t j : partners.of(particles.id[i])) {
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
