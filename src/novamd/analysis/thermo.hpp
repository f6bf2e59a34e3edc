#pragma once
/// @file thermo.hpp
/// Thermodynamic quantities of one state, from the backend's whole-system sums.
///
///     T = 2 K / (f k_B),   f = 3N - 3 (total momentum is removed; f = 3 for N = 1)
///     P = (2 K + W) / (3 V),   W = sum over pairs of r_ij . f_ij   (virial pressure)

#include <cstdint>

#include "novamd/backend/backend.hpp"
#include "novamd/core/units.hpp"

namespace novamd::analysis {

struct ThermoState {
  std::int64_t step = 0;
  double time = 0.0;
  double temperature = 0.0;
  double kinetic_energy = 0.0;
  double potential_energy = 0.0;
  double total_energy = 0.0;
  double pressure = 0.0;
};

/// Degrees of freedom of N point particles whose total momentum is conserved at zero.
inline double degrees_of_freedom(std::size_t n) {
  return n > 1 ? 3.0 * n - 3.0 : 3.0 * n;
}

inline ThermoState make_thermo_state(std::int64_t step, double time,
                                     const backend::Observables& obs, std::size_t n, double volume,
                                     const core::UnitSystem& units) {
  ThermoState s;
  s.step = step;
  s.time = time;
  s.kinetic_energy = obs.kinetic_energy;
  s.potential_energy = obs.potential_energy;
  s.total_energy = obs.kinetic_energy + obs.potential_energy;
  const double dof = degrees_of_freedom(n);
  s.temperature = dof > 0 ? 2.0 * obs.kinetic_energy / (dof * units.boltzmann) : 0.0;
  s.pressure = (2.0 * obs.kinetic_energy + obs.virial) / (3.0 * volume);
  return s;
}

}  // namespace novamd::analysis
