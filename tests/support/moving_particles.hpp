#pragma once
// Free particles with optional fields enabled, for the particle-store tests on both backends.

#include <cstdint>

#include "support/systems.hpp"

namespace novamd::test {

/// A charge no other particle has, from the id: a misplaced value shows.
inline double charge_of(std::int32_t id) { return 0.25 * id - 3.0; }

/// `n` free particles (no force term) in a box of edge `box`, velocities uniform in [-v, v] so
/// that they cross the box edges within a few steps, reordered along the curve at every force
/// evaluation, with charges (charge_of) and image counts enabled.
inline backend::BackendSetup moving_particles_with_fields(std::size_t n, double box,
                                                          std::uint64_t seed, double v) {
  auto setup = random_mixture(n, box, seed, 1.5, 0.0, v);
  setup.forces.clear();
  setup.neighbors.reorder_every = 1;
  auto& p = setup.particles;
  p.enable(p.charge);
  p.enable(p.image);
  for (std::size_t i = 0; i < p.size(); ++i) p.charge[i] = charge_of(p.id[i]);
  return setup;
}

}  // namespace novamd::test
