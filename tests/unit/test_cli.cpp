// The `novamd` command end to end: examples, run.steps = 0, non-finite stops, backend errors,
// --version.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "novamd/backend/cuda_device.hpp"
#include "support/cli_runner.hpp"
#include "support/expect_has.hpp"

namespace {

using novamd::test::run_novamd;
using novamd::test::TempDir;

std::vector<std::string> read_lines(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.starts_with('#')) lines.push_back(line);  // the thermo CSV's units line
  return lines;
}

/// The numbers of one thermo CSV row.
std::vector<double> parse_row(const std::string& line) {
  std::stringstream row(line);
  std::vector<double> values;
  for (std::string cell; std::getline(row, cell, ',');) values.push_back(std::stod(cell));
  return values;
}

const char* kTwoIons = R"(units: lj
system:
  box: [10, 10, 10]
  species: [{name: A, charge: 1, mass: 1}]
  structure: {generate: {lattice: random, counts: {A: 2}, min_separation: 1.0}}
  velocities: {temperature: 1.0}
forces:
  - yukawa: {screening_length: 1.0}
integrator: {type: velocity_verlet, timestep: 0.001}
run: {steps: 0}
)";

TEST(Cli, ExamplesRunShortened) {
  // Each example for 4 steps; the GPU-sized ones also scaled down, with the overrides their
  // comments give (nuclear pasta: 2,000 nucleons, a Coulomb cutoff within the smaller box).
  const struct {
    const char* file;
    const char* scale_down;
  } examples[] = {
      {"white_dwarf_co.yaml", ""},
      {"yukawa_ocp.yaml", ""},
      {"lj_liquid.yaml", ""},
      {"lj_binary_mixture.yaml", ""},
      {"lj_nvt.yaml", ""},
      {"lj_stages.yaml", ""},
      {"lj_npt.yaml", ""},
      {"peptide/peptide.yaml", ""},
      {"amber-dipeptide/dipeptide.yaml", ""},
      {"peptide/peptide_pme.yaml", ""},
      {"amber-dipeptide/dipeptide_pme.yaml", ""},
      {"water/water_pme.yaml", ""},
      {"water/water_rigid.yaml", ""},
      {"water/water_npt.yaml", " --set barostat.every=2"},
      {"rigid/co2.yaml",
       " --set system.structure.generate.cells=4 --set \"system.structure.generate.counts={CO2: "
       "256}\""},
      {"rigid/co2_eox.yaml",
       " --set system.structure.generate.cells=4 --set \"system.structure.generate.counts={CO2: "
       "128, EOX: 128}\""},
      {"rigid/spce_water.yaml",
       " --set system.structure.generate.cells=3 --set \"system.structure.generate.counts={SPCE: "
       "108}\" --set forces.0.rigid_sites.cutoff=7.0"},
      {"nuclear_pasta.yaml",
       " --set system.structure.generate.total=2000 --set forces.1.yukawa.cutoff=15"},
  };
  for (const auto& [example, scale_down] : examples) {
    TempDir dir;
    const auto result = run_novamd(std::string("run " NOVAMD_SOURCE_DIR "/examples/") + example +
                                       " --steps 4 --set output.thermo.every=2" + scale_down,
                                   dir.path());
    ASSERT_EQ(result.exit_code, 0) << example << "\n" << result.output;
    EXPECT_NE(result.output.find("Done: 4 steps"), std::string::npos) << result.output;
    // Thermo rows at steps 0, 2, 4 below the header (analysis files aside).
    std::size_t csv_files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
      if (entry.path().extension() != ".csv") continue;
      if (entry.path().filename().string().find("thermo") == std::string::npos) continue;
      ++csv_files;
      const auto lines = read_lines(entry.path());
      ASSERT_EQ(lines.size(), 4u) << example;
      EXPECT_EQ(lines[3].rfind("4,", 0), 0u) << lines[3];
    }
    EXPECT_EQ(csv_files, 1u) << example;
  }
}

