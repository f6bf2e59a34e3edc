// Two rigid molecules' interaction (forces/rigid_pair.hpp): the force and both torques as the
// energy's derivatives under translation and rotation, angular momentum kept, the pair's
// symmetry, and the energy shift and reaction field acting as they should.

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "novamd/forces/rigid_pair.hpp"

namespace {

using novamd::core::Quaternion;
using V = novamd::core::Vec3<double>;
namespace core = novamd::core;
namespace forces = novamd::forces;
using Site = forces::MoleculeSite<double>;
using forces::SiteKind;

Quaternion<double> random_rotation(std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  return core::normalized(Quaternion<double>{g(rng), g(rng), g(rng), g(rng)});
}

V unit(V v) {
  return (1.0 / std::sqrt(core::dot(v, v))) * v;
}

/// A molecule of every kind of site: two Lennard-Jones sites, a charge, a dipole and a
/// quadrupole (body frame, about its centre); and a second of one of each.
const std::vector<Site> kFirst{
    {SiteKind::LennardJones, {-0.6, 0.0, 0.0}, {}, 0.0, 0},
    {SiteKind::LennardJones, {0.6, 0.1, 0.0}, {}, 0.0, 1},
    {SiteKind::Charge, {0.0, 0.3, 0.1}, {}, 0.4, 0},
    {SiteKind::Dipole, {0.2, -0.2, 0.0}, unit({1.0, 0.5, 0.2}), 1.1, 0},
    {SiteKind::Quadrupole, {-0.1, 0.0, 0.3}, unit({0.0, 0.3, 1.0}), 0.9, 0}};
const std::vector<Site> kSecond{
    {SiteKind::LennardJones, {0.0, 0.0, 0.2}, {}, 0.0, 1},
    {SiteKind::Charge, {0.4, 0.0, 0.0}, {}, -0.7, 0},
    {SiteKind::Dipole, {-0.3, 0.1, 0.0}, unit({0.2, 1.0, -0.4}), 0.8, 0},
    {SiteKind::Quadrupole, {0.0, -0.4, 0.0}, unit({1.0, 0.0, 0.5}), -1.2, 0}};

struct Table {
  std::array<novamd::physics::LennardJones<double>::Params, 4> lj{
      novamd::physics::LennardJones<double>::make_params(1.0, 1.0),
      novamd::physics::LennardJones<double>::make_params(0.8, 1.1),
      novamd::physics::LennardJones<double>::make_params(0.8, 1.1),
      novamd::physics::LennardJones<double>::make_params(0.6, 1.2)};
  std::array<double, 4> shift{0.01, 0.02, 0.02, 0.03};

  forces::RigidPairParams<double> params(bool shifted, double reaction_field) const {
    return {lj.data(), shifted ? shift.data() : nullptr, 2, 1.0, reaction_field};
  }
};

struct Pair {
  Quaternion<double> qa, qb;
  V r;  ///< centre a less centre b
};

/// Molecule a's sites and molecule b's placed by their orientations.
std::vector<Site> placed(const std::vector<Site>& body, const Quaternion<double>& q) {
  std::vector<Site> out(body.size());
  forces::place_sites(body.data(), static_cast<int>(body.size()), q, out.data());
  return out;
}

forces::MoleculePairResult<double> evaluate(const Pair& p,
                                            const forces::RigidPairParams<double>& params) {
  const auto a = placed(kFirst, p.qa), b = placed(kSecond, p.qb);
  return forces::molecule_pair(a.data(), static_cast<int>(a.size()), b.data(),
                               static_cast<int>(b.size()), p.r, params);
}

std::vector<Pair> random_pairs(std::uint64_t seed, int count) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> distance(2.5, 5.0);
  std::normal_distribution<double> g;
  std::vector<Pair> pairs;
  for (int n = 0; n < count; ++n)
    pairs.push_back({random_rotation(rng), random_rotation(rng),
                     distance(rng) * unit({g(rng), g(rng), g(rng)})});
  return pairs;
}

/// The turn by angle h about the space axis `about`, applied to the orientation q.
Quaternion<double> turned(const Quaternion<double>& q, const V& about, double h) {
  return core::from_axis_angle(about, h) * q;
}

const std::array<V, 3> kAxes{V{1, 0, 0}, V{0, 1, 0}, V{0, 0, 1}};

double component(const V& v, std::size_t c) {
  return c == 0 ? v.x : c == 1 ? v.y : v.z;
}

