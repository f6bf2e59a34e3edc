#pragma once
/// @file pair_table_file.hpp
/// LAMMPS's pair table files (the format `pair_style table` reads): sections of
///
///     KEYWORD
///     N n [R rlo rhi | RSQ rlo hhi] [FPRIME fplo fphi]
///
///     1 r_1 E_1 F_1
///     ...
///     n r_n E_n F_n
///
/// with `#` comments and blank lines anywhere between them. R and RSQ space the distances evenly
/// in r or r^2 from rlo to rhi (the rows' r are then replaced by those), FPRIME gives dF/dr at
/// the first and last distance (`FP`, the older spelling, is read too). BITMAP tables are not
/// read.

#include <filesystem>
#include <string>

#include "novamd/forces/tabulation.hpp"

namespace novamd::io {

/// Section `keyword` of the table file `file`.
/// @throws core::InputError naming the file and line of the first problem: a file that cannot be
/// read, no section of that name (the file's sections listed, the nearest suggested), a bad
/// parameter line, a row that is not four numbers, fewer rows than N, N < 2, distances that are
/// not positive and increasing.
forces::TableSection read_pair_table_section(const std::filesystem::path& file,
                                             const std::string& keyword);

}  // namespace novamd::io
