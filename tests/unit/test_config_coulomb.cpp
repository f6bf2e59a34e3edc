// The coulomb force term and the Lennard-Jones switch and mixing keys in the config: parsed
// values, every error path, and the per-term energy columns of the thermo output, which add up
// to the potential energy.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <string>

#include "novamd/core/error.hpp"
#include "novamd/forces/kspace_parameters.hpp"
#include "novamd/io/config.hpp"
#include "support/cli_runner.hpp"
#include "support/thermo_row.hpp"

namespace {

using novamd::io::parse_config;

/// Two ion species with charges on a lattice; `forces` is the forces list (YAML flow).
std::string ionic_config(const std::string& forces, const std::string& columns = "") {
  return "units: real\n"
         "system:\n"
         "  box: 24.0\n"
         "  species: [{name: Na, charge: 1, mass: 22.99}, {name: Cl, charge: -1, mass: 35.45}]\n"
         "  structure: {generate: {lattice: sc, cells: 6, fractions: {Na: 0.5, Cl: 0.5}}}\n"
         "  velocities: {temperature: 300}\n"
         "forces: " +
         forces +
         "\n"
         "integrator: {type: velocity_verlet, timestep: 1.0}\n"
         "run: {steps: 0}\n" +
         (columns.empty() ? "" : "output: {thermo: {every: 1, columns: " + columns + "}}\n");
}

const std::string kLj =
    "{lennard_jones: {pairs: [{types: [Na, Na], epsilon: 0.1, sigma: 2.5}, {types: [Cl, Cl], "
    "epsilon: 0.1, sigma: 3.4}], cutoff: 10.0";

std::string error_of(const std::string& text) {
  try {
    parse_config(text, "ions.yaml");
  } catch (const novamd::core::InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ConfigCoulomb, ParsesEachMethodWithItsKeys) {
  using novamd::forces::CoulombMethod;
  using novamd::forces::CoulombSettings;
  const auto cut = std::get<CoulombSettings>(
      parse_config(ionic_config("[{coulomb: {method: cut, cutoff: 9}}]"), "ions.yaml")
          .forces.at(0));
  EXPECT_EQ(cut.method, CoulombMethod::Cut);
  EXPECT_EQ(cut.truncation, novamd::forces::Truncation::Cut);
  EXPECT_DOUBLE_EQ(cut.cutoff, 9.0);
  EXPECT_DOUBLE_EQ(cut.dielectric, 1.0);
  const auto shift = std::get<CoulombSettings>(
      parse_config(ionic_config("[{coulomb: {method: shift, cutoff: 9, dielectric: 4}}]"),
                   "ions.yaml")
          .forces.at(0));
  EXPECT_EQ(shift.truncation, novamd::forces::Truncation::ShiftForce);
  EXPECT_DOUBLE_EQ(shift.dielectric, 4.0);
  const auto rf = std::get<CoulombSettings>(
      parse_config(
          ionic_config("[{coulomb: {method: reaction_field, cutoff: 9, epsilon_rf: infinity}}]"),
          "ions.yaml")
          .forces.at(0));
  EXPECT_EQ(rf.method, CoulombMethod::ReactionField);
  EXPECT_TRUE(std::isinf(rf.epsilon_rf));
  const auto rf_default = std::get<CoulombSettings>(
      parse_config(ionic_config("[{coulomb: {method: reaction_field, cutoff: 9}}]"), "ions.yaml")
          .forces.at(0));
  EXPECT_DOUBLE_EQ(rf_default.epsilon_rf, 78.3);
}

// neighbors.layout `auto` (the default) resolves to the GPU's cluster pairs for a system with a
// Coulomb term in mixed or single precision, to per-particle lists in double (as measured,
// docs/performance.md); an explicit layout stays.
TEST(ConfigCoulomb, AutoLayoutIsClustersForChargesBelowDouble) {
  using novamd::neighbors::ListLayout;
  const std::string ions = ionic_config("[{coulomb: {method: reaction_field, cutoff: 9}}]");
  const auto layout = [&](const std::string& extra) {
    return parse_config(ions + extra, "ions.yaml").neighbors.layout;
  };
  EXPECT_EQ(layout(""), ListLayout::Atoms);  // double, the default precision
  EXPECT_EQ(layout("precision: mixed\n"), ListLayout::Clusters);
  EXPECT_EQ(layout("precision: single\n"), ListLayout::Clusters);
  EXPECT_EQ(layout("precision: mixed\nneighbors: {layout: atoms}\n"), ListLayout::Atoms);
  EXPECT_EQ(layout("neighbors: {layout: clusters}\n"), ListLayout::Clusters);
  EXPECT_EQ(layout("precision: mixed\nneighbors: {layout: auto}\n"), ListLayout::Clusters);
}

TEST(ConfigCoulomb, EwaldTakesItsParametersOrChoosesThemFromTheTolerance) {
  using novamd::forces::CoulombMethod;
  using novamd::forces::CoulombSettings;
  const auto given = std::get<CoulombSettings>(
      parse_config(ionic_config("[{coulomb: {method: ewald, cutoff: 9, alpha: 0.28, kmax: 5, "
                                "kmax_squared: 26}}]"),
                   "ions.yaml")
          .forces.at(0));
  EXPECT_EQ(given.method, CoulombMethod::Ewald);
  EXPECT_DOUBLE_EQ(*given.ewald.alpha, 0.28);
  EXPECT_EQ(*given.ewald.kmax, 5);
  EXPECT_EQ(*given.ewald.kmax_squared, 26);
  auto chosen = std::get<CoulombSettings>(
      parse_config(ionic_config("[{coulomb: {method: ewald, cutoff: 9, tolerance: 1e-6}}]"),
                   "ions.yaml")
          .forces.at(0));
  EXPECT_FALSE(chosen.ewald.alpha);
  novamd::forces::resolve_ewald(chosen, novamd::core::Box(30.0, 30.0, 40.0));
  // alpha = sqrt(-ln(2e-6)) / 9 = 0.40250; kmax = ceil(alpha L sqrt(-ln 1e-6) / pi) = ceil(14.29)
  // and ceil(19.05) for L = 30 and 40.
  EXPECT_NEAR(*chosen.ewald.alpha, std::sqrt(-std::log(2e-6)) / 9.0, 1e-15);
  EXPECT_EQ(chosen.ewald.kmax_per_axis, (std::array<int, 3>{15, 15, 20}));
}

TEST(ConfigCoulomb, PmeTakesOrderAndGridOrChoosesTheGridFromTheTolerance) {
  using novamd::forces::CoulombMethod;
  using novamd::forces::CoulombSettings;
  auto given = std::get<CoulombSettings>(
      parse_config(ionic_config("[{coulomb: {method: pme, cutoff: 9, order: 6, grid: [24, 30, "
                                "36]}}]"),
                   "ions.yaml")
          .forces.at(0));
  EXPECT_EQ(given.method, CoulombMethod::Pme);
  EXPECT_EQ(given.ewald.order, 6);
  novamd::forces::resolve_ewald(given, novamd::core::Box(30.0, 30.0, 40.0));
  EXPECT_EQ(given.ewald.grid_per_axis, (std::array<int, 3>{24, 30, 36}));
  EXPECT_EQ(given.ewald.kmax_per_axis, (std::array<int, 3>{0, 0, 0}));  // no wave vectors
  auto cubic = std::get<CoulombSettings>(
      parse_config(ionic_config("[{coulomb: {method: pme, cutoff: 9, grid: 40}}]"), "ions.yaml")
          .forces.at(0));
  EXPECT_EQ(*cubic.ewald.grid, (std::array<int, 3>{40, 40, 40}));
  EXPECT_EQ(cubic.ewald.order, 5);  // OpenMM's default order
  auto chosen = std::get<CoulombSettings>(
      parse_config(ionic_config("[{coulomb: {method: pme, cutoff: 9, tolerance: 5e-4}}]"),
                   "ions.yaml")
          .forces.at(0));
  novamd::forces::resolve_ewald(chosen, novamd::core::Box(30.0, 30.0, 40.0));
  // alpha = sqrt(-ln(1e-3)) / 9 = 0.29203; K = ceil(2 alpha L / (3 tol^(1/5))) = ceil(26.71)
  // and ceil(35.61) for L = 30 and 40 (27 = 3^3 and 36 = 2^2 3^2 are fast FFT lengths already).
  EXPECT_NEAR(*chosen.ewald.alpha, std::sqrt(-std::log(1e-3)) / 9.0, 1e-15);
  EXPECT_EQ(chosen.ewald.grid_per_axis, (std::array<int, 3>{27, 27, 36}));
  EXPECT_EQ(novamd::forces::fft_length_at_least(11), 12);
  EXPECT_EQ(novamd::forces::fft_length_at_least(97), 98);  // 2 x 7^2
  EXPECT_EQ(novamd::forces::fft_length_at_least(121), 125);
}

TEST(ConfigCoulomb, EveryErrorNamesItsKey) {
  const struct {
    std::string forces, key, what;
  } cases[] = {
      {"[{coulomb: {method: wolf, cutoff: 9}}]", "forces[0].coulomb.method",
       "cut, shift, reaction_field, ewald or pme"},
      {"[{coulomb: {method: shift, cutoff: 9, alpha: 0.3}}]", "forces[0].coulomb.alpha",
       "alpha only with method: ewald or pme"},
      {"[{coulomb: {method: pme, cutoff: 9, kmax: 5}}]", "forces[0].coulomb.kmax",
       "kmax only with method: ewald"},
      {"[{coulomb: {method: ewald, cutoff: 9, order: 5}}]", "forces[0].coulomb.order",
       "order only with method: pme"},
      {"[{coulomb: {method: pme, cutoff: 9, order: 8}}]", "forces[0].coulomb.order",
       "out of range"},
      {"[{coulomb: {method: pme, cutoff: 9, grid: 3}}]", "forces[0].coulomb.grid", "out of range"},
      {"[{coulomb: {method: pme, cutoff: 9, grid: [32, 32]}}]", "forces[0].coulomb.grid",
       "[Kx, Ky, Kz]"},
      {"[{coulomb: {method: pme, cutoff: 9, grid: {x: 3}}}]", "forces[0].coulomb.grid",
       "[Kx, Ky, Kz]"},
      {"[{coulomb: {method: cut, cutoff: 9, kmax: 5}}]", "forces[0].coulomb.kmax",
       "kmax only with method: ewald"},
      {"[{coulomb: {method: ewald, cutoff: 9, tolerance: 0.5}}]", "forces[0].coulomb.tolerance",
       "out of range"},
      {"[{coulomb: {method: ewald, cutoff: 9, kmax: 0}}]", "forces[0].coulomb.kmax",
       "out of range"},
      {"[{coulomb: {method: ewald, cutoff: 9, alpha: -1}}]", "forces[0].coulomb.alpha",
       "out of range"},
      {"[{coulomb: {cutoff: 9}}]", "forces[0].coulomb.method", "missing"},
      {"[{coulomb: {method: cut}}]", "forces[0].coulomb.cutoff", "missing"},
      {"[{coulomb: {method: cut, cutoff: 9, epsilon_rf: 80}}]", "forces[0].coulomb.epsilon_rf",
       "only with method: reaction_field"},
      {"[{coulomb: {method: cut, cutoff: 9, dielectric: 0}}]", "forces[0].coulomb.dielectric",
       "out of range"},
      {"[{coulomb: {method: cut, cutoff: 13}}]", "forces[0].coulomb.cutoff",
       "more than half the shortest box edge"},
      {"[" + kLj + ", switch: 10.0}}]", "forces[0].lennard_jones.switch", "not inside the cutoff"},
      {"[" + kLj + ", switch: 8.0, truncation: shift}}]", "forces[0].lennard_jones.switch",
       "exclude each other"},
      {"[" + kLj + ", switch: 8.0, tail_correction: true}}]", "forces[0].lennard_jones.switch",
       "no tail correction"},
      {"[" + kLj + ", mixing: harmonic}}]", "forces[0].lennard_jones.mixing",
       "arithmetic or geometric"},
  };
  for (const auto& c : cases) {
    const std::string message = error_of(ionic_config(c.forces));
    EXPECT_NE(message.find(c.key), std::string::npos) << c.forces << "\n" << message;
    EXPECT_NE(message.find(c.what), std::string::npos) << c.forces << "\n" << message;
  }
}

TEST(ConfigCoulomb, GeometricMixingTakesTheMeanOfTheSigmas) {
  const auto config = parse_config(ionic_config("[" + kLj + ", mixing: geometric}}]"), "ions.yaml");
  const auto& lj = std::get<novamd::forces::LennardJonesSettings>(config.forces.at(0));
  const auto mixed = lj.mixed(config.system.species);
  EXPECT_DOUBLE_EQ(mixed.sigma[1], std::sqrt(2.5 * 3.4));
  EXPECT_DOUBLE_EQ(mixed.epsilon[1], 0.1);
  const auto arithmetic = parse_config(ionic_config("[" + kLj + "}}]"), "ions.yaml");
  EXPECT_DOUBLE_EQ(std::get<novamd::forces::LennardJonesSettings>(arithmetic.forces.at(0))
                       .mixed(arithmetic.system.species)
                       .sigma[1],
                   0.5 * (2.5 + 3.4));
}

/// The columns of the one thermo row of a zero-step run of `config`.
std::map<std::string, double> initial_row(const std::string& config) {
  novamd::test::TempDir dir;
  return novamd::test::initial_thermo_row(dir, config);
}

TEST(ConfigCoulomb, TermEnergyColumnsAddUpToThePotentialEnergy) {
  const auto row =
      initial_row(ionic_config("[" + kLj + "}}, {coulomb: {method: shift, cutoff: 10.0}}]",
                               "[vdw_energy, coulomb_energy, bond_energy]"));
  ASSERT_EQ(row.count("vdw_energy"), 1u);
  const double vdw = row.at("vdw_energy"), coulomb = row.at("coulomb_energy");
  const double u = row.at("potential_energy");
  // Every pair of the 4 A lattice lies beyond its minimum's 2^(1/6) sigma or near it: attractive.
  EXPECT_LT(vdw, 0.0);
  EXPECT_NE(coulomb, 0.0);  // the species sit on the sites at random: either sign
  EXPECT_NEAR(vdw + coulomb, u, 1e-12 * (std::abs(vdw) + std::abs(coulomb)));
  EXPECT_EQ(row.at("bond_energy"), 0.0);  // no bonded term: 0, not an error
}

}  // namespace
