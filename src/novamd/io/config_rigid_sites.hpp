#pragma once
/// @file config_rigid_sites.hpp
/// The force term of rigid multi-centre molecules (`system.components`): the one `forces`
/// entry such a system has,
///
///     forces:
///       - rigid_sites:
///           cutoff: 5.0          # on the molecules' centres of mass (MarDyn's convention)
///           shift: energy        # energy | none: each Lennard-Jones site pair shifted at the
///           cutoff epsilon_rf: 1.0e10   # the dipoles' reaction field (none: no reaction field)
///           coulomb: {method: pme, tolerance: 1.0e-5}   # the charges' Ewald sum (none: plain
///                                # Coulomb within the cutoff); ewald | pme, with alpha, kmax,
///                                # kmax_squared, order, grid as `forces: - coulomb` takes them
///           mixing:              # Lorentz-Berthelot between components, scaled (MarDyn's xi, eta)
///             - {components: [CO2, N2], xi: 0.97, eta: 1.0}
///
/// forces/rigid_model.hpp says what each key does.

#include <vector>

#include "novamd/core/components.hpp"
#include "novamd/core/units.hpp"
#include "novamd/forces/rigid_model.hpp"
#include "novamd/io/yaml_reader.hpp"

namespace novamd::io {

/// The `rigid_sites` settings of the `forces` list `forces_node`, which must hold that term
/// alone, for `components` in `units` (the Coulomb constant).
/// @throws core::InputError naming the file, line and key of the first problem.
forces::RigidModelSettings parse_rigid_sites(const YamlReader& forces_node,
                                             const std::vector<core::ResolvedComponent>& components,
                                             const core::UnitSystem& units);

/// Refuses a `rigid_sites` entry in the `forces` list of a system without components.
void refuse_rigid_sites_without_components(const YamlReader& forces_node);

}  // namespace novamd::io
