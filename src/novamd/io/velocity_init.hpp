#pragma once
/// @file velocity_init.hpp
/// Initial velocities from the Maxwell-Boltzmann distribution (`system.velocities.temperature`).

#include <cstdint>

#include "novamd/core/particles.hpp"
#include "novamd/core/species.hpp"
#include "novamd/core/units.hpp"

namespace novamd::io {

/// Draws Maxwell-Boltzmann velocities at `temperature`, removes the centre-of-mass velocity and
/// rescales to the exact kinetic temperature.
///
/// Each component is v ~ N(0, sqrt(k_B T / (m_i mvv_to_energy))), drawn from Philox
/// (RandomPurpose::InitialVelocity) keyed by the particle's id, and all sums run in id order, so
/// the result (bitwise) depends neither on the storage order nor on the thread count. Then, for
/// N > 1, the total momentum is set to zero, and the velocities are scaled so that
///
///     T = 2 K / (f k_B),  K = 1/2 sum m v^2 mvv_to_energy,  f = 3N - 3 (f = 3 for N = 1)
///
/// equals `temperature` to round-off (T = 0 gives zero velocities). For N = 1 the momentum is kept.
///
/// @throws core::InputError naming `system.velocities.temperature` for a negative or non-finite
///   temperature, or `system.species` for a non-positive mass.
void assign_maxwell_boltzmann(core::ParticleData& particles, const core::SpeciesTable& species,
                              const core::UnitSystem& units, double temperature,
                              std::uint64_t seed);

}  // namespace novamd::io