TEST(Cli, RigidWaterKeepsItsVerletListsUnderTheThermalSkin) {
  // examples/water/water_rigid.yaml: a 31.043 A box, a 9 A cutoff, Langevin at 300 K and 2 fs.
  // The default skin's thermal bound (50 steps of hydrogen's thermal speed: 1.57 A) would leave
  // the box fewer than 3 cells of cutoff + skin; it is capped at 31.043 / 3 - 9 = 1.3477 A, and
  // the lists stay. Without a thermostat the skin is 0.12 x the cutoff.
  const std::string run = "run " NOVAMD_SOURCE_DIR
                          "/examples/water/water_rigid.yaml --backend cpu --steps 0 "
                          "--set output.trajectory=[]";
  TempDir thermostat, constant_energy;
  const auto langevin = run_novamd(run, thermostat.path());
  ASSERT_EQ(langevin.exit_code, 0) << langevin.output;
  EXPECT_NE(langevin.output.find("Verlet lists, skin 1.34766 A"), std::string::npos)
      << langevin.output;
  const auto verlet = run_novamd(
      run + " --set \"integrator={type: velocity_verlet, timestep: 2.0}\"", constant_energy.path());
  ASSERT_EQ(verlet.exit_code, 0) << verlet.output;
  EXPECT_NE(verlet.output.find("Verlet lists, skin 1.08 A"), std::string::npos) << verlet.output;
  // In mixed precision this charged system would take cluster pair lists on a GPU, whose default
  // skin is wider (0.28 x the cutoff, here capped at 1.3477 A); the CPU's lists are per particle
  // and keep the cutoff's share.
  TempDir mixed_dir;
  const auto mixed = run_novamd(run +
                                    " --set precision=mixed --set \"integrator={type: "
                                    "velocity_verlet, timestep: 2.0}\"",
                                mixed_dir.path());
  ASSERT_EQ(mixed.exit_code, 0) << mixed.output;
  EXPECT_NE(mixed.output.find("Verlet lists, skin 1.08 A"), std::string::npos) << mixed.output;
}

// The closing line gives ns/day where time is in fs (`real` units): 0.0864 x dt / (s per step),
// against the line's own ms/step (both printed to 4 digits: within 5e-4 relative each); the
// other unit systems (here `lj`) print none.
TEST(Cli, RealUnitRunsReportNanosecondsPerDay) {
  TempDir water, ions;  // the rigid water example: real units, 2 fs
  const auto real = run_novamd("run " NOVAMD_SOURCE_DIR
                               "/examples/water/water_rigid.yaml --backend cpu --steps 3 "
                               "--set output.trajectory=[]",
                               water.path());
  ASSERT_EQ(real.exit_code, 0) << real.output;
  const auto done = real.output.find("Done: 3 steps");
  ASSERT_NE(done, std::string::npos) << real.output;
  const std::string line = real.output.substr(done, real.output.find('\n', done) - done);
  double ms_per_step = 0.0, ns_day = 0.0;
  std::istringstream words(line);
  for (std::string word, previous; words >> word; previous = word) {
    if (word == "ms/step,") ms_per_step = std::stod(previous);
    if (word == "ns/day") ns_day = std::stod(previous);
  }
  ASSERT_GT(ms_per_step, 0.0) << line;
  EXPECT_NEAR(ns_day, 0.0864 * 2.0 / (1e-3 * ms_per_step), 1.1e-3 * ns_day) << line;  // 2 fs

  ions.write("two.yaml", kTwoIons);
  const auto reduced = run_novamd("run two.yaml --steps 3", ions.path());
  ASSERT_EQ(reduced.exit_code, 0) << reduced.output;
  EXPECT_NE(reduced.output.find("Done: 3 steps"), std::string::npos) << reduced.output;
  EXPECT_EQ(reduced.output.find("ns/day"), std::string::npos) << reduced.output;
}

