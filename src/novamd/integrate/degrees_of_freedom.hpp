#pragma once
/// @file degrees_of_freedom.hpp
/// The degrees of freedom of a system, for its temperature: from the system (particles, and
/// the constraints and rigid bodies that remove freedom), not from N alone.

#include <cstddef>

namespace novamd::integrate {

/// What the degrees of freedom of a system are made of.
struct SystemFreedom {
  std::size_t particles = 0;
  std::size_t constraints = 0;  ///< independent holonomic constraints (bond lengths, ...)
  /// Rigid molecules' rotational degrees of freedom: 3 for each that turns about three axes, 2
  /// for each linear one, none for a point (core/rigid_shape.hpp).
  std::size_t rotations = 0;
};

/// 3N minus the constraints, minus 3 more where the total momentum is conserved at zero (for
/// more than one particle): the translational degrees of freedom.
inline double translational_degrees_of_freedom(const SystemFreedom& system,
                                               bool momentum_conserved) {
  const double n = static_cast<double>(system.particles);
  const double removed = momentum_conserved && system.particles > 1 ? 3.0 : 0.0;
  return 3.0 * n - static_cast<double>(system.constraints) - removed;
}

/// The translational ones and the rotations.
inline double degrees_of_freedom(const SystemFreedom& system, bool momentum_conserved) {
  return translational_degrees_of_freedom(system, momentum_conserved) +
         static_cast<double>(system.rotations);
}

}  // namespace novamd::integrate
