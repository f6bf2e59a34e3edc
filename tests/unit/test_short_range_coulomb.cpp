// Short-range Coulomb (physics/coulomb.hpp: cut, force-shifted, reaction field) and CHARMM
// switching (physics/switched.hpp): values against the formulas written out, forces against
// central differences of the energy, continuity at the cutoff, and the switch against LAMMPS's
// lj/charmm expressions.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "novamd/core/units.hpp"
#include "novamd/physics/coulomb.hpp"
#include "novamd/physics/lennard_jones.hpp"
#include "novamd/physics/switched.hpp"
#include "novamd/physics/truncated.hpp"

namespace {

using Coulomb = novamd::physics::Coulomb<double>;
using LennardJones = novamd::physics::LennardJones<double>;
using novamd::physics::PairResult;
using novamd::physics::Truncation;

// The switch and the cutoff keep the per-charge mark of the potential they wrap.
static_assert(novamd::physics::kScaledByCharges<Coulomb>);
static_assert(novamd::physics::kScaledByCharges<novamd::physics::Switched<Coulomb>>);
static_assert(!novamd::physics::kScaledByCharges<novamd::physics::Switched<LennardJones>>);

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kCutoff = 10.0;

/// -dV/dr / r by a central difference of step h (error O(h^2) plus O(eps |V| / h)).
template <class Evaluator, class Params>
double numerical_force_over_r(double r, const Params& p, double h = 1e-5) {
  const double up = Evaluator::evaluate((r + h) * (r + h), p).energy;
  const double down = Evaluator::evaluate((r - h) * (r - h), p).energy;
  return -(up - down) / (2.0 * h) / r;
}

TEST(ShortRangeCoulomb, CutIsPlainCoulombPerUnitChargeProduct) {
  const double k = novamd::core::real_units().coulomb;
  const auto p = Coulomb::make_params(k, 2.0);  // dielectric 2
  for (double r : {0.9, 3.0, 9.5}) {
    const PairResult<double> v = Coulomb::evaluate(r * r, p);
    EXPECT_NEAR(v.energy, k / 2.0 / r, 4 * kEps * k / r);
    EXPECT_NEAR(v.force_over_r, k / 2.0 / (r * r * r), 4 * kEps * k / (r * r * r));
  }
}

TEST(ShortRangeCoulomb, ForceShiftMakesEnergyAndForceVanishAtTheCutoff) {
  using Shifted = novamd::physics::Truncated<Coulomb, true>;
  const auto p =
      Shifted::make_params(Coulomb::make_params(1.0, 1.0), kCutoff, Truncation::ShiftForce);
  for (double r : {1.0, 4.0, 9.0}) {
    const auto v = Shifted::evaluate(r * r, p);
    // v(r) = 1/r - 1/r_c + (r - r_c)/r_c^2, f(r) = 1/r^2 - 1/r_c^2
    const double expected = 1.0 / r - 1.0 / kCutoff + (r - kCutoff) / (kCutoff * kCutoff);
    EXPECT_NEAR(v.energy, expected, 16 * kEps / r);
    EXPECT_NEAR(v.force_over_r * r, 1.0 / (r * r) - 1.0 / (kCutoff * kCutoff), 16 * kEps / (r * r));
  }
  const double just_inside = kCutoff * (1.0 - 1e-9);
  const auto edge = Shifted::evaluate(just_inside * just_inside, p);
  // |v| ~ (r_c - r)^2 / r_c^3 and |f| ~ 2 (r_c - r) / r_c^3 near the cutoff
  EXPECT_LT(std::abs(edge.energy), 1e-12);
  EXPECT_LT(std::abs(edge.force_over_r), 1e-10);
}

TEST(ShortRangeCoulomb, ReactionFieldFollowsTironiAndVanishesAtTheCutoff) {
  const double eps_rf = 78.3, rc3 = kCutoff * kCutoff * kCutoff;
  const auto p = Coulomb::make_reaction_field(1.0, 1.0, eps_rf, kCutoff);
  const double k_rf = (eps_rf - 1.0) / ((2.0 * eps_rf + 1.0) * rc3);
  const double c_rf = 1.0 / kCutoff + k_rf * kCutoff * kCutoff;
  EXPECT_DOUBLE_EQ(p.k_rf, k_rf);
  EXPECT_DOUBLE_EQ(p.c_rf, c_rf);
  for (double r : {1.0, 5.0, 9.9}) {
    const auto v = Coulomb::evaluate(r * r, p);
    EXPECT_NEAR(v.energy, 1.0 / r + k_rf * r * r - c_rf, 8 * kEps / r);
    EXPECT_NEAR(v.force_over_r, numerical_force_over_r<Coulomb>(r, p), 1e-8 / (r * r * r));
  }
  EXPECT_NEAR(Coulomb::evaluate(kCutoff * kCutoff, p).energy, 0.0, 8 * kEps / kCutoff);
  const auto conducting =
      Coulomb::make_reaction_field(1.0, 1.0, std::numeric_limits<double>::infinity(), kCutoff);
  EXPECT_DOUBLE_EQ(conducting.k_rf, 0.5 / rc3);
}

/// LAMMPS lj/charmm/coul/charmm (pair_lj_charmm_coul_charmm.cpp), its energy and r F for one
/// pair inside the switching region, written as that source writes them.
PairResult<double> lammps_charmm_lj(double rsq, double epsilon, double sigma, double inner,
                                    double cutoff) {
  const double lj1 = 48.0 * epsilon * std::pow(sigma, 12),
               lj2 = 24.0 * epsilon * std::pow(sigma, 6);
  const double lj3 = 4.0 * epsilon * std::pow(sigma, 12), lj4 = 4.0 * epsilon * std::pow(sigma, 6);
  const double cut_ljsq = cutoff * cutoff, cut_lj_innersq = inner * inner;
  const double denom_lj = std::pow(cut_ljsq - cut_lj_innersq, 3);
  const double r2inv = 1.0 / rsq, r6inv = r2inv * r2inv * r2inv;
  double forcelj = r6inv * (lj1 * r6inv - lj2);
  double philj = r6inv * (lj3 * r6inv - lj4);
  if (rsq > cut_lj_innersq) {
    const double switch1 = (cut_ljsq - rsq) * (cut_ljsq - rsq) *
                           (cut_ljsq + 2.0 * rsq - 3.0 * cut_lj_innersq) / denom_lj;
    const double switch2 = 12.0 * rsq * (cut_ljsq - rsq) * (rsq - cut_lj_innersq) / denom_lj;
    forcelj = forcelj * switch1 + philj * switch2;
    philj *= switch1;
  }
  return {forcelj * r2inv, philj};  // fpair = forcelj r2inv is F / r
}

TEST(CharmmSwitching, MatchesLammpsLjCharmmAndItsOwnDerivative) {
  using Switched = novamd::physics::Switched<LennardJones>;
  const double epsilon = 0.1521, sigma = 3.1507, inner = 8.0;
  const auto p = Switched::make_params(LennardJones::make_params(epsilon, sigma), inner, kCutoff);
  for (double r : {3.5, 7.9, 8.0, 8.5, 9.2, 9.99}) {
    const auto ours = Switched::evaluate(r * r, p);
    const auto lammps = lammps_charmm_lj(r * r, epsilon, sigma, inner, kCutoff);
    const double scale = std::abs(LennardJones::evaluate(r * r, p.potential).energy);
    EXPECT_NEAR(ours.energy, lammps.energy, 64 * kEps * scale) << "r = " << r;
    EXPECT_NEAR(ours.force_over_r, lammps.force_over_r, 64 * kEps * scale * 12 / (r * r))
        << "r = " << r;
    if (r != inner)  // the switch's second derivative jumps at r_in: no central difference there
      EXPECT_NEAR(ours.force_over_r, numerical_force_over_r<Switched>(r, p),
                  1e-7 * (std::abs(ours.force_over_r) + scale / (r * r)))
          << "r = " << r;
  }
  EXPECT_EQ(Switched::evaluate(kCutoff * kCutoff, p).energy, 0.0);
  EXPECT_EQ(Switched::evaluate(10.5 * 10.5, p).force_over_r, 0.0);
  // below r_in the potential is the bare one, bit for bit
  const auto bare = LennardJones::evaluate(7.0 * 7.0, p.potential);
  EXPECT_EQ(Switched::evaluate(7.0 * 7.0, p).energy, bare.energy);
}

}  // namespace
