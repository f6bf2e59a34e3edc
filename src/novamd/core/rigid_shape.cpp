#include "novamd/core/rigid_shape.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include "novamd/core/error.hpp"

namespace novamd::core {
namespace {

using Matrix = std::array<std::array<double, 3>, 3>;

double off_diagonal(const Matrix& a) {
  return a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
}

/// One Jacobi rotation in the (p, q) plane that zeroes a[p][q]; v accumulates the rotations.
void rotate_plane(Matrix& a, Matrix& v, int p, int q) {
  if (a[p][q] == 0.0) return;
  const double theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
  const double t = (theta >= 0.0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1.0));
  const double c = 1.0 / std::sqrt(t * t + 1.0), s = t * c;
  for (int k = 0; k < 3; ++k) {  // a <- a J (columns p and q)
    const double akp = a[k][p], akq = a[k][q];
    a[k][p] = c * akp - s * akq;
    a[k][q] = s * akp + c * akq;
  }
  for (int k = 0; k < 3; ++k) {  // a <- J^T a (rows p and q)
    const double apk = a[p][k], aqk = a[q][k];
    a[p][k] = c * apk - s * aqk;
    a[q][k] = s * apk + c * aqk;
  }
  for (int k = 0; k < 3; ++k) {  // v <- v J
    const double vkp = v[k][p], vkq = v[k][q];
    v[k][p] = c * vkp - s * vkq;
    v[k][q] = s * vkp + c * vkq;
  }
}

}  // namespace

SymmetricEigen symmetric_eigen(const Matrix& input) {
  Matrix a = input;
  Matrix v{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
  const double scale =
      std::abs(a[0][0]) + std::abs(a[1][1]) + std::abs(a[2][2]) + std::sqrt(off_diagonal(a));
  // Cyclic sweeps converge quadratically: a handful reach the rounding level.
  for (int sweep = 0; sweep < 50 && off_diagonal(a) > 1e-32 * scale * scale; ++sweep)
    for (const auto& [p, q] : {std::pair{0, 1}, std::pair{0, 2}, std::pair{1, 2}})
      rotate_plane(a, v, p, q);
  std::array<int, 3> order{0, 1, 2};
  std::sort(order.begin(), order.end(), [&](int i, int j) { return a[i][i] < a[j][j]; });
  SymmetricEigen e;
  for (int r = 0; r < 3; ++r) {
    e.values[static_cast<std::size_t>(r)] = a[order[r]][order[r]];
  }
  for (int row = 0; row < 3; ++row)
    e.vectors[static_cast<std::size_t>(row)] = {v[row][order[0]], v[row][order[1]],
                                                v[row][order[2]]};
  // A proper rotation: the third axis is the cross product of the first two.
  const Vec3<double> c0{e.vectors[0].x, e.vectors[1].x, e.vectors[2].x};
  const Vec3<double> c1{e.vectors[0].y, e.vectors[1].y, e.vectors[2].y};
  const Vec3<double> c2 = cross(c0, c1);
  e.vectors[0].z = c2.x;
  e.vectors[1].z = c2.y;
  e.vectors[2].z = c2.z;
  return e;
}

RigidShape rigid_shape(std::span<const Vec3<double>> positions, std::span<const double> masses) {
  if (positions.size() != masses.size() || positions.empty())
    throw InputError(fmt::format("a rigid molecule needs one mass per site ({} sites, {} masses)",
                                 positions.size(), masses.size()));
  RigidShape shape;
  for (std::size_t k = 0; k < masses.size(); ++k) {
    if (!(masses[k] >= 0.0) || !std::isfinite(masses[k]))
      throw InputError(
          fmt::format("site {}'s mass is {}; expected a mass of 0 or more", k + 1, masses[k]));
    shape.mass += masses[k];
    shape.centre += masses[k] * positions[k];
  }
  if (!(shape.mass > 0.0))
    throw InputError("a rigid molecule needs at least one site with a mass above 0");
  shape.centre = (1.0 / shape.mass) * shape.centre;

  Matrix inertia{};
  for (std::size_t k = 0; k < masses.size(); ++k) {
    const Vec3<double> d = positions[k] - shape.centre;
    const std::array<double, 3> c{d.x, d.y, d.z};
    const double d2 = dot(d, d);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        inertia[i][j] += masses[k] * ((i == j ? d2 : 0.0) - c[static_cast<std::size_t>(i)] *
                                                                c[static_cast<std::size_t>(j)]);
  }
  const SymmetricEigen e = symmetric_eigen(inertia);
  shape.moments = {std::max(e.values[0], 0.0), e.values[1], e.values[2]};
  shape.axes = from_rotation_matrix(e.vectors);
  const double largest = shape.moments.z;
  if (largest <= 0.0) {
    shape.rotational_freedom = 0;
    shape.moments = {};
  } else if (shape.moments.x < 1e-10 * largest) {
    shape.rotational_freedom = 2;
    shape.moments.x = 0.0;
  }
  shape.body.reserve(positions.size());
  for (const auto& p : positions) shape.body.push_back(rotate_back(shape.axes, p - shape.centre));
  return shape;
}

}  // namespace novamd::core
