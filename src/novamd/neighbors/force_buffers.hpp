#pragma once
/// @file force_buffers.hpp
/// Where force terms accumulate on the CPU: forces and per-particle shares of energy and of the
/// virial tensor. Per-particle shares are summed in index order afterwards, so totals do not
/// depend on threads.

#include <array>
#include <numeric>
#include <vector>

#include "novamd/core/particles.hpp"
#include "novamd/core/tensor.hpp"

namespace novamd::neighbors {

struct ForceBuffers {
  core::Vec3Array force;
  /// Torques (space frame) on rigid molecules, where `torques` is set (else left empty).
  core::Vec3Array torque;
  bool torques = false;
  std::vector<double> energy;  ///< each particle's share of the potential energy
  /// Each particle's share of the virial tensor sum over pairs of r_ij,a f_ij,b, one array per
  /// component (core/tensor.hpp order).
  std::array<std::vector<double>, core::kTensorComponents> virial;

  /// Zero forces for n particles; energy and virial shares zeroed too when `with_energy`
  /// (else left as they are: the evaluation will not write them).
  void reset(std::size_t n, bool with_energy = true) {
    force.resize(n);
    force.fill_zero();
    if (torques) {
      torque.resize(n);
      torque.fill_zero();
    }
    if (!with_energy && energy.size() == n) return;
    energy.assign(n, 0.0);
    for (auto& component : virial) component.assign(n, 0.0);
  }
  double total_energy() const { return std::accumulate(energy.begin(), energy.end(), 0.0); }
  core::SymmetricTensor<double> total_virial() const {
    core::SymmetricTensor<double> w;
    for (int k = 0; k < core::kTensorComponents; ++k)
      w.c[k] = std::accumulate(virial[k].begin(), virial[k].end(), 0.0);
    return w;
  }
};

}  // namespace novamd::neighbors