// mass_density: total mass over volume, g/cm^3 in real units (LAMMPS's `density`): the water
// example's 1,000 SPC/E waters (O 15.9994, H 1.008 g/mol) in its 31.0429889099 A box are
// 18,015.4 g/mol / (N_A 29,915.3 A^3 1e-24 cm^3/A^3) = 0.99999 g/cm^3; `density` stays the
// number density (3,000 atoms over the volume).
TEST(Cli, MassDensityIsGramsPerCubicCentimetreInRealUnits) {
  TempDir dir;
  const auto result = run_novamd("run " NOVAMD_SOURCE_DIR
                                 "/examples/water/water_pme.yaml --backend cpu --steps 0 "
                                 "--set output.trajectory=[] "
                                 "--set output.thermo.columns=[density,mass_density]",
                                 dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  std::filesystem::path thermo;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
    if (entry.path().extension() == ".csv") thermo = entry.path();
  const auto lines = read_lines(thermo);
  ASSERT_EQ(lines.size(), 2u);
  const auto values = parse_row(lines[1]);
  ASSERT_EQ(values.size(), 10u);
  const double volume = std::pow(31.0429889099, 3);
  EXPECT_NEAR(values[8], 3000.0 / volume, 1e-15);
  const double grams = 1000.0 * (15.9994 + 2.0 * 1.008) / 6.02214076e23;
  EXPECT_NEAR(values[9], grams / (volume * 1e-24), 1e-12);
  EXPECT_NEAR(values[9], 1.0, 1e-3);
}

TEST(Cli, ZeroStepsWritesTheInitialStateOnly) {
  TempDir dir;
  dir.write("two.yaml", kTwoIons);
  // No extra columns (an ion plasma would add its plasma parameters by default).
  const auto result = run_novamd("run two.yaml --set output.thermo.columns=[]", dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto lines = read_lines(dir.path() / "thermo.csv");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0],
            "step,time,temperature,kinetic_energy,potential_energy,total_energy,pressure,"
            "conserved_energy");
  EXPECT_EQ(lines[1].rfind("0,0,", 0), 0u) << lines[1];
  // Two unit charges with lambda = 1 at distance >= 1 in a 10-box: 0 < V <= exp(-1).
  const auto values = parse_row(lines[1]);
  ASSERT_EQ(values.size(), 8u);
  EXPECT_GT(values[4], 0.0);
  EXPECT_LE(values[4], std::exp(-1.0));
  EXPECT_DOUBLE_EQ(values[5], values[3] + values[4]);  // total = kinetic + potential
  EXPECT_EQ(values[7], values[5]);                     // NVE: conserved = total
  EXPECT_NEAR(values[2], 1.0, 1e-12);                  // temperature set exactly
  EXPECT_HAS(result.output, "Wrote 1 thermo row\n");   // one row, in the singular
}

TEST(Cli, ThermoFileNoneWritesNoThermoFile) {
  TempDir dir;
  dir.write("two.yaml", kTwoIons);
  const auto result =
      run_novamd("run two.yaml --set output.thermo.file=none --steps 3", dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_HAS(result.output, "output      no thermo file");
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "thermo.csv"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "none"));
}

TEST(Cli, AConfigWithoutAStructureNamesTheKeyAndWritesNothing) {
  TempDir dir;
  std::string config = kTwoIons;
  const std::string structure =
      "  structure: {generate: {lattice: random, counts: {A: 2}, min_separation: 1.0}}\n";
  config.erase(config.find(structure), structure.size());
  dir.write("bare.yaml", config);
  const auto result = run_novamd("run bare.yaml", dir.path());
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_HAS(result.output,
             "bare.yaml:2: system.structure: required key is missing; expected generate "
             "({lattice, counts}) or read (an extended XYZ file)");
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "thermo.csv"));
}

TEST(Cli, AConfigWithoutTheRunCommandSuggestsIt) {
  TempDir dir;
  dir.write("two.yaml", kTwoIons);
  const auto result = run_novamd("two.yaml", dir.path());
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_HAS(result.output, "Did you mean: ");
  EXPECT_HAS(result.output, " run two.yaml");
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "thermo.csv"));
}

TEST(Cli, PressureTensorColumnsAverageToThePressure) {
  TempDir dir;
  dir.write("two.yaml", kTwoIons);
  const auto result = run_novamd(
      "run two.yaml --set output.thermo.columns=[pxx,pyy,pzz,pxy,pxz,pyz,virial]", dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto lines = read_lines(dir.path() / "thermo.csv");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[0].find(",pressure,conserved_energy,pxx,pyy,pzz,pxy,pxz,pyz,virial"),
            std::string::npos)
      << lines[0];
  const auto v = parse_row(lines[1]);
  ASSERT_EQ(v.size(), 15u);
  // P = (P_xx + P_yy + P_zz) / 3, as written (17 significant digits): a few ulp.
  EXPECT_NEAR((v[8] + v[9] + v[10]) / 3.0, v[6], 1e-14 * std::abs(v[6]));
  // Two ions repel: the virial is positive, and its part of P is W / (3 V), V = 1000.
  EXPECT_GT(v[14], 0.0);
}

