#pragma once
/// @file chemical_symbols.hpp
/// The chemical symbols of the 118 elements, and the element a species name stands for: what
/// file formats whose readers know only elements (extended XYZ for ASE, MDAnalysis and OVITO;
/// GSD's type names) write for it. IUPAC Periodic Table of the Elements (2022).

#include <string_view>

#include "novamd/core/species.hpp"

namespace novamd::core {

/// The symbol of element `atomic_number` (1 to 118); empty for any other number.
std::string_view chemical_symbol(int atomic_number);

/// The atomic number of chemical symbol `symbol` ("C", "Ne"; the case matters: "p" is no
/// element); 0 if none.
int atomic_number_of(std::string_view symbol);

/// The element a species stands for: its atomic number where known (a topology file), else its
/// name where that is a chemical symbol, alone or with a mass number before or after it ("Ne22",
/// "22Ne", "C12"); "X" (no element) for any other name ("A", "OW", the nucleons "p" and "n").
std::string_view element_of(const Species& species);

}  // namespace novamd::core
