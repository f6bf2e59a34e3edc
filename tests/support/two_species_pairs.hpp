#pragma once
// A random two-species system for pair-term comparisons (tables and formulas against the
// built-in potentials) and one CPU evaluation of a force term on it.

#include <cstdint>
#include <random>
#include <vector>

#include "novamd/backend/cpu_backend.hpp"
#include "novamd/core/tensor.hpp"

namespace novamd::test {

/// Species A and B (charges 1 and -1, masses 1 and 2), `n` particles no closer than 0.85 in a
/// cubic box of edge 8, types at random.
inline backend::BackendSetup two_species_pairs(std::size_t n, std::uint64_t seed) {
  backend::BackendSetup s;
  s.units = core::lj_units();
  s.species = core::SpeciesTable({{"A", 1.0, 1.0, 0}, {"B", -1.0, 2.0, 0}});
  s.box = core::Box(8.0, 8.0, 8.0);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 8.0);
  s.particles.resize(n);
  const auto view = s.box.view<double>();
  for (std::size_t i = 0; i < n; ++i) {
    core::Vec3<double> r;
    for (bool far = false; !far;) {
      r = {unit(rng), unit(rng), unit(rng)};
      far = true;
      for (std::size_t j = 0; j < i && far; ++j) {
        const auto d = view.minimum_image(r - s.particles.position.get(j));
        far = core::dot(d, d) >= 0.85 * 0.85;
      }
    }
    s.particles.position.set(i, r);
    s.particles.type[i] = static_cast<std::int32_t>(rng() % 2);
    s.particles.id[i] = static_cast<std::int32_t>(i);
  }
  return s;
}

/// What one evaluation gives: the forces, the potential energy and the virial tensor.
struct PairTermResults {
  std::vector<double> fx, fy, fz;
  double energy;
  core::SymmetricTensor<double> virial;
};

/// `term` alone on `setup`, by the CPU backend in double (its traversal as the setup resolves).
inline PairTermResults evaluate_term(backend::BackendSetup setup,
                                     const forces::ForceSettings& term) {
  setup.forces = {term};
  backend::CpuBackend b(setup);
  b.compute_forces(backend::EnergyRequest::Compute);
  const auto& p = b.particles_on_host();
  const auto o = b.observables();
  return {p.force.x, p.force.y, p.force.z, o.potential_energy, o.virial};
}

}  // namespace novamd::test
