#include "novamd/core/elements.hpp"

#include <array>

namespace novamd::core {
namespace {

// Symbol, Z, A, atomic mass (u), most abundant. Source: see elements.hpp.
constexpr std::array kIsotopes{
    Isotope{"H", 1, 1, 1.00782503223, true},    Isotope{"He", 2, 4, 4.00260325413, true},
    Isotope{"Li", 3, 7, 7.0160034366, true},    Isotope{"Be", 4, 9, 9.012183065, true},
    Isotope{"B", 5, 11, 11.00930536, true},     Isotope{"C", 6, 12, 12.0, true},
    Isotope{"C", 6, 13, 13.00335483507, false}, Isotope{"N", 7, 14, 14.00307400443, true},
    Isotope{"O", 8, 16, 15.99491461957, true},  Isotope{"F", 9, 19, 18.99840316273, true},
    Isotope{"Ne", 10, 20, 19.9924401762, true}, Isotope{"Ne", 10, 22, 21.991385114, false},
    Isotope{"Na", 11, 23, 22.9897692820, true}, Isotope{"Mg", 12, 24, 23.985041697, true},
    Isotope{"Al", 13, 27, 26.98153853, true},   Isotope{"Si", 14, 28, 27.97692653465, true},
    Isotope{"P", 15, 31, 30.97376199842, true}, Isotope{"S", 16, 32, 31.9720711744, true},
    Isotope{"Cl", 17, 35, 34.968852682, true},  Isotope{"Ar", 18, 36, 35.967545105, false},
    Isotope{"Ar", 18, 40, 39.9623831237, true}, Isotope{"K", 19, 39, 38.9637064864, true},
    Isotope{"Ca", 20, 40, 39.962590863, true},  Isotope{"Sc", 21, 45, 44.95590828, true},
    Isotope{"Ti", 22, 48, 47.94794198, true},   Isotope{"V", 23, 51, 50.94395704, true},
    Isotope{"Cr", 24, 52, 51.94050623, true},   Isotope{"Mn", 25, 55, 54.93804391, true},
    Isotope{"Fe", 26, 56, 55.93493633, true},   Isotope{"Co", 27, 59, 58.93319429, true},
    Isotope{"Ni", 28, 58, 57.93534241, true},   Isotope{"Ni", 28, 62, 61.92834537, false},
    Isotope{"Cu", 29, 63, 62.92959772, true},   Isotope{"Zn", 30, 64, 63.92914201, true},
    Isotope{"Ga", 31, 69, 68.9255735, true},    Isotope{"Ge", 32, 74, 73.921177761, true},
    Isotope{"As", 33, 75, 74.92159457, true},   Isotope{"Se", 34, 80, 79.9165218, true},
    Isotope{"Br", 35, 79, 78.9183376, true},    Isotope{"Kr", 36, 84, 83.9114977282, true},
    Isotope{"Rb", 37, 85, 84.9117897379, true}, Isotope{"Sr", 38, 88, 87.9056125, true},
    Isotope{"Y", 39, 89, 88.9058403, true},     Isotope{"Zr", 40, 90, 89.9046977, true},
};

}  // namespace

std::optional<Isotope> find_isotope(std::string_view symbol, std::optional<int> mass_number) {
  for (const Isotope& isotope : kIsotopes) {
    if (isotope.symbol != symbol) continue;
    if (mass_number ? isotope.mass_number == *mass_number : isotope.most_abundant) return isotope;
  }
  return std::nullopt;
}

std::vector<int> mass_numbers_of(std::string_view symbol) {
  std::vector<int> numbers;
  for (const Isotope& isotope : kIsotopes)
    if (isotope.symbol == symbol) numbers.push_back(isotope.mass_number);
  return numbers;
}

std::vector<std::string_view> element_symbols() {
  std::vector<std::string_view> symbols;
  for (const Isotope& isotope : kIsotopes)
    if (isotope.most_abundant) symbols.push_back(isotope.symbol);
  return symbols;
}

}  // namespace novamd::core
