// `system.topology` in the config: the keys that conflict with it, the format, the units, and
// bad topology files, each an input error (exit 2) that names the key or the file and line, with
// nothing written.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/cli_runner.hpp"

namespace {

using novamd::test::run_novamd;
using novamd::test::TempDir;

const std::string kPeptide = NOVAMD_SOURCE_DIR "/examples/peptide/data.peptide";
const std::string kCharmmStyles =
    "styles: {pair: lj_charmm, bond: harmonic, angle: charmm, dihedral: charmm, improper: "
    "harmonic}";

std::string config(const std::string& system, const std::string& forces) {
  return "units: real\n"
         "system:\n" +
         system + "forces:\n" + forces +
         "integrator: {type: velocity_verlet, timestep: 1.0}\n"
         "run: {steps: 0}\n";
}

const std::string kForces = "  - lennard_jones: {cutoff: 10.0}\n";

struct BadCase {
  std::string name, system, forces, expected;
};

TEST(TopologyConfig, BadInputIsAnInputErrorWithNothingWritten) {
  const std::string peptide = "  topology: {read: " + kPeptide + ", " + kCharmmStyles + "}\n";
  const BadCase cases[] = {
      {"species with a topology", peptide + "  species: [{name: A, mass: 1}]\n", kForces,
       "system.species cannot be given with system.topology"},
      {"box with a topology", peptide + "  box: 30\n", kForces,
       "system.box cannot be given with system.topology"},
      {"unknown extension", "  topology: {read: molecule.xyz}\n", kForces,
       "is not clear from its name"},
      {"coordinates for LAMMPS", "  topology: {read: " + kPeptide + ", coordinates: a.inpcrd}\n",
       kForces, "a LAMMPS data file holds its own coordinates"},
      {"AMBER without coordinates", "  topology: {read: x.prmtop}\n", kForces,
       "coordinates are missing"},
      {"special_bonds for AMBER",
       "  topology: {read: x.prmtop, coordinates: x.inpcrd, special_bonds: {lj: [0, 0, 0.5]}}\n",
       kForces, "special_bonds only with lammps_data"},
      {"a scale factor out of range",
       "  topology: {read: " + kPeptide + ", " + kCharmmStyles +
           ", special_bonds: {lj: [0, 0, 1.5]}}\n",
       kForces, "special_bonds.lj[2]"},
      {"pairs beside the file's parameters", peptide,
       "  - lennard_jones: {cutoff: 10.0, pairs: [{types: ['1', '1'], epsilon: 1, sigma: 1}]}\n",
       "the topology file gives the Lennard-Jones parameters"},
      {"a missing file", "  topology: {read: missing.data, " + kCharmmStyles + "}\n", kForces,
       "missing.data"},
      {"an unknown dihedral style",
       "  topology: {read: " + kPeptide +
           ", styles: {pair: lj_charmm, bond: harmonic, angle: charmm, dihedral: helix, improper: "
           "harmonic}}\n",
       kForces, "helix"},
  };
  for (const auto& c : cases) {
    TempDir dir;
    dir.write("run.yaml", config(c.system, c.forces));
    const auto result = run_novamd("run run.yaml --backend cpu", dir.path());
    EXPECT_EQ(result.exit_code, 2) << c.name << "\n" << result.output;
    EXPECT_NE(result.output.find(c.expected), std::string::npos) << c.name << "\n" << result.output;
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "thermo.csv")) << c.name;
  }
}

TEST(TopologyConfig, AnAmberFileNeedsRealUnits) {
  TempDir dir;
  const std::string folder = NOVAMD_SOURCE_DIR "/examples/amber-dipeptide/";
  std::string text = config("  topology: {read: " + folder +
                                "dipeptide.prmtop, coordinates: " + folder + "dipeptide.inpcrd}\n",
                            kForces);
  text.replace(text.find("units: real"), 11, "units: lj");
  dir.write("run.yaml", text);
  const auto result = run_novamd("run run.yaml --backend cpu", dir.path());
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("units: real"), std::string::npos) << result.output;
}

TEST(TopologyConfig, ATruncatedDataFileNamesItsLine) {
  TempDir dir;
  // The peptide's first 200 lines: the header promises 2,004 atoms that never come.
  std::ifstream in(kPeptide);
  std::string text, line;
  for (int k = 0; k < 200 && std::getline(in, line); ++k) text += line + "\n";
  dir.write("cut.data", text);
  dir.write("run.yaml", config("  topology: {read: cut.data, " + kCharmmStyles + "}\n", kForces));
  const auto result = run_novamd("run run.yaml --backend cpu", dir.path());
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("cut.data:"), std::string::npos) << result.output;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "thermo.csv"));
}

}  // namespace
