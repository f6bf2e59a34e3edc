#pragma once
/// @file brick_grid.hpp
/// The bricks of a spatial decomposition: the box cut into a x b x c equal bricks, one per MPI
/// rank (rank = i + a (j + b k) for brick (i, j, k)), and the geometry a rank needs of them:
/// which brick holds a position, and how far a position lies from a brick under periodic
/// boundaries. Plain arithmetic, no MPI.
///
/// `auto` picks the factorisation a b c = ranks whose bricks, grown by the halo h along each
/// cut axis, hold the least volume outside themselves: prod_a (w_a + 2 h [a cut]) - prod_a w_a,
/// the ghosts a rank reads (a box-shaped bound of the halo, corners and edges included). For
/// large bricks this is h times the cut faces' area, the measure LAMMPS's `processors *` uses;
/// where the halo is comparable to a brick, the edges and corners count, and slabs win. Ties go
/// to the grid with more cuts along z, then y: a fixed choice.

#include <array>
#include <optional>
#include <string>

#include "novamd/core/vec3.hpp"

namespace novamd::parallel {

struct BrickGrid {
  std::array<int, 3> dims{1, 1, 1};  ///< bricks along x, y, z

  int ranks() const { return dims[0] * dims[1] * dims[2]; }
  /// Brick coordinates (i, j, k) of `rank`.
  std::array<int, 3> coordinates(int rank) const {
    return {rank % dims[0], (rank / dims[0]) % dims[1], rank / (dims[0] * dims[1])};
  }
  int rank_of(const std::array<int, 3>& c) const {
    return c[0] + dims[0] * (c[1] + dims[1] * c[2]);
  }
  /// The rank whose brick holds `x` (any image: wrapped into the box first) in a box of edges
  /// `length`.
  int owner_of(const core::Vec3<double>& x, const core::Vec3<double>& length) const;
  /// The squared distance from `x` to the nearest periodic image of `rank`'s brick; 0 inside.
  double squared_distance(const core::Vec3<double>& x, int rank,
                          const core::Vec3<double>& length) const;
  bool operator==(const BrickGrid&) const = default;
};

/// The grid of `ranks` bricks with the least halo volume for a box of edges `length` and a
/// halo of thickness `halo`.
BrickGrid least_halo_grid(int ranks, const core::Vec3<double>& length, double halo);

/// The grid for `ranks` ranks: `configured` checked (its product must be the rank count; the
/// error names `origin`), or the least-halo one. @throws core::InputError.
BrickGrid choose_brick_grid(int ranks, const core::Vec3<double>& length, double halo,
                            const std::optional<std::array<int, 3>>& configured,
                            const std::string& origin);

}  // namespace novamd::parallel
