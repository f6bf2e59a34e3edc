// Rigid molecules' random starts (core/random_orientation.hpp): orientations uniform over the
// rotations and angular momenta of the right variance, each the same for the same seed and id.

#include <gtest/gtest.h>

#include <cmath>

#include "novamd/core/random_orientation.hpp"

namespace {

namespace core = novamd::core;
using V = core::Vec3<double>;

TEST(RandomOrientation, TurnsAnAxisUniformlyOverTheSphere) {
  // Uniform rotations take body z to a point uniform on the sphere: each coordinate has mean 0
  // and variance 1/3, and the mean of z^4 is 1/5. Over n = 40,000 molecules the means' standard
  // errors are sqrt(1/3 / n) = 0.0029, sqrt(4/45 / n) = 0.0015 (z^2) and 0.0013 (z^4); five of
  // them bound a fair draw's deviation.
  const int n = 40000;
  double x = 0, y = 0, z = 0, z2 = 0, z4 = 0, w = 0;
  for (int id = 0; id < n; ++id) {
    const auto q = core::random_orientation(7, static_cast<std::uint32_t>(id));
    EXPECT_NEAR(core::norm_squared(q), 1.0, 1e-15);
    EXPECT_GE(q.w, 0.0);
    const V e = core::rotate(q, V{0, 0, 1});
    x += e.x;
    y += e.y;
    z += e.z;
    z2 += e.z * e.z;
    z4 += e.z * e.z * e.z * e.z;
    w += q.w;
  }
  EXPECT_NEAR(x / n, 0.0, 5 * 0.0029);
  EXPECT_NEAR(y / n, 0.0, 5 * 0.0029);
  EXPECT_NEAR(z / n, 0.0, 5 * 0.0029);
  EXPECT_NEAR(z2 / n, 1.0 / 3.0, 5 * 0.0015);
  EXPECT_NEAR(z4 / n, 1.0 / 5.0, 5 * 0.0013);
  // A uniform rotation's quaternion is uniform on the 3-sphere, one coordinate of density
  // (2 / pi) sqrt(1 - w^2): the mean of |w| is 4 / (3 pi) = 0.4244, its standard deviation
  // 0.265, the mean's error 0.0013.
  EXPECT_NEAR(w / n, 4.0 / (3.0 * 3.141592653589793), 5 * 0.0013);
}

TEST(RandomOrientation, IsAFunctionOfSeedAndId) {
  const auto a = core::random_orientation(7, 12), b = core::random_orientation(7, 12);
  EXPECT_EQ(a.w, b.w);
  EXPECT_EQ(a.z, b.z);
  EXPECT_NE(core::random_orientation(8, 12).x, a.x);
  EXPECT_NE(core::random_orientation(7, 13).x, a.x);
}

TEST(ThermalAngularMomentum, HasTheVarianceOfEachMomentAndNoneAboutALinearAxis) {
  // <L_k^2> = I_k kT; over n = 20,000 draws the mean square's relative standard error is
  // sqrt(2 / n) = 0.01, and five of them bound it.
  const int n = 20000;
  const V moments{0.0, 2.0, 5.0};
  const double kT = 1.3;
  double x2 = 0, y2 = 0, z2 = 0;
  for (int id = 0; id < n; ++id) {
    const V L = core::thermal_angular_momentum(9, static_cast<std::uint32_t>(id), moments, kT);
    x2 += L.x * L.x;
    y2 += L.y * L.y;
    z2 += L.z * L.z;
  }
  EXPECT_EQ(x2, 0.0);
  EXPECT_NEAR(y2 / n, 2.0 * kT, 0.05 * 2.0 * kT);
  EXPECT_NEAR(z2 / n, 5.0 * kT, 0.05 * 5.0 * kT);
}

}  // namespace
