#pragma once
/// @file term_geometry.hpp
/// The equilibrium geometry a constraint plan holds (constraint_plan.hpp), read from the bonded
/// terms' coefficients: r0 of each harmonic bond, theta0 of each harmonic or CHARMM angle.

#include <vector>

#include "novamd/core/topology.hpp"
#include "novamd/forces/bonded_settings.hpp"

namespace novamd::constraints {

struct TermGeometry {
  std::vector<double> bond_length;   ///< per bond term; NaN where no family gives one
  std::vector<double> angle_theta0;  ///< per angle term, radians; NaN likewise
};

/// The geometry of `topology`'s bonds and angles under the families `bonded`.
TermGeometry term_geometry(const core::Topology& topology,
                           const std::vector<forces::BondedSettings>& bonded);

}  // namespace novamd::constraints
