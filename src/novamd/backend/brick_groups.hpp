#pragma once
/// @file brick_groups.hpp
/// What a partition over spatial bricks (parallel/spatial_domain.hpp) keeps together, for both
/// backends: each constraint group on the rank of its first particle (the anchors the partition
/// places by), and every bonded partner of an owned particle among the rank's ghosts (checked
/// after each partition: a bond longer than the halo would read a stale position).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/core/topology.hpp"
#include "novamd/parallel/process_grid.hpp"

namespace novamd::backend {

/// Per storage index, the index of its constraint group's first particle (`anchor_of_id`: the
/// first particle's id, by id; constraints::anchors_of), and the farthest any particle lies
/// from it (minimum image in `box`), for `position` and `id` in the same storage order.
std::pair<std::vector<std::size_t>, double> constraint_anchors(
    const std::vector<std::int32_t>& id, const std::vector<std::int32_t>& anchor_of_id,
    const core::Vec3Array& position, const core::Box& box);

/// Each particle id's storage index, for `id` in storage order (ids 0 .. n - 1).
std::vector<std::int32_t> slots_of_ids(const std::vector<std::int32_t>& id);

/// For every particle id, the ids it shares a term with (bonds, angles, dihedrals, impropers,
/// scaled 1-4 pairs, Ewald correction pairs: every term whose force on it reads another
/// particle's position), sorted, each once; nothing where the topology has no terms.
std::optional<core::ExclusionLists> bonded_partners(const core::Topology& topology);

/// Every bonded partner (`partners`: bonded_partners) of each particle stored in `own` lies
/// within `halo` of it, so within the halo of its brick: a ghost, current at every step.
/// @throws core::RunError naming the first pair that does not (a broken structure, or a term
/// longer than the lists' reach).
void check_partners_within_halo(const core::ParticleData& particles,
                                const core::ExclusionLists& partners, parallel::IndexRange own,
                                const core::Box& box, double halo);

}  // namespace novamd::backend
