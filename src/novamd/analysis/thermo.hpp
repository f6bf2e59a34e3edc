#pragma once
/// @file thermo.hpp
/// Thermodynamic quantities of one state, from the backend's whole-system sums.
///
///     T = 2 K / (f k_B)      f: degrees of freedom (3N - 3 where total momentum is conserved
///                            at zero, 3N under Langevin dynamics; the integrator says)
///     P = (2 K + W) / (3 V), W = trace of the virial tensor       (virial pressure; for rigid
///                            molecules K is the translational kinetic energy of their centres
///                            and W their molecular virial)
///     T_rot = 2 K_rot / (f_rot k_B), T_trans = 2 (K - K_rot) / ((f - f_rot) k_B)   (rigid
///                            molecules: rotation and translation apart)
///     P_ab = (2 K_ab + W_ab) / V,  W_ab = sum over pairs of r_ij,a f_ij,b,
///                                  K_ab = 1/2 sum over particles of m v_a v_b
///     both in the unit system's pressure unit (atm in `real` units: UnitSystem::pressure_scale)
///     conserved = K + U + thermostat energy (the energy the thermostat has taken out)

#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "novamd/analysis/plasma.hpp"
#include "novamd/analysis/thermo_columns.hpp"
#include "novamd/backend/backend.hpp"
#include "novamd/core/tensor.hpp"
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
  double conserved_energy = 0.0;
  double thermostat_energy = 0.0;
  double rotational_kinetic_energy = 0.0;         ///< rigid molecules' (part of kinetic_energy)
  double translational_temperature = 0.0;         ///< over the degrees of freedom of translation
  double rotational_temperature = 0.0;            ///< over those of rotation (0 without them)
  double virial = 0.0;                            ///< trace of the virial tensor
  core::SymmetricTensor<double> pressure_tensor;  ///< xx, yy, zz, xy, xz, yz
  double volume = 0.0;
  std::size_t particles = 0;
  /// Total mass per volume in the column's unit (mass_density; filled in by the run).
  double mass_density = 0.0;
  // Filled in by the run, for the extra columns:
  double conserved_energy_drift = 0.0;
  std::int64_t neighbor_list_builds = 0;
  double wall_time = 0.0;
  const PlasmaParameters* plasma = nullptr;  ///< for the plasma columns (ion plasmas only)
  /// The energy of each kind of term by its column (kTermEnergyColumns); absent: zero.
  std::map<std::string, double, std::less<>> term_energy;
  /// Each of the backend's force terms' energy, in its order, and the tail correction's (filled
  /// in by the run): what a library user's energies() names term by term.
  std::vector<double> energy_by_term;
  double tail_energy = 0.0;
};

/// P_ab = (2 K_ab + W_ab) / V in energy per length^3, the kinetic tensor scaled to the reported
/// kinetic energy (which an integrator may average over half steps), so that the trace of
/// P_ab / 3 is the pressure.
inline core::SymmetricTensor<double> pressure_tensor(const backend::Observables& obs,
                                                     double volume) {
  const double raw_kinetic = obs.kinetic.trace();
  const double translational = obs.kinetic_energy - obs.rotational_kinetic_energy;
  core::SymmetricTensor<double> p = obs.kinetic;
  p *= raw_kinetic > 0.0 ? 2.0 * translational / raw_kinetic : 2.0;
  p += obs.virial;
  p *= 1.0 / volume;
  return p;
}

/// The state from whole-system sums; `dof`: degrees of freedom for the temperature, of which
/// `rotational_dof` are rigid molecules' rotations.
inline ThermoState make_thermo_state(std::int64_t step, double time,
                                     const backend::Observables& obs, std::size_t n, double volume,
                                     const core::UnitSystem& units, double dof,
                                     double thermostat_energy = 0.0, double rotational_dof = 0.0) {
  ThermoState s;
  s.step = step;
  s.time = time;
  s.kinetic_energy = obs.kinetic_energy;
  s.potential_energy = obs.potential_energy;
  s.total_energy = obs.kinetic_energy + obs.potential_energy;
  s.temperature = dof > 0 ? 2.0 * obs.kinetic_energy / (dof * units.boltzmann) : 0.0;
  const double translational = obs.kinetic_energy - obs.rotational_kinetic_energy;
  const double translational_dof = dof - rotational_dof;
  s.rotational_kinetic_energy = obs.rotational_kinetic_energy;
  s.translational_temperature =
      translational_dof > 0 ? 2.0 * translational / (translational_dof * units.boltzmann) : 0.0;
  s.rotational_temperature =
      rotational_dof > 0 ? 2.0 * obs.rotational_kinetic_energy / (rotational_dof * units.boltzmann)
                         : 0.0;
  s.virial = obs.virial.trace();
  s.pressure = units.pressure_scale * (2.0 * translational + s.virial) / (3.0 * volume);
  s.pressure_tensor = pressure_tensor(obs, volume);
  s.pressure_tensor *= units.pressure_scale;
  s.thermostat_energy = thermostat_energy;
  s.conserved_energy = s.total_energy + thermostat_energy;
  s.volume = volume;
  s.particles = n;
  return s;
}

/// The value of a standard or extra thermo column (analysis/thermo_columns.hpp) by name.
inline double thermo_value(const ThermoState& s, std::string_view column) {
  const double n = s.particles > 0 ? static_cast<double>(s.particles) : 1.0;
  if (column == "step") return static_cast<double>(s.step);
  if (column == "time") return s.time;
  if (column == "temperature") return s.temperature;
  if (column == "kinetic_energy") return s.kinetic_energy;
  if (column == "potential_energy") return s.potential_energy;
  if (column == "total_energy") return s.total_energy;
  if (column == "pressure") return s.pressure;
  if (column == "conserved_energy") return s.conserved_energy;
  if (column == "thermostat_energy") return s.thermostat_energy;
  if (column == "conserved_energy_drift") return s.conserved_energy_drift;
  if (column == "virial") return s.virial;
  if (column == "rotational_kinetic_energy") return s.rotational_kinetic_energy;
  if (column == "translational_temperature") return s.translational_temperature;
  if (column == "rotational_temperature") return s.rotational_temperature;
  if (column == "volume") return s.volume;
  for (int k = 0; k < core::kTensorComponents; ++k)
    if (column.size() == 3 && column[0] == 'p' &&
        column.substr(1) == core::kTensorComponentNames[k])
      return s.pressure_tensor.c[k];
  if (column == "density") return static_cast<double>(s.particles) / s.volume;
  if (column == "mass_density") return s.mass_density;
  if (column == "kinetic_energy_per_particle") return s.kinetic_energy / n;
  if (column == "potential_energy_per_particle") return s.potential_energy / n;
  if (column == "total_energy_per_particle") return s.total_energy / n;
  if (column == "neighbor_list_builds") return static_cast<double>(s.neighbor_list_builds);
  if (column == "wall_time") return s.wall_time;
  if (std::find(kTermEnergyColumns.begin(), kTermEnergyColumns.end(), column) !=
      kTermEnergyColumns.end()) {
    const auto found = s.term_energy.find(column);
    return found == s.term_energy.end() ? 0.0 : found->second;
  }
  if (s.plasma)
    if (const auto value = s.plasma->thermo_value(column, s.temperature)) return *value;
  throw std::invalid_argument("unknown thermo column");
}

}  // namespace novamd::analysis
