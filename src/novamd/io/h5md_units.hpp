#pragma once
/// @file h5md_units.hpp
/// Unit strings in the notation of H5MD's units module: unit symbols separated by blanks, each
/// with an optional integer power ("nm ps-1", "kJ mol-1 nm-1").

#include <string>
#include <string_view>

namespace novamd::io {

/// H5MD's spelling of a unit written as "a b" or "a/b": "fm/c" becomes "fm c-1". NovaMD's "A"
/// (Angstrom) becomes "Angstrom", which MDAnalysis reads as such (in H5MD's SI module "A" is the
/// ampere).
std::string h5md_unit(std::string_view unit);

/// A quotient in H5MD's spelling, with powers of a common symbol added up: a velocity ("A",
/// "fs") gives "Angstrom fs-1", ("fm", "fm/c") gives "c"; a force ("kcal/mol", "A") gives
/// "kcal mol-1 Angstrom-1". Empty if either unit is empty (no unit known).
std::string h5md_quotient_unit(std::string_view numerator, std::string_view denominator);

}  // namespace novamd::io
