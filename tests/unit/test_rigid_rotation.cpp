// NO_SQUISH rotation (integrate/rigid_rotation.hpp): the momentum's conversions, a free rotor's
// invariants, exact turns about a principal axis, and a dipole swinging in a field.

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "novamd/integrate/rigid_rotation.hpp"

namespace {

using novamd::core::Quaternion;
using V = novamd::core::Vec3<double>;
namespace core = novamd::core;
namespace integrate = novamd::integrate;

Quaternion<double> random_rotation(std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  return core::normalized(Quaternion<double>{g(rng), g(rng), g(rng), g(rng)});
}

void expect_near(const V& a, const V& b, double bound) {
  EXPECT_NEAR(a.x, b.x, bound);
  EXPECT_NEAR(a.y, b.y, bound);
  EXPECT_NEAR(a.z, b.z, bound);
}

TEST(RigidRotation, MomentumAndAngularMomentumConvertBothWays) {
  std::mt19937_64 rng(31);
  for (int n = 0; n < 50; ++n) {
    const auto q = random_rotation(rng);
    const V L{0.3 * n - 2.0, 1.5, -0.7};
    // A handful of products of order-1 values: 1e-14.
    expect_near(integrate::body_angular_momentum(q, integrate::conjugate_momentum(q, L)), L, 1e-14);
  }
}

/// The angular momentum in the space frame: R(q) L.
V space_angular_momentum(const Quaternion<double>& q, const Quaternion<double>& p) {
  return core::rotate(q, integrate::body_angular_momentum(q, p));
}

TEST(RigidRotation, AFreeAsymmetricRotorKeepsItsInvariants) {
  std::mt19937_64 rng(32);
  const integrate::RotorInertia<double> inertia{{1.0, 2.0, 3.5}};
  auto q = random_rotation(rng);
  auto p = integrate::conjugate_momentum(q, V{0.8, -1.1, 0.6});
  const V L0 = space_angular_momentum(q, p);
  const double T0 = integrate::rotational_kinetic_energy(q, p, inertia);
  // The fastest turn takes |L| / I_1 ~ 1.5 rad per unit time; dt = 0.01 gives 0.015 rad a step.
  const double dt = 0.01;
  double largest_error = 0.0, first_quarter = 0.0, last_quarter = 0.0;
  const int steps = 40000;
  for (int s = 0; s < steps; ++s) {
    integrate::rotate_freely(q, p, inertia, dt);
    const double error = integrate::rotational_kinetic_energy(q, p, inertia) - T0;
    largest_error = std::max(largest_error, std::abs(error));
    if (s < steps / 4) first_quarter += error;
    if (s >= 3 * steps / 4) last_quarter += error;
  }
  // Each R_k keeps the space-frame L exactly: 4e4 steps of rounding, some 1e-16 each, grow
  // like a random walk to 1e-13; 1e-11 bounds it.
  expect_near(space_angular_momentum(q, p), L0, 1e-11);
  EXPECT_NEAR(core::norm_squared(q), 1.0, 1e-12);  // kept on the sphere by construction
  // The splitting keeps the energy to O(dt^2): (0.015)^2 of T0 bounds the error, and a
  // symplectic map does not drift (the quarters' means agree to far less than that).
  EXPECT_LT(largest_error, 2.25e-4 * T0);
  EXPECT_GT(largest_error, 1e-9 * T0);  // the splitting's error is there to be seen
  EXPECT_LT(std::abs(last_quarter - first_quarter) / (steps / 4), 1e-5 * T0);
}

TEST(RigidRotation, TurnsAboutAPrincipalAxisExactly) {
  // With L along body axis k alone the motion is a uniform turn at omega = L_k / I_k, which
  // every R_j reproduces exactly (R_j for j != k does nothing): after t, q e^(e_k omega t / 2).
  std::mt19937_64 rng(33);
  const integrate::RotorInertia<double> inertia{{1.0, 2.0, 3.5}};
  const auto q0 = random_rotation(rng);
  for (int k = 0; k < 3; ++k) {
    V L{};
    (k == 0 ? L.x : k == 1 ? L.y : L.z) = 0.9;
    auto q = q0;
    auto p = integrate::conjugate_momentum(q, L);
    const double dt = 0.05;
    for (int s = 0; s < 1000; ++s) integrate::rotate_freely(q, p, inertia, dt);
    const double angle = 0.9 / inertia.moment(k) * dt * 1000;
    const V axis{k == 0 ? 1.0 : 0.0, k == 1 ? 1.0 : 0.0, k == 2 ? 1.0 : 0.0};
    const auto expected = q0 * core::from_axis_angle(axis, angle);
    // 1,000 steps of a few roundings each, on values of order 1: 1e-12.
    EXPECT_NEAR(integrate::dot4(q, expected), 1.0, 1e-12) << "axis " << k;
  }
}

TEST(RigidRotation, ADipoleSwingsInAFieldAtItsPendulumPeriod) {
  // A molecule of moments (1, 1.5, 2) with a dipole mu along body x in a field E along space z:
  // U = -mu . E, torque mu x E. A turn of -pi/2 about y takes body x to space z and body z to
  // space -x; tilted 0.05 rad about space x, it swings about space x, its body z, with the
  // small-angle period 2 pi sqrt(I_3 / (mu E)).
  const integrate::RotorInertia<double> inertia{{1.0, 1.5, 2.0}};
  const double mu = 2.0, E = 0.5;
  const V field{0, 0, E};
  auto q = core::from_axis_angle(V{0, 1, 0}, -std::numbers::pi / 2);
  q = core::from_axis_angle(V{1, 0, 0}, 0.05) * q;
  Quaternion<double> p{0, 0, 0, 0};
  const auto dipole = [&] { return mu * core::rotate(q, V{1, 0, 0}); };
  const auto energy = [&] {
    return integrate::rotational_kinetic_energy(q, p, inertia) - core::dot(dipole(), field);
  };
  const double E0 = energy(), dt = 0.005;
  double largest_error = 0.0;
  int crossings = 0;
  double previous = core::dot(dipole(), V{0, 1, 0}), first = -1.0, last = 0.0;
  for (int s = 1; s <= 20000; ++s) {
    integrate::kick_rotation(q, p, core::cross(dipole(), field), dt / 2, inertia);
    integrate::rotate_freely(q, p, inertia, dt);
    integrate::kick_rotation(q, p, core::cross(dipole(), field), dt / 2, inertia);
    largest_error = std::max(largest_error, std::abs(energy() - E0));
    const double now = core::dot(dipole(), V{0, 1, 0});  // the swing's coordinate
    if (previous > 0 && now <= 0) {                      // a downward crossing: one per period
      if (first < 0) first = s * dt;
      last = s * dt;
      ++crossings;
    }
    previous = now;
  }
  const double period = (last - first) / (crossings - 1);
  const double small_angle = 2 * std::numbers::pi * std::sqrt(2.0 / (mu * E));
  // The finite amplitude lengthens the period by theta0^2 / 16 = 1.6e-4; the step's error is
  // O(dt^2 omega^2) = 2.5e-5: 5e-4 bounds both.
  EXPECT_NEAR(period, small_angle, 5e-4 * small_angle);
  EXPECT_GT(crossings, 10);
  // Velocity Verlet's energy error, O((omega dt)^2) of the swing's energy (mu E theta0^2 / 2).
  EXPECT_LT(largest_error, 1e-4 * mu * E * 0.05 * 0.05);
}

TEST(RigidRotation, ALinearMoleculeNeverTurnsAboutItsAxis) {
  std::mt19937_64 rng(34);
  const integrate::RotorInertia<double> inertia{{0.0, 3.0, 3.0}, 2};
  auto q = random_rotation(rng);
  auto p = integrate::conjugate_momentum(q, V{0.0, 0.4, -0.9});
  const V axis0 = core::rotate(q, V{1, 0, 0});
  for (int s = 0; s < 1000; ++s) {
    integrate::kick_rotation(q, p, V{0.3, -0.2, 0.5}, 0.005, inertia);  // any torque
    integrate::rotate_freely(q, p, inertia, 0.01);
  }
  // L_1 is set to 0 at every turn; what is left is the rounding of p . P_1 q: 1e-15.
  EXPECT_NEAR(integrate::body_angular_momentum(q, p).x, 0.0, 1e-15);
  EXPECT_TRUE(std::isfinite(integrate::rotational_kinetic_energy(q, p, inertia)));
  EXPECT_LT(core::dot(core::rotate(q, V{1, 0, 0}), axis0), 0.999);  // the axis did turn
}

TEST(RigidRotation, AFreeLinearRotorTurnsExactly) {
  // Its free turn is exact: the energy and the space-frame L stay to rounding (some ten roundings
  // a step, 1e-15, adding up over 1,000 steps to 1e-12 at worst), and the axis comes back after
  // one period 2 pi I / |L|.
  std::mt19937_64 rng(35);
  const integrate::RotorInertia<double> inertia{{0.0, 3.0, 3.0}, 2};
  auto q = random_rotation(rng);
  auto p = integrate::conjugate_momentum(q, V{0.0, 0.4, -0.9});
  const V L0 = space_angular_momentum(q, p), axis0 = core::rotate(q, V{1, 0, 0});
  const double T0 = integrate::rotational_kinetic_energy(q, p, inertia);
  const double period = 2 * std::numbers::pi * 3.0 / std::sqrt(0.4 * 0.4 + 0.9 * 0.9);
  const int steps = 1000;
  for (int s = 0; s < steps; ++s) integrate::rotate_freely(q, p, inertia, period / steps);
  EXPECT_NEAR(integrate::rotational_kinetic_energy(q, p, inertia), T0, 1e-12 * T0);
  expect_near(space_angular_momentum(q, p), L0, 1e-12);
  expect_near(core::rotate(q, V{1, 0, 0}), axis0, 1e-12);
}

TEST(RigidRotation, APointDoesNotTurn) {
  // A molecule whose mass sits at one point has no moment: no turn, no rotational energy, and
  // a torque leaves it as it is (nothing divides by its zero moments).
  const integrate::RotorInertia<double> inertia{{0.0, 0.0, 0.0}, 0};
  std::mt19937_64 rng(36);
  const auto q0 = random_rotation(rng);
  auto q = q0;
  Quaternion<double> p{0.0, 0.0, 0.0, 0.0};
  integrate::kick_rotation(q, p, V{1.0, 2.0, 3.0}, 0.01, inertia);
  integrate::rotate_freely(q, p, inertia, 0.01);
  EXPECT_EQ(q.w, q0.w);
  EXPECT_EQ(q.x, q0.x);
  EXPECT_EQ(p.w, 0.0);
  EXPECT_EQ(p.z, 0.0);
  EXPECT_EQ(integrate::rotational_kinetic_energy(q, p, inertia), 0.0);
}

}  // namespace
