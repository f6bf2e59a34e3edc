#include <cmath>
#include <numbers>

#include "novamd/forces/force_settings.hpp"

namespace novamd::forces {
namespace {

const LennardJonesPair* find_pair(const std::vector<LennardJonesPair>& pairs, const std::string& a,
                                  const std::string& b) {
  for (const auto& p : pairs) {
    if ((p.species_a == a && p.species_b == b) || (p.species_a == b && p.species_b == a)) return &p;
  }
  return nullptr;
}

}  // namespace

LennardJonesSettings::Mixed LennardJonesSettings::mixed(const core::SpeciesTable& species) const {
  const int n = species.size();
  Mixed m{std::vector<double>(n * n, 0.0), std::vector<double>(n * n, 0.0)};
  std::vector<const LennardJonesPair*> like(n, nullptr);
  for (int a = 0; a < n; ++a) like[a] = find_pair(pairs, species[a].name, species[a].name);
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) {
      const LennardJonesPair* given = find_pair(pairs, species[a].name, species[b].name);
      double epsilon = 0.0, sigma = 0.0;  // species without like parameters do not interact
      if (given && given->epsilon && given->sigma) {
        epsilon = *given->epsilon;
        sigma = *given->sigma;
      } else if (like[a] && like[b]) {  // the mixing rule, with MarDyn's xi and eta
        const double xi = given ? given->xi : 1.0, eta = given ? given->eta : 1.0;
        epsilon = xi * std::sqrt(*like[a]->epsilon * *like[b]->epsilon);
        sigma = eta * (mixing == Mixing::Geometric ? std::sqrt(*like[a]->sigma * *like[b]->sigma)
                                                   : 0.5 * (*like[a]->sigma + *like[b]->sigma));
      }
      m.epsilon[a * n + b] = epsilon;
      m.sigma[a * n + b] = sigma;
    }
  }
  return m;
}

TailCorrection tail_correction(const std::vector<ForceSettings>& forces,
                               const core::SpeciesTable& species,
                               const std::vector<std::int64_t>& count, double volume) {
  // E_tail = (2 pi / V) sum_ab N_a N_b 4 eps s^3 [(s/rc)^9 / 9 - (s/rc)^3 / 3],
  // W_tail = (2 pi / V) sum_ab N_a N_b 4 eps s^3 [4/3 (s/rc)^9 - 2 (s/rc)^3]
  // (the integrals of 4 pi r^2 u(r) and of 4 pi r^2 (-r u'(r)) beyond rc; Allen and Tildesley,
  // Computer Simulation of Liquids, 2nd ed., section 2.8).
  TailCorrection tail;
  const int n = species.size();
  for (const auto& f : forces) {
    const auto* lj = std::get_if<LennardJonesSettings>(&f);
    if (!lj || !lj->tail_correction) continue;
    const auto m = lj->mixed(species);
    for (int a = 0; a < n; ++a) {
      for (int b = 0; b < n; ++b) {
        const double eps = m.epsilon[a * n + b], s = m.sigma[a * n + b];
        const double x3 = std::pow(s / lj->cutoff, 3), x9 = x3 * x3 * x3;
        const double prefactor = 2.0 * std::numbers::pi / volume * static_cast<double>(count[a]) *
                                 static_cast<double>(count[b]) * 4.0 * eps * s * s * s;
        tail.energy += prefactor * (x9 / 9.0 - x3 / 3.0);
        tail.virial += prefactor * (4.0 / 3.0 * x9 - 2.0 * x3);
      }
    }
  }
  return tail;
}

}  // namespace novamd::forces
