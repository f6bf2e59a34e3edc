#pragma once
/// @file particle_terms.hpp
/// Per-particle terms of the CUDA backend's reductions, as host-device functors run by
/// for_each_particle (each writes particle i's entry only): m v^2 for the kinetic energy, the
/// kinetic tensor's components, and
/// the flag of the stability check (core/state_check.hpp), whose minimum over the particles
/// names the first unstable one.

#include <climits>
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

/// out[i] = component `component` (core/tensor.hpp order) of m v v^T in energy units: the
/// particle's share of twice the kinetic tensor.
struct TwiceKineticTensorComponent {
  const double* mass_energy;
  const std::int32_t* type;
  integrate::Vec3Pointers velocity;
  int component;
  double* out;

  NOVAMD_HD void operator()(int i) const {
    const auto v = velocity.get(i);
    core::SymmetricTensor<double> t;
    t.add_outer(mass_energy[type[i]], v.x, v.y, v.z);
    out[i] = t.c[component];
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
