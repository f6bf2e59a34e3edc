#pragma once
/// @file cpu_bonded_force.hpp
/// The CPU force term of a bonded family: an OpenMP loop over particles, each gathering its share
/// of its terms (bonded_gather.hpp).

#include <memory>

#include "novamd/core/held_distances.hpp"
#include "novamd/core/topology.hpp"
#include "novamd/forces/bonded_settings.hpp"
#include "novamd/forces/cpu_force_term.hpp"

namespace novamd::forces {

/// The term for `settings` over the terms of `topology` (copied), less those whose distances
/// `held` holds (held_terms.hpp: their constant energy is counted, their forces not). Throws
/// core::InputError where a term's type has no coefficients.
std::unique_ptr<CpuForceTerm> make_cpu_bonded_force(const BondedSettings& settings,
                                                    const core::Topology& topology,
                                                    const core::HeldDistances* held = nullptr);

}  // namespace novamd::forces
