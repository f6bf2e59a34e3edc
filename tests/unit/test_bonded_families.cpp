// The angle, dihedral and improper families (physics/harmonic_angle.hpp, charmm_angle.hpp,
// periodic_dihedral.hpp, opls_dihedral.hpp, harmonic_improper.hpp; forces/bonded_settings.hpp):
// each evaluator at geometries where V and the forces are known by hand (theta = 90 degrees,
// phi = +-60 and 180 degrees), its forces against central differences of its energy, its virial
// sum_a r_a (x) f_a against the energy's derivative under a homogeneous deformation, no net force
// or torque, finite results for collinear particles; the CPU backend over random molecules that
// cross the box's faces against a direct sum over the unwrapped molecules; and every style's
// energy against LAMMPS (tests/data/lammps-bonded/).

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

#include "novamd/backend/cpu_backend.hpp"
#include "novamd/io/bonded_styles.hpp"
#include "novamd/physics/bonded_geometry.hpp"
#include "novamd/physics/charmm_angle.hpp"
#include "novamd/physics/harmonic_angle.hpp"
#include "novamd/physics/harmonic_improper.hpp"
#include "novamd/physics/opls_dihedral.hpp"
#include "novamd/physics/periodic_dihedral.hpp"
#include "support/bonded_molecules.hpp"
#include "support/systems.hpp"

