// The point-multipole site terms (physics/point_multipoles.hpp): values at known orientations,
// the limit of each multipole as explicit point charges (energy, force and torque, and so the
// signs), forces and torques as derivatives of the energy, and angular momentum kept.

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "novamd/physics/point_multipoles.hpp"

namespace {

using novamd::core::Vec3;
using V = Vec3<double>;
namespace physics = novamd::physics;

enum class Kind { Charge, Dipole, Quadrupole };

/// A site: its kind, its moment (q, mu or Q), its position and its unit axis.
struct Site {
  Kind kind;
  double moment;
  V position, axis;
};

constexpr double kCoulomb = 332.0637;  // any k: `real` units' kcal/mol A per e^2

double norm(const V& v) {
  return std::sqrt(novamd::core::dot(v, v));
}

/// The term for the kinds of `a` and `b`, at the geometry of r = a - b (physics::multipole_terms,
/// which writes each pair of kinds once and the other order by n -> -n).
physics::MultipoleTerms<double> terms(const Site& a, const Site& b) {
  const V r = a.position - b.position;
  const auto s = physics::SitePairGeometry<double>::of(r, a.axis, b.axis);
  const auto site_kind = [](Kind k) {  // Charge, Dipole, Quadrupole follow LennardJones there
    return static_cast<novamd::core::SiteKind>(static_cast<int>(k) + 1);
  };
  return physics::multipole_terms(site_kind(a.kind), site_kind(b.kind),
                                  kCoulomb * a.moment * b.moment, s, 0.0);
}

double energy(const Site& a, const Site& b) {
  return terms(a, b).energy;
}

physics::SitePairForces<double> forces(const Site& a, const Site& b) {
  const V r = a.position - b.position;
  const auto s = physics::SitePairGeometry<double>::of(r, a.axis, b.axis);
  return physics::forces_and_torques(terms(a, b), s, r, a.axis, b.axis);
}

/// The charges a site stands for at spacing d: a dipole as -q, +q at -+d/2 along its axis
/// (mu = q d), a quadrupole as q, -2q, q at -d, 0, +d (Q = 2 q d^2).
std::vector<std::pair<V, double>> point_charges(const Site& s, double d) {
  switch (s.kind) {
    case Kind::Charge:
      return {{s.position, s.moment}};
    case Kind::Dipole: {
      const double q = s.moment / d;
      return {{s.position - (0.5 * d) * s.axis, -q}, {s.position + (0.5 * d) * s.axis, q}};
    }
    case Kind::Quadrupole: {
      const double q = s.moment / (2.0 * d * d);
      return {{s.position - d * s.axis, q}, {s.position, -2.0 * q}, {s.position + d * s.axis, q}};
    }
  }
  return {};
}

/// Coulomb between the point charges of a and b: U, the force on a, and the torques on a and
/// b about their centres.
struct ChargeSums {
  double energy = 0.0;
  V force_on_a{}, torque_on_a{}, torque_on_b{};
};

ChargeSums coulomb_between(const Site& a, const Site& b, double d) {
  ChargeSums sums;
  for (const auto& [ra, qa] : point_charges(a, d))
    for (const auto& [rb, qb] : point_charges(b, d)) {
      const V r = ra - rb;
      const double dist = norm(r);
      const double u = kCoulomb * qa * qb / dist;
      const V f = (u / (dist * dist)) * r;  // on the charge at ra
      sums.energy += u;
      sums.force_on_a += f;
      sums.torque_on_a += novamd::core::cross(ra - a.position, f);
      sums.torque_on_b += novamd::core::cross(rb - b.position, -1.0 * f);
    }
  return sums;
}

V random_unit(std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  const V v{g(rng), g(rng), g(rng)};
  return (1.0 / norm(v)) * v;
}

/// The energy scale of a pair: k |m_a m_b| / R^(1 + order_a + order_b).
double scale_of(const Site& a, const Site& b) {
  const double R = norm(a.position - b.position);
  const int order = static_cast<int>(a.kind) + static_cast<int>(b.kind);
  return kCoulomb * std::abs(a.moment * b.moment) / std::pow(R, 1 + order);
}

constexpr std::array<Kind, 3> kKinds{Kind::Charge, Kind::Dipole, Kind::Quadrupole};

/// Random pairs of every two kinds, R from 2 to 6.
std::vector<std::pair<Site, Site>> random_pairs(std::uint64_t seed, int per_kinds) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> distance(2.0, 6.0), moment(0.3, 1.5);
  std::vector<std::pair<Site, Site>> pairs;
  for (const Kind ka : kKinds)
    for (const Kind kb : kKinds)
      for (int n = 0; n < per_kinds; ++n) {
        const Site a{ka, moment(rng), {0.3, -0.2, 0.1}, random_unit(rng)};
        const Site b{kb, -moment(rng), a.position + distance(rng) * random_unit(rng),
                     random_unit(rng)};
        pairs.emplace_back(a, b);
      }
  return pairs;
}

