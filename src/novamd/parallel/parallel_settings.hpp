#pragma once
/// @file parallel_settings.hpp
/// `parallel: {grid: [P, Q] | auto}`: the shape of the force-matrix decomposition over the MPI
/// ranks (parallel/process_grid.hpp).

#include <array>
#include <optional>
#include <string>

namespace novamd::parallel {

struct ParallelSettings {
  /// P block rows (targets) x Q block columns (sources); nothing for `auto`.
  std::optional<std::array<int, 2>> grid;
  /// Where the grid was given ("run.yaml:12: parallel.grid"), for messages about it.
  std::string grid_origin = "parallel.grid";
  /// `pairs: full_matrix`: every rank computes its whole block (seed 000's scheme exactly) even
  /// where the CUDA backend would compute each pair once over the ranks (`pairs: auto`).
  bool full_matrix = false;
};

}  // namespace novamd::parallel
