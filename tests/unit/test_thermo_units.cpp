// The thermo CSV's units line: every column's unit in each unit system.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "novamd/analysis/thermo_units.hpp"
#include "novamd/io/thermo_writer.hpp"
#include "support/cli_runner.hpp"

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

namespace {

std::string read_file(const std::filesystem::path& file) {
  std::ifstream in(file);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST(ThermoWriter, ARestartKeepsTheRowsUpToItsStepUnderEitherHeader) {
  // A file of this version (units line and header), one written before the units line (header
  // alone: kept so), and one with other columns (started anew).
  novamd::test::TempDir dir;
  const auto lj = novamd::core::lj_units();
  const std::string header = novamd::io::ThermoWriter::header({}, lj);
  const std::string names = header.substr(header.find('\n') + 1);
  const std::string rows = "0,0,1,1,1,1,1,1\n10,0.05,1,1,1,1,1,1\n20,0.1,1,1,1,1,1,1\n";
  const auto kept = [&](const std::string& name, const std::string& text) {
    dir.write(name, text);
    novamd::io::ThermoWriter writer(dir.path() / name, lj, {}, 10);
    return read_file(dir.path() / name);
  };
  EXPECT_EQ(kept("now.csv", header + "\n" + rows),
            header + "\n0,0,1,1,1,1,1,1\n10,0.05,1,1,1,1,1,1\n");
  EXPECT_EQ(kept("before.csv", names + "\n" + rows),
            names + "\n0,0,1,1,1,1,1,1\n10,0.05,1,1,1,1,1,1\n");
  EXPECT_EQ(kept("other.csv", names + ",volume\n" + rows), header + "\n");
}
