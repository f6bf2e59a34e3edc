// The constraint solvers of one cluster (constraints/settle.hpp, cluster_constraints.hpp) on
// fresh random input: SETTLE restores a rigid SPC/E water's three distances to round-off, keeps
// the centre of mass, and agrees with SHAKE iterated to a tight tolerance (both solve the same
// equations: displacements along the old bonds); SHAKE meets its tolerance on a methyl group;
// RATTLE's velocity step leaves no velocity along any constraint, keeps the momentum and never
// adds kinetic energy; dependent constraints are refused.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>

#include "novamd/constraints/cluster_constraints.hpp"
#include "novamd/constraints/settle.hpp"

namespace {

using novamd::constraints::ConstraintCluster;
using novamd::constraints::rattle_velocities;
using novamd::constraints::settle_positions;
using novamd::constraints::shake_positions;
using novamd::constraints::Water;
using novamd::constraints::WaterGeometry;
using novamd::core::Vec3;

double length(const Vec3<double>& v) {
  return std::sqrt(novamd::core::dot(v, v));
}

/// SPC/E (Berendsen, Grigera and Straatsma, J. Phys. Chem. 91, 6269 (1987)): O-H 1 A, H-O-H
/// 109.47 degrees; masses 15.9994 and 1.008.
WaterGeometry spce() {
  const double angle = 109.47 * std::numbers::pi / 180.0;
  return {1.0, 2.0 * std::sin(0.5 * angle), 15.9994, 1.008};
}

/// A random rotation applied to v (rotations by random angles about x, then y, then z).
struct Rotation {
  double a, b, c;
  Vec3<double> operator()(Vec3<double> v) const {
    v = {v.x, std::cos(a) * v.y - std::sin(a) * v.z, std::sin(a) * v.y + std::cos(a) * v.z};
    v = {std::cos(b) * v.x + std::sin(b) * v.z, v.y, -std::sin(b) * v.x + std::cos(b) * v.z};
    return {std::cos(c) * v.x - std::sin(c) * v.y, std::sin(c) * v.x + std::cos(c) * v.y, v.z};
  }
};

/// A water of geometry g at a random place and orientation.
Water random_water(const WaterGeometry& g, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const Rotation turn{2 * std::numbers::pi * unit(rng), 2 * std::numbers::pi * unit(rng),
                      2 * std::numbers::pi * unit(rng)};
  const Vec3<double> at{30 * unit(rng), 30 * unit(rng), 30 * unit(rng)};
  const double half = 0.5 * g.d_hh, height = std::sqrt(g.d_oh * g.d_oh - half * half);
  return {at + turn({0, height, 0}), at + turn({-half, 0, 0}), at + turn({half, 0, 0})};
}

/// Each site moved by up to `step` along each axis (a drift of a few femtoseconds).
Water moved(const Water& w, double step, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> shift(-step, step);
  const auto move = [&](Vec3<double> p) {
    return p + Vec3<double>{shift(rng), shift(rng), shift(rng)};
  };
  return {move(w.o), move(w.h1), move(w.h2)};
}

ConstraintCluster<3, 3> water_cluster(const WaterGeometry& g) {
  ConstraintCluster<3, 3> c;
  c.particles = 3;
  c.constraints = 3;
  c.inverse_mass[0] = 1.0 / g.m_o;
  c.inverse_mass[1] = c.inverse_mass[2] = 1.0 / g.m_h;
  c.constraint[0] = {0, 1, g.d_oh};
  c.constraint[1] = {0, 2, g.d_oh};
  c.constraint[2] = {1, 2, g.d_hh};
  return c;
}

TEST(Settle, RestoresTheRigidGeometryAndKeepsTheCentreOfMass) {
  const WaterGeometry g = spce();
  std::mt19937_64 rng(1992);
  for (int trial = 0; trial < 1000; ++trial) {
    const Water before = random_water(g, rng);
    const Water after = moved(before, 0.1, rng);
    const Water w = settle_positions(before, after, g);
    ASSERT_NEAR(length(w.o - w.h1), g.d_oh, 1e-12) << trial;
    ASSERT_NEAR(length(w.o - w.h2), g.d_oh, 1e-12) << trial;
    ASSERT_NEAR(length(w.h1 - w.h2), g.d_hh, 1e-12) << trial;
    const auto com = [&](const Water& x) {
      return (1.0 / (g.m_o + 2 * g.m_h)) * (g.m_o * x.o + g.m_h * (x.h1 + x.h2));
    };
    ASSERT_NEAR(length(com(w) - com(after)), 0.0, 1e-12) << trial;
  }
}

TEST(Settle, AgreesWithShakeAtATightTolerance) {
  const WaterGeometry g = spce();
  const auto cluster = water_cluster(g);
  std::mt19937_64 rng(1977);
  double worst = 0.0;
  for (int trial = 0; trial < 1000; ++trial) {
    const Water before = random_water(g, rng);
    const Water after = moved(before, 0.05, rng);
    const Water settled = settle_positions(before, after, g);
    const Vec3<double> old[3] = {before.o, before.h1, before.h2};
    Vec3<double> r[3] = {after.o, after.h1, after.h2};
    const auto shake = shake_positions(cluster, old, r, 1e-14, 10000);
    ASSERT_TRUE(shake.converged) << trial << ": " << shake.worst;
    worst = std::fmax(worst, length(settled.o - r[0]));
    worst = std::fmax(worst, length(settled.h1 - r[1]));
    worst = std::fmax(worst, length(settled.h2 - r[2]));
  }
  // SHAKE stops within 1e-14 of each length (some 1e-14 A); SETTLE is exact to round-off.
  std::printf("SETTLE against SHAKE (1e-14): largest position difference %.3g A\n", worst);
  EXPECT_LT(worst, 1e-10);
}

/// C with three hydrogens at 1.09 A (the H-C-H angles left free: three constraints).
ConstraintCluster<4, 3> methyl_group() {
  ConstraintCluster<4, 3> methyl;
  methyl.particles = 4;
  methyl.constraints = 3;
  methyl.inverse_mass[0] = 1.0 / 12.011;
  for (int h = 1; h <= 3; ++h) {
    methyl.inverse_mass[h] = 1.0 / 1.008;
    methyl.constraint[h - 1] = {0, h, 1.09};
  }
  return methyl;
}

TEST(Shake, MeetsItsToleranceOnAMethylGroup) {
  const ConstraintCluster<4, 3> methyl = methyl_group();
  std::mt19937_64 rng(1983);
  std::uniform_real_distribution<double> shift(-0.05, 0.05);
  for (int trial = 0; trial < 200; ++trial) {
    const double t = 2 * std::numbers::pi * trial / 200.0;
    const Vec3<double> before[4] = {{0, 0, 0},
                                    {1.09, 0, 0},
                                    {1.09 * std::cos(1.9), 1.09 * std::sin(1.9), 0},
                                    {1.09 * std::cos(t), 0.3, 1.09 * std::sin(t) * 0.9}};
    Vec3<double> fixed[4] = {before[0], before[1], before[2], before[3]};
    fixed[3] = (1.09 / length(before[3])) * before[3];  // the third bond at its length too
    Vec3<double> r[4];
    for (int p = 0; p < 4; ++p) r[p] = fixed[p] + Vec3<double>{shift(rng), shift(rng), shift(rng)};
    for (const double tolerance : {1e-6, 1e-10}) {
      Vec3<double> x[4] = {r[0], r[1], r[2], r[3]};
      const auto result = shake_positions(methyl, fixed, x, tolerance, 1000);
      ASSERT_TRUE(result.converged) << trial;
      for (int h = 1; h <= 3; ++h)
        ASSERT_LE(std::fabs(length(x[0] - x[h]) - 1.09), 1.09 * 1.01 * tolerance) << trial;
    }
  }
}

// SHAKE solves a cluster's constraints together (Newton's method), so the deviation falls
// quadratically: from the shifts of a 2 fs step (up to 0.05 A per coordinate) to 1e-10 of each
// length in at most four iterations, where sweeping one constraint at a time took some ten.
TEST(Shake, ConvergesQuadraticallyOnAMethylGroup) {
  const ConstraintCluster<4, 3> methyl = methyl_group();
  const double a = 1.09 / std::sqrt(3.0);
  const Vec3<double> before[4] = {{0, 0, 0}, {a, a, a}, {a, -a, -a}, {-a, a, -a}};
  std::mt19937_64 rng(2001);
  std::uniform_real_distribution<double> shift(-0.05, 0.05);
  int most = 0;
  for (int trial = 0; trial < 1000; ++trial) {
    Vec3<double> r[4];
    for (int p = 0; p < 4; ++p) r[p] = before[p] + Vec3<double>{shift(rng), shift(rng), shift(rng)};
    const auto result = shake_positions(methyl, before, r, 1e-10, 1000);
    ASSERT_TRUE(result.converged) << trial;
    for (int h = 1; h <= 3; ++h)
      ASSERT_LE(std::fabs(length(r[0] - r[h]) - 1.09), 1.09 * 1.01e-10) << trial;
    most = std::max(most, result.iterations);
  }
  EXPECT_LE(most, 4);
}

TEST(Rattle, LeavesNoVelocityAlongAConstraintAndKeepsTheMomentum) {
  const WaterGeometry g = spce();
  const auto cluster = water_cluster(g);
  std::mt19937_64 rng(1983);
  std::normal_distribution<double> normal(0.0, 1.0);
  const double mass[3] = {g.m_o, g.m_h, g.m_h};
  for (int trial = 0; trial < 1000; ++trial) {
    const Water w = random_water(g, rng);
    const Vec3<double> r[3] = {w.o, w.h1, w.h2};
    Vec3<double> v[3];
    for (auto& u : v) u = {normal(rng), normal(rng), normal(rng)};
    const Vec3<double> original[3] = {v[0], v[1], v[2]};
    ASSERT_TRUE(rattle_velocities(cluster, r, v));
    Vec3<double> momentum{0, 0, 0}, momentum_before{0, 0, 0};
    double kinetic = 0, kinetic_before = 0;
    for (int p = 0; p < 3; ++p) {
      momentum += mass[p] * v[p];
      momentum_before += mass[p] * original[p];
      kinetic += 0.5 * mass[p] * novamd::core::dot(v[p], v[p]);
      kinetic_before += 0.5 * mass[p] * novamd::core::dot(original[p], original[p]);
    }
    for (int k = 0; k < 3; ++k) {
      const auto& c = cluster.constraint[k];
      const Vec3<double> s = r[c.i] - r[c.j];
      ASSERT_NEAR(novamd::core::dot(s, v[c.i] - v[c.j]), 0.0, 1e-12) << trial;
    }
    ASSERT_NEAR(length(momentum - momentum_before), 0.0, 1e-12) << trial;
    ASSERT_LE(kinetic, kinetic_before * (1 + 1e-14)) << trial;
    ASSERT_LT(kinetic, kinetic_before) << trial;  // random velocities do move along the bonds
  }
}

TEST(Rattle, RefusesDependentConstraints) {
  ConstraintCluster<2, 2> twice;  // the same pair constrained twice: a singular system
  twice.particles = 2;
  twice.constraints = 2;
  twice.inverse_mass[0] = twice.inverse_mass[1] = 1.0;
  twice.constraint[0] = twice.constraint[1] = {0, 1, 1.0};
  const Vec3<double> r[2] = {{0, 0, 0}, {1, 0, 0}};
  Vec3<double> v[2] = {{1, 0, 0}, {0, 0, 0}};
  EXPECT_FALSE(rattle_velocities(twice, r, v));
  EXPECT_EQ(v[0].x, 1.0);  // unchanged
}

}  // namespace