TEST(PointMultipoles, KnownOrientationsGiveTheTextbookEnergies) {
  const double R = 3.0, mu = 1.2, Q = 0.8;
  const V o{}, x{R, 0, 0}, ex{1, 0, 0}, ey{0, 1, 0};
  const auto at = [](Kind k, double m, V p, V e) { return Site{k, m, p, e}; };
  // Every value is a handful of roundings from its exact form: 1e-14 relative.
  const auto expect = [](double value, double exact) {
    EXPECT_NEAR(value, exact, 1e-14 * std::abs(exact));
  };
  const double kmm = kCoulomb * mu * mu, kQQ = kCoulomb * Q * Q;
  // Dipoles: head to tail -2, side by side +1, antiparallel side by side -1 (k mu^2 / R^3).
  expect(energy(at(Kind::Dipole, mu, x, ex), at(Kind::Dipole, mu, o, ex)), -2 * kmm / (R * R * R));
  expect(energy(at(Kind::Dipole, mu, x, ey), at(Kind::Dipole, mu, o, ey)), kmm / (R * R * R));
  expect(energy(at(Kind::Dipole, mu, x, ey), at(Kind::Dipole, mu, o, -1.0 * ey)),
         -kmm / (R * R * R));
  // Linear quadrupoles (Gray and Gubbins): end to end 6, T-shaped -3, side by side 9/4
  // (k Q^2 / R^5).
  const double R5 = R * R * R * R * R;
  expect(energy(at(Kind::Quadrupole, Q, x, ex), at(Kind::Quadrupole, Q, o, ex)), 6 * kQQ / R5);
  expect(energy(at(Kind::Quadrupole, Q, x, ex), at(Kind::Quadrupole, Q, o, ey)), -3 * kQQ / R5);
  expect(energy(at(Kind::Quadrupole, Q, x, ey), at(Kind::Quadrupole, Q, o, ey)), 2.25 * kQQ / R5);
  // A positive charge on the axis of a dipole pointing at it is repelled (physical sign).
  const auto charge = at(Kind::Charge, 1.0, x, ex);
  expect(energy(charge, at(Kind::Dipole, mu, o, ex)), kCoulomb * mu / (R * R));
  EXPECT_GT(forces(charge, at(Kind::Dipole, mu, o, ex)).force_on_i.x, 0.0);
}

TEST(PointMultipoles, MatchTheirPointChargesInTheLimit) {
  // At spacing d the charges' next multipole is two orders up (the arrangements are symmetric),
  // so the terms differ from the point charges by C (d/R)^2 of the pair's scale, C from the
  // corrections' angular and order factors: up to 24 (two quadrupoles) over these pairs, the
  // same at d/R = 1/200 and 1/400. C = 50 bounds them; the rounding in the charges' cancelling
  // sums (the scale over (d/R)^4 times u, for two quadrupoles) stays below 1e-6 of the scale.
  int substantial = 0;  // pairs whose energy is not near a node of its angular factor
  for (const auto& [a, b] : random_pairs(11, 20)) {
    const double R = norm(a.position - b.position), d = R / 200.0;
    const double scale = scale_of(a, b), bound = 50.0 * (d / R) * (d / R) * scale;
    const ChargeSums exact = coulomb_between(a, b, d);
    const auto f = forces(a, b);
    EXPECT_NEAR(energy(a, b), exact.energy, bound);
    for (const auto& [got, want] :
         {std::pair{f.force_on_i, exact.force_on_a}, std::pair{f.torque_on_i, exact.torque_on_a},
          std::pair{f.torque_on_j, exact.torque_on_b}}) {
      // A force is the scale over R, a torque the scale itself (R >= 2: the force's bound is
      // looser than it need be by R at most).
      EXPECT_NEAR(got.x, want.x, bound);
      EXPECT_NEAR(got.y, want.y, bound);
      EXPECT_NEAR(got.z, want.z, bound);
    }
    if (std::abs(exact.energy) > 0.05 * scale) ++substantial;
  }
  EXPECT_GT(substantial, 9 * 20 * 3 / 4);  // the comparisons are not of near-zeros
}

/// A site's axis turned by the angle h about the unit vector `about`.
V rotated(const V& e, const V& about, double h) {
  const V c = novamd::core::cross(about, e);
  return std::cos(h) * e + std::sin(h) * c +
         ((1.0 - std::cos(h)) * novamd::core::dot(about, e)) * about;
}