TEST(Cli, StructureFileIsFoundNextToTheConfig) {
  TempDir dir;
  std::filesystem::create_directories(dir.path() / "inputs");
  dir.write("inputs/start.xyz",
            "2\nLattice=\"10 0 0 0 10 0 0 0 10\" Properties=species:S:1:pos:R:3\n"
            "A 1 1 1\nA 3 1 1\n");
  std::string config = kTwoIons;
  config.replace(config.find("structure:"),
                 config.find("\n", config.find("structure:")) - config.find("structure:"),
                 "structure: {read: start.xyz}");
  dir.write("inputs/read.yaml", config);
  const auto result = run_novamd("run inputs/read.yaml --backend cpu", dir.path());  // from above
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto lines = read_lines(dir.path() / "thermo.csv");
  ASSERT_EQ(lines.size(), 2u);
  // Two unit charges 2 apart, lambda = 1: V = exp(-2) / 2.
  EXPECT_NEAR(parse_row(lines[1])[4], std::exp(-2.0) / 2.0, 1e-14);  // potential_energy
}

TEST(Cli, NonFiniteEnergyStopsTheRunNamingStepAndParticle) {
  TempDir dir;
  std::string config = kTwoIons;
  config.replace(config.find("charge: 1"), 9, "charge: 1e200");  // Z_i Z_j overflows to inf
  dir.write("inf.yaml", config);
  const auto result = run_novamd("run inf.yaml --backend cpu", dir.path());
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_NE(result.output.find("step 0: particle 0 has a non-finite"), std::string::npos)
      << result.output;
}

TEST(Cli, NonFinitePositionStopsTheRunAtItsStep) {
  TempDir dir;
  // At rest, so that step 0 passes the one-step displacement check; the first kick and drift
  // then overflow the positions.
  std::string config = kTwoIons;
  config.erase(config.find("  velocities: {temperature: 1.0}\n"), 33);
  dir.write("huge_dt.yaml", config);
  const auto result = run_novamd(
      "run huge_dt.yaml --backend cpu --steps 5 --set integrator.timestep=1e300", dir.path());
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_NE(result.output.find("step 1: particle 0 has a non-finite position"), std::string::npos)
      << result.output;
}

TEST(Cli, CudaWithoutADeviceIsAClearError) {
  if (novamd::backend::query_cuda_device()) GTEST_SKIP() << "a CUDA device is present";
  TempDir dir;
  dir.write("two.yaml", kTwoIons);
  const auto result = run_novamd("run two.yaml --backend cuda", dir.path());
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("backend: cuda was asked for"), std::string::npos) << result.output;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "thermo.csv"));  // nothing written
}

TEST(Cli, VersionNamesVersionCommitAndCuda) {
  TempDir dir;
  const auto result = run_novamd("--version", dir.path());
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_NE(result.output.find("novamd " NOVAMD_VERSION " (commit "), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("CUDA backend: "), std::string::npos) << result.output;
}

TEST(Cli, UsageErrorsExitWithCode2) {
  TempDir dir;
  EXPECT_EQ(run_novamd("run", dir.path()).exit_code, 2);
  EXPECT_EQ(run_novamd("frobnicate", dir.path()).exit_code, 2);
  EXPECT_EQ(run_novamd("run x.yaml --precision quad", dir.path()).exit_code, 2);
}