namespace {

using novamd::backend::BackendSetup;
using novamd::backend::CpuBackend;
using novamd::backend::EnergyRequest;
using novamd::core::Vec3;
using novamd::physics::CharmmAngle;
using novamd::physics::HarmonicAngle;
using novamd::physics::HarmonicImproper;
using novamd::physics::OplsDihedral;
using novamd::physics::PeriodicDihedral;
using Vec = Vec3<double>;

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kPi = std::numbers::pi;
constexpr double kDeg = kPi / 180.0;

double component(const Vec& v, int axis) {
  return axis == 0 ? v.x : axis == 1 ? v.y : v.z;
}
double& component(Vec& v, int axis) {
  return axis == 0 ? v.x : axis == 1 ? v.y : v.z;
}
double norm(const Vec& v) {
  return std::sqrt(novamd::core::dot(v, v));
}

/// Positions relative to the first (the evaluators' contract: r[0] = 0).
template <std::size_t K>
std::array<Vec, K> relative(std::array<Vec, K> r) {
  for (std::size_t a = K; a-- > 0;) r[a] -= r[0];
  return r;
}

template <class E>
novamd::physics::BondedResult<E::kParticles> evaluate(const std::array<Vec, E::kParticles>& r,
                                                      const typename E::Params& p) {
  Vec in[E::kParticles];
  for (int a = 0; a < E::kParticles; ++a) in[a] = r[a];
  return E::evaluate(in, p);
}

/// A chain of K particles, bonds 0.9 to 1.5 long in random directions.
template <int K>
std::array<Vec, K> random_chain(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::array<Vec, K> r{};
  for (int a = 1; a < K; ++a) {
    const double z = 2 * unit(rng) - 1, phi = 2 * kPi * unit(rng), rho = std::sqrt(1 - z * z);
    const double bond = 0.9 + 0.6 * unit(rng);
    r[a] = r[a - 1] + Vec{bond * rho * std::cos(phi), bond * rho * std::sin(phi), bond * z};
  }
  return r;
}

/// The largest force component and the largest distance from particle 0.
template <std::size_t K, int N>
void scales(const std::array<Vec, K>& r, const novamd::physics::BondedResult<N>& at, double& f_max,
            double& r_max) {
  f_max = r_max = 0.0;
  for (std::size_t a = 0; a < K; ++a) {
    for (int axis = 0; axis < 3; ++axis)
      f_max = std::max(f_max, std::abs(component(at.force[a], axis)));
    r_max = std::max(r_max, norm(r[a]));
  }
}

/// Forces against central differences of V; no net force, no torque; the virial against the
/// strain derivative of V.
template <class E>
void expect_consistent(const std::array<Vec, E::kParticles>& r, const typename E::Params& p) {
  constexpr int K = E::kParticles;
  const auto at = evaluate<E>(r, p);
  double f_max, r_max;
  scales(r, at, f_max, r_max);
  const double h = 1e-6;
  // Central differences: rounding of V (its terms reach |f| |r| before they cancel) over 2h,
  // ~16 eps (|V| + |f| |r|) / h = 4e-9 (...), and truncation h^2 V''' / 6 ~ 1e-12 |f| / |r|^2.
  const double tol = 4e-9 * (std::abs(at.energy) + f_max * r_max) + 1e-11 * f_max;
  for (int a = 0; a < K; ++a)
    for (int axis = 0; axis < 3; ++axis) {
      auto plus = r, minus = r;
      component(plus[a], axis) += h;
      component(minus[a], axis) -= h;
      const double slope = (evaluate<E>(plus, p).energy - evaluate<E>(minus, p).energy) / (2 * h);
      EXPECT_NEAR(component(at.force[a], axis), -slope, tol)
          << "particle " << a << " axis " << axis;
    }
  Vec net{}, torque{};
  for (int a = 0; a < K; ++a) {
    net += at.force[a];
    torque += novamd::core::cross(r[a], at.force[a]);
  }
  // K terms of size f_max, each rounded to a few eps; the torque's products carry |r| too.
  for (int axis = 0; axis < 3; ++axis) {
    EXPECT_NEAR(component(net, axis), 0.0, 16 * K * kEps * f_max) << axis;
    EXPECT_NEAR(component(torque, axis), 0.0, 32 * K * kEps * f_max * r_max) << axis;
  }
  // W_uv = sum_a r_a,u f_a,v; stretching r_a,v by e r_a,u changes V by -e W_uv.
  for (int u = 0; u < 3; ++u)
    for (int v = 0; v < 3; ++v) {
      double w = 0.0;
      for (int a = 0; a < K; ++a) w += component(r[a], u) * component(at.force[a], v);
      const auto strained = [&](double e) {
        auto s = r;
        for (int a = 0; a < K; ++a) component(s[a], v) += e * component(r[a], u);
        return evaluate<E>(s, p).energy;
      };
      const double slope = (strained(h) - strained(-h)) / (2 * h);
      EXPECT_NEAR(w, -slope, K * tol) << "virial " << u << v;  // V over 2h again, K terms
    }
}

template <class E>
void expect_consistent_on_random_chains(const std::vector<typename E::Params>& types) {
  std::mt19937_64 rng(2024);
  for (int k = 0; k < 20; ++k) {
    SCOPED_TRACE(k);
    expect_consistent<E>(random_chain<E::kParticles>(rng), types[k % types.size()]);
  }
}

std::vector<PeriodicDihedral::Params> periodic_types() {
  return std::get<novamd::forces::PeriodicDihedralSettings>(
             novamd::test::angle_and_torsion_families()[2])
      .types;
}

TEST(BondedFamilies, EveryEvaluatorsForcesVirialAndInvariances) {
  {
    SCOPED_TRACE("harmonic angle");
    expect_consistent_on_random_chains<HarmonicAngle>({{50.0, 1.9}, {40.0, 2.1}});
  }
  {
    SCOPED_TRACE("charmm angle");
    expect_consistent_on_random_chains<CharmmAngle>({{50.0, 1.9, 20.0, 2.0}, {40, 2.1, 15, 2.2}});
  }
  {
    SCOPED_TRACE("periodic dihedral");
    expect_consistent_on_random_chains<PeriodicDihedral>(periodic_types());
  }
  {
    SCOPED_TRACE("opls dihedral");
    expect_consistent_on_random_chains<OplsDihedral>(
        {{1.3, -0.5, 0.7, 0.2}, {0.4, 0.9, -0.3, 0.1}});
  }
  {
    SCOPED_TRACE("harmonic improper");
    expect_consistent_on_random_chains<HarmonicImproper>({{30.0, 0.2}, {20.0, 0.0}});
  }
}

// ---- angles at theta = 90 degrees: a = r_i - r_j = (1.2, 0, 0), b = r_k - r_j = (0, 1.5, 0).
// d theta / d r_i = (cos theta a^ - b^) / (|a| sin theta) = -b^ / |a|, d theta / d r_k = -a^ / |b|.

std::array<Vec, 3> right_angle() {
  return relative<3>({Vec{1.2, 0, 0}, Vec{0, 0, 0}, Vec{0, 1.5, 0}});
}

TEST(BondedFamilies, HarmonicAngleAtNinetyDegrees) {
  const HarmonicAngle::Params p{50.0, 100.0 * kDeg};
  const auto at = evaluate<HarmonicAngle>(right_angle(), p);
  const double stretch = -10.0 * kDeg, dv = 2 * 50.0 * stretch;  // dV/dtheta
  EXPECT_NEAR(at.energy, 50.0 * stretch * stretch, 8 * kEps * at.energy);
  // f_i = -dV/dtheta (-b^ / |a|), f_k = -dV/dtheta (-a^ / |b|): a few roundings of dV/dtheta.
  const double tol = 16 * kEps * std::abs(dv);
  EXPECT_NEAR(at.force[0].x, 0.0, tol);
  EXPECT_NEAR(at.force[0].y, dv / 1.2, tol);
  EXPECT_NEAR(at.force[2].x, dv / 1.5, tol);
  EXPECT_NEAR(at.force[2].y, 0.0, tol);
  EXPECT_NEAR(at.force[1].x, -dv / 1.5, tol);
  EXPECT_NEAR(at.force[1].y, -dv / 1.2, tol);
  EXPECT_EQ(at.force[1].z, 0.0);
}

TEST(BondedFamilies, CharmmAngleAddsTheUreyBradleySpring) {
  const CharmmAngle::Params p{50.0, 100.0 * kDeg, 20.0, 2.0};
  const auto r = right_angle();
  const auto at = evaluate<CharmmAngle>(r, p);
  const auto bend = evaluate<HarmonicAngle>(r, {50.0, 100.0 * kDeg});
  const double r13 = std::sqrt(1.2 * 1.2 + 1.5 * 1.5);  // |r_i - r_k|
  const double ub = 20.0 * (r13 - 2.0) * (r13 - 2.0);
  EXPECT_NEAR(at.energy, bend.energy + ub, 8 * kEps * at.energy);
  // f_i of the spring: -2 K_ub (r13 - r_ub) (r_i - r_k) / r13 with r_i - r_k = (1.2, -1.5, 0).
  const double s = -2 * 20.0 * (r13 - 2.0) / r13;
  const double tol = 16 * kEps * (std::abs(s) * 1.5 + std::abs(bend.force[0].y));
  EXPECT_NEAR(at.force[0].x, bend.force[0].x + s * 1.2, tol);
  EXPECT_NEAR(at.force[0].y, bend.force[0].y - s * 1.5, tol);
  EXPECT_NEAR(at.force[2].x, bend.force[2].x - s * 1.2, tol);
  EXPECT_NEAR(at.force[2].y, bend.force[2].y + s * 1.5, tol);
  EXPECT_EQ(at.force[1].x, bend.force[1].x);  // the spring does not touch the vertex
  EXPECT_EQ(at.force[1].y, bend.force[1].y);
}

TEST(BondedFamilies, CollinearAnglesHaveExactEnergiesAndNoForces) {
  // theta = 180 (k beyond j) and theta = 0 (k on the side of i): the angle is exact, its
  // direction of change undefined; the evaluators return V and zero forces, never NaN.
  for (const double k_side : {-1.5, 0.7}) {
    const auto r = relative<3>({Vec{1.2, 0, 0}, Vec{0, 0, 0}, Vec{-k_side, 0, 0}});
    const double theta = k_side < 0 ? 0.0 : kPi;
    const auto bend = evaluate<HarmonicAngle>(r, {50.0, 100.0 * kDeg});
    EXPECT_EQ(bend.energy, 50.0 * (theta - 100.0 * kDeg) * (theta - 100.0 * kDeg)) << k_side;
    const auto charmm = evaluate<CharmmAngle>(r, {50.0, 100.0 * kDeg, 20.0, 2.0});
    EXPECT_TRUE(std::isfinite(charmm.energy));
    for (int a = 0; a < 3; ++a) {
      EXPECT_EQ(bend.force[a].x, 0.0);
      EXPECT_EQ(bend.force[a].y, 0.0);
      EXPECT_EQ(bend.force[a].z, 0.0);
      EXPECT_TRUE(std::isfinite(charmm.force[a].x));  // the spring still pulls along the line
      EXPECT_EQ(charmm.force[a].y, 0.0);
    }
  }
  // Two particles on one spot: no direction at all.
  const auto same = evaluate<HarmonicAngle>(relative<3>({Vec{0, 0, 0}, Vec{0, 0, 0}, Vec{1, 0, 0}}),
                                            {50.0, 100.0 * kDeg});
  EXPECT_TRUE(std::isfinite(same.energy));
  EXPECT_EQ(same.force[0].x, 0.0);
}

// ---- torsions: j = 0, k = (0, 0, 1.5), i = (1.2, 0, 0), l = k + 1.3 (cos phi, sin phi, 0), so
// the IUPAC angle is phi; d phi / d r_i = -(0, 1, 0) / 1.2, d phi / d r_l = (-sin, cos, 0) / 1.3.

std::array<Vec, 4> torsion_at(double phi) {
  return relative<4>({Vec{1.2, 0, 0}, Vec{0, 0, 0}, Vec{0, 0, 1.5},
                      Vec{1.3 * std::cos(phi), 1.3 * std::sin(phi), 1.5}});
}

/// V(phi) and the forces on i and l from dV/dphi, against the evaluator.
template <class E>
void expect_torsion(double phi, const typename E::Params& p, double v, double dv) {
  const auto r = torsion_at(phi);
  Vec in[4] = {r[0], r[1], r[2], r[3]};
  EXPECT_NEAR(std::cos(novamd::physics::torsion_angle(in).phi), std::cos(phi), 4 * kEps);
  const auto at = evaluate<E>(r, p);
  const double scale = std::abs(v) + std::abs(dv) + 1.0;  // V and dV/dphi are sums of K's
  EXPECT_NEAR(at.energy, v, 32 * kEps * scale) << phi / kDeg;
  const double tol = 32 * kEps * scale;  // a few roundings of phi, the sines and the gradient
  EXPECT_NEAR(at.force[0].y, dv / 1.2, tol) << phi / kDeg;
  EXPECT_NEAR(at.force[0].x, 0.0, tol);
  EXPECT_NEAR(at.force[3].x, dv * std::sin(phi) / 1.3, tol) << phi / kDeg;
  EXPECT_NEAR(at.force[3].y, -dv * std::cos(phi) / 1.3, tol) << phi / kDeg;
}

TEST(BondedFamilies, TorsionAngleIsTheIupacAngle) {
  for (const double phi_deg : {0.0, 60.0, -60.0, 120.0, 179.0, -179.0}) {
    const auto r = torsion_at(phi_deg * kDeg);
    Vec in[4] = {r[0], r[1], r[2], r[3]};
    EXPECT_NEAR(novamd::physics::torsion_angle(in).phi, phi_deg * kDeg, 8 * kEps) << phi_deg;
  }
}

// cos phi and sin phi without the angle (torsion_cosine), and cos n phi, sin n phi by angle
// addition (multiple_angle), against the library's cosine and sine of the IUPAC angle: n
// additions of a few roundings each.
TEST(BondedFamilies, TorsionCosineAndItsMultiplesFollowTheAngle) {
  for (const double phi_deg : {0.0, 37.0, -60.0, 120.0, 179.0, -179.0, 180.0}) {
    const double phi = phi_deg * kDeg;
    const auto r = torsion_at(phi);
    Vec in[4] = {r[0], r[1], r[2], r[3]};
    const auto cosine = novamd::physics::torsion_cosine(in);
    const auto angle = novamd::physics::torsion_angle(in);
    EXPECT_NEAR(cosine.cos_phi, std::cos(phi), 4 * kEps) << phi_deg;
    EXPECT_NEAR(cosine.sin_phi, std::sin(phi), 4 * kEps) << phi_deg;
    for (int a = 0; a < 4; ++a) {
      EXPECT_EQ(cosine.gradient[a].x, angle.gradient[a].x);
      EXPECT_EQ(cosine.gradient[a].y, angle.gradient[a].y);
      EXPECT_EQ(cosine.gradient[a].z, angle.gradient[a].z);
    }
    for (int n = 0; n <= 6; ++n) {
      double cos_n, sin_n;
      novamd::physics::multiple_angle(cosine.cos_phi, cosine.sin_phi, n, cos_n, sin_n);
      EXPECT_NEAR(cos_n, std::cos(n * phi), 4 * (n + 1) * kEps) << phi_deg << ", n " << n;
      EXPECT_NEAR(sin_n, std::sin(n * phi), 4 * (n + 1) * kEps) << phi_deg << ", n " << n;
    }
  }
  // Degenerate (i, j, k on a line): phi taken as 0, no gradient.
  Vec line[4] = {Vec{0, 0, -1.0}, Vec{0, 0, 0}, Vec{0, 0, 1.5}, Vec{1.3, 0, 1.5}};
  const auto degenerate = novamd::physics::torsion_cosine(line);
  EXPECT_EQ(degenerate.cos_phi, 1.0);
  EXPECT_EQ(degenerate.sin_phi, 0.0);
  EXPECT_EQ(degenerate.gradient[3].x, 0.0);
}

TEST(BondedFamilies, PeriodicDihedralAtSixtyAndOneEightyDegrees) {
  const auto p = periodic_types()[0];  // K 1.4, 0.6, 0.25; n 3, 2, 1; d pi/6, pi, -0.4
  for (const double phi : {60.0 * kDeg, -60.0 * kDeg, kPi}) {
    double v = 0, dv = 0;
    for (int m = 0; m < p.terms; ++m) {
      v += p.k[m] * (1 + std::cos(p.n[m] * phi - p.phase(m)));
      dv -= p.k[m] * p.n[m] * std::sin(p.n[m] * phi - p.phase(m));
    }
    expect_torsion<PeriodicDihedral>(phi, p, v, dv);
  }
  // By hand at phi = 60: 1.4 (1 + cos 150) + 0.6 (1 + cos(-60)) + 0.25 (1 + cos(60 deg + 0.4)).
  const double v60 =
      1.4 * (1 - std::sqrt(3.0) / 2) + 0.6 * 1.5 + 0.25 * (1 + std::cos(kPi / 3 + 0.4));
  EXPECT_NEAR(evaluate<PeriodicDihedral>(torsion_at(kPi / 3), p).energy, v60, 32 * kEps * v60);
}

TEST(BondedFamilies, OplsDihedralAtSixtyAndOneEightyDegrees) {
  const OplsDihedral::Params p{1.3, -0.5, 0.7, 0.2};
  // phi = 60: 1/2 (1.5 K1 + 1.5 K2 + 0 K3 + 1.5 K4); slope 1/2 (-K1 sin 60 + 2 K2 sin 120
  // - 3 K3 sin 180 + 4 K4 sin 240).
  const double s = std::sqrt(3.0) / 2;
  expect_torsion<OplsDihedral>(60 * kDeg, p, 0.75 * (1.3 - 0.5 + 0.2),
                               0.5 * (-1.3 * s + 2 * -0.5 * s - 4 * 0.2 * s));
  expect_torsion<OplsDihedral>(kPi, p, 0.0, 0.0);  // trans: every term vanishes
}

TEST(BondedFamilies, HarmonicImproperIsEvenInPhi) {
  const HarmonicImproper::Params p{30.0, 10.0 * kDeg};
  const double stretch = 50.0 * kDeg;  // chi = |phi| = 60 degrees
  expect_torsion<HarmonicImproper>(60.0 * kDeg, p, 30.0 * stretch * stretch, 2 * 30.0 * stretch);
  expect_torsion<HarmonicImproper>(-60.0 * kDeg, p, 30.0 * stretch * stretch, -2 * 30.0 * stretch);
  const double flat = kPi - 10.0 * kDeg;  // chi = 180: the planes opened flat
  expect_torsion<HarmonicImproper>(kPi, p, 30.0 * flat * flat, 2 * 30.0 * flat);
}

TEST(BondedFamilies, CollinearTorsionsAreFiniteWithoutForces) {
  // i on the j-k axis: the plane of i, j, k is undefined; phi is taken as 0, forces are zero.
  const auto r = relative<4>({Vec{0, 0, -1.2}, Vec{0, 0, 0}, Vec{0, 0, 1.5}, Vec{1.3, 0.2, 1.5}});
  const auto periodic = evaluate<PeriodicDihedral>(r, periodic_types()[0]);
  const auto opls = evaluate<OplsDihedral>(r, {1.3, -0.5, 0.7, 0.2});
  const auto improper = evaluate<HarmonicImproper>(r, {30.0, 10.0 * kDeg});
  double v0 = 0;
  const auto p = periodic_types()[0];
  for (int m = 0; m < p.terms; ++m) v0 += p.k[m] * (1 + std::cos(-p.phase(m)));
  EXPECT_NEAR(periodic.energy, v0, 8 * kEps * v0);
  EXPECT_NEAR(opls.energy, 1.3 + 0.7, 8 * kEps);  // K1 + K3 at phi = 0
  EXPECT_NEAR(improper.energy, 30.0 * 100.0 * kDeg * kDeg, 8 * kEps);
  for (int a = 0; a < 4; ++a)
    for (int axis = 0; axis < 3; ++axis) {
      EXPECT_EQ(component(periodic.force[a], axis), 0.0);
      EXPECT_EQ(component(opls.force[a], axis), 0.0);
      EXPECT_EQ(component(improper.force[a], axis), 0.0);
    }
  // j and k on one spot: no axis at all.
  const auto no_axis = evaluate<PeriodicDihedral>(
      relative<4>({Vec{1, 0, 0}, Vec{0, 0, 0}, Vec{0, 0, 0}, Vec{0, 1, 1}}), p);
  EXPECT_TRUE(std::isfinite(no_axis.energy));
  EXPECT_EQ(no_axis.force[0].x, 0.0);
}

// ---- the CPU backend over random molecules

/// 30 chains of 6 (bonds, angles, dihedrals, one improper each) wrapped into a box of edges
/// 12 x 10.8 x 13.2: a term spans at most 3 bonds, 4.2 < 10.8 / 2.
BackendSetup molecules(std::int64_t reorder_every) {
  auto s = novamd::test::random_chains(30, 6, 12.0, 41);
  s.forces.clear();
  s.neighbors.reorder_every = reorder_every;
  novamd::test::add_angles_and_torsions(s.topology, 30, 6);
  for (const auto& family : novamd::test::angle_and_torsion_families()) s.bonded.push_back(family);
  return s;
}

/// The molecules unwrapped: each particle the nearest image of its predecessor in the chain.
std::vector<Vec> unwrapped(const BackendSetup& s, int length) {
  const auto& p = s.particles;
  const auto box = s.box.view<double>();
  std::vector<Vec> r(p.size());
  for (std::size_t i = 0; i < p.size(); ++i)
    r[i] = i % length == 0
               ? p.position.get(i)
               : r[i - 1] + box.minimum_image(p.position.get(i) - p.position.get(i - 1));
  return r;
}

TEST(BondedFamilies, CpuBackendMatchesADirectSumOverUnwrappedMolecules) {
  const auto setup = molecules(0);
  const auto positions = unwrapped(setup, 6);
  const auto ref =
      novamd::test::bonded_direct_sum(setup.bonded, setup.topology, positions, nullptr);
  int across = 0;  // the molecules that cross a face
  for (std::size_t i = 0; i < positions.size(); ++i)
    across += norm(positions[i] - setup.particles.position.get(i)) > 1.0;
  EXPECT_GT(across, 10);
  CpuBackend backend(setup);
  backend.compute_forces(EnergyRequest::Compute);
  const auto& p = backend.particles_on_host();
  const double L = setup.box.length().z;  // the longest edge
  for (std::size_t i = 0; i < p.size(); ++i) {
    // Up to ~20 terms per particle, each rounded to a few eps of its own size; positions relative
    // to a wrapped particle carry the rounding of the box edge L (eps L, bonds ~1 long), which
    // moves each force by about eps L times its size per unit length.
    const auto id = p.id[i];
    const double tol = 64 * kEps * ref.magnitudes[id] * L;
    EXPECT_NEAR(p.force.x[i], ref.force[id].x, tol) << "id " << id;
    EXPECT_NEAR(p.force.y[i], ref.force[id].y, tol) << "id " << id;
    EXPECT_NEAR(p.force.z[i], ref.force[id].z, tol) << "id " << id;
  }
  const auto o = backend.observables();
  double magnitude = 0;
  for (const double m : ref.magnitudes) magnitude += m;
  // The sum of all terms, each off by about eps L of its forces times a length ~1.
  EXPECT_NEAR(o.potential_energy, ref.energy, 64 * kEps * magnitude * L);
  const int u_of[6] = {0, 1, 2, 0, 0, 1}, v_of[6] = {0, 1, 2, 1, 2, 2};
  for (int q = 0; q < 6; ++q)  // sums of f r over the terms, |r| < 5
    EXPECT_NEAR(o.virial.c[q], ref.virial[u_of[q]][v_of[q]], 5 * 64 * kEps * magnitude * L)
        << novamd::core::kTensorComponentNames[q];
  EXPECT_GT(ref.energy, 0.0);
}

TEST(BondedFamilies, CpuForcesAreBitwiseIndependentOfTheStorageOrder) {
  CpuBackend in_order(molecules(0)), reordered(molecules(1));
  for (int k = 0; k < 2; ++k) {
    in_order.compute_forces(EnergyRequest::Compute);
    reordered.compute_forces(EnergyRequest::Compute);
  }
  EXPECT_GT(reordered.reorders(), 0);
  const auto& a = in_order.particles_on_host();
  const auto& b = reordered.particles_on_host();
  EXPECT_EQ(a.force.x, b.force.x);
  EXPECT_EQ(a.force.y, b.force.y);
  EXPECT_EQ(a.force.z, b.force.z);
}

TEST(BondedFamilies, AMoleculeAcrossTheFacesMatchesTheSameMoleculeInside) {
  auto inside = molecules(0);
  const auto positions = unwrapped(inside, 6);
  // Molecule 0 moved so that its particles lie around the box's corner (0, 0, 0), each wrapped,
  // and, in the other setup, around the box's centre.
  auto across = inside;
  const auto L = inside.box.length();
  const auto view = inside.box.view<double>();
  for (int i = 0; i < 6; ++i) {
    const Vec centred = positions[i] - positions[2];
    across.particles.position.set(i, view.wrap(centred));
    inside.particles.position.set(i, centred + Vec{L.x / 2, L.y / 2, L.z / 2});
  }
  CpuBackend a(across), b(inside);
  a.compute_forces(EnergyRequest::Compute);
  b.compute_forces(EnergyRequest::Compute);
  const auto& pa = a.particles_on_host();
  const auto& pb = b.particles_on_host();
  const auto ref =
      novamd::test::bonded_direct_sum(inside.bonded, inside.topology, positions, nullptr);
  for (int i = 0; i < 6; ++i) {
    // The same terms, positions differing by the wrap's rounding (a few eps of the box edge).
    const double tol = 64 * kEps * ref.magnitudes[i] * L.z;
    EXPECT_NEAR(pa.force.x[i], pb.force.x[i], tol) << i;
    EXPECT_NEAR(pa.force.y[i], pb.force.y[i], tol) << i;
    EXPECT_NEAR(pa.force.z[i], pb.force.z[i], tol) << i;
  }
  EXPECT_NEAR(a.observables().potential_energy, b.observables().potential_energy,
              1e-12 * std::abs(b.observables().potential_energy));
}

// ---- LAMMPS (tests/data/lammps-bonded/in.bonded, bonded.data: `lmp -in in.bonded`, LAMMPS
// 2022 of Debian 12, thermo printed with %22.15g)

struct LammpsCase {
  novamd::io::TermKind kind;
  novamd::io::StyleCoefficients coefficients;
  double energy;  ///< LAMMPS's eangle, edihed or eimp
};

/// The four atoms of bonded.data (the angles 1-2-3 and 2-3-4, two dihedrals 1-2-3-4 of types 1
/// and 2, one improper 1-2-3-4).
novamd::core::Topology lammps_topology() {
  novamd::core::Topology t(4);
  t.add_bond({0, {0, 1}});
  t.add_bond({0, {1, 2}});
  t.add_bond({0, {2, 3}});
  t.add_angle({0, {0, 1, 2}});
  t.add_angle({1, {1, 2, 3}});
  t.add_dihedral({0, {0, 1, 2, 3}});
  t.add_dihedral({1, {0, 1, 2, 3}});
  t.add_improper({0, {0, 1, 2, 3}});
  return t;
}

TEST(BondedFamiliesLammpsReference, EveryStyleMatchesLammps) {
  using novamd::io::TermKind;
  const std::vector<Vec> positions = {
      {4.55, 6.32, 5.21}, {5.00, 5.00, 5.00}, {6.52, 5.07, 4.89}, {7.03, 5.85, 6.17}};
  const std::vector<LammpsCase> cases = {
      {TermKind::Bond, {"harmonic", {{300.0, 1.4}}}, 14.844975535602},
      {TermKind::Angle, {"harmonic", {{50.0, 110.0}, {40.0, 125.0}}}, 4.31319135266068},
      {TermKind::Angle,
       {"charmm", {{50.0, 110.0, 20.0, 2.3}, {40.0, 125.0, 15.0, 2.6}}},
       4.54709587162704},
      {TermKind::Dihedral, {"charmm", {{1.4, 3, 30, 0.0}, {0.6, 2, 180, 0.0}}}, 1.30610409946424},
      {TermKind::Dihedral, {"charmm", {{1.4, 3, 30, 0.0}, {0.0, 2, 180, 0.0}}}, 0.552451771438739},
      {TermKind::Dihedral, {"charmm", {{0.8, 1, -75, 0.0}, {0.0, 1, 0, 0.0}}}, 0.313888509305818},
      // charmmfsw, fourier and periodic: the formula of charmm (LAMMPS runs 1, 2 and 4)
      {TermKind::Dihedral,
       {"charmmfsw", {{0.8, 1, -75, 0.5}, {0.0, 1, 0, 0.0}}},
       0.313888509305818},
      {TermKind::Dihedral,
       {"fourier", {{2, 1.4, 3, 30, 0.6, 2, 180}, {1, 0.0, 1, 0}}},
       1.30610409946424},
      {TermKind::Dihedral, {"periodic", {{1.4, 3, 30}, {0.0, 2, 180}}}, 0.552451771438739},
      {TermKind::Dihedral, {"opls", {{1.3, -0.5, 0.7, 0.2}, {0, 0, 0, 0}}}, 0.946498610771951},
      {TermKind::Improper, {"harmonic", {{40.0, 10.0}}}, 21.9248057738148},
      {TermKind::Improper, {"cvff", {{2.5, -1, 2}}}, 3.1402180334396},
      {TermKind::Improper, {"cvff", {{2.5, 1, 3}}}, 0.194379038788358},
      // AMBER's periodic improper: the charmm dihedral's formula over the same four atoms
      {TermKind::Improper, {"periodic", {{0.8, 1, -75}}}, 0.313888509305818},
  };
  const auto topology = lammps_topology();
  for (const auto& c : cases) {
    const auto family = novamd::io::bonded_settings_from(c.kind, c.coefficients);
    const auto sum = novamd::test::bonded_direct_sum({family}, topology, positions, nullptr);
    // LAMMPS printed 15 significant digits; both codes round a few dozen operations: 1e-13.
    EXPECT_NEAR(sum.energy, c.energy, 1e-13 * c.energy)
        << novamd::io::kind_name(c.kind) << " " << c.coefficients.style;
  }
}

}  // namespace