TEST(RigidPair, ForceAndTorquesAreTheEnergysDerivatives) {
  // Central differences at h = 1e-5: their error h^2 U''' / 6 with U''' at most some 1e4 at
  // the closest sites (LJ at 0.9 sigma) stays near 1e-7, and the energy's rounding over 2h
  // (1e-16 x |U| / 1e-5) near 1e-10: 1e-6 bounds them.
  const Table table;
  const auto params = table.params(true, 0.0);
  const double h = 1e-5;
  for (const Pair& pair : random_pairs(41, 30)) {
    const auto result = evaluate(pair, params);
    for (std::size_t c = 0; c < 3; ++c) {
      Pair plus = pair, minus = pair;
      plus.r += h * kAxes[c];
      minus.r -= h * kAxes[c];
      const double dU = evaluate(plus, params).energy - evaluate(minus, params).energy;
      EXPECT_NEAR(component(result.force_on_i, c), -dU / (2 * h), 1e-6);
      plus = minus = pair;
      plus.qa = turned(pair.qa, kAxes[c], h);
      minus.qa = turned(pair.qa, kAxes[c], -h);
      const double dUa = evaluate(plus, params).energy - evaluate(minus, params).energy;
      EXPECT_NEAR(component(result.torque_on_i, c), -dUa / (2 * h), 1e-6);
      plus = minus = pair;
      plus.qb = turned(pair.qb, kAxes[c], h);
      minus.qb = turned(pair.qb, kAxes[c], -h);
      const double dUb = evaluate(plus, params).energy - evaluate(minus, params).energy;
      EXPECT_NEAR(component(result.torque_on_j, c), -dUb / (2 * h), 1e-6);
    }
  }
}

TEST(RigidPair, KeepsAngularMomentumAndTheSymmetryOfThePair) {
  const Table table;
  const auto params = table.params(true, 0.002);
  for (const Pair& pair : random_pairs(42, 30)) {
    const auto ab = evaluate(pair, params);
    const V total = ab.torque_on_i + ab.torque_on_j + core::cross(pair.r, ab.force_on_i);
    // A sum of some 50 site terms of order 1 to 1e3 (LJ near sigma): 1e-11 bounds the rounding.
    EXPECT_NEAR(total.x, 0.0, 1e-11);
    EXPECT_NEAR(total.y, 0.0, 1e-11);
    EXPECT_NEAR(total.z, 0.0, 1e-11);
    // The same pair seen from the other molecule: the same energy, the opposite force, the
    // torques exchanged (the same terms summed in another order: 1e-12).
    const auto a = placed(kFirst, pair.qa), b = placed(kSecond, pair.qb);
    const auto ba = forces::molecule_pair(b.data(), static_cast<int>(b.size()), a.data(),
                                          static_cast<int>(a.size()), -1.0 * pair.r, params);
    EXPECT_NEAR(ba.energy, ab.energy, 1e-12 * (1 + std::abs(ab.energy)));
    for (std::size_t c = 0; c < 3; ++c) {
      EXPECT_NEAR(component(ba.force_on_i, c), -component(ab.force_on_i, c), 1e-11);
      EXPECT_NEAR(component(ba.torque_on_i, c), component(ab.torque_on_j, c), 1e-11);
      EXPECT_NEAR(component(ba.torque_on_j, c), component(ab.torque_on_i, c), 1e-11);
    }
  }
}

TEST(RigidPair, TheShiftMovesOnlyTheEnergyAndTheReactionFieldOnlyTurns) {
  const Table table;
  const Pair pair = random_pairs(43, 1).front();
  const auto plain = evaluate(pair, table.params(false, 0.0));
  const auto shifted = evaluate(pair, table.params(true, 0.0));
  // Two LJ sites against one of type 1: the shifts of type pairs (0, 1) and (1, 1).
  EXPECT_NEAR(shifted.energy - plain.energy, 0.02 + 0.03, 1e-14);
  EXPECT_EQ(shifted.force_on_i.x, plain.force_on_i.x);
  const double rf = 0.01;
  const auto field = evaluate(pair, table.params(false, rf));
  EXPECT_EQ(field.force_on_i.x, plain.force_on_i.x);
  // One dipole pair: -k mu_a mu_b rf g, and the torque rf k mu_a mu_b e_a x e_b on a.
  const V ea = core::rotate(pair.qa, kFirst[3].axis), eb = core::rotate(pair.qb, kSecond[2].axis);
  const double k = 1.1 * 0.8 * rf;
  EXPECT_NEAR(field.energy - plain.energy, -k * core::dot(ea, eb), 1e-14);
  const V turn = k * core::cross(ea, eb);
  EXPECT_NEAR(field.torque_on_i.x - plain.torque_on_i.x, turn.x, 1e-14);
  EXPECT_NEAR(field.torque_on_j.y - plain.torque_on_j.y, -turn.y, 1e-14);
}

}  // namespace