TEST(Cli, BenchPrintsItsTable) {
  TempDir dir;
  const auto result = run_novamd("bench --backend cpu --sizes 64 --steps 2", dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("ms/step"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("\n      64 "), std::string::npos) << result.output;
}

TEST(Cli, BenchPastaPrintsBothTermsAndThePairCounts) {
  TempDir dir;
  const auto result =
      run_novamd("bench --case pasta --backend cpu --sizes 500 --steps 1", dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("nucl ms"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("Coul pairs"), std::string::npos) << result.output;
  const auto row_at = result.output.find("\n    500 ");
  ASSERT_NE(row_at, std::string::npos) << result.output;
  // N, ms/step, forces, builds, nucl ms, Coul ms, nucl pairs, list pairs, Coul rc, Coul pairs,
  // evals/s
  std::stringstream row(result.output.substr(row_at));
  std::vector<std::string> cells;
  for (std::string cell; cells.size() < 11 && row >> cell;) cells.push_back(cell);
  ASSERT_EQ(cells.size(), 11u) << result.output;
  // 500 nucleons, 200 of them protons, uniform at 0.05 fm^-3 (V = 10^4 fm^3), none closer than
  // 2 fm: pairs within 10 fm about (N(N-1)/2) (4/3 pi (10^3 - 2^3)) / V = 51,840, proton pairs
  // within the Coulomb cutoff (10 fm, the largest whole fm in half the 21.5 fm box) about 8,270.
  // Random placement scatters these by well under 3%.
  EXPECT_EQ(std::stod(cells[8]), 10.0);
  EXPECT_NEAR(std::stod(cells[6]), 51840, 0.03 * 51840) << result.output;
  EXPECT_NEAR(std::stod(cells[9]), 8270, 0.03 * 8270) << result.output;
  EXPECT_EQ(run_novamd("bench --case pasta --sizes 50", dir.path()).exit_code, 2);  // too few
}

// --layout names the GPU's Verlet-list layout; another name is refused before any work.
TEST(Cli, BenchLayoutIsCheckedFirst) {
  TempDir dir;
  const auto bad = run_novamd("bench --case lj --backend cpu --layout tiles", dir.path());
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("--layout 'tiles': expected auto, atoms or clusters"),
            std::string::npos)
      << bad.output;
  const auto melt = run_novamd(
      "bench --case lj --backend cpu --layout clusters --sizes 1372 --steps 1 --warmup 3",
      dir.path());
  ASSERT_EQ(melt.exit_code, 0) << melt.output;
  EXPECT_NE(melt.output.find("(layout clusters)"), std::string::npos) << melt.output;
}

// Seed 001's rigid molecules on the CPU at one cutoff (the table, not the timings, is checked).
TEST(Cli, BenchRigidPrintsEachDataSet) {
  TempDir dir;
  const auto result =
      run_novamd("bench --case rigid --backend cpu --cutoffs 2.0 --steps 1 --warmup 3", dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  for (const char* row :
       {"\n    1j    78732   2.00 ", "\n  3j1d    48668   2.00 ", "\n   mix    48668   2.00 "}) {
    const auto at = result.output.find(row);
    ASSERT_NE(at, std::string::npos) << row << result.output;
    std::stringstream cells_of(result.output.substr(at));
    std::vector<std::string> cells;
    for (std::string cell; cells.size() < 5 && cells_of >> cell;) cells.push_back(cell);
    ASSERT_EQ(cells.size(), 5u);
    EXPECT_GT(std::stod(cells[3]), 0.0) << row;  // ms/step
    EXPECT_GT(std::stod(cells[4]), 0.0) << row;  // molecule-steps per second
  }
}

// Seed 002's case on the CPU (one step per timing: the table, not the timings, is checked).
TEST(Cli, BenchOrnlPrintsBothTraversalsAndTheTermColumns) {
  TempDir dir;
  const auto result =
      run_novamd("bench --case ornl --backend cpu --steps 1 --warmup 1", dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("14739 atoms of flexible SPC/E water (box 52.77 A)"),
            std::string::npos)
      << result.output;
  for (const char* row : {"\n    cell lists ", "\n  Verlet lists "}) {
    const auto row_at = result.output.find(row);
    ASSERT_NE(row_at, std::string::npos) << row << result.output;
    // pairs by (two words), ms/step, forces, LJ ms, Coul ms, bonded, +bonded, bonded%, seed 002
    std::stringstream cells_of(result.output.substr(row_at));
    std::vector<std::string> cells;
    for (std::string cell; cells.size() < 11 && cells_of >> cell;) cells.push_back(cell);
    ASSERT_EQ(cells.size(), 11u) << result.output;
    for (int k : {2, 3, 4, 5, 6}) EXPECT_GT(std::stod(cells[k]), 0.0) << row << cells[k];
    EXPECT_EQ(cells[9], "6.0") << row;  // the seed's target
    EXPECT_EQ(cells[10], "ms") << row;
  }
  // The PME table: its grid from the tolerance, then ms/step, forces, LJ, PME, shifted, mesh.
  const auto pme_at = result.output.find("smooth PME, cutoff 10 A, tolerance 0.0005");
  ASSERT_NE(pme_at, std::string::npos) << result.output;
  EXPECT_NE(result.output.find("grid 45 x 45 x 45", pme_at), std::string::npos) << result.output;
  const auto header = result.output.find("mesh ms\n", pme_at);
  ASSERT_NE(header, std::string::npos) << result.output;
  std::stringstream row(result.output.substr(header + 8));
  for (int k = 0; k < 5; ++k) {  // the mesh's estimate, a difference, may be noise-negative
    double value = 0.0;
    ASSERT_TRUE(row >> value) << result.output;
    EXPECT_GT(value, 0.0) << "column " << k;
  }
}

}  // namespace
