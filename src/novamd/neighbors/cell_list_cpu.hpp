#pragma once
/// @file cell_list_cpu.hpp
/// Pair forces over linked cells on the CPU (seed 001): each target meets the particles of the
/// 27 cells around its own, cells at least one cutoff wide. Each thread owns its targets; sums
/// run in a fixed order (cell by cell, then storage order): bitwise independent of the thread
/// count. Falls back to all pairs when the box holds fewer than 3 cells per axis. Excluded
/// pairs (excluded_rows.hpp) are left out where rows are given: a cell's particles, the runs,
/// ascend in storage order (cell_grid.hpp).

#include <algorithm>
#include <cstddef>

#include "novamd/core/box.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/neighbors/all_pairs_cpu.hpp"
#include "novamd/neighbors/cell_grid.hpp"
#include "novamd/neighbors/excluded_rows.hpp"
#include "novamd/neighbors/force_buffers.hpp"
#include "novamd/neighbors/target_sums.hpp"
#include "novamd/physics/pair_table.hpp"

namespace novamd::neighbors {

template <class Evaluator, class AccT, bool WithEnergy>
void cell_list_cpu(const core::ParticleData& particles, const core::BoxView<double>& box,
                   physics::PairTableView<typename Evaluator::Params> table, const CellGrid& grid,
                   neighbors::ForceBuffers& out, const ExcludedRowsView& excluded = {}) {
  if (!grid.has_distinct_neighbours()) {
    all_pairs_cpu<Evaluator, AccT, WithEnergy>(particles, box, table, out, excluded);
    return;
  }
  for_each_target<Evaluator, AccT, WithEnergy>(
      particles, box, table, out, kMinParallelListTargets, excluded,
      [&grid](std::ptrdiff_t i, const core::Vec3<double>& ri, auto& run) {
        const auto c = grid.coordinates(grid.cell_of(ri));
        for (int dz = -1; dz <= 1; ++dz)
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
              const int cell = grid.wrap_cell(c[0] + dx, c[1] + dy, c[2] + dz);
              const int* first = grid.order().data() + grid.start()[cell];
              const int* last = grid.order().data() + grid.start()[cell + 1];
              const int* self = std::find(first, last, static_cast<int>(i));  // own cell only
              run(self - first, [first](std::ptrdiff_t k) { return first[k]; });
              if (self != last)
                run(last - self - 1, [self](std::ptrdiff_t k) { return self[1 + k]; });
            }
      });
}

}  // namespace novamd::neighbors
