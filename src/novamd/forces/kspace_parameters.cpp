#include "novamd/forces/kspace_parameters.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace novamd::forces {

double ewald_alpha(const CoulombSettings& settings) {
  const auto& e = settings.ewald;
  return e.alpha ? *e.alpha : std::sqrt(-std::log(2.0 * e.tolerance)) / settings.cutoff;
}

int fft_length_at_least(int minimum) {
  for (int n = std::max(minimum, 1);; ++n) {
    int rest = n;
    for (const int factor : {2, 3, 5, 7})
      while (rest % factor == 0) rest /= factor;
    if (rest == 1) return n;
  }
}

void resolve_ewald(CoulombSettings& settings, const core::Box& box) {
  if (!settings.ewald_split()) return;
  auto& e = settings.ewald;
  e.alpha = ewald_alpha(settings);
  const double lengths[3] = {box.length().x, box.length().y, box.length().z};
  for (int a = 0; a < 3; ++a) {
    if (settings.method == CoulombMethod::Pme) {
      const double points =
          2.0 * *e.alpha * lengths[a] / (3.0 * std::pow(e.tolerance, 1.0 / e.order));
      e.grid_per_axis[a] =
          e.grid ? (*e.grid)[a]
                 : fft_length_at_least(std::max(2 * e.order, static_cast<int>(std::ceil(points))));
      continue;
    }
    e.kmax_per_axis[a] =
        e.kmax ? *e.kmax
               : std::max(1, static_cast<int>(std::ceil(*e.alpha * lengths[a] *
                                                        std::sqrt(-std::log(e.tolerance)) /
                                                        std::numbers::pi)));
  }
}

namespace {

/// Deserno and Holm's coefficients a_pm for charge assignment of order p = 4, 5, 6 (J. Chem.
/// Phys. 109, 7694 (1998); as tabulated in LAMMPS's kspace/pppm.cpp).
constexpr double kMeshErrorCoefficients[3][6] = {
    {1.0 / 4320.0, 3.0 / 1936.0, 7601.0 / 2271360.0, 143.0 / 28800.0, 0.0, 0.0},
    {1.0 / 23232.0, 7601.0 / 13628160.0, 143.0 / 69120.0, 517231.0 / 106536960.0,
     106640677.0 / 11737571328.0, 0.0},
    {691.0 / 68140800.0, 13.0 / 57600.0, 47021.0 / 35512320.0, 9694607.0 / 2095994880.0,
     733191589.0 / 59609088000.0, 326190917.0 / 11700633600.0}};

double mesh_error_estimate(int order, double spacing, double alpha, double length, double n,
                           double q2) {
  const double ha = spacing * alpha;
  double sum = 0.0;
  for (int m = 0; m < order; ++m)
    sum += kMeshErrorCoefficients[order - 4][m] * std::pow(ha, 2.0 * m);
  return q2 * std::pow(ha, order) *
         std::sqrt(alpha * length * std::sqrt(2.0 * std::numbers::pi) * sum / n) /
         (length * length);
}

}  // namespace

double EwaldErrorEstimate::total() const {
  return std::hypot(real, reciprocal);
}

EwaldErrorEstimate ewald_error_estimate(const CoulombSettings& settings, const core::Box& box,
                                        std::int64_t particles, double sum_q2,
                                        double coulomb_constant) {
  const auto& e = settings.ewald;
  const double n = static_cast<double>(std::max<std::int64_t>(particles, 1));
  const double q2 = coulomb_constant / settings.dielectric * sum_q2;
  const double alpha = *e.alpha, rc = settings.cutoff;
  EwaldErrorEstimate out;
  out.pme = settings.method == CoulombMethod::Pme;
  out.real = 2.0 * q2 * std::exp(-alpha * alpha * rc * rc) / std::sqrt(n * rc * box.volume());
  const double lengths[3] = {box.length().x, box.length().y, box.length().z};
  double sum = 0.0;
  for (int a = 0; a < 3; ++a) {
    const double L = lengths[a];
    double axis = 0.0;
    if (settings.method == CoulombMethod::Pme) {
      axis = mesh_error_estimate(e.order, L / e.grid_per_axis[a], alpha, L, n, q2);
    } else {
      const double km = e.kmax_per_axis[a];
      const double x = std::numbers::pi * km / (alpha * L);
      axis = 2.0 * q2 * alpha / L * std::sqrt(1.0 / (std::numbers::pi * km * n)) * std::exp(-x * x);
    }
    sum += axis * axis;
  }
  out.reciprocal = std::sqrt(sum / 3.0);
  return out;
}

void resolve_kspace(std::vector<ForceSettings>& forces, const core::Box& box) {
  for (auto& f : forces)
    if (auto* coulomb = std::get_if<CoulombSettings>(&f)) resolve_ewald(*coulomb, box);
}

}  // namespace novamd::forces
