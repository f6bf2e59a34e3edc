#pragma once
/// @file initial_system.hpp
/// The state a run starts from: the box and the particles, built from a validated Config.

#include <cstdint>
#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/io/config.hpp"

namespace novamd::io {

/// The box and the particles (host storage, ids 0..N-1) before the first step.
struct InitialSystem {
  core::Box box;
  core::ParticleData particles;
};

/// Particles given as arrays by a library user (Python), in place of `system.structure`: one
/// type (an index into system.species) per particle, positions (and velocities, or none) as
/// x, y, z per particle, in id order.
struct GivenParticles {
  std::vector<std::int32_t> type;
  std::vector<double> position;
  std::vector<double> velocity;  ///< empty: zero, or Maxwell-Boltzmann where the config asks
};

/// Builds the initial state of a run from `config`:
///
/// 1. the structure: generated (`system.structure.generate`, see generate_structure) or read
///    from extended XYZ (`system.structure.read`, a path as load_config resolved it against the
///    config file's folder: used as it stands);
/// 2. the box: `system.box`; else cubic from `system.density` and the particle count; else the
///    XYZ file's Lattice. A config box (or density) that differs from the file's Lattice by more
///    than 1e-9 relative is an error;
/// 3. velocities: Maxwell-Boltzmann at `system.velocities.temperature` if set (seeded by
///    `config.seed`); else the file's velocities if it has them; else zero;
/// 4. positions wrapped into [0, L) on each axis.
///
/// It then checks that there is at least one particle, that every finite force cutoff is at most
/// half the shortest box edge (minimum image), and that no two particles coincide.
///
/// @throws core::InputError naming the key (`system.box`, `forces[i].<name>.cutoff`,
///   `system.structure`, ...) or the file and line, and what is expected.
InitialSystem build_initial_system(const Config& config);

/// The same with the particles given (`system.structure` then stands unused; the box comes from
/// system.box or system.density).
/// @throws core::InputError for a type out of range, a position or velocity that is not finite,
///   arrays of different lengths, or a box that is unknown.
InitialSystem build_initial_system(const Config& config, const GivenParticles& given);

}  // namespace novamd::io
