#pragma once
// Small systems built directly (no config) for backend and traversal tests.

#include <cstdint>
#include <random>

#include "novamd/backend/backend.hpp"
#include "novamd/core/units.hpp"

namespace novamd::test {

/// A random mixture of three species (charges 1, 6, 8) in a cubic box of edge `box`, positions
/// uniform (optionally no closer than `min_distance`), velocities uniform in [-v, v].
inline backend::BackendSetup random_mixture(std::size_t n, double box, std::uint64_t seed,
                                            double screening_length = 1.5,
                                            double min_distance = 0.0, double v = 0.0) {
  backend::BackendSetup s;
  s.units = core::lj_units();
  s.species = core::SpeciesTable({{"A", 1.0, 1.0, 0}, {"B", 6.0, 12.0, 0}, {"C", 8.0, 16.0, 0}});
  s.box = core::Box(box, box * 0.9, box * 1.1);
  s.forces = {forces::YukawaSettings{screening_length, forces::kNoCutoff}};
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  s.particles.resize(n);
  const auto L = s.box.length();
  const auto view = s.box.view<double>();
  for (std::size_t i = 0; i < n; ++i) {
    core::Vec3<double> r;
    bool ok = false;
    while (!ok) {
      r = {L.x * unit(rng), L.y * unit(rng), L.z * unit(rng)};
      ok = true;
      for (std::size_t j = 0; j < i && ok; ++j) {
        const auto d = view.minimum_image(r - s.particles.position.get(j));
        ok = core::dot(d, d) >= min_distance * min_distance;
      }
    }
    s.particles.position.set(i, r);
    s.particles.velocity.set(
        i, {v * (2 * unit(rng) - 1), v * (2 * unit(rng) - 1), v * (2 * unit(rng) - 1)});
    s.particles.type[i] = static_cast<std::int32_t>(rng() % 3);
    s.particles.id[i] = static_cast<std::int32_t>(i);
  }
  return s;
}

}  // namespace novamd::test
