#include "novamd/forces/kspace_parameters.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace novamd::forces {

double ewald_alpha(const CoulombSettings& settings) {
  const auto& e = settings.ewald;
  return e.alpha ? *e.alpha : std::sqrt(-std::log(2.0 * e.tolerance)) / settings.cutoff;
}

void resolve_ewald(CoulombSettings& settings, const core::Box& box) {
  if (settings.method != CoulombMethod::Ewald) return;
  auto& e = settings.ewald;
  e.alpha = ewald_alpha(settings);
  const double lengths[3] = {box.length().x, box.length().y, box.length().z};
  for (int a = 0; a < 3; ++a) {
    e.kmax_per_axis[a] =
        e.kmax ? *e.kmax
               : std::max(1, static_cast<int>(std::ceil(*e.alpha * lengths[a] *
                                                        std::sqrt(-std::log(e.tolerance)) /
                                                        std::numbers::pi)));
  }
}

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
  out.real = 2.0 * q2 * std::exp(-alpha * alpha * rc * rc) / std::sqrt(n * rc * box.volume());
  const double lengths[3] = {box.length().x, box.length().y, box.length().z};
  double sum = 0.0;
  for (int a = 0; a < 3; ++a) {
    const double km = e.kmax_per_axis[a], L = lengths[a];
    const double x = std::numbers::pi * km / (alpha * L);
    const double axis =
        2.0 * q2 * alpha / L * std::sqrt(1.0 / (std::numbers::pi * km * n)) * std::exp(-x * x);
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
