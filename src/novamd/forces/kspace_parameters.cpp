#include "novamd/forces/kspace_parameters.hpp"

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

void resolve_kspace(std::vector<ForceSettings>& forces, const core::Box& box) {
  for (auto& f : forces)
    if (auto* coulomb = std::get_if<CoulombSettings>(&f)) resolve_ewald(*coulomb, box);
}

}  // namespace novamd::forces
