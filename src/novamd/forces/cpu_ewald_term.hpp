#pragma once
/// @file cpu_ewald_term.hpp
/// The Coulomb term of method `ewald` on the CPU: the real-space pair term (erfc-screened,
/// physics::EwaldReal, over the run's traversal) followed by the reciprocal-space sum, the self
/// energy and the neutralising background of physics/ewald.hpp. The corrections of excluded
/// pairs are a bonded term of their own (EwaldExcludedPairSettings). One term, one energy
/// (`coulomb_energy`).

#include <memory>

#include "novamd/core/units.hpp"
#include "novamd/forces/cpu_force_term.hpp"
#include "novamd/forces/force_settings.hpp"

namespace novamd::forces {

/// `real_space` wrapped with the reciprocal sum of `settings` (method ewald; alpha and the wave
/// vectors resolved, kspace_parameters.hpp); without `real_space` (null) the reciprocal sum, self
/// energy and background alone.
std::unique_ptr<CpuForceTerm> make_cpu_ewald_term(std::unique_ptr<CpuForceTerm> real_space,
                                                  const CoulombSettings& settings,
                                                  const core::UnitSystem& units);

}  // namespace novamd::forces
