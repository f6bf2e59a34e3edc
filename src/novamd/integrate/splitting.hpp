#pragma once
/// @file splitting.hpp
/// A step as a sequence of splitting operators (Leimkuhler and Matthews' notation): B kicks
/// the velocities, A drifts the positions, O is the thermostat's velocity update, F evaluates
/// the forces, M marks where an integrator measures what it reports, D dilates the box and the
/// positions with it (MTTK). Velocity Verlet is
/// B/2 A F B/2, BAOAB is B/2 A/2 O A/2 F B/2; constraint and rotation operators join here.

#include <vector>

namespace novamd::integrate {

enum class Operator : char {
  Kick = 'B',
  Drift = 'A',
  Thermostat = 'O',
  Forces = 'F',
  Measure = 'M',
  Dilate = 'D',  ///< a barostat's scaling of the box and the positions (MTTK)
};

/// One operator and its share of the time step (kick, drift and thermostat stages).
struct Stage {
  Operator op;
  double fraction = 1.0;
};

using Splitting = std::vector<Stage>;

}  // namespace novamd::integrate