TEST(PointMultipoles, ForcesAndTorquesAreTheEnergysDerivatives) {
  // Central differences at h = 1e-4 (lengths about 4, angles in radians): their error is
  // h^2 U''' / 6, some 1e-9 of the scale, and the energies' rounding over 2h is 1e-12 of it;
  // 1e-7 of the scale bounds both with room.
  const double h = 1e-4;
  const std::array<V, 3> axes{V{1, 0, 0}, V{0, 1, 0}, V{0, 0, 1}};
  for (const auto& [a, b] : random_pairs(12, 10)) {
    const double scale = scale_of(a, b), bound = 1e-7 * scale;
    const auto f = forces(a, b);
    const std::array<double, 3> force{f.force_on_i.x, f.force_on_i.y, f.force_on_i.z};
    const std::array<double, 3> ti{f.torque_on_i.x, f.torque_on_i.y, f.torque_on_i.z};
    const std::array<double, 3> tj{f.torque_on_j.x, f.torque_on_j.y, f.torque_on_j.z};
    for (std::size_t c = 0; c < 3; ++c) {
      Site plus = a, minus = a;
      plus.position += h * axes[c];
      minus.position -= h * axes[c];
      EXPECT_NEAR(force[c], -(energy(plus, b) - energy(minus, b)) / (2 * h), bound);
      if (a.kind != Kind::Charge) {  // a charge has no orientation, and no torque
        plus = minus = a;
        plus.axis = rotated(a.axis, axes[c], h);
        minus.axis = rotated(a.axis, axes[c], -h);
        EXPECT_NEAR(ti[c], -(energy(plus, b) - energy(minus, b)) / (2 * h), bound);
      } else {
        EXPECT_EQ(ti[c], 0.0);
      }
      if (b.kind != Kind::Charge) {
        Site bp = b, bm = b;
        bp.axis = rotated(b.axis, axes[c], h);
        bm.axis = rotated(b.axis, axes[c], -h);
        EXPECT_NEAR(tj[c], -(energy(a, bp) - energy(a, bm)) / (2 * h), bound);
      }
    }
  }
}

TEST(PointMultipoles, KeepAngularMomentum) {
  // tau_i + tau_j + r x F_i = 0 for every pair: a sum of a few products of the scale, so 1e-13
  // of it bounds the rounding.
  for (const auto& [a, b] : random_pairs(13, 10)) {
    const auto f = forces(a, b);
    const V total =
        f.torque_on_i + f.torque_on_j + novamd::core::cross(a.position - b.position, f.force_on_i);
    const double bound = 1e-13 * scale_of(a, b);
    EXPECT_NEAR(total.x, 0.0, bound);
    EXPECT_NEAR(total.y, 0.0, bound);
    EXPECT_NEAR(total.z, 0.0, bound);
  }
}

TEST(PointMultipoles, ReactionFieldTurnsDipolesWithoutAForce) {
  const double rc = 10.0, eps_rf = 30.0;
  const double rf_per = physics::reaction_field_factor(eps_rf, rc);
  EXPECT_DOUBLE_EQ(rf_per, 2.0 * 29.0 / (61.0 * 1000.0));
  EXPECT_DOUBLE_EQ(physics::reaction_field_factor(std::numeric_limits<double>::infinity(), rc),
                   1e-3);
  const V r{1.0, 2.0, -0.5}, ei{0.6, 0.8, 0.0}, ej{0.0, 0.6, 0.8};
  const double rf = kCoulomb * 1.1 * 0.9 * rf_per;
  const auto s = physics::SitePairGeometry<double>::of(r, ei, ej);
  const auto t = physics::dipole_reaction_field(rf, s);
  EXPECT_DOUBLE_EQ(t.energy, -rf * 0.48);
  const auto f = physics::forces_and_torques(t, s, r, ei, ej);
  EXPECT_EQ(f.force_on_i.x, 0.0);
  EXPECT_EQ(f.force_on_i.y, 0.0);
  EXPECT_EQ(f.force_on_i.z, 0.0);
  // tau_i = -e_i x dU/de_i = rf e_i x e_j, tau_j its opposite.
  const V expected = rf * novamd::core::cross(ei, ej);
  EXPECT_NEAR(f.torque_on_i.x, expected.x, 1e-15 * rf);
  EXPECT_NEAR(f.torque_on_i.z, expected.z, 1e-15 * rf);
  EXPECT_NEAR(f.torque_on_j.y, -expected.y, 1e-15 * rf);
}

}  // namespace
