// Stellar ion mixtures: the element table, temperatures and densities with units, Thomas-Fermi
// screening, and the plasma parameters in the console and the thermo file. Every expected value
// is computed here from its textbook formula or from CODATA constants written out in the test.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "novamd/analysis/plasma.hpp"
#include "novamd/core/elements.hpp"
#include "novamd/core/error.hpp"
#include "novamd/io/config.hpp"
#include "novamd/io/initial_system.hpp"
#include "novamd/io/screening.hpp"
#include "novamd/physics/electron_screening.hpp"
#include "support/cli_runner.hpp"

namespace {

using novamd::core::InputError;
using novamd::io::parse_config;

constexpr double kPi = std::numbers::pi;
// CODATA 2018, written out here rather than taken from the code under test.
constexpr double kUnitMeV = 931.49410242;       // u c^2
constexpr double kElectronMeV = 0.51099895000;  // m_e c^2
constexpr double kUnitGrams = 1.66053906660e-24;
constexpr double kBohrRadiusFm = 52917.721090;  // a_0
constexpr double kE2 = 1.4399645478;            // e^2 / (4 pi eps0), MeV fm
constexpr double kKelvinPerMeV = 1.160451812e10;

std::string mixture_config(const std::string& species, const std::string& density,
                           const std::string& extra = "") {
  return "units: nuclear\nbackend: cpu\nsystem:\n  density: " + density + "\n  species:\n" +
         species +
         "  structure:\n    generate: {lattice: random, fractions: {C: 0.5, O: 0.5}, total: 200}\n"
         "  velocities: {temperature: 0.001}\n"
         "forces:\n  - yukawa: {screening_length: thomas_fermi, cutoff: none}\n"
         "integrator: {type: velocity_verlet, timestep: 200.0}\nrun: {steps: 0}\n" +
         extra;
}

const std::string kElementSpecies = "    - {element: C}\n    - {element: O}\n";

std::string error_of(const std::string& yaml) {
  try {
    parse_config(yaml, "in.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Elements, NucleusMassIsTheAtomicMassLessTheElectrons) {
  // 12C: exactly 12 u by definition of u; the nucleus lacks six electrons.
  const auto carbon = novamd::core::find_isotope("C");
  ASSERT_TRUE(carbon);
  EXPECT_EQ(carbon->charge, 6);
  EXPECT_EQ(carbon->mass_number, 12);
  const auto config = parse_config(mixture_config(kElementSpecies, "5.0e-8"), "in.yaml");
  const auto& c = config.system.species[0];
  EXPECT_EQ(c.name, "C");
  EXPECT_EQ(c.charge, 6.0);
  EXPECT_NEAR(c.mass, 12.0 * kUnitMeV - 6.0 * kElectronMeV, 1e-9 * c.mass);
  EXPECT_EQ(config.system.species[1].charge, 8.0);
}

TEST(Elements, EveryTableEntryIsCloseToItsMassNumber) {
  // A mass excess beyond 0.1 u, or Z out of order, would be a typing error in the table:
  // nuclear binding keeps |M - A u| below 0.1 u for every nucleus up to zirconium.
  int previous_z = 0;
  for (auto symbol : novamd::core::element_symbols()) {
    for (int a : novamd::core::mass_numbers_of(symbol)) {
      const auto isotope = novamd::core::find_isotope(symbol, a);
      ASSERT_TRUE(isotope) << symbol << a;
      EXPECT_LT(std::abs(isotope->atomic_mass - a), 0.1) << symbol << a;
      EXPECT_GE(a, 2 * isotope->charge - 1) << symbol << a;  // N >= Z - 1 for stable nuclei
    }
    const auto most = novamd::core::find_isotope(symbol);
    ASSERT_TRUE(most);
    EXPECT_EQ(most->charge, previous_z + 1) << symbol;
    previous_z = most->charge;
  }
  EXPECT_EQ(previous_z, 40);
}

TEST(Elements, IsotopesNamesAndChargeOverrides) {
  const std::string species =
      "    - {element: C}\n    - {element: O, charge: 7}\n    - {element: Ne, mass_number: 22}\n";
  const auto config = parse_config(mixture_config(species, "5.0e-8"), "in.yaml");
  EXPECT_EQ(config.system.species[1].charge, 7.0);  // partly ionised: the config's charge
  const auto& ne = config.system.species[2];
  EXPECT_EQ(ne.name, "Ne22");
  EXPECT_EQ(ne.charge, 10.0);
  EXPECT_NEAR(ne.mass, 21.991385114 * kUnitMeV - 10.0 * kElectronMeV, 1e-6);
}

TEST(Elements, BadElementsAreClearErrors) {
  const auto bad = [](const std::string& entry) {
    return error_of(mixture_config("    - {element: C}\n" + entry, "5.0e-8"));
  };
  std::string e = bad("    - {element: Oo}\n");
  EXPECT_NE(e.find("system.species[1].element: unknown element 'Oo'"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'O'"), std::string::npos) << e;
  e = bad("    - {element: O, mass_number: 17}\n");
  EXPECT_NE(e.find("no O17"), std::string::npos) << e;
  EXPECT_NE(e.find("one of 16"), std::string::npos) << e;
  e = bad("    - {name: O, mass_number: 16, charge: 8, mass: 1.0}\n");
  EXPECT_NE(e.find("mass_number needs an element"), std::string::npos) << e;
  e = bad("    - {element: C}\n");
  EXPECT_NE(e.find("species 'C' is declared twice"), std::string::npos) << e;
  std::string lj = mixture_config(kElementSpecies, "0.8");
  lj.replace(lj.find("nuclear"), 7, "lj");
  e = error_of(lj);
  EXPECT_NE(e.find("units: lj have no atomic masses"), std::string::npos) << e;
}

TEST(Quantities, TemperaturesConvertFromKelvinAndElectronvolts) {
  auto config = parse_config(mixture_config(kElementSpecies, "5.0e-8"), "in.yaml",
                             {{"system.velocities.temperature", "1.160451812e7 K"}});
  EXPECT_NEAR(*config.system.velocities.temperature, 1e-3, 1e-12);  // 1 keV
  config = parse_config(mixture_config(kElementSpecies, "5.0e-8"), "in.yaml",
                        {{"system.velocities.temperature", "2 keV"}});
  EXPECT_NEAR(*config.system.velocities.temperature, 2e-3, 1e-15);
  try {
    parse_config(mixture_config(kElementSpecies, "5.0e-8"), "in.yaml",
                 {{"system.velocities.temperature", "3 F"}});
    FAIL() << "an unknown unit was accepted";
  } catch (const InputError& error) {
    const std::string text = error.what();
    EXPECT_NE(text.find("system.velocities.temperature: unknown temperature unit 'F'"),
              std::string::npos)
        << text;
  }
}

TEST(Quantities, MassDensitySetsTheBoxFromTheMeanAtomicMass) {
  // 100 C and 100 O ions with their electrons: rho = n (12 u + 15.99491461957 u) / 2.
  const auto config = parse_config(mixture_config(kElementSpecies, "\"1.0e9 g/cm^3\""), "in.yaml");
  EXPECT_DOUBLE_EQ(*config.system.mass_density, 1.0e9);
  const auto system = novamd::io::build_initial_system(config);
  const double grams_per_ion = 0.5 * (12.0 + 15.99491461957) * kUnitGrams;
  const double ions_per_fm3 = 1.0e9 / grams_per_ion * 1e-39;  // 1 fm^3 = 1e-39 cm^3
  EXPECT_NEAR(200.0 / system.box.volume(), ions_per_fm3, 1e-8 * ions_per_fm3);
  // kg/m^3 is 1e-3 g/cm^3; fm^-3 is a number density.
  const auto si = parse_config(mixture_config(kElementSpecies, "\"1.0e12 kg/m^3\""), "in.yaml");
  EXPECT_DOUBLE_EQ(*si.system.mass_density, 1.0e9);
  const auto number = parse_config(mixture_config(kElementSpecies, "\"5e-8 fm^-3\""), "in.yaml");
  EXPECT_DOUBLE_EQ(*number.system.density, 5e-8);
  const std::string e = error_of(mixture_config(kElementSpecies, "\"1 g/l\""));
  EXPECT_NE(e.find("system.density: unknown density unit 'g/l'"), std::string::npos) << e;
}

TEST(ThomasFermi, MatchesTheNonRelativisticAndUltraRelativisticLimits) {
  // Non-relativistic (k_F << m_e): lambda^-2 = 4 k_F / (pi a_0), k_F = (3 pi^2 n_e)^(1/3);
  // the relative correction is (k_F/m_e)^2 / 4 in lambda.
  const double dilute = 1e-16;  // fm^-3: k_F = 2.8e-3 MeV, a correction of 8e-6
  const double kf_dilute = std::cbrt(3.0 * kPi * kPi * dilute);
  const double nonrel = 1.0 / std::sqrt(4.0 * kf_dilute / (kPi * kBohrRadiusFm));
  EXPECT_NEAR(novamd::physics::thomas_fermi_screening_length(dilute), nonrel, 1e-4 * nonrel);
  // Ultra-relativistic (k_F >> m_e): lambda^-1 = 2 (alpha/pi)^(1/2) k_F.
  const double dense = 1e-2;  // fm^-3: k_F = 131 MeV
  const double kf_dense = std::cbrt(3.0 * kPi * kPi * dense);
  const double alpha = 1.0 / 137.035999084;
  const double ultra = 1.0 / (2.0 * std::sqrt(alpha / kPi) * kf_dense);
  EXPECT_NEAR(novamd::physics::thomas_fermi_screening_length(dense), ultra, 1e-4 * ultra);
}

TEST(ThomasFermi, SettlesTheYukawaTermFromTheElectronDensity) {
  auto config = parse_config(mixture_config(kElementSpecies, "5.0e-8"), "in.yaml");
  auto& yukawa = std::get<novamd::forces::YukawaSettings>(config.forces[0]);
  EXPECT_TRUE(yukawa.thomas_fermi);
  const std::vector<std::int64_t> count{100, 100};
  const double volume = 200.0 / 5.0e-8;
  novamd::io::settle_thomas_fermi(config.forces, config.system.species, count, volume);
  // n_e = 7 * 5e-8; the white-dwarf value of Horowitz, Berry and Brown (2007) is ~475 fm.
  EXPECT_NEAR(yukawa.screening_length, novamd::physics::thomas_fermi_screening_length(3.5e-7),
              1e-12);
  EXPECT_NEAR(yukawa.screening_length, 475.0, 2.0);
  std::string lj = mixture_config(kElementSpecies, "5.0e-8");
  lj.replace(lj.find("nuclear"), 7, "real");
  const std::string e = error_of(lj);
  EXPECT_NE(e.find("thomas_fermi needs units: nuclear"), std::string::npos) << e;
}

TEST(PlasmaParameters, OneComponentGammaIsZSquaredOverTheIonSphere) {
  const novamd::core::SpeciesTable species({{"Fe", 26.0, 52000.0, 0}});
  const double n = 1e-6, volume = 1000.0 / n, temperature = 0.01;
  const novamd::analysis::PlasmaParameters plasma(species, {1000}, volume,
                                                  novamd::core::nuclear_units(), 100.0);
  const double a = std::cbrt(3.0 / (4.0 * kPi * n));
  EXPECT_NEAR(plasma.gamma(0, temperature), 26.0 * 26.0 * kE2 / (a * temperature),
              1e-9 * plasma.gamma(0, temperature));
  EXPECT_NEAR(*plasma.kappa(), a / 100.0, 1e-12);
  const double omega = std::sqrt(4.0 * kPi * kE2 * n * 26.0 * 26.0 / 52000.0);
  EXPECT_NEAR(plasma.plasma_frequency(), omega, 1e-9 * omega);
}

TEST(PlasmaPublishedReference, WhiteDwarfMixtureCouplings) {
  // Horowitz, Schneider and Berry (2010), as quoted in examples/white_dwarf_co.yaml: at
  // n = 5e-8 fm^-3 (C:O = 1:1) and T = 0.001 MeV, Gamma_C = 324 and Gamma_O = 523.
  const novamd::core::SpeciesTable species({{"C", 6.0, 11177.9, 0}, {"O", 8.0, 14899.2, 0}});
  const novamd::analysis::PlasmaParameters plasma(species, {500, 500}, 1000.0 / 5e-8,
                                                  novamd::core::nuclear_units(), std::nullopt);
  EXPECT_NEAR(plasma.gamma(0, 0.001), 324.0, 1.0);
  EXPECT_NEAR(plasma.gamma(1, 0.001), 523.0, 1.0);
  EXPECT_FALSE(plasma.kappa());
  EXPECT_EQ(plasma.thermo_columns(), (std::vector<std::string>{"gamma_C", "gamma_O"}));
}

TEST(PlasmaParameters, ThermoAndConsoleReportThem) {
  novamd::test::TempDir dir;
  const auto file = dir.write("wd.yaml", mixture_config(kElementSpecies, "\"1.2e9 g/cm^3\"",
                                                        "output: {thermo: {file: t.csv}}\n"));
  const auto result = novamd::test::run_novamd("run wd.yaml", dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("(Thomas-Fermi)"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("Gamma at T = 0.001 MeV: C "), std::string::npos) << result.output;
  std::ifstream in(dir.path() / "t.csv");
  std::string units, header, row;
  std::getline(in, units);
  std::getline(in, header);
  std::getline(in, row);
  EXPECT_EQ(units.find("gamma"), std::string::npos) << units;  // pure numbers have no unit
  EXPECT_NE(units.find(" time=fm/c temperature=MeV "), std::string::npos) << units;
  EXPECT_NE(header.find(",gamma_C,gamma_O,kappa"), std::string::npos) << header;
  std::vector<double> values;
  std::stringstream fields(row);
  for (std::string field; std::getline(fields, field, ',');) values.push_back(std::stod(field));
  ASSERT_EQ(values.size(), 11u) << row;
  // Gamma_C from the row's own temperature and the box: a_e from n_e = 7 n.
  const double grams_per_ion = 0.5 * (12.0 + 15.99491461957) * kUnitGrams;
  const double n = 1.2e9 / grams_per_ion * 1e-39;
  const double a_e = std::cbrt(3.0 / (4.0 * kPi * 7.0 * n));
  const double temperature = values[2];
  EXPECT_NEAR(values[8], std::pow(6.0, 5.0 / 3.0) * kE2 / (a_e * temperature), 1e-6 * values[8]);
  EXPECT_NEAR(values[9] / values[8], std::pow(8.0 / 6.0, 5.0 / 3.0), 1e-12);
  const double a = std::cbrt(3.0 / (4.0 * kPi * n));
  const double lambda = novamd::physics::thomas_fermi_screening_length(7.0 * n);
  EXPECT_NEAR(values[10], a / lambda, 1e-6 * values[10]);
}

TEST(PlasmaParameters, PlasmaColumnsNeedAnIonPlasma) {
  novamd::test::TempDir dir;
  std::string yaml = mixture_config(kElementSpecies, "5.0e-8",
                                    "output: {thermo: {file: t.csv, columns: [plasma]}}\n");
  yaml.replace(yaml.find("  - yukawa: {screening_length: thomas_fermi, cutoff: none}"),
               std::string("  - yukawa: {screening_length: thomas_fermi, cutoff: none}").size(),
               "  - lennard_jones: {pairs: [{types: [C, C], epsilon: 1.0, sigma: 1.0}, "
               "{types: [O, O], epsilon: 1.0, sigma: 1.0}], cutoff: 2.5}");
  dir.write("lj.yaml", yaml);
  const auto result = novamd::test::run_novamd("run lj.yaml", dir.path());
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("output.thermo.columns: plasma is for ion plasmas"),
            std::string::npos)
      << result.output;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "t.csv"));
}

}  // namespace
