// `novamd check`: PME against the exact Ewald sum on 216 random ions, the report's lines and the
// error it measures (below the tolerance asked); --tolerance failing the command (exit 1) when
// the error exceeds it; bad references refused with exit code 2 and a message naming them.

#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "support/cli_runner.hpp"

namespace {

using novamd::test::run_novamd;
using novamd::test::TempDir;

const std::string kIons =
    "units: real\n"
    "seed: 5\n"
    "system:\n"
    "  box: [20.0, 20.0, 20.0]\n"
    "  species: [{name: Na, charge: 1, mass: 22.99}, {name: Cl, charge: -1, mass: 35.45}]\n"
    "  structure: {generate: {lattice: random, counts: {Na: 108, Cl: 108}, min_separation: 2.0}}\n"
    "forces:\n"
    "  - coulomb: {method: pme, cutoff: 9.0, tolerance: 1.0e-4}\n"
    "integrator: {type: velocity_verlet, timestep: 1.0}\n"
    "run: {steps: 10}\n";

double relative_error_in(const std::string& output) {
  const std::regex pattern(R"(relative ([0-9.eE+-]+) of the RMS force)");
  std::smatch m;
  if (!std::regex_search(output, m, pattern)) return -1.0;
  return std::stod(m[1]);
}

TEST(CheckCommand, MeasuresPmeAgainstTheExactEwaldSum) {
  TempDir dir;
  dir.write("ions.yaml", kIons);
  const auto result = run_novamd("check ions.yaml --backend cpu", dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("against the exact Ewald sum"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("smooth PME"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("worst particle"), std::string::npos) << result.output;
  const double relative = relative_error_in(result.output);
  EXPECT_GT(relative, 0.0) << result.output;   // PME is not exact
  EXPECT_LT(relative, 1e-4) << result.output;  // and within the tolerance asked
}

TEST(CheckCommand, ToleranceFailsTheCommandAboveIt) {
  TempDir dir;
  dir.write("ions.yaml", kIons);
  const auto result = run_novamd("check ions.yaml --backend cpu --tolerance 1e-9", dir.path());
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_NE(result.output.find("check failed: the relative RMS force error"), std::string::npos)
      << result.output;
}

TEST(CheckCommand, RefusesReferencesThatDoNotApply) {
  TempDir dir;
  std::string cut = kIons;
  cut.replace(cut.find("method: pme, cutoff: 9.0, tolerance: 1.0e-4"),
              std::string("method: pme, cutoff: 9.0, tolerance: 1.0e-4").size(),
              "method: shift, cutoff: 9.0");
  dir.write("cut.yaml", cut);
  dir.write("ions.yaml", kIons);
  const auto no_pme = run_novamd("check cut.yaml --against ewald", dir.path());
  EXPECT_EQ(no_pme.exit_code, 2) << no_pme.output;
  EXPECT_NE(no_pme.output.find("no coulomb term with method pme"), std::string::npos)
      << no_pme.output;
  const auto unknown = run_novamd("check ions.yaml --against lammps", dir.path());
  EXPECT_EQ(unknown.exit_code, 2) << unknown.output;
  EXPECT_NE(unknown.output.find("--against: 'lammps' is not a reference"), std::string::npos)
      << unknown.output;
  // Against the CPU in double from the CPU in double: no difference at all.
  const auto same = run_novamd("check cut.yaml --backend cpu --against cpu", dir.path());
  ASSERT_EQ(same.exit_code, 0) << same.output;
  EXPECT_EQ(relative_error_in(same.output), 0.0) << same.output;
}

}  // namespace
