#pragma once
/// @file brick_groups.hpp
/// What a partition over spatial bricks (parallel/spatial_domain.hpp) keeps together, for both
/// backends: each constraint group on the rank of its first particle (the anchors the partition
/// places by), and every bonded partner of an owned particle among the rank's ghosts (checked
/// after each partition: a bond longer than the halo would read a stale position).

#include <cstddef>
#include <cstdint>
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

/// Every excluded partner (the 1-2, 1-3 and 1-4 atoms of the bonded terms) of each particle
/// stored in `own` lies within `halo` of it, so within the halo of its brick: a ghost, current at
/// every step. @throws core::RunError naming the first pair that does not (a broken structure,
/// or a bond longer than the lists' reach).
void check_partners_within_halo(const core::ParticleData& particles,
                                const core::ExclusionLists& exclusions, parallel::IndexRange own,
                                const core::Box& box, double halo);

}  // namespace novamd::backend
