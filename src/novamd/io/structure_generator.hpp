#pragma once
/// @file structure_generator.hpp
/// Initial positions generated from `system.structure.generate`: a cubic lattice (sc, bcc, fcc)
/// or uniformly random positions with an optional minimum separation.

#include <cstdint>
#include <string>

#include "novamd/core/box.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/core/species.hpp"
#include "novamd/io/config.hpp"

namespace novamd::io {

/// Sites per cubic cell of a lattice name (sc 1, bcc 2, fcc 4), 0 for anything else.
int lattice_basis_size(const std::string& lattice);

/// Generates the particles of `settings` in `box`.
///
/// Lattices (sc, bcc, fcc): cells per axis from `settings.cells`, or else n = round(cbrt(N/basis))
/// on every axis, where N = sum of the counts must equal cells x basis. The lattice spacing along
/// each axis is the box edge over the cells on that axis (an orthorhombic box gives an
/// orthorhombic lattice); sites are offset by a quarter cell so none lies on the box boundary.
/// Species are spread over the sites by a Fisher-Yates shuffle drawn from Philox
/// (RandomPurpose::LatticeShuffle), so the composition is exact.
///
/// `random`: positions uniform in the box (Philox, RandomPurpose::RandomPosition); with
/// `min_separation` > 0 each particle is retried (at most 1000 times) until it is at least that
/// far, under the minimum image, from every particle already placed (checked on a cell grid).
/// Particles are placed species by species in declaration order.
///
/// Ids are 0..N-1 in storage order, types are species indices, velocities and forces are zero.
/// The result depends only on the arguments (in particular on `seed`).
///
/// @throws core::InputError naming `system.structure.generate...` for an unknown species or
///   lattice, a count that does not fill the lattice (with the nearest valid totals), or a
///   min_separation too large to place every particle.
core::ParticleData generate_structure(const GenerateSettings& settings,
                                      const core::SpeciesTable& species, const core::Box& box,
                                      std::uint64_t seed);

}  // namespace novamd::io
