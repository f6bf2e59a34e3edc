#pragma once
/// @file config_components.hpp
/// `system.components`: rigid multi-centre molecules (seed 001), each with its sites:
///
///     components:
///       - name: CO2
///         sites:
///           - {type: lj, position: [0, 0, -1.2], epsilon: 0.5, sigma: 3.0, mass: 16.0}
///           - {type: lj, position: [0, 0, 0], epsilon: 0.1, sigma: 2.8, mass: 12.0}
///           - {type: lj, position: [0, 0, 1.2], epsilon: 0.5, sigma: 3.0, mass: 16.0}
///           - {type: quadrupole, position: [0, 0, 0], direction: [0, 0, 1], moment: -4.3}
///         inertia: [Ixx, Iyy, Izz]   # optional: the sites' frame as the body frame
///
/// Site keys by type: lj (position, epsilon, sigma, mass), charge (position, charge, mass),
/// dipole (position, direction, moment, mass), quadrupole (position, direction, moment, mass);
/// mass defaults to 0 except for lj, where it is required. Numbers are in the config's units.

#include <vector>

#include "novamd/core/components.hpp"
#include "novamd/io/yaml_reader.hpp"

namespace novamd::io {

/// The components of the list `node`, each resolved into its principal frame.
/// @throws core::InputError naming the file, line and key of the first problem.
std::vector<core::ResolvedComponent> parse_components(const YamlReader& node);

}  // namespace novamd::io
