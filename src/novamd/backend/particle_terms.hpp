#pragma once
/// @file particle_terms.hpp
/// Per-particle terms of the CUDA backend's reductions, as host-device functors run by
/// for_each_particle (each writes particle i's entry only) or read by a reduction (each returns
/// particle i's entries): m v^2 for the kinetic energy, the kinetic energy and tensor together,
/// the energy and virial shares together, and the flag of the stability check
/// (core/state_check.hpp), whose minimum over the particles names the first unstable one.

#include <climits>
#include <cstddef>
#include <cstdint>

#include "novamd/core/host_device.hpp"
#include "novamd/core/state_check.hpp"
#include "novamd/core/tensor.hpp"
#include "novamd/integrate/vec3_pointers.hpp"

namespace novamd::backend {

/// out[i] = m v^2 in energy units (mass_energy per type: the mass times the unit factor).
struct TwiceKineticEnergy {
  const double* mass_energy;
  const std::int32_t* type;
  integrate::Vec3Pointers velocity;
  double* out;

  NOVAMD_HD void operator()(int i) const {
    const auto v = velocity.get(i);
    out[i] = mass_energy[type[i]] * (v.x * v.x + v.y * v.y + v.z * v.z);
  }
};

/// A scalar and a symmetric tensor's components summed at once (one pass over the particles,
/// one reduction): 2 K and 2 K_ab, or U and W_ab.
struct ScalarAndTensor {
  static constexpr int kEntries = 1 + core::kTensorComponents;
  double v[kEntries];
};

/// The componentwise sum, CUB's reduction operator.
struct AddScalarAndTensor {
  NOVAMD_HD ScalarAndTensor operator()(const ScalarAndTensor& a, const ScalarAndTensor& b) const {
    ScalarAndTensor s;
    for (int k = 0; k < ScalarAndTensor::kEntries; ++k) s.v[k] = a.v[k] + b.v[k];
    return s;
  }
};

/// Particle i's m v^2 and m v_a v_b in energy units: its share of 2 K and of 2 K_ab.
struct TwiceKineticShares {
  const double* mass_energy;
  const std::int32_t* type;
  integrate::Vec3Pointers velocity;

  NOVAMD_HD ScalarAndTensor operator()(int i) const {
    const auto v = velocity.get(i);
    const double m = mass_energy[type[i]];
    core::SymmetricTensor<double> t;
    t.add_outer(m, v.x, v.y, v.z);
    ScalarAndTensor s;
    s.v[0] = m * (v.x * v.x + v.y * v.y + v.z * v.z);
    for (int k = 0; k < core::kTensorComponents; ++k) s.v[1 + k] = t.c[k];
    return s;
  }
};

/// Particle `first + i`'s share of the potential energy and of the virial tensor.
struct EnergyAndVirialShares {
  const double* energy;
  const double* virial[core::kTensorComponents];
  std::size_t first;

  NOVAMD_HD ScalarAndTensor operator()(int i) const {
    const std::size_t at = first + static_cast<std::size_t>(i);
    ScalarAndTensor s;
    s.v[0] = energy[at];
    for (int k = 0; k < core::kTensorComponents; ++k) s.v[1 + k] = virial[k][at];
    return s;
  }
};

/// out[i] = the particle's id where any of its state is not finite or it moves faster than
/// sqrt(max_speed_squared), else INT32_MAX (the host then names what).
struct InstabilityFlag {
  integrate::Vec3Pointers position, velocity, force;
  const double* energy;
  const std::int32_t* id;
  double max_speed_squared;
  std::int32_t* out;

  NOVAMD_HD void operator()(int i) const {
    const core::Instability what = core::instability_of(position.get(i), velocity.get(i),
                                                        force.get(i), energy[i], max_speed_squared);
    out[i] = what == core::Instability::None ? INT32_MAX : id[i];
  }
};

}  // namespace novamd::backend
