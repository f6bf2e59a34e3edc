#include "novamd/parallel/brick_grid.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "novamd/core/error.hpp"

namespace novamd::parallel {
namespace {

/// Brick index along one axis of `count` bricks for a coordinate `x` in a period `length`,
/// between `planes` (fractions of the edge; none: equally spaced).
int slab_of(double x, double length, int count, const std::vector<double>& planes) {
  const double u = x / length - std::floor(x / length);  // in [0, 1]
  if (planes.empty()) return std::min(count - 1, static_cast<int>(u * count));
  return static_cast<int>(std::upper_bound(planes.begin(), planes.end(), u) - planes.begin());
}

/// Distance from `x` to the nearest image of [lo, lo + width) along a period `length`.
double axis_distance(double x, double lo, double width, double length) {
  double u = std::fmod(x - lo, length);
  if (u < 0.0) u += length;
  if (u < width) return 0.0;
  return std::min(u - width, length - u);
}

}  // namespace

double BrickGrid::lower(int axis, int c) const {
  const auto& p = planes[static_cast<std::size_t>(axis)];
  if (c <= 0) return 0.0;
  if (c >= dims[static_cast<std::size_t>(axis)]) return 1.0;
  return p.empty() ? static_cast<double>(c) / dims[static_cast<std::size_t>(axis)]
                   : p[static_cast<std::size_t>(c - 1)];
}

int BrickGrid::owner_of(const core::Vec3<double>& x, const core::Vec3<double>& length) const {
  return rank_of({slab_of(x.x, length.x, dims[0], planes[0]),
                  slab_of(x.y, length.y, dims[1], planes[1]),
                  slab_of(x.z, length.z, dims[2], planes[2])});
}

double BrickGrid::squared_distance(const core::Vec3<double>& x, int rank,
                                   const core::Vec3<double>& length) const {
  const auto c = coordinates(rank);
  const double p[3] = {x.x, x.y, x.z};
  const double l[3] = {length.x, length.y, length.z};
  double sum = 0.0;
  for (int a = 0; a < 3; ++a) {
    if (dims[a] == 1) continue;  // the brick spans the axis
    const double lo = lower(a, c[a]) * l[a];
    const double d = axis_distance(p[a], lo, upper(a, c[a]) * l[a] - lo, l[a]);
    sum += d * d;
  }
  return sum;
}

std::vector<double> planes_of(std::vector<double>& u, int slabs) {
  std::vector<double> planes;
  const std::size_t n = u.size();
  std::size_t done = 0;  // u[0, done) holds the `done` smallest values, unordered
  double below = 0.0;    // the largest of them (0: none yet)
  for (int k = 1; k < slabs; ++k) {
    const std::size_t m = static_cast<std::size_t>(k) * n / static_cast<std::size_t>(slabs);
    // u[m] becomes the value ranked m, and u[done, m) the ones ranked done .. m - 1.
    std::nth_element(u.begin() + static_cast<std::ptrdiff_t>(done),
                     u.begin() + static_cast<std::ptrdiff_t>(m), u.end());
    if (m > done)
      below = *std::max_element(u.begin() + static_cast<std::ptrdiff_t>(done),
                                u.begin() + static_cast<std::ptrdiff_t>(m));
    const double plane = m == 0 ? 0.5 * u[0] : 0.5 * (below + u[m]);
    // No plane below the one before (many ties, fewer particles than slabs): such a slab gets
    // zero width and no particles.
    planes.push_back(std::max(plane, planes.empty() ? 0.0 : planes.back()));
    done = m;
  }
  return planes;
}

BrickGrid least_halo_grid(int ranks, const core::Vec3<double>& length, double halo) {
  BrickGrid best;
  double best_volume = std::numeric_limits<double>::infinity();
  // Larger z (then y) factors first, so that ties keep the grid found first.
  for (int c = ranks; c >= 1; --c) {
    if (ranks % c != 0) continue;
    for (int b = ranks / c; b >= 1; --b) {
      if ((ranks / c) % b != 0) continue;
      const int a = ranks / (b * c);
      const double w[3] = {length.x / a, length.y / b, length.z / c};
      const int cuts[3] = {a, b, c};
      double grown = 1.0, brick = 1.0;
      for (int k = 0; k < 3; ++k) {
        grown *= w[k] + (cuts[k] > 1 ? 2.0 * halo : 0.0);
        brick *= w[k];
      }
      const double volume = grown - brick;
      if (volume < best_volume * (1.0 - 1e-12)) {
        best_volume = volume;
        best.dims = {a, b, c};
      }
    }
  }
  return best;
}

BrickGrid choose_brick_grid(int ranks, const core::Vec3<double>& length, double halo,
                            const std::optional<std::array<int, 3>>& configured,
                            const std::string& origin) {
  if (!configured) return least_halo_grid(ranks, length, halo);
  const BrickGrid grid{*configured};
  if (grid.ranks() != ranks)
    throw core::InputError(fmt::format(
        "{}: [{}, {}, {}] has {} bricks, but the run has {} ranks (mpirun -np); expected a x b "
        "x c = {}, or auto",
        origin, grid.dims[0], grid.dims[1], grid.dims[2], grid.ranks(), ranks, ranks));
  return grid;
}

}  // namespace novamd::parallel
