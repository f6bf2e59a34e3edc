#pragma once
/// @file rigid_start.hpp
/// Rigid molecules' initial orientations and angular momenta (`system.components`).

#include <cstdint>
#include <optional>
#include <vector>

#include "novamd/core/components.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/core/units.hpp"

namespace novamd::io {

/// Gives every molecule (particle; its type numbers its component) an orientation, an angular
/// momentum and a torque field:
///
/// - orientations uniform over the rotations (core::random_orientation, keyed by seed and id),
///   unless the particles have theirs (a structure file's);
/// - with `temperature`, body-frame angular momenta from the Maxwell-Boltzmann distribution of
///   rotation (core::thermal_angular_momentum), scaled so that the kinetic temperature of
///   rotation, 2 K_rot / (f_rot k_B) with f_rot the rotational degrees of freedom, is
///   `temperature` to round-off; else the particles' own (a file's), or zero.
///
/// Angular momenta are in energy x time (moments of inertia times mvv_to_energy times angular
/// velocities). Everything is a function of (seed, id), the same for any storage order.
void start_rigid_molecules(core::ParticleData& particles,
                           const std::vector<core::ResolvedComponent>& components,
                           const core::UnitSystem& units, std::optional<double> temperature,
                           std::uint64_t seed);

/// The rotational degrees of freedom of the molecules (3 per molecule that turns about three
/// axes, 2 per linear one, 0 per point); 0 without components.
std::size_t rotational_freedom(const core::ParticleData& particles,
                               const std::vector<core::ResolvedComponent>& components);

}  // namespace novamd::io
