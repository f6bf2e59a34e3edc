// The tail integrals of site-site power laws between rigid molecules (physics/site_tails.hpp)
// against the textbook centre-centre tails and against direct quadrature of their definitions.

#include <gtest/gtest.h>

#include <cmath>
#include <utility>
#include <vector>

#include "novamd/physics/site_tails.hpp"

namespace {

using novamd::physics::averaged_inverse_power;
using novamd::physics::tail_integral;

constexpr double kPi = 3.14159265358979323846;

/// Gauss-Legendre nodes and weights on [-1, 1] (Newton on P_n from Chebyshev guesses).
std::vector<std::pair<double, double>> gauss_legendre(int n) {
  std::vector<std::pair<double, double>> rule;
  for (int i = 0; i < n; ++i) {
    double x = std::cos(kPi * (i + 0.75) / (n + 0.5)), dp = 0.0;
    for (int iteration = 0; iteration < 100; ++iteration) {
      double p0 = 1.0, p1 = x;
      for (int k = 2; k <= n; ++k) {
        const double p2 = ((2.0 * k - 1.0) * x * p1 - (k - 1.0) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      dp = n * (x * p1 - p0) / (x * x - 1.0);
      const double step = p1 / dp;
      x -= step;
      if (std::abs(step) < 1e-16) break;
    }
    rule.emplace_back(x, 2.0 / ((1.0 - x * x) * dp * dp));
  }
  return rule;
}

/// <r^-k> by quadrature over both spheres: the distance between a point at polar angle t1 on a
/// sphere of radius a about the origin and one at (t2, phi) on a sphere of radius b about (0, 0,
/// R); Gauss-Legendre in cos t1 and cos t2, the trapezoid rule in phi (periodic: exponentially
/// accurate). The integrand is analytic on the spheres (R > a + b).
double quadrature_average(double R, int k, double a, double b) {
  static const auto rule = gauss_legendre(40);
  constexpr int m = 48;
  double sum = 0.0;
  for (const auto& [c1, w1] : rule) {
    const double s1 = std::sqrt(1.0 - c1 * c1);
    for (const auto& [c2, w2] : rule) {
      const double s2 = std::sqrt(1.0 - c2 * c2);
      for (int l = 0; l < m; ++l) {
        const double phi = (l + 0.5) * 2.0 * kPi / m;
        const double dx = b * s2 * std::cos(phi) - a * s1, dy = b * s2 * std::sin(phi);
        const double dz = R + b * c2 - a * c1;
        sum += w1 * w2 * std::pow(dx * dx + dy * dy + dz * dz, -0.5 * k);
      }
    }
  }
  return sum / (4.0 * m);
}

TEST(SiteTails, CentresGiveTheTextbookLennardJonesTail) {
  // U_tail / N = (8/3) pi rho eps sigma^3 [(sigma/r_c)^9 / 3 - (sigma/r_c)^3] (Allen and
  // Tildesley, eq. 2.144): 2 pi rho 4 eps (sigma^12 T_12 - sigma^6 T_6) with sigma = 1.
  const double rc = 2.5, rho = 0.8;
  const double u =
      2.0 * kPi * rho * 4.0 * (tail_integral(rc, 12, 0, 0) - tail_integral(rc, 6, 0, 0));
  EXPECT_NEAR(u, 8.0 / 3.0 * kPi * rho * (std::pow(rc, -9) / 3.0 - std::pow(rc, -3)), 1e-15);
}

TEST(SiteTails, OrientationAveragesMatchQuadrature) {
  // 40 Gauss-Legendre points and 48 in phi on an analytic integrand: 1e-12 relative; a wrong
  // power or sign in the closed forms is off by percents.
  for (const int k : {6, 12}) {
    for (const auto& [a, b] : {std::pair{0.4, 0.0}, std::pair{0.0, 0.7}, std::pair{0.4, 0.7}}) {
      const double R = 2.3;
      const double exact = averaged_inverse_power(R, k, a, b);
      EXPECT_NEAR(exact, quadrature_average(R, k, a, b), 1e-12 * exact)
          << k << " " << a << " " << b;
    }
  }
}

TEST(SiteTails, TailIntegralsMatchQuadratureOfTheAverages) {
  // int_{r_c}^inf R^2 <r^-k> dR with x = r_c / R: r_c^3 int_0^1 x^-4 <r^-k>(r_c / x) dx, Simpson
  // with 20,000 intervals (the integrand vanishes as x^(k-4) at 0): 1e-12 relative.
  const double rc = 3.0;
  for (const int k : {6, 12}) {
    for (const auto& [a, b] :
         {std::pair{0.0, 0.0}, std::pair{0.5, 0.0}, std::pair{0.4, 0.4}, std::pair{0.3, 0.8}}) {
      constexpr int n = 20000;
      const auto f = [&](double x) {
        return x == 0.0 ? 0.0 : std::pow(x, -4) * averaged_inverse_power(rc / x, k, a, b);
      };
      double sum = f(0.0) + f(1.0);
      for (int i = 1; i < n; ++i) sum += (i % 2 ? 4.0 : 2.0) * f(double(i) / n);
      const double numeric = rc * rc * rc * sum / (3.0 * n);
      const double exact = tail_integral(rc, k, a, b);
      EXPECT_NEAR(exact, numeric, 1e-10 * exact) << k << " " << a << " " << b;
    }
  }
}

}  // namespace
