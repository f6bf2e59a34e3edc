#pragma once
/// @file lammps_data_writer.hpp
/// The state of a molecular system as a LAMMPS data file (atom style full), which LAMMPS's
/// read_data and NovaMD's own LAMMPS data reader take back. The layout is that of LAMMPS's
/// read_data documentation (https://docs.lammps.org/read_data.html):
///
///     LAMMPS data file written by NovaMD, step 1000, units real     (a comment line)
///
///     5 atoms
///     2 atom types
///     4 bonds
///     1 bond types
///     ... angles, angle types, dihedrals, dihedral types, impropers, improper types
///
///     0 12.5 xlo xhi
///     0 13 ylo yhi
///     0 14 zlo zhi
///
///     Masses
///
///     1 15.9994 # OW                           (type, mass, the species name as a comment)
///
///     Pair Coeffs # lj/cut/coul/long     (when given: type, epsilon, sigma[, eps14, sigma14])
///     Bond Coeffs # harmonic             (when given: type, then the numbers as stated)
///     Angle Coeffs, Dihedral Coeffs, Improper Coeffs        (the same, each with its style)
///
///     Atoms # full
///
///     1 1 1 -0.834 1.25 3.5 0.75 0 0 -1         (id mol type q x y z ix iy iz)
///
///     Velocities
///
///     1 0.001 -0.002 0.0005                     (id vx vy vz)
///
///     Bonds, Angles, Dihedrals, Impropers        (term number, type, atom ids)
///
/// Atom ids, types and term numbers are 1-based (NovaMD's id and type plus 1); molecule ids,
/// charges and masses follow topology_output.hpp. The box is [0, L) along each axis, as NovaMD's.
/// Positions are wrapped into it and the image flags say how far each atom is from its
/// unwrapped place: wrapped + image x L is the particle's position plus its image counts times
/// L (the unwrapped position, where the particles have image counts). Every number is written
/// in fmt's shortest form that reads back to the same double (`{}`), so LAMMPS and NovaMD read
/// the state back bit for bit, and coefficients exactly as they were given; the integers of
/// dihedral styles (charmm's n and d) come out without a decimal point.
///
/// LAMMPS keeps image flags in 10 bits per axis unless built with -DLAMMPS_BIGBIG: counts
/// outside -512..511 are written as they are but read back modulo 1024 by such a build.

#include <cstdint>
#include <filesystem>
#include <string_view>

#include "novamd/core/box.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/io/topology_output.hpp"

namespace novamd::io {

/// Checks what write_lammps_data would refuse in `topology` and `particles`, without writing:
/// the atoms (ordered_atoms), per-particle masses that differ from their type's (atom style full
/// holds masses per type), coefficient sections that do not cover every type the terms use or
/// whose rows do not have their style's count, and Pair Coeffs given for some types only.
/// @throws core::InputError "<file>: ..." naming the particle, type or section.
void check_lammps_data(const std::filesystem::path& file, const TopologyOutput& topology,
                       const core::ParticleData& particles);

/// Writes the state `box` and `particles` with `topology` to `file` as a LAMMPS data file,
/// through a temporary beside it that is renamed over it. `step` and `units` (the config's
/// `units`, e.g. "real") go to the comment line.
/// @throws core::InputError as check_lammps_data does; core::RunError "<file>: ..." for a
///   non-finite position or velocity (naming the particle id) or when writing fails.
void write_lammps_data(const std::filesystem::path& file, const TopologyOutput& topology,
                       const core::Box& box, const core::ParticleData& particles, std::int64_t step,
                       std::string_view units);

}  // namespace novamd::io
