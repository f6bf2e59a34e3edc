#pragma once
/// @file elements.hpp
/// Fully ionised nuclei by element symbol, for stellar plasmas: charge number Z, mass number A
/// and atomic mass, for the most abundant isotope of each element up to zirconium plus a few
/// others astrophysics asks for (13C, 22Ne, 36Ar, 62Ni).
///
/// Atomic masses (u) from the Atomic Mass Evaluation AME2020 as tabulated by NIST, "Atomic
/// Weights and Isotopic Compositions for All Elements" (Coursey et al., NIST Standard Reference
/// Database 144). The mass of the bare nucleus is the atomic mass less Z electron masses; the
/// electrons' binding energy (below 1e-6 of the mass) is neglected.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace novamd::core {

struct Isotope {
  std::string_view symbol;  ///< "C"
  int charge;               ///< Z
  int mass_number;          ///< A
  double atomic_mass;       ///< neutral atom, in u
  bool most_abundant;       ///< the element's default isotope
};

/// The isotope of `symbol` with `mass_number`, or the element's most abundant one; nothing if
/// the table does not hold it.
std::optional<Isotope> find_isotope(std::string_view symbol,
                                    std::optional<int> mass_number = std::nullopt);

/// The mass numbers the table holds for `symbol` (empty for an unknown element).
std::vector<int> mass_numbers_of(std::string_view symbol);

/// Every element symbol in the table, by Z.
std::vector<std::string_view> element_symbols();

}  // namespace novamd::core
