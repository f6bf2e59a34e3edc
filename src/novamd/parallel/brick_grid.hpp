#pragma once
/// @file brick_grid.hpp
/// The bricks of a spatial decomposition: the box cut into a x b x c bricks, one per MPI rank
/// (rank = i + a (j + b k) for brick (i, j, k)), and the geometry a rank needs of them: which
/// brick holds a position, and how far a position lies from a brick under periodic boundaries.
/// Plain arithmetic, no MPI.
///
/// The cut planes along each axis are equally spaced, or placed by `balance_by_count` so that
/// each slab along an axis holds as many particles as the others (LAMMPS's `balance` with
/// `shift`'s goal, its planes placed at once from the particles' coordinates: every rank
/// computes the same planes from the same positions, so no decision travels and a run stays
/// bitwise repeatable). The planes of one axis are shared by every brick, so the bricks stay a
/// grid: ghosts and owners follow from the same arithmetic.
///
/// `auto` picks the factorisation a b c = ranks whose bricks, grown by the halo h along each
/// cut axis, hold the least volume outside themselves: prod_a (w_a + 2 h [a cut]) - prod_a w_a,
/// the ghosts a rank reads (a box-shaped bound of the halo, corners and edges included). For
/// large bricks this is h times the cut faces' area, the measure LAMMPS's `processors *` uses;
/// where the halo is comparable to a brick, the edges and corners count, and slabs win. Ties go
/// to the grid with more cuts along z, then y: a fixed choice.

#include <array>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "novamd/core/vec3.hpp"

namespace novamd::parallel {

struct BrickGrid {
  std::array<int, 3> dims{1, 1, 1};  ///< bricks along x, y, z
  /// Per axis, the cut planes as fractions of the edge: dims[a] - 1 values in [0, 1), none
  /// below the one before; empty: equally spaced.
  std::array<std::vector<double>, 3> planes;
  /// `parallel.balance: particles`: the planes placed anew by balance_by_count at every
  /// partition (SpatialDomain::partition).
  bool balanced = false;

  /// Where slab c of axis a begins and ends, as fractions of the edge.
  double lower(int axis, int c) const;
  double upper(int axis, int c) const { return lower(axis, c + 1); }

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

/// The planes of `grid` placed so that each slab along each cut axis holds an equal share of
/// `count` particles, particle i at `position(i)` (a callable returning core::Vec3<double>), in
/// a box of edges `length`: along each axis the planes lie halfway between the coordinates
/// ranked k n / dims (k = 1 .. dims - 1) in the box's frame [0, L). Coordinates that tie put a
/// plane on them: such a slab takes them all (uneven, never wrong).
template <class Position>
void balance_by_count(BrickGrid& grid, std::size_t count, const Position& position,
                      const core::Vec3<double>& length);

/// The grid of `ranks` bricks with the least halo volume for a box of edges `length` and a
/// halo of thickness `halo`.
BrickGrid least_halo_grid(int ranks, const core::Vec3<double>& length, double halo);

/// The grid for `ranks` ranks: `configured` checked (its product must be the rank count; the
/// error names `origin`), or the least-halo one. @throws core::InputError.
BrickGrid choose_brick_grid(int ranks, const core::Vec3<double>& length, double halo,
                            const std::optional<std::array<int, 3>>& configured,
                            const std::string& origin);

/// The planes of `slabs` slabs from the fractions u in [0, 1) of the coordinates of one axis,
/// which it reorders (selection, not a sort: O(n) per plane).
std::vector<double> planes_of(std::vector<double>& u, int slabs);

template <class Position>
void balance_by_count(BrickGrid& grid, std::size_t count, const Position& position,
                      const core::Vec3<double>& length) {
  const double edge[3] = {length.x, length.y, length.z};
  std::vector<double> u(count);
  for (int a = 0; a < 3; ++a) {
    grid.planes[a].clear();
    if (grid.dims[a] == 1 || count == 0) continue;
    for (std::size_t i = 0; i < count; ++i) {
      const auto x = position(i);
      const double v = (a == 0 ? x.x : a == 1 ? x.y : x.z) / edge[a];
      u[i] = v - std::floor(v);
    }
    grid.planes[a] = planes_of(u, grid.dims[a]);
  }
}

}  // namespace novamd::parallel
