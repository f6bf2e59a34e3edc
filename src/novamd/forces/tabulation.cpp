/// @file tabulation.cpp
/// The knots of a tabulated pair potential, built as LAMMPS's `pair_style table` builds them.

#include "novamd/forces/tabulation.hpp"

#include <cmath>

#include "novamd/physics/tabulated.hpp"

namespace novamd::forces {
namespace {

/// The file's energy and force as cubic splines in r (LAMMPS's spline_table).
struct FileSplines {
  std::vector<double> energy2, force2;
  double force_slope_first = 0.0, force_slope_last = 0.0;  ///< dF/dr at the ends
};

FileSplines spline_file(const TableSection& s) {
  const auto& r = s.r;
  const std::size_t n = r.size();
  FileSplines f;
  f.energy2 = spline_second_derivatives(r, s.energy, -s.force.front(), -s.force.back());
  if (s.fprime) {
    f.force_slope_first = (*s.fprime)[0];
    f.force_slope_last = (*s.fprime)[1];
  } else {
    f.force_slope_first = (s.force[1] - s.force[0]) / (r[1] - r[0]);
    f.force_slope_last = (s.force[n - 1] - s.force[n - 2]) / (r[n - 1] - r[n - 2]);
  }
  f.force2 = spline_second_derivatives(r, s.force, f.force_slope_first, f.force_slope_last);
  return f;
}

/// Knot i of the interpolation table: s, E and F (not yet over r).
struct Samples {
  std::vector<double> s, energy, force;
};

Samples sample(const TableSection& section, const FileSplines* splines, int points,
               double inner_squared, double delta) {
  Samples out;
  for (int i = 0; i < points; ++i) {
    const double s = inner_squared + i * delta;
    const double r = std::sqrt(s);
    out.s.push_back(s);
    if (!splines) {  // the file's rows are the knots
      out.energy.push_back(section.energy[i]);
      out.force.push_back(section.force[i]);
    } else {
      out.energy.push_back(spline_at(section.r, section.energy, splines->energy2, r));
      out.force.push_back(spline_at(section.r, section.force, splines->force2, r));
    }
  }
  return out;
}

/// d(F/r)/ds at the ends of the spline table: from FPRIME where given (at the last knot only if
/// it is the file's last row), else by a secant over a tenth of an interval of the file's spline.
std::array<double, 2> force_slopes_in_s(const TableSection& section, const FileSplines& splines,
                                        const Samples& k, double cutoff, double delta) {
  const double secant = 0.1 * delta;
  const double s0 = k.s.front(), r0 = std::sqrt(s0), f0 = k.force.front();
  const double sn = cutoff * cutoff, fn = k.force.back();
  const auto file_force_over_r = [&](double s) {
    return spline_at(section.r, section.force, splines.force2, std::sqrt(s)) / std::sqrt(s);
  };
  const double first = section.fprime ? (splines.force_slope_first / r0 - f0 / s0) / (2.0 * r0)
                                      : (file_force_over_r(s0 + secant) - f0 / r0) / secant;
  const double last = section.fprime && cutoff == section.r.back()
                          ? (splines.force_slope_last / cutoff - fn / sn) / (2.0 * cutoff)
                          : (fn / cutoff - file_force_over_r(sn - secant)) / secant;
  return {first, last};
}

}  // namespace

std::vector<double> spline_second_derivatives(const std::vector<double>& x,
                                              const std::vector<double>& y, double slope_first,
                                              double slope_last) {
  const std::size_t n = x.size();
  std::vector<double> y2(n), u(n);
  y2[0] = -0.5;
  u[0] = (3.0 / (x[1] - x[0])) * ((y[1] - y[0]) / (x[1] - x[0]) - slope_first);
  for (std::size_t i = 1; i + 1 < n; ++i) {
    const double sig = (x[i] - x[i - 1]) / (x[i + 1] - x[i - 1]);
    const double p = sig * y2[i - 1] + 2.0;
    y2[i] = (sig - 1.0) / p;
    const double jump =
        (y[i + 1] - y[i]) / (x[i + 1] - x[i]) - (y[i] - y[i - 1]) / (x[i] - x[i - 1]);
    u[i] = (6.0 * jump / (x[i + 1] - x[i - 1]) - sig * u[i - 1]) / p;
  }
  const double qn = 0.5;
  const double un =
      (3.0 / (x[n - 1] - x[n - 2])) * (slope_last - (y[n - 1] - y[n - 2]) / (x[n - 1] - x[n - 2]));
  y2[n - 1] = (un - qn * u[n - 2]) / (qn * y2[n - 2] + 1.0);
  for (std::size_t k = n - 1; k-- > 0;) y2[k] = y2[k] * y2[k + 1] + u[k];
  return y2;
}

double spline_at(const std::vector<double>& x, const std::vector<double>& y,
                 const std::vector<double>& y2, double x0) {
  std::size_t lo = 0, hi = x.size() - 1;
  while (hi - lo > 1) {
    const std::size_t mid = (hi + lo) / 2;
    (x[mid] > x0 ? hi : lo) = mid;
  }
  const double h = x[hi] - x[lo];
  const double a = (x[hi] - x0) / h;
  const double b = (x0 - x[lo]) / h;
  return a * y[lo] + b * y[hi] +
         ((a * a * a - a) * y2[lo] + (b * b * b - b) * y2[hi]) * (h * h) / 6.0;
}

Tabulation tabulate(const TableSection& section, TableInterpolation interpolation, int points,
                    double cutoff) {
  Tabulation t;
  t.count = points;
  t.cutoff = cutoff;
  const double inner = section.first_distance();
  t.inner_squared = inner * inner;
  t.delta = (cutoff * cutoff - t.inner_squared) / (points - 1);
  const bool rows_are_knots =
      interpolation == TableInterpolation::Linear && section.spacing == TableSpacing::Rsq &&
      static_cast<int>(section.r.size()) == points && section.r_hi == cutoff;
  std::optional<FileSplines> splines;
  if (!rows_are_knots) splines = spline_file(section);
  Samples k = sample(section, splines ? &*splines : nullptr, points, t.inner_squared, t.delta);

  std::vector<double> third(points, 0.0), fourth(points, 0.0);
  if (interpolation == TableInterpolation::Spline) {
    const double r0 = std::sqrt(t.inner_squared);
    third = spline_second_derivatives(k.s, k.energy, -k.force.front() / (2.0 * r0),
                                      -k.force.back() / (2.0 * cutoff));
    const auto slopes = force_slopes_in_s(section, *splines, k, cutoff, t.delta);
    for (int i = 0; i < points; ++i) k.force[i] /= std::sqrt(k.s[i]);
    fourth = spline_second_derivatives(k.s, k.force, slopes[0], slopes[1]);
  } else {
    for (int i = 0; i < points; ++i) k.force[i] /= std::sqrt(k.s[i]);
    for (int i = 0; i + 1 < points; ++i) {
      third[i] = k.energy[i + 1] - k.energy[i];
      fourth[i] = k.force[i + 1] - k.force[i];
    }
  }
  t.knots.reserve(std::size_t(points) * physics::kKnotValues);
  for (int i = 0; i < points; ++i) {
    for (const double v : {k.s[i], k.energy[i], k.force[i], third[i], fourth[i]})
      t.knots.push_back(v);
  }
  return t;
}

}  // namespace novamd::forces
