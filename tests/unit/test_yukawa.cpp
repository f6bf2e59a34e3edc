// The Yukawa evaluator and the cutoff wrapper: analytic values and force = -dV/dr.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <type_traits>

#include "novamd/forces/force_settings.hpp"
#include "novamd/physics/truncated.hpp"
#include "novamd/physics/yukawa.hpp"

namespace {

using novamd::physics::Truncated;
using novamd::physics::Yukawa;
constexpr double kEps = std::numeric_limits<double>::epsilon();

double analytic_energy(double k, double lambda, double r) {
  return k * std::exp(-r / lambda) / r;
}

TEST(Yukawa, EnergyAndForceMatchAnalyticFormulas) {
  const double k = 1.43996 * 6 * 8;  // k_e Z_C Z_O in MeV fm
  const double lambda = 475.0;
  const auto p = Yukawa<double>::make_params(1.43996, 6, 8, lambda);
  for (double r = 0.1 * lambda; r <= 10 * lambda; r *= 1.17) {
    const auto res = Yukawa<double>::evaluate(r * r, p);
    const double v = analytic_energy(k, lambda, r);
    const double f = v * (1 / r + 1 / lambda);  // seed 000, eq. (3): |f| = V (1/r + 1/lambda)
    // A handful of roundings in sqrt, exp and two divisions: 16 ulp is ample and still tight.
    EXPECT_NEAR(res.energy, v, 16 * kEps * v) << "r = " << r;
    EXPECT_NEAR(res.force_over_r * r, f, 16 * kEps * f) << "r = " << r;
  }
}

TEST(Yukawa, ForceIsMinusTheDerivativeOfTheEnergy) {
  const double lambda = 2.0;
  const auto p = Yukawa<double>::make_params(1.0, 1.0, 1.0, lambda);
  for (double r = 0.1 * lambda; r <= 10 * lambda; r *= 1.13) {
    const double h = 1e-5 * r;
    const double vp = Yukawa<double>::evaluate((r + h) * (r + h), p).energy;
    const double vm = Yukawa<double>::evaluate((r - h) * (r - h), p).energy;
    const double numeric = -(vp - vm) / (2 * h);
    const double force = Yukawa<double>::evaluate(r * r, p).force_over_r * r;
    // Central difference, h = 1e-5 r: truncation error relative ~ (h/r)^2 (1 + r/lambda)^2 / 6
    // <= 2.1e-9 for r <= 10 lambda, plus round-off ~ eps r / h ~ 2e-11: bound 1e-8.
    EXPECT_NEAR(numeric, force, 1e-8 * std::abs(force)) << "r = " << r;
  }
}

TEST(Yukawa, SinglePrecisionAgreesToFloatRoundOff) {
  const auto pd = Yukawa<double>::make_params(1.0, 6, 8, 3.0);
  const auto pf = Yukawa<float>::make_params(1.0, 6, 8, 3.0);
  for (double r = 0.3; r < 30; r *= 1.2) {
    const auto d = Yukawa<double>::evaluate(r * r, pd);
    const auto f = Yukawa<float>::evaluate(static_cast<float>(r * r), pf);
    // exp(-r/lambda) amplifies the argument's relative error by r/lambda (<= 10 here): 64 ulp.
    const double tol = 64 * std::numeric_limits<float>::epsilon();
    EXPECT_NEAR(f.energy, d.energy, tol * d.energy);
    EXPECT_NEAR(f.force_over_r, d.force_over_r, tol * d.force_over_r);
  }
}

TEST(Truncated, ZeroBeyondCutoffAndShiftedWithin) {
  using Cut = Truncated<Yukawa<double>>;
  const auto y = Yukawa<double>::make_params(1.0, 1.0, 1.0, 2.0);
  const double rc = 5.0;
  const auto plain = Cut::make_params(y, rc, novamd::physics::Truncation::Cut);
  const auto shifted = Cut::make_params(y, rc, novamd::physics::Truncation::ShiftEnergy);
  const double v_rc = analytic_energy(1.0, 2.0, rc);

  EXPECT_EQ(Cut::evaluate(rc * rc, plain).energy, 0.0);
  EXPECT_EQ(Cut::evaluate(1.01 * rc * rc, shifted).force_over_r, 0.0);
  const double r = 3.0;
  const auto inner = Yukawa<double>::evaluate(r * r, y);
  EXPECT_EQ(Cut::evaluate(r * r, plain).energy, inner.energy);
  EXPECT_NEAR(Cut::evaluate(r * r, shifted).energy, inner.energy - v_rc, 4 * kEps * inner.energy);
  EXPECT_EQ(Cut::evaluate(r * r, shifted).force_over_r, inner.force_over_r);  // forces unchanged
  // Shifted energy goes continuously to zero at the cutoff.
  const double just_inside = (rc * (1 - 1e-9)) * (rc * (1 - 1e-9));
  EXPECT_NEAR(Cut::evaluate(just_inside, shifted).energy, 0.0, 1e-8 * v_rc);
}

TEST(Truncated, NoCutoffMeansTheBarePotential) {
  // with_evaluator hands the bare potential to the traversal when the cutoff is infinite, the
  // wrapper with the force shift when asked, and the plain wrapper otherwise.
  const auto species = novamd::core::SpeciesTable({{"A", 1.0, 1.0, 0}});
  const auto units = novamd::core::lj_units();
  const auto kind = [&](novamd::forces::YukawaSettings s) {
    return novamd::forces::with_evaluator<double>(s, species, units, []<class E>(auto) {
      if constexpr (std::is_same_v<E, Yukawa<double>>) return 0;
      if constexpr (std::is_same_v<E, Truncated<Yukawa<double>, false>>) return 1;
      if constexpr (std::is_same_v<E, Truncated<Yukawa<double>, true>>) return 2;
      return -1;
    });
  };
  using novamd::physics::Truncation;
  EXPECT_EQ(kind({2.0, std::numeric_limits<double>::infinity(), Truncation::ShiftEnergy}), 0);
  EXPECT_EQ(kind({2.0, 4.0, Truncation::ShiftEnergy}), 1);
  EXPECT_EQ(kind({2.0, 4.0, Truncation::ShiftForce}), 2);
}

}  // namespace
