#include "novamd/core/chemical_symbols.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace novamd::core {
namespace {

// By atomic number, from 1 (H). Source: see chemical_symbols.hpp.
constexpr std::array<std::string_view, 118> kSymbols{
    "H",  "He", "Li", "Be", "B",  "C",  "N",  "O",  "F",  "Ne", "Na", "Mg", "Al", "Si", "P",
    "S",  "Cl", "Ar", "K",  "Ca", "Sc", "Ti", "V",  "Cr", "Mn", "Fe", "Co", "Ni", "Cu", "Zn",
    "Ga", "Ge", "As", "Se", "Br", "Kr", "Rb", "Sr", "Y",  "Zr", "Nb", "Mo", "Tc", "Ru", "Rh",
    "Pd", "Ag", "Cd", "In", "Sn", "Sb", "Te", "I",  "Xe", "Cs", "Ba", "La", "Ce", "Pr", "Nd",
    "Pm", "Sm", "Eu", "Gd", "Tb", "Dy", "Ho", "Er", "Tm", "Yb", "Lu", "Hf", "Ta", "W",  "Re",
    "Os", "Ir", "Pt", "Au", "Hg", "Tl", "Pb", "Bi", "Po", "At", "Rn", "Fr", "Ra", "Ac", "Th",
    "Pa", "U",  "Np", "Pu", "Am", "Cm", "Bk", "Cf", "Es", "Fm", "Md", "No", "Lr", "Rf", "Db",
    "Sg", "Bh", "Hs", "Mt", "Ds", "Rg", "Cn", "Nh", "Fl", "Mc", "Lv", "Ts", "Og"};

bool all_digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(),
                                      [](unsigned char c) { return std::isdigit(c) != 0; });
}

}  // namespace

std::string_view chemical_symbol(int atomic_number) {
  if (atomic_number < 1 || atomic_number > static_cast<int>(kSymbols.size())) return {};
  return kSymbols[static_cast<std::size_t>(atomic_number - 1)];
}

int atomic_number_of(std::string_view symbol) {
  const auto at = std::find(kSymbols.begin(), kSymbols.end(), symbol);
  return at == kSymbols.end() ? 0 : static_cast<int>(at - kSymbols.begin()) + 1;
}

std::string_view element_of(const Species& species) {
  if (const auto symbol = chemical_symbol(species.atomic_number); !symbol.empty()) return symbol;
  const std::string_view name = species.name;
  const auto letters = [](std::string_view text) {
    return std::find_if(text.begin(), text.end(),
                        [](unsigned char c) { return std::isdigit(c) != 0; }) -
           text.begin();
  };
  const auto symbol_at = [](std::string_view part) {
    const int z = atomic_number_of(part);
    return z > 0 ? chemical_symbol(z) : std::string_view();
  };
  if (const auto symbol = symbol_at(name); !symbol.empty()) return symbol;  // "Ne"
  const auto split = static_cast<std::size_t>(letters(name));
  if (split > 0 && all_digits(name.substr(split)))  // "Ne22"
    if (const auto symbol = symbol_at(name.substr(0, split)); !symbol.empty()) return symbol;
  const auto first_letter = name.find_first_not_of("0123456789");
  if (first_letter != std::string_view::npos && first_letter > 0 &&
      all_digits(name.substr(0, first_letter)))  // "22Ne"
    if (const auto symbol = symbol_at(name.substr(first_letter)); !symbol.empty()) return symbol;
  return "X";
}

}  // namespace novamd::core
