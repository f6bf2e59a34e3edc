#pragma once
/// @file integrator_state.hpp
/// An integrator's own state between steps (thermostat variables), as a checkpoint stores it.

#include <string>
#include <vector>

namespace novamd::integrate {

struct IntegratorState {
  std::string type;            ///< the integrator's config name: velocity_verlet, langevin, ...
  std::vector<double> values;  ///< its variables in an order the integrator defines
};

}  // namespace novamd::integrate
