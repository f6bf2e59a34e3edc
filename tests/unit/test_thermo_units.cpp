// The thermo CSV's units line: every column's unit in each unit system.

#include <gtest/gtest.h>

#include "novamd/analysis/thermo_units.hpp"

using novamd::analysis::thermo_column_unit;
using novamd::analysis::thermo_units_line;

TEST(ThermoUnits, RealUnitsAsLammpsReportsThem) {
  const auto real = novamd::core::real_units();
  EXPECT_EQ(thermo_column_unit("time", real), "fs");
  EXPECT_EQ(thermo_column_unit("temperature", real), "K");
  EXPECT_EQ(thermo_column_unit("rotational_temperature", real), "K");
  EXPECT_EQ(thermo_column_unit("potential_energy", real), "kcal/mol");
  EXPECT_EQ(thermo_column_unit("coulomb_energy", real), "kcal/mol");
  EXPECT_EQ(thermo_column_unit("total_energy_per_particle", real), "kcal/mol");
  EXPECT_EQ(thermo_column_unit("virial", real), "kcal/mol");
  EXPECT_EQ(thermo_column_unit("pressure", real), "atm");
  EXPECT_EQ(thermo_column_unit("pxy", real), "atm");
  EXPECT_EQ(thermo_column_unit("volume", real), "A^3");
  EXPECT_EQ(thermo_column_unit("density", real), "1/A^3");
  EXPECT_EQ(thermo_column_unit("mass_density", real), "g/cm^3");
  EXPECT_EQ(thermo_column_unit("wall_time", real), "s");
  for (const char* number :
       {"step", "conserved_energy_drift", "neighbor_list_builds", "gamma_C", "kappa"})
    EXPECT_EQ(thermo_column_unit(number, real), "") << number;
}

TEST(ThermoUnits, ReducedAndNuclearUnits) {
  const auto lj = novamd::core::lj_units();
  EXPECT_EQ(thermo_column_unit("time", lj), "tau");
  EXPECT_EQ(thermo_column_unit("temperature", lj), "epsilon/k_B");
  EXPECT_EQ(thermo_column_unit("kinetic_energy", lj), "epsilon");
  EXPECT_EQ(thermo_column_unit("pressure", lj), "epsilon/sigma^3");
  EXPECT_EQ(thermo_column_unit("mass_density", lj), "m/sigma^3");
  const auto nuclear = novamd::core::nuclear_units();
  EXPECT_EQ(thermo_column_unit("time", nuclear), "fm/c");
  EXPECT_EQ(thermo_column_unit("pressure", nuclear), "MeV/fm^3");
  EXPECT_EQ(thermo_column_unit("volume", nuclear), "fm^3");
}

TEST(ThermoUnits, TheLineListsTheColumnsWithUnitsInTheirOrder) {
  EXPECT_EQ(thermo_units_line({"step", "time", "pressure", "conserved_energy_drift", "volume"},
                              novamd::core::real_units()),
            "# units: time=fs pressure=atm volume=A^3");
}
