// Quaternions (core/quaternion.hpp) and rigid molecules' principal frames (core/rigid_shape.hpp):
// rotations against their matrices and back, and the mass distribution of molecules of known
// shape in any orientation.

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "novamd/core/error.hpp"
#include "novamd/core/quaternion.hpp"
#include "novamd/core/rigid_shape.hpp"

namespace {

using novamd::core::Quaternion;
using V = novamd::core::Vec3<double>;
namespace core = novamd::core;

double norm(const V& v) {
  return std::sqrt(core::dot(v, v));
}

Quaternion<double> random_rotation(std::mt19937_64& rng) {
  std::normal_distribution<double> g;  // a uniform point on the 3-sphere
  return core::normalized(Quaternion<double>{g(rng), g(rng), g(rng), g(rng)});
}

V random_vector(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  return {u(rng), u(rng), u(rng)};
}

void expect_near(const V& a, const V& b, double bound) {
  EXPECT_NEAR(a.x, b.x, bound);
  EXPECT_NEAR(a.y, b.y, bound);
  EXPECT_NEAR(a.z, b.z, bound);
}

// Each product or rotation is a few dozen roundings of values of order 1: 1e-14 bounds them.
constexpr double kRounding = 1e-14;

TEST(Quaternion, RotatesAsItsMatrixAndBack) {
  std::mt19937_64 rng(21);
  for (int n = 0; n < 100; ++n) {
    const auto q = random_rotation(rng);
    const V v = random_vector(rng);
    const auto m = core::rotation_matrix(q);
    const V by_matrix{core::dot(m[0], v), core::dot(m[1], v), core::dot(m[2], v)};
    expect_near(core::rotate(q, v), by_matrix, kRounding);
    expect_near(core::rotate_back(q, core::rotate(q, v)), v, kRounding);
    EXPECT_NEAR(norm(core::rotate(q, v)), norm(v), kRounding);
    // The matrix round trip gives q back (or -q, the same rotation; w >= 0 picks one).
    const auto back = core::from_rotation_matrix(m);
    const double sign = q.w >= 0 ? 1.0 : -1.0;
    EXPECT_NEAR(back.w, sign * q.w, kRounding);
    EXPECT_NEAR(back.x, sign * q.x, kRounding);
    EXPECT_NEAR(back.y, sign * q.y, kRounding);
    EXPECT_NEAR(back.z, sign * q.z, kRounding);
  }
}

TEST(Quaternion, ComposesRotationsAndTurnsAboutItsAxis) {
  std::mt19937_64 rng(22);
  const auto a = random_rotation(rng), b = random_rotation(rng);
  const V v = random_vector(rng);
  expect_near(core::rotate(a * b, v), core::rotate(a, core::rotate(b, v)), kRounding);
  // A quarter turn about z takes x to y (right-handed).
  const auto quarter = core::from_axis_angle(V{0, 0, 1}, std::numbers::pi / 2);
  expect_near(core::rotate(quarter, V{1, 0, 0}), V{0, 1, 0}, kRounding);
  // A million compositions of small turns drift off the unit sphere by rounding alone, and
  // normalising puts them back.
  Quaternion<double> q;
  const auto turn = core::from_axis_angle(core::rotate(a, V{0, 0, 1}), 1e-3);
  for (int n = 0; n < 1000000; ++n) q = q * turn;
  EXPECT_NEAR(core::norm_squared(q), 1.0, 1e-9);
  EXPECT_NEAR(core::norm_squared(core::normalized(q)), 1.0, 1e-15);  // a few ulp
}

/// The sites' positions after turning the body `body` by q and moving it to `centre`.
std::vector<V> placed(const std::vector<V>& body, const Quaternion<double>& q, const V& centre) {
  std::vector<V> out;
  for (const V& b : body) out.push_back(centre + core::rotate(q, b));
  return out;
}

/// The shape puts every site back (given = centre + R(axes) body) and its body frame is principal
/// (the products of inertia vanish there), within `bound`.
void expect_principal_frame_of(const core::RigidShape& shape, const std::vector<V>& sites,
                               const std::vector<double>& masses, double bound) {
  for (std::size_t k = 0; k < sites.size(); ++k)
    expect_near(shape.centre + core::rotate(shape.axes, shape.body[k]), sites[k], bound);
  double xy = 0, xz = 0, yz = 0;
  for (std::size_t k = 0; k < sites.size(); ++k) {
    xy += masses[k] * shape.body[k].x * shape.body[k].y;
    xz += masses[k] * shape.body[k].x * shape.body[k].z;
    yz += masses[k] * shape.body[k].y * shape.body[k].z;
  }
  EXPECT_NEAR(xy, 0.0, bound);
  EXPECT_NEAR(xz, 0.0, bound);
  EXPECT_NEAR(yz, 0.0, bound);
}

TEST(RigidShape, FindsThePrincipalFrameOfAMoleculeInAnyOrientation) {
  // Three unequal masses in the plane z = 0 with their centre of mass at the origin
  // (sum m x = 2 - 5 + 3 = 0, sum m y = -1.5 + 1.5 = 0) but a product of inertia
  // (sum m x y = -3 - 3.75): the frame as given is not principal, and the rotations must find it.
  const std::vector<double> masses{1.0, 2.0, 3.0};
  const std::vector<V> body{{2.0, -1.5, 0.0}, {-2.5, 0.75, 0.0}, {1.0, 0.0, 0.0}};
  std::mt19937_64 rng(23);
  const auto reference = core::rigid_shape(body, masses);
  EXPECT_DOUBLE_EQ(reference.mass, 6.0);
  EXPECT_EQ(reference.rotational_freedom, 3);
  // Planar: I_3 = I_1 + I_2 (the perpendicular axis theorem).
  EXPECT_NEAR(reference.moments.z, reference.moments.x + reference.moments.y, 1e-13);
  EXPECT_LT(reference.moments.x, reference.moments.y);
  for (int n = 0; n < 20; ++n) {
    const auto q = random_rotation(rng);
    const V centre = random_vector(rng);
    const auto sites = placed(body, q, centre);
    const auto shape = core::rigid_shape(sites, masses);
    expect_near(shape.centre, centre, kRounding);
    expect_near(shape.moments, reference.moments, 1e-13);  // invariant under rotation
    expect_principal_frame_of(shape, sites, masses, 1e-13);
  }
}

TEST(RigidShape, LinearMoleculesTurnAboutTwoAxesAndPointsAboutNone) {
  // CO2-like: O at -+1.16, C at the centre, a massless quadrupole site at the centre too.
  std::mt19937_64 rng(24);
  const std::vector<V> body{{-1.16, 0, 0}, {0, 0, 0}, {1.16, 0, 0}, {0, 0, 0}};
  const std::vector<double> masses{15.999, 12.011, 15.999, 0.0};
  const auto q = random_rotation(rng);
  const auto shape = core::rigid_shape(placed(body, q, V{1, 2, 3}), masses);
  EXPECT_EQ(shape.rotational_freedom, 2);
  EXPECT_EQ(shape.moments.x, 0.0);
  const double moment = 2 * 15.999 * 1.16 * 1.16;
  EXPECT_NEAR(shape.moments.y, moment, 1e-12 * moment);
  EXPECT_NEAR(shape.moments.z, moment, 1e-12 * moment);
  // The molecule's axis is body x.
  EXPECT_NEAR(std::abs(shape.body[2].x), 1.16, 1e-13);
  EXPECT_NEAR(shape.body[2].y, 0.0, 1e-13);
  EXPECT_NEAR(shape.body[2].z, 0.0, 1e-13);

  const std::vector<V> point{{0.5, 0.5, 0.5}, {0.5, 0.5, 0.5}};
  const auto stockmayer = core::rigid_shape(point, std::vector<double>{1.0, 0.0});
  EXPECT_EQ(stockmayer.rotational_freedom, 0);
}

TEST(RigidShape, FindsAFrameForSphericalAndSymmetricTops) {
  // Equal moments leave the axes free within their plane or space; whatever the decomposition
  // picks must still be a proper rotation that puts the sites back and makes the products vanish.
  std::mt19937_64 rng(25);
  const std::vector<V> tetrahedron{{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
  const std::vector<V> pyramid{{0, 0, 0.4},
                               {0.9, 0, -0.1},
                               {-0.45, 0.78, -0.1},
                               {-0.45, -0.78, -0.1}};  // NH3-like: I_1 = I_2 < I_3 or the reverse
  for (const auto* body : {&tetrahedron, &pyramid}) {
    const std::vector<double> masses = body == &tetrahedron
                                           ? std::vector<double>{1.0, 1.0, 1.0, 1.0}
                                           : std::vector<double>{14.0, 1.0, 1.0, 1.0};
    const auto q = random_rotation(rng);
    const auto sites = placed(*body, q, V{0.5, -1.0, 2.0});
    const auto shape = core::rigid_shape(sites, masses);
    EXPECT_EQ(shape.rotational_freedom, 3);
    EXPECT_NEAR(core::norm_squared(shape.axes), 1.0, 1e-14);
    expect_principal_frame_of(shape, sites, masses, 1e-12);
  }
  // The tetrahedron is a spherical top: three equal moments of 8 (sum m (y^2 + z^2)).
  const auto sphere = core::rigid_shape(tetrahedron, std::vector<double>{1.0, 1.0, 1.0, 1.0});
  EXPECT_NEAR(sphere.moments.x, 8.0, 1e-12);
  EXPECT_NEAR(sphere.moments.z, 8.0, 1e-12);
}

TEST(RigidShape, RefusesMassesThatCannotMakeAMolecule) {
  const std::vector<V> two{{0, 0, 0}, {1, 0, 0}};
  EXPECT_THROW(core::rigid_shape(two, std::vector<double>{0.0, 0.0}), core::InputError);
  EXPECT_THROW(core::rigid_shape(two, std::vector<double>{1.0, -1.0}), core::InputError);
  EXPECT_THROW(core::rigid_shape(two, std::vector<double>{1.0}), core::InputError);
}

}  // namespace
