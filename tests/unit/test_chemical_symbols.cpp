// The element a species name stands for, as the XYZ and GSD writers name it for readers that
// know only elements.

#include <gtest/gtest.h>

#include "novamd/core/chemical_symbols.hpp"

using novamd::core::atomic_number_of;
using novamd::core::chemical_symbol;
using novamd::core::element_of;
using novamd::core::Species;

namespace {

std::string element(const std::string& name, int atomic_number = 0) {
  Species s;
  s.name = name;
  s.atomic_number = atomic_number;
  return std::string(element_of(s));
}

}  // namespace

TEST(ChemicalSymbols, TheTableRunsFromHydrogenToOganesson) {
  EXPECT_EQ(chemical_symbol(1), "H");
  EXPECT_EQ(chemical_symbol(18), "Ar");
  EXPECT_EQ(chemical_symbol(79), "Au");
  EXPECT_EQ(chemical_symbol(118), "Og");
  EXPECT_EQ(chemical_symbol(0), "");
  EXPECT_EQ(chemical_symbol(119), "");
  for (int z = 1; z <= 118; ++z) EXPECT_EQ(atomic_number_of(chemical_symbol(z)), z);
  EXPECT_EQ(atomic_number_of("ar"), 0);  // the case matters
}

TEST(ChemicalSymbols, TheElementOfASpeciesName) {
  EXPECT_EQ(element("Ar"), "Ar");
  EXPECT_EQ(element("C"), "C");
  EXPECT_EQ(element("Ne22"), "Ne");  // isotopes, mass number after or before
  EXPECT_EQ(element("22Ne"), "Ne");
  EXPECT_EQ(element("C12"), "C");
  EXPECT_EQ(element("p"), "X");  // the nucleons are no phosphorus or nitrogen
  EXPECT_EQ(element("n"), "X");
  EXPECT_EQ(element("A"), "X");
  EXPECT_EQ(element("OW"), "X");
  EXPECT_EQ(element("Xx12"), "X");
  EXPECT_EQ(element("12"), "X");
  EXPECT_EQ(element("OW", 8), "O");  // a topology's atomic number comes first
  EXPECT_EQ(element("HW1", 1), "H");
}
