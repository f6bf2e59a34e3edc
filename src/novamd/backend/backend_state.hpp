#pragma once
/// @file backend_state.hpp
/// Everything a backend keeps between steps that a bitwise continuation needs: what a
/// checkpoint stores and a restart gives back (io/checkpoint.hpp).

#include <cstdint>
#include <vector>

#include "novamd/core/particles.hpp"
#include "novamd/neighbors/neighbor_state.hpp"

namespace novamd::backend {

using NeighborState = neighbors::NeighborState;

struct BackendState {
  /// Storage order (not id order: the order fixes the summation order); forces are those of the
  /// last evaluation, at these positions.
  core::ParticleData particles;
  /// Per particle, storage order: kinetic energy a Langevin thermostat has added so far (empty
  /// for other integrators).
  std::vector<double> thermostat_heat;
  std::int64_t force_evaluations = 0;  ///< the phase of neighbors.reorder_every
  std::int64_t reorders = 0;           ///< reported only
  std::vector<NeighborState> terms;    ///< one per force term, in config order
};

}  // namespace novamd::backend
