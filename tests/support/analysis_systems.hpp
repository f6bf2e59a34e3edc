#pragma once
// Particle arrays built by hand for the analysis tests: uniform random (an ideal gas), a bcc
// crystal, and storage shuffled so that ids differ from storage places.

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/core/particles.hpp"

namespace novamd::test {

/// `n` particles uniform in `box`, species drawn with probabilities `fractions`, ids shuffled
/// over the storage places.
inline core::ParticleData uniform_particles(std::size_t n, const core::Box& box,
                                            const std::vector<double>& fractions,
                                            std::mt19937_64& rng) {
  core::ParticleData p;
  p.resize(n);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::discrete_distribution<int> species(fractions.begin(), fractions.end());
  const auto& L = box.length();
  std::vector<std::int32_t> ids(n);
  std::iota(ids.begin(), ids.end(), 0);
  std::shuffle(ids.begin(), ids.end(), rng);
  for (std::size_t k = 0; k < n; ++k) {
    p.position.set(k, {L.x * unit(rng), L.y * unit(rng), L.z * unit(rng)});
    p.type[k] = species(rng);
    p.id[k] = ids[k];
  }
  return p;
}

/// A bcc crystal of `cells` cubic cells of edge `a` per axis, sites offset by (0.25, 0.25,
/// 0.25) a, every particle of type 0.
inline core::ParticleData bcc_crystal(int cells, double a) {
  core::ParticleData p;
  for (int i = 0; i < cells; ++i)
    for (int j = 0; j < cells; ++j)
      for (int k = 0; k < cells; ++k)
        for (double half : {0.0, 0.5}) {
          p.position.x.push_back((i + 0.25 + half) * a);
          p.position.y.push_back((j + 0.25 + half) * a);
          p.position.z.push_back((k + 0.25 + half) * a);
          p.type.push_back(0);
          p.id.push_back(static_cast<std::int32_t>(p.id.size()));
        }
  p.velocity.resize(p.type.size());
  p.force.resize(p.type.size());
  return p;
}

/// Counts per type of `p`.
inline std::vector<std::int64_t> species_counts(const core::ParticleData& p, int species) {
  return core::count_by_type(p, species);
}

}  // namespace novamd::test
