#pragma once
// Small systems built directly (no config) for backend and traversal tests.

#include <cmath>
#include <cstdint>
#include <random>

#include "novamd/backend/backend.hpp"
#include "novamd/core/topology.hpp"
#include "novamd/core/units.hpp"
#include "novamd/forces/bonded_settings.hpp"

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

/// `chains` linear chains of `length` particles in the random mixture's box (edge `box`), each
/// bond 0.8 to 1.4 long in a random direction, wrapped into the box (bonds cross its faces);
/// particle ids in chain order, bond types alternating 0 and 1; harmonic bonds of two types
/// (K 100, r0 1; K 50, r0 1.2). The pair term: the random mixture's Yukawa cut at 2.5, which
/// leaves out the pairs within three bonds (Verlet lists: the box needs an edge of at least 3 x
/// (2.5 + skin 0.3)).
inline backend::BackendSetup random_chains(int chains, int length, double box, std::uint64_t seed) {
  const auto n = static_cast<std::size_t>(chains) * static_cast<std::size_t>(length);
  auto s = random_mixture(n, box, seed);
  std::mt19937_64 rng(seed + 1);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const auto view = s.box.view<double>();
  s.topology = core::Topology(static_cast<std::int32_t>(n));
  for (int c = 0; c < chains; ++c) {
    for (int a = 1; a < length; ++a) {
      const auto i = static_cast<std::size_t>(c * length + a);
      const double z = 2 * unit(rng) - 1, phi = 6.283185307179586 * unit(rng);
      const double rho = std::sqrt(1 - z * z), bond = 0.8 + 0.6 * unit(rng);
      auto r = s.particles.position.get(i - 1);
      r += core::Vec3<double>{bond * rho * std::cos(phi), bond * rho * std::sin(phi), bond * z};
      s.particles.position.set(i, view.wrap(r));
      s.topology.add_bond(
          {a % 2, {static_cast<std::int32_t>(i - 1), static_cast<std::int32_t>(i)}});
    }
  }
  s.bonded = {forces::HarmonicBondSettings{{{100.0, 1.0}, {50.0, 1.2}}}};
  s.forces = {forces::YukawaSettings{1.5, 2.5}};
  return s;
}

}  // namespace novamd::test
