#pragma once
/// @file amber_coordinates.hpp
/// AMBER ASCII coordinate files (inpcrd, rst7):
///
///     title line
///     NATOM [TIME]                      (free format)
///     x1 y1 z1 x2 y2 z2                 (6F12.7: six fields of 12 characters a line)
///     ...                               ceil(3 NATOM / 6) lines of coordinates
///     vx1 vy1 vz1 ...                   optional: as many lines of velocities
///     a b c alpha beta gamma            optional box line (6F12.7; 3 fields also read)
///
/// What follows the coordinates is told apart by its number of lines, as AMBER does: none, one
/// box line, ceil(3 NATOM / 6) velocity lines, or velocity lines and a box line. (With 1 or 2
/// atoms a single line after the coordinates is read as the box.) Velocities are in AMBER's unit,
/// Angstrom per (1/20.455) ps, and are returned in Angstrom/fs (x 20.455 / 1000). Source: the
/// AMBER file format page (ambermd.org/formats.html, "AMBER coordinate/restart file").
/// The NetCDF restart format is not read (a clear error names it).

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

#include "novamd/core/vec3.hpp"

namespace novamd::io {

/// AMBER's velocity unit is Angstrom per (1/20.455) ps: v (A/fs) = v (file) x 20.455 / 1000.
inline constexpr double kAmberVelocityToAngstromPerFs = 20.455 / 1000.0;

/// The content of an inpcrd/rst7 file.
struct AmberCoordinates {
  std::vector<core::Vec3<double>> position;                 ///< Angstrom, file order
  std::optional<std::vector<core::Vec3<double>>> velocity;  ///< Angstrom/fs, when present
  /// The box edges a, b, c (Angstrom), when the file has a box line; its angles are checked
  /// to be 90 degrees (a non-orthogonal box is refused).
  std::optional<core::Vec3<double>> box_edges;
  std::int64_t count_line = 2;  ///< line of NATOM, for messages
};

/// Reads an ASCII inpcrd/rst7 file.
/// @throws core::InputError "<file>:<line>: ..." for a NetCDF or binary file, a bad atom count,
///   a short file, a line with the wrong number of fields, a bad number, a number of trailing
///   lines that is neither a box nor velocities, a non-positive box edge or an angle other
///   than 90 degrees.
AmberCoordinates read_amber_coordinates(const std::filesystem::path& file);

}  // namespace novamd::io
