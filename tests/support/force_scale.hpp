#pragma once
// The scale of each particle's round-off, sum_j |f_ij|, and the Lennard-Jones mixture that the
// GPU traversal tests share.

#include <algorithm>
#include <cmath>
#include <vector>

#include "novamd/backend/backend.hpp"
#include "novamd/forces/force_settings.hpp"
#include "support/systems.hpp"

namespace novamd::test {

/// S_i = sum_j |f_ij| for every particle, in double, with the run's own evaluator (any force
/// term): the scale of each particle's round-off.
inline std::vector<double> force_magnitude_sums(const backend::BackendSetup& s) {
  const auto& p = s.particles;
  const auto box = s.box.view<double>();
  std::vector<double> sums(p.size(), 0.0);
  for (const auto& term : s.forces) {
    forces::with_evaluator<double>(
        term, s.species, s.units, [&]<class Evaluator>(const auto& table) {
          const auto view = table.view();
#pragma omp parallel for schedule(static)
          for (std::size_t i = 0; i < p.size(); ++i) {
            for (std::size_t j = 0; j < p.size(); ++j) {
              if (i == j) continue;
              const auto d = box.minimum_image(p.position.get(i) - p.position.get(j));
              const double r2 = core::dot(d, d);
              const auto pair = Evaluator::evaluate(r2, view(p.type[i], p.type[j]));
              sums[i] += std::abs(pair.force_over_r) * std::sqrt(r2);
            }
          }
          return 0;
        });
  }
  return sums;
}

/// A Lennard-Jones mixture (sigma 1 and 0.9, Lorentz-Berthelot with xi = 0.95) at density
/// 0.6, no two particles closer than 0.8, truncated at 2.5 with `truncation`.
inline backend::BackendSetup lj_mixture(std::size_t n, core::Precision precision,
                                        forces::Truncation truncation) {
  const double edge = std::cbrt(static_cast<double>(n) / 0.6 / (0.9 * 1.1));
  auto setup = random_mixture(n, std::max(edge, 5.2), 99 + n, 1.0, 0.8);
  setup.precision = precision;
  forces::LennardJonesSettings lj;
  lj.pairs = {{"A", "A", 1.0, 1.0},
              {"B", "B", 0.8, 0.9},
              {"C", "C", 1.2, 1.1},
              {"A", "B", {}, {}, 0.95, 1.0}};
  lj.cutoff = 2.5;
  lj.truncation = truncation;
  setup.forces = {lj};
  return setup;
}

}  // namespace novamd::test
