#pragma once
/// @file force_buffers.hpp
/// Where force terms accumulate on the CPU: forces and per-particle shares of energy and virial.
/// Per-particle shares are summed in index order afterwards, so totals do not depend on threads.

#include <numeric>
#include <vector>

#include "novamd/core/particles.hpp"

namespace novamd::neighbors {

struct ForceBuffers {
  core::Vec3Array force;
  std::vector<double> energy;  ///< each particle's share of the potential energy
  std::vector<double> virial;  ///< each particle's share of sum over pairs of r_ij . f_ij

  void reset(std::size_t n) {
    force.resize(n);
    force.fill_zero();
    energy.assign(n, 0.0);
    virial.assign(n, 0.0);
  }
  double total_energy() const { return std::accumulate(energy.begin(), energy.end(), 0.0); }
  double total_virial() const { return std::accumulate(virial.begin(), virial.end(), 0.0); }
};

}  // namespace novamd::neighbors
