// `system.topology` in the config: the keys that conflict with it, the format, the units, and
// bad topology files, each an input error (exit 2) that names the key or the file and line, with
// nothing written.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "support/cli_runner.hpp"
#include "support/csv_rows.hpp"
#include "support/trajectories.hpp"

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

namespace {

/// A 4-step peptide run writing a DCD every 2 steps and the final state as LAMMPS data.
std::string peptide_with_outputs() {
  return config("  topology: {read: " + kPeptide + ", " + kCharmmStyles + "}\n",
                "  - lennard_jones: {cutoff: 10.0, switch: 8.0}\n"
                "  - coulomb: {method: shift, cutoff: 10.0}\n") +
         "output:\n"
         "  thermo: {every: 4}\n"
         "  trajectory: {every: 2, file: peptide.dcd}\n"
         "  data: {file: final.data}\n";
}

void run_peptide_with_outputs(const TempDir& dir) {
  dir.write("run.yaml", peptide_with_outputs());
  const auto result =
      run_novamd("run run.yaml --backend cpu --steps 4 --set integrator.timestep=0.25", dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.output;
}

TEST(TopologyOutputs, MDAnalysisReadsThePsfBesideTheDcd) {
  TempDir dir;
  run_peptide_with_outputs(dir);
  ASSERT_TRUE(std::filesystem::exists(dir.path() / "peptide.psf"));  // by default, beside it
  const auto read = novamd::test::run_shell(
      "'" + novamd::test::test_python() +
          "' -c \"import MDAnalysis as m; u = m.Universe('peptide.psf', 'peptide.dcd'); "
          "print(len(u.atoms), len(u.bonds), len(u.angles), len(u.dihedrals), len(u.impropers), "
          "u.trajectory.n_frames)\" 2>&1",
      dir.path());
  ASSERT_EQ(read.exit_code, 0) << read.output;
  // MDAnalysis keeps each set of four atoms once: the peptide's 207 dihedrals name 200 (CHARMM's
  // multi-term torsions repeat their atoms with another type); the PSF lists all 207.
  EXPECT_NE(read.output.find("2004 1365 786 200 12 3"), std::string::npos) << read.output;
  EXPECT_NE(novamd::test::read_text(dir.path() / "peptide.psf").find("207 !NPHI"),
            std::string::npos);
}

TEST(TopologyOutputs, TheFinalDataFileReadsBackToTheSameEnergies) {
  TempDir dir;
  run_peptide_with_outputs(dir);
  const auto last =
      novamd::test::numbers_of(novamd::test::read_lines(dir.path() / "thermo.csv")[2]);
  TempDir again;
  std::filesystem::copy(dir.path() / "final.data", again.path() / "final.data");
  std::string reread = peptide_with_outputs();
  reread = reread.substr(0, reread.find("output:"));
  reread.replace(reread.find(kPeptide), kPeptide.size(), "final.data");
  again.write("run.yaml", reread);
  const auto result = run_novamd("run run.yaml --backend cpu", again.path());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto first =
      novamd::test::numbers_of(novamd::test::read_lines(again.path() / "thermo.csv")[1]);
  // Positions and velocities round-trip bit for bit; the box moves to the origin, so pair
  // distances change in their last bits: a few eps of the energy's terms (~1e4 kcal/mol).
  EXPECT_NEAR(first[4], last[4], 1e-10 * 1e4) << "potential energy";
  EXPECT_NEAR(first[3], last[3], 1e-12 * std::abs(last[3])) << "kinetic energy";
}

TEST(TopologyOutputs, OnlyAMolecularSystemHasATopologyToWrite) {
  TempDir dir;
  dir.write("run.yaml",
            "units: lj\n"
            "system: {box: 8, species: [{name: A, mass: 1}], structure: {generate: {lattice: "
            "fcc, cells: 4, counts: {A: 256}}}}\n"
            "forces: [{lennard_jones: {pairs: [{types: [A, A], epsilon: 1, sigma: 1}], "
            "cutoff: 2.5}}]\n"
            "integrator: {type: velocity_verlet, timestep: 0.005}\n"
            "run: {steps: 0}\n"
            "output: {data: {file: final.data}}\n");
  const auto result = run_novamd("run run.yaml --backend cpu", dir.path());
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("output.data"), std::string::npos) << result.output;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "thermo.csv"));
}

}  // namespace
