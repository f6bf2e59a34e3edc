#include "novamd/parallel/process_grid.hpp"

#include <fmt/format.h>

#include "novamd/core/error.hpp"

namespace novamd::parallel {

GridShape near_square_grid(int ranks) {
  int columns = 1;
  for (int q = 1; q * q <= ranks; ++q)
    if (ranks % q == 0) columns = q;
  return {ranks / columns, columns};
}

GridShape choose_grid(int ranks, std::size_t particles, const ParallelSettings& settings) {
  GridShape grid = settings.grid ? GridShape{(*settings.grid)[0], (*settings.grid)[1]}
                                 : near_square_grid(ranks);
  grid.full_matrix = settings.full_matrix;
  if (grid.ranks() != ranks) {
    throw core::InputError(fmt::format(
        "{}: [{}, {}] has {} ranks, but the run has {} (mpirun -np); expected P x Q = {}, or "
        "auto",
        settings.grid_origin, grid.rows, grid.columns, grid.ranks(), ranks, ranks));
  }
  const auto largest = static_cast<std::size_t>(std::max(grid.rows, grid.columns));
  if (largest > particles) {
    throw core::InputError(fmt::format(
        "{}: a {} x {} grid cuts {} particles into more blocks than there are particles; "
        "expected P and Q <= {} (use fewer ranks)",
        settings.grid_origin, grid.rows, grid.columns, particles, particles));
  }
  return grid;
}

IndexRange block_range(std::size_t n, int parts, int index, std::size_t granularity) {
  const std::size_t units = (n + granularity - 1) / granularity;
  const auto p = static_cast<std::size_t>(parts);
  const auto k = static_cast<std::size_t>(index);
  const std::size_t base = units / p, extra = units % p;
  const auto unit_start = [&](std::size_t b) { return b * base + std::min(b, extra); };
  return {std::min(n, unit_start(k) * granularity), std::min(n, unit_start(k + 1) * granularity)};
}

}  // namespace novamd::parallel
