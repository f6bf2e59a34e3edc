#pragma once
// LAMMPS pair table files written from analytic potentials (Lennard-Jones, Yukawa), and the
// interpolation-error bound of a table against the potential it samples.

#include <fmt/format.h>

#include <cmath>
#include <functional>
#include <string>

namespace novamd::test {

/// A pair potential by its energy E(r), force F = -dE/dr and dF/dr.
struct AnalyticPair {
  std::function<double(double)> energy, force, force_slope;
};

inline AnalyticPair lj_pair(double epsilon, double sigma) {
  const double c12 = 4 * epsilon * std::pow(sigma, 12), c6 = 4 * epsilon * std::pow(sigma, 6);
  return {[=](double r) { return c12 / std::pow(r, 12) - c6 / std::pow(r, 6); },
          [=](double r) { return 12 * c12 / std::pow(r, 13) - 6 * c6 / std::pow(r, 7); },
          [=](double r) { return -156 * c12 / std::pow(r, 14) + 42 * c6 / std::pow(r, 8); }};
}

inline AnalyticPair yukawa_pair(double coupling, double lambda) {
  const auto e = [=](double r) { return coupling * std::exp(-r / lambda) / r; };
  return {e, [=](double r) { return e(r) * (1 / r + 1 / lambda); },
          [=](double r) {
            return -e(r) * ((1 / r + 1 / lambda) * (1 / r + 1 / lambda) + 1 / (r * r));
          }};
}

/// One section, `n` rows from r_lo to r_hi, evenly spaced in r^2 (`RSQ`) or r (`R`), with
/// FPRIME where asked; 17 significant digits.
inline std::string table_section(const std::string& keyword, const AnalyticPair& p, double r_lo,
                                 double r_hi, int n, const std::string& spacing = "RSQ",
                                 bool fprime = true) {
  std::string text = fmt::format("{}\nN {} {} {:.17g} {:.17g}", keyword, n, spacing, r_lo, r_hi);
  if (fprime)
    text += fmt::format(" FPRIME {:.17g} {:.17g}", p.force_slope(r_lo), p.force_slope(r_hi));
  text += "\n\n";
  for (int i = 0; i < n; ++i) {
    const double t = static_cast<double>(i) / (n - 1);
    const double r = spacing == "R" ? r_lo + (r_hi - r_lo) * t
                                    : std::sqrt(r_lo * r_lo + (r_hi * r_hi - r_lo * r_lo) * t);
    text += fmt::format("{} {:.17g} {:.17g} {:.17g}\n", i + 1, r, p.energy(r), p.force(r));
  }
  return text + "\n";
}

/// Bound on the error of linear interpolation in s = r^2 of g(s) between knots delta apart, at
/// s in the interval [s_lo, s_lo + delta]: delta^2 / 8 max |g''|. |g''| is taken from central
/// second differences (step delta / 4) at the interval's ends and middle, doubled for the
/// largest value between them (g'' of these potentials changes by far less than that across
/// one interval of 1e-3 sigma^2).
inline double chord_error_bound(const std::function<double(double)>& g, double s_lo, double delta) {
  const double h = delta / 4;
  double largest = 0;
  for (const double s : {s_lo, s_lo + delta / 2, s_lo + delta}) {
    const double second = (g(s + h) - 2 * g(s) + g(s - h)) / (h * h);
    largest = std::max(largest, std::abs(second));
  }
  return delta * delta / 8 * 2 * largest;
}

}  // namespace novamd::test
