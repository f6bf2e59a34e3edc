#pragma once
/// @file parallel_settings.hpp
/// `parallel: {decomposition, grid, pairs}`: how a run under mpirun splits its work over the
/// ranks. The force matrix (parallel/process_grid.hpp) deals out blocks of all pairs over a
/// P x Q grid; the spatial decomposition (parallel/spatial_domain.hpp) cuts the box into
/// a x b x c bricks, one per rank.

#include <array>
#include <optional>
#include <string>

namespace novamd::parallel {

/// `parallel.decomposition`.
enum class Decomposition {
  Auto,         ///< spatial where every force term has a cutoff (and the backend runs it)
  ForceMatrix,  ///< blocks of the all-pairs force matrix (seed 000)
  Spatial,      ///< bricks of the box, ghosts within the cutoff (seed 004)
};

struct ParallelSettings {
  Decomposition decomposition = Decomposition::Auto;
  /// Force matrix: P block rows (targets) x Q block columns (sources); nothing for `auto`.
  std::optional<std::array<int, 2>> grid;
  /// Spatial: a x b x c bricks along x, y, z; nothing for `auto`.
  std::optional<std::array<int, 3>> bricks;
  /// `balance: particles`: the bricks' planes moved at every partition so that each slab holds
  /// an equal share of the particles (BrickGrid::balanced); `none`: equal bricks.
  bool balance = false;
  /// Where the grid was given ("run.yaml:12: parallel.grid"), for messages about it.
  std::string grid_origin = "parallel.grid";
  /// `pairs: full_matrix`: every rank computes its whole block (seed 000's scheme exactly) even
  /// where the CUDA backend would compute each pair once over the ranks (`pairs: auto`).
  bool full_matrix = false;
};

}  // namespace novamd::parallel
