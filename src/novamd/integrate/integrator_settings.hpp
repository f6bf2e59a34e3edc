#pragma once
/// @file integrator_settings.hpp
/// `integrator: {type, timestep, ...}`: the integrator and its thermostat (docs/config.md).

#include <optional>
#include <string>

namespace novamd::integrate {

struct IntegratorSettings {
  /// velocity_verlet | leapfrog (NVE) | langevin | nose_hoover | bussi (NVT)
  std::string type = "velocity_verlet";
  double timestep = 0.0;
  std::optional<double> temperature;  ///< thermostat target (temperature unit); NVT only
  double friction = 0.0;              ///< langevin: gamma, per time unit
  double tau = 0.0;                   ///< nose_hoover, bussi: relaxation time
  int chain = 3;                      ///< nose_hoover: thermostats in the chain
};

}  // namespace novamd::integrate
