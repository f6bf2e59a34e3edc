// Rigid multi-centre molecules through the whole run path (seed 001): `system.components` and
// the `rigid_sites` term in a config, `novamd run` on the CPU backend, the rotation in the
// integrators' stages, thermo columns, trajectories, checkpoints and clear errors.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "novamd/backend/cuda_device.hpp"
#include "novamd/core/error.hpp"
#include "novamd/io/config.hpp"
#include "novamd/io/site_frames.hpp"
#include "novamd/io/xyz.hpp"
#include "support/cli_runner.hpp"
#include "support/csv_rows.hpp"
#include "support/restart_check.hpp"
#include "support/rigid_configs.hpp"
#include "support/sample_statistics.hpp"
#include "support/trajectories.hpp"

namespace {

using novamd::test::TempDir;

using novamd::test::fluid;
using novamd::test::kComponents;

// Thermo row: step, time, temperature, kinetic, potential, total, pressure, conserved, extras.
constexpr std::size_t kPotential = 4, kConserved = 7, kFirstExtra = 8;

std::vector<std::vector<double>> thermo_rows(const std::filesystem::path& file) {
  std::vector<std::vector<double>> rows;
  const auto lines = novamd::test::read_lines(file);
  for (std::size_t k = 1; k < lines.size(); ++k) rows.push_back(novamd::test::numbers_of(lines[k]));
  return rows;
}

/// The largest |E(t) - E(0)| / |E(0)| of the conserved energy over a run of `steps` at `dt`.
double largest_drift(const std::string& config, double dt, int steps) {
  TempDir dir;
  dir.write("run.yaml", config);
  const auto run =
      novamd::test::run_novamd("run run.yaml --steps " + std::to_string(steps) +
                                   " --set integrator.timestep=" + std::to_string(dt) +
                                   " --set output.thermo.every=" + std::to_string(steps / 20),
                               dir.path());
  EXPECT_EQ(run.exit_code, 0) << run.output;
  const auto rows = thermo_rows(dir.path() / "thermo.csv");
  EXPECT_EQ(rows.size(), 21u);
  double largest = 0.0;
  for (const auto& row : rows)
    largest = std::max(largest, std::abs(row.at(kConserved) - rows.front().at(kConserved)) /
                                    std::abs(rows.front().at(kConserved)));
  return largest;
}

/// The largest drifts over the same time at the step dt (`steps` of them), dt / 2 and dt / 4:
/// each halving must divide the error by more than `ratio` (4 for a second-order integrator).
/// Returns the error at dt / 4.
double expect_order_two(const std::string& config, double dt, int steps, double ratio) {
  const double coarse = largest_drift(config, dt, steps);
  const double middle = largest_drift(config, dt / 2, 2 * steps);
  const double fine = largest_drift(config, dt / 4, 4 * steps);
  EXPECT_GT(coarse / middle, ratio) << coarse << " " << middle;
  EXPECT_GT(middle / fine, ratio) << middle << " " << fine;
  return fine;
}

/// Twelve molecules of both components in a cluster at the middle of a box of 40, 2 apart,
/// all within the cutoff of 19 of each other: no pair crosses the cutoff, whose energy jumps
/// would hide the integrator's error.
std::string cluster_xyz() {
  const double at[12][3] = {{18.0, 18.26, 18.13},  {19.95, 18.0, 18.39},  {21.9, 18.52, 18.0},
                            {18.26, 20.08, 18.26}, {20.21, 19.82, 18.0},  {22.16, 20.21, 18.52},
                            {18.13, 18.39, 20.21}, {20.08, 18.13, 20.08}, {22.03, 18.26, 20.34},
                            {18.39, 20.34, 19.95}, {20.34, 20.08, 20.47}, {22.29, 19.95, 20.08}};
  std::string text = "12\nLattice=\"40 0 0 0 40 0 0 0 40\" Properties=species:S:1:pos:R:3\n";
  for (int k = 0; k < 12; ++k)
    text += std::string(k % 2 ? "Q" : "D") + " " + std::to_string(at[k][0]) + " " +
            std::to_string(at[k][1]) + " " + std::to_string(at[k][2]) + "\n";
  return text;
}

TEST(RigidRuns, AClusterKeepsItsEnergyToSecondOrderInTheTimeStep) {
  TempDir dir;
  dir.write("cluster.xyz", cluster_xyz());
  const std::string config =
      kComponents + "  structure: {read: " + (dir.path() / "cluster.xyz").string() + "}\n" +
      "  velocities: {temperature: 0.5}\nforces:\n  - rigid_sites: {cutoff: 19.0, epsilon_rf: "
      "20.0}\nintegrator: {type: velocity_verlet, timestep: 0.002}\nrun: {steps: 0}\n" +
      "output:\n  thermo: {every: 10, file: thermo.csv}\n";
  // Two time units at 0.002, 0.001 and 0.0005: velocity Verlet with NO_SQUISH's rotation is
  // second order, so each halving divides the energy error by four (measured 4.5e-4, 1.13e-4,
  // 2.8e-5); a first-order slip anywhere (a torque applied in the wrong frame, a half kick
  // missed) gives 2 or less.
  const double fine = expect_order_two(config, 0.002, 1000, 3.5);
  EXPECT_LT(fine, 5e-5);
  EXPECT_GT(fine, 1e-7);  // the molecules interact and turn
}

TEST(RigidRuns, AQuadrupolarFluidKeepsItsEnergy) {
  // 500 linear 2CLJQ molecules at rho* = 0.5, T* = 1.5, cutoff 4 on the centres. The energy
  // jumps where pairs cross the cutoff (MarDyn's convention: the multipoles unshifted, each
  // Lennard-Jones site pair shifted at the centres' cutoff, the sites 0.25 off the centre), and
  // the integrator's error adds to that: measured 1.0e-4 at 0.002 and 5.1e-5 at 0.001 over one
  // time unit. The bound is the error at 0.001 with room for other seeds; the smaller step must
  // still do better.
  const std::string config = fluid("{Q: 500}", 5, 4.0, "{type: velocity_verlet, timestep: 0.001}",
                                   "rotational_temperature");
  const double coarse = largest_drift(config, 0.002, 500);
  const double fine = largest_drift(config, 0.001, 1000);
  EXPECT_GT(coarse / fine, 1.5) << coarse << " " << fine;
  EXPECT_LT(fine, 1e-4);
}

TEST(RigidRuns, LangevinHoldsTranslationAndRotationAtItsTemperature) {
  TempDir dir;
  dir.write("run.yaml",
            fluid("{Q: 250, D: 250}", 5, 3.0,
                  "{type: langevin, timestep: 0.002, temperature: 1.2, friction: 2.0}",
                  "translational_temperature, rotational_temperature, rotational_kinetic_energy"));
  const auto run = novamd::test::run_novamd("run run.yaml --steps 6000", dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  // The header says what runs: molecules, their term, their lists.
  for (const char* line : {"  molecules   500: Q 250, D 250\n",
                           "  force       rigid_sites: every site pair of the molecules whose "
                           "centres lie within 3 sigma; Lennard-Jones shifted at the cutoff\n",
                           "  neighbors   Verlet lists of the molecules' centres, skin "})
    EXPECT_NE(run.output.find(line), std::string::npos) << line << run.output;
  const auto rows = thermo_rows(dir.path() / "thermo.csv");
  std::vector<double> translation, rotation, total;
  for (std::size_t k = 100; k < rows.size(); ++k) {  // after 1,000 steps
    total.push_back(rows[k].at(2));
    translation.push_back(rows[k].at(kFirstExtra));
    rotation.push_back(rows[k].at(kFirstExtra + 1));
    // T_rot from K_rot over 250 x 2 + 250 x 3 rotational degrees of freedom.
    EXPECT_NEAR(rows[k].at(kFirstExtra + 1),
                2.0 * rows[k].at(kFirstExtra + 2) / (250.0 * 2 + 250.0 * 3), 1e-12);
  }
  // 500 rows, correlated over a few rows (1 / friction = 250 steps): the means of T* = 1.2 to
  // about 1% (each sample's spread is sqrt(2 / f) of it, 5% for 1,500 or 1,250 freedoms);
  // 3% leaves room, and a rotation thermostatted about the wrong axes or at I instead of
  // I x mvv would miss by far more (a linear molecule given three freedoms: a third).
  const double t_trans = novamd::test::mean_of(translation);
  const double t_rot = novamd::test::mean_of(rotation);
  EXPECT_NEAR(t_trans, 1.2, 0.036) << t_trans;
  EXPECT_NEAR(t_rot, 1.2, 0.036) << t_rot;
  EXPECT_NEAR(novamd::test::mean_of(total), 1.2, 0.036);
}

TEST(RigidRuns, BussiHoldsTheTemperatureOfBoth) {
  // The quadrupolar fluid: its cutoff's energy jumps are small. The Stockmayer molecules' dipoles
  // (1.5 at a cutoff of 3) jump by about mu^2 / r_c^3 = 0.08 where a pair crosses, which heats
  // the translation (the jump's missing impulse is radial) faster than the torques share it;
  // a global thermostat then leaves translation warmer than rotation (measured 1.30 and 1.10
  // at T* = 1.2). Langevin's per-particle friction holds each (the test above).
  TempDir dir;
  dir.write("run.yaml",
            fluid("{Q: 500}", 5, 3.0, "{type: bussi, timestep: 0.002, temperature: 1.2, tau: 0.2}",
                  "translational_temperature, rotational_temperature"));
  const auto run = novamd::test::run_novamd("run run.yaml --steps 4000", dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto rows = thermo_rows(dir.path() / "thermo.csv");
  std::vector<double> total, translation, rotation;
  for (std::size_t k = 100; k < rows.size(); ++k) {
    total.push_back(rows[k].at(2));
    translation.push_back(rows[k].at(kFirstExtra));
    rotation.push_back(rows[k].at(kFirstExtra + 1));
  }
  // The thermostat scales translation and rotation together; their exchange through the
  // torques shares the heat (equipartition), so each is at T* to the same 3%.
  EXPECT_NEAR(novamd::test::mean_of(total), 1.2, 0.036);
  EXPECT_NEAR(novamd::test::mean_of(translation), 1.2, 0.036);
  EXPECT_NEAR(novamd::test::mean_of(rotation), 1.2, 0.036);
}

TEST(RigidRuns, RestartContinuesBitwise) {
  novamd::test::expect_bitwise_restart_of_config(novamd::test::rigid_restart_config(), "cpu",
                                                 "double", 50);
}

// Rigid SPC/E water under PME: 108 molecules from the lattice at 100 K (which melts and heats
// them to some 900 K), cutoff 7 A with alpha from the tolerance 1e-6 (erfc(alpha r_c) ~ 1e-6: a
// pair crossing the centres' cutoff changes the energy by 1e-6 kcal/mol or less; the grid of 48
// points, coarser than the tolerance asks, changes the forces' accuracy, not the conservation:
// smooth PME's forces are its energy's gradient), 200 fs at 1, 0.5 and 0.25 fs. The largest
// error of the conserved energy (relative to its -61.3 kcal/mol) is the integrator's and falls
// about fourfold with each halving of the step: measured 3.2e-3 at 0.5 fs and 1.07e-3 at
// 0.25 fs, and more than three times 3.2e-3 at 1 fs (the last ratio nearing the floor of the
// cutoff's jumps). A reciprocal force or torque missing or inconsistent with the energy leaves an
// error that no smaller step removes.
TEST(RigidRuns, WaterUnderPmeKeepsItsEnergyToSecondOrderInTheTimeStep) {
  const std::string config =
      novamd::test::spce_water(3, 7.0, "method: pme, tolerance: 1.0e-6, grid: 48",
                               "{type: velocity_verlet, timestep: 1.0}", 100.0);
  EXPECT_LT(expect_order_two(config, 1.0, 200, 2.5), 2e-3);
}

// A restart of the same water under Langevin and c_rescale (the box and the PME mesh's spacing
// move, the grid stays): half a run, its checkpoint, the other half, bitwise.
TEST(RigidRuns, WaterUnderPmeRestartsBitwise) {
  novamd::test::expect_bitwise_restart_of_config(
      novamd::test::spce_water(3, 7.0, "method: pme, tolerance: 1.0e-5",
                               "{type: langevin, timestep: 1.0, temperature: 298.0, friction: "
                               "0.01}") +
          "  checkpoint: {file: run.chk}\n"
          "barostat: {type: c_rescale, pressure: 1 bar, period: 200.0, compressibility: 4.5e-5, "
          "every: 5}\nneighbors: {reorder_every: 7}\n",
      "cpu", "double", 50);
}

TEST(RigidRuns, TrajectoryCarriesOrientationsThatReadBackToTheSameEnergy) {
  // The components named N and O: ASE maps species to elements (a name it does not know is an
  // error there; OVITO takes any name).
  const auto as_elements = [](std::string text) {
    for (const auto& [from, to] :
         {std::pair<std::string, std::string>{"name: Q", "name: N"}, {"name: D", "name: O"}})
      text.replace(text.find(from), from.size(), to);
    return text;
  };
  TempDir dir;
  dir.write("run.yaml", as_elements(fluid("{N: 128, O: 128}", 4, 3.0,
                                          "{type: velocity_verlet, timestep: 0.002}", "") +
                                    "  trajectory: {file: traj.xyz, every: 50}\n"));
  auto run = novamd::test::run_novamd("run run.yaml --steps 50", dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::string text = novamd::test::read_text(dir.path() / "traj.xyz");
  EXPECT_NE(text.find("Orientation:R:4:angular_momentum:R:3:torque:R:3"), std::string::npos);
  // The first frame (step 0) read back with its orientations gives the energy of step 0 (the
  // positions and quaternions written to 10 digits: 1e-8 of it). A quaternion written in another
  // order than it is read (OVITO's x y z w) turns every molecule: the energy would change by
  // far more.
  const double potential = thermo_rows(dir.path() / "thermo.csv").front().at(kPotential);
  dir.write("again.yaml", as_elements(kComponents) +
                              "  structure: {read: traj.xyz}\nforces:\n  - rigid_sites: {cutoff: "
                              "3.0}\nintegrator: {type: velocity_verlet, timestep: 0.002}\n"
                              "run: {steps: 0}\noutput:\n  thermo: {every: 10, file: again.csv}\n");
  run = novamd::test::run_novamd("run again.yaml", dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const double again = thermo_rows(dir.path() / "again.csv").front().at(kPotential);
  EXPECT_NEAR(again, potential, 1e-8 * std::abs(potential));
  // The orientations of the first frame are unit quaternions, not all alike.
  novamd::core::SpeciesTable species({{"N", 0.0, 1.0}, {"O", 0.0, 1.0}});
  const auto frame = novamd::io::read_xyz(dir.path() / "traj.xyz", species);
  ASSERT_TRUE(frame.particles.has(frame.particles.orientation));
  const auto q = frame.particles.orientation.get(0);
  EXPECT_NE(q.w, frame.particles.orientation.get(1).w);
  // ASE reads the same columns (tests/scripts/read_rigid_xyz_ase.py), the quaternion as x y z w.
  const std::string command = "'" + novamd::test::test_python() + "' -W ignore '" +
                              NOVAMD_SOURCE_DIR "/tests/scripts/read_rigid_xyz_ase.py' '" +
                              (dir.path() / "traj.xyz").string() + "' --first " +
                              fmt::format("{:.17g},{:.17g},{:.17g},{:.17g}", q.x, q.y, q.z, q.w);
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
}

TEST(RigidRuns, SiteTrajectoryHoldsEverySiteWhereItsMoleculeTurnedIt) {
  // For viewers that draw atoms (VMD): every site of each molecule, in molecule id order, beside
  // the centres' trajectory of the same run.
  TempDir dir;
  const std::string config =
      fluid("{Q: 54, D: 54}", 3, 2.5, "{type: velocity_verlet, timestep: 0.002}", "") +
      "  trajectory:\n    - {file: traj.xyz, every: 10}\n"
      "    - {file: sites.xyz, every: 10, sites: true}\n";
  dir.write("run.yaml", config);
  auto run = novamd::test::run_novamd("run run.yaml --steps 20", dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto parsed = novamd::io::parse_config(config, "run.yaml");
  const novamd::io::SiteFrames frames(parsed.system.components);
  const auto molecules = novamd::io::read_xyz(dir.path() / "traj.xyz", parsed.system.species);
  const auto sites = novamd::io::read_xyz(dir.path() / "sites.xyz", frames.species());
  const auto& m = molecules.particles;
  const auto& p = sites.particles;
  ASSERT_EQ(p.size(), 54u * 3 + 54u * 2);  // Q: two Lennard-Jones sites and a quadrupole
  EXPECT_EQ(frames.species()[p.type[0]].name, m.type[0] == 0 ? "Q_1" : "D_1");
  // Written to 10 digits (positions up to 6, orientations of unit size): 1e-8.
  std::size_t at = 0;
  for (std::size_t i = 0; i < m.size(); ++i) {
    const auto centre = m.position.get(i);
    if (m.type[i] == 0) {  // Q: its axis along body x (linear), sites 0.5 apart about the centre
      const auto a = p.position.get(at), b = p.position.get(at + 1), mid = p.position.get(at + 2);
      const auto axis = novamd::core::rotate(m.orientation.get(i), {1.0, 0.0, 0.0});
      const auto along = b - a;
      EXPECT_NEAR(std::sqrt(novamd::core::dot(along, along)), 0.5, 1e-8) << i;
      EXPECT_NEAR(std::abs(novamd::core::dot(along, axis)), 0.5, 1e-8) << i;
      for (const auto& d : {0.5 * (a + b) - centre, mid - centre})
        EXPECT_LT(std::sqrt(novamd::core::dot(d, d)), 1e-8) << i;
      at += 3;
    } else {  // D: the Lennard-Jones centre and the dipole at the centre of mass
      for (int k = 0; k < 2; ++k) {
        const auto d = p.position.get(at + k) - centre;
        EXPECT_LT(std::sqrt(novamd::core::dot(d, d)), 1e-8) << i;
      }
      at += 2;
    }
  }
  // MDAnalysis (whose XYZ reader follows VMD's) reads every frame's sites; the site names are no
  // elements, so the species column holds X and ASE finds the names in the name column.
  const std::string file = (dir.path() / "sites.xyz").string();
  const std::string command =
      "'" + novamd::test::test_python() + "' -W ignore -c \"import MDAnalysis as m, ase.io; " +
      "u = m.Universe('" + file +
      "', format='XYZ'); assert (len(u.atoms), len(u.trajectory)) == (270, 3); "
      "assert set(u.atoms.names) == {'X'}; a = ase.io.read('" +
      file + "'); assert sorted(set(a.arrays['name'])) == ['D_1', 'D_2', 'Q_1', 'Q_2', 'Q_3']\"";
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  // Sites need rigid molecules and an XYZ file of positions.
  dir.write("dcd.yaml",
            fluid("{Q: 54, D: 54}", 3, 2.5, "{type: velocity_verlet, timestep: 0.002}", "") +
                "  trajectory: {file: sites.dcd, every: 10, sites: true}\n");
  run = novamd::test::run_novamd("run dcd.yaml", dir.path());
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("written as extended XYZ only"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("dcd.yaml:"), std::string::npos) << run.output;  // the file named
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "sites.dcd"));
  dir.write("fields.yaml",
            fluid("{Q: 54, D: 54}", 3, 2.5, "{type: velocity_verlet, timestep: 0.002}", "") +
                "  trajectory: {file: v.xyz, every: 10, sites: true, fields: [position, "
                "velocity]}\n");
  run = novamd::test::run_novamd("run fields.yaml", dir.path());
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("with their positions only"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("trajectory.sites"), std::string::npos) << run.output;  // the key
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "v.xyz"));
  dir.write("atoms.yaml",
            "units: lj\nsystem:\n  species: [{name: A, mass: 1.0}]\n  structure: {generate: "
            "{lattice: fcc, cells: 3, counts: {A: 108}}}\n  density: 0.5\nforces:\n  - "
            "lennard_jones: {cutoff: "
            "2.5, pairs: [{types: [A, A], epsilon: 1.0, sigma: 1.0}]}\nintegrator: {type: "
            "velocity_verlet, timestep: 0.002}\nrun: {steps: 10}\noutput:\n  trajectory: {file: "
            "s.xyz, every: 10, sites: true}\n");
  run = novamd::test::run_novamd("run atoms.yaml", dir.path());
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("this system has none"), std::string::npos) << run.output;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "s.xyz"));
}

TEST(RigidRuns, ComponentsBecomeTheSpecies) {
  const auto config = novamd::io::parse_config(
      fluid("{Q: 16, D: 16}", 2, 3.0, "{type: velocity_verlet, timestep: 0.002}", ""), "c.yaml");
  ASSERT_EQ(config.system.species.size(), 2);
  EXPECT_EQ(config.system.species[0].name, "Q");
  EXPECT_DOUBLE_EQ(config.system.species[0].mass, 1.0);
  EXPECT_DOUBLE_EQ(config.system.species[1].mass, 1.0);
  ASSERT_TRUE(config.rigid_sites.has_value());
  EXPECT_EQ(*config.rigid_sites->cutoff, 3.0);
  EXPECT_TRUE(config.rigid_sites->shift);  // MarDyn's default
  EXPECT_FALSE(config.rigid_sites->epsilon_rf.has_value());
  EXPECT_TRUE(config.forces.empty());
}

/// The message of the InputError that `text` raises (empty if none).
std::string error_of(const std::string& text) {
  try {
    novamd::io::parse_config(text, "bad.yaml");
  } catch (const novamd::core::InputError& e) {
    return e.what();
  }
  return "";
}

TEST(RigidRuns, BadConfigsNameTheKeyAndWhatIsExpected) {
  const std::string vv = "{type: velocity_verlet, timestep: 0.002}";
  const std::string good = fluid("{Q: 16, D: 16}", 2, 3.0, vv, "");
  const auto replaced = [&](const std::string& from, const std::string& to) {
    std::string text = good;
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return text.replace(at, from.size(), to);
  };
  struct Case {
    std::string text, expected;
  };
  const Case cases[] = {
      {replaced("  components:", "  species: [{name: A, mass: 1.0}]\n  components:"),
       "system.species cannot be given with system.components"},
      {replaced("  - rigid_sites: {cutoff: 3.000000}",
                "  - rigid_sites: {cutoff: 3.0}\n  - lennard_jones: {cutoff: 2.5}"),
       "a list of 2 force terms"},
      {replaced("  - rigid_sites: {cutoff: 3.000000}", "  - lennard_jones: {cutoff: 2.5}"),
       "'lennard_jones' with system.components"},
      {replaced("cutoff: 3.000000}", "cutoff: 3.0, mixing: [{components: [Q, X], xi: 0.9}]}"),
       "component 'X' is not declared in system.components"},
      {replaced("cutoff: 3.000000}", "cutoff: 3.0, mixing: [{components: [Q, Q], xi: 0.9}]}"),
       "a component with itself"},
      {replaced("cutoff: 3.000000}", "cutoff: 3.0, epsilon_rf: 0.5}"), "epsilon_rf"},
      {replaced("cutoff: 3.000000}", "cutoff: 3.0, shift: force}"), "shift"},
      {replaced("cutoff: 3.000000}", "cutoff: 3.0, coulomb: {method: pme}}"),
       "component Q has a point quadrupole, and Ewald and PME sum point charges only"},
      {replaced("cutoff: 3.000000}", "cutoff: 3.0, epsilon_rf: 10.0, coulomb: {method: ewald}}"),
       "epsilon_rf with coulomb (Ewald or PME)"},
      {replaced("cutoff: 3.000000}", "cutoff: 3.0, coulomb: {method: cut}}"),
       "coulomb.method: unknown value 'cut'; expected ewald or pme"},
      {replaced("cutoff: 3.000000}", "cutoff: 3.0, coulomb: {method: pme, kmax: 5}}"),
       "kmax is a parameter of method ewald"},
      {replaced(vv, "{type: leapfrog, timestep: 0.002}"), "leapfrog does not turn rigid molecules"},
      {replaced(vv, "{type: nose_hoover, timestep: 0.002, temperature: 1.0, tau: 0.1}") +
           "barostat: {type: mttk, pressure: 1.0, period: 1.0}\n",
       "mttk does not move rigid molecules"},
  };
  for (const auto& c : cases) {
    const std::string message = error_of(c.text);
    EXPECT_NE(message.find(c.expected), std::string::npos)
        << "expected '" << c.expected << "' in: " << message;
  }
  // rigid_sites needs components.
  const std::string atoms = R"(units: lj
system:
  species: [{name: A, mass: 1.0}]
  structure: {generate: {lattice: fcc, cells: 2, counts: {A: 32}}}
  density: 0.5
forces:
  - rigid_sites: {cutoff: 2.5}
integrator: {type: velocity_verlet, timestep: 0.002}
run: {steps: 0}
)";
  EXPECT_NE(error_of(atoms).find("rigid_sites without system.components"), std::string::npos)
      << error_of(atoms);
  // Ewald or PME with no charge to sum: the water without its charge sites.
  std::string uncharged = novamd::test::spce_water(3, 7.0, "method: pme",
                                                   "{type: "
                                                   "velocity_verlet, timestep: 1.0}");
  for (std::size_t at; (at = uncharged.find("        - {type: charge")) != std::string::npos;)
    uncharged.erase(at, uncharged.find('\n', at) + 1 - at);
  EXPECT_NE(error_of(uncharged).find("rigid_sites.coulomb: no component has a charge site"),
            std::string::npos)
      << error_of(uncharged);
  // An ls1-mardyn state file needs components.
  std::string ls1 = atoms;
  ls1.replace(ls1.find("generate: {lattice: fcc, cells: 2, counts: {A: 32}}"),
              std::string("generate: {lattice: fcc, cells: 2, counts: {A: 32}}").size(),
              "read: state.inp");
  EXPECT_NE(error_of(ls1).find("an ls1-mardyn phase-space file holds rigid molecules"),
            std::string::npos)
      << error_of(ls1);
}

TEST(RigidRuns, CommandExitsWithCode2AndWritesNothingForWhatCannotRun) {
  TempDir dir;
  // A cutoff beyond half the box (fcc 2 cells at rho* = 0.5: a box of 4), and the CUDA backend
  // where this machine has none (tests/cuda run the rigid molecules on a GPU).
  dir.write("wide.yaml", fluid("{Q: 16, D: 16}", 2, 2.5,
                               "{type: velocity_verlet, timestep: "
                               "0.002}",
                               ""));
  auto run = novamd::test::run_novamd("run wide.yaml", dir.path());
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("forces[0].rigid_sites.cutoff: 2.5 exceeds half the shortest box"),
            std::string::npos)
      << run.output;
  if (!novamd::backend::cuda_compiled_in() || !novamd::backend::query_cuda_device()) {
    run = novamd::test::run_novamd(
        "run wide.yaml --backend cuda --set forces.0.rigid_sites.cutoff=1.5", dir.path());
    EXPECT_EQ(run.exit_code, 2) << run.output;
    EXPECT_NE(run.output.find("backend: cuda was asked for"), std::string::npos) << run.output;
  }
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "thermo.csv"));
  // Bad structure files: a component beyond the config's in an ls1-mardyn file, an ls1 file
  // without system.box, and an extended XYZ Orientation that is no quaternion.
  const std::string head = kComponents +
                           "  structure: {read: state.inp}\n  box: 10.0\nforces:\n  - rigid_sites: "
                           "{cutoff: 3.0}\nintegrator: {type: velocity_verlet, timestep: 0.002}\n"
                           "run: {steps: 0}\noutput:\n  thermo: {every: 1, file: thermo.csv}\n";
  dir.write("state.inp",
            "NumberOfMolecules 2\nMoleculeFormat ICRVQD\n"
            "1 1 1 1 1 0 0 0 1 0 0 0 0 0 0\n2 3 4 4 4 0 0 0 1 0 0 0 0 0 0\n");
  dir.write("ls1.yaml", head);
  std::string no_box = head;
  no_box.erase(no_box.find("  box: 10.0\n"), std::string("  box: 10.0\n").size());
  no_box.replace(no_box.find("state.inp"), std::string("state.inp").size(), "good.inp");
  dir.write("good.inp",
            "NumberOfMolecules 1\nMoleculeFormat ICRVQD\n"
            "1 1 1 1 1 0 0 0 1 0 0 0 0 0 0\n");
  dir.write("no_box.yaml", no_box);
  dir.write("zero.xyz",
            "2\nLattice=\"10 0 0 0 10 0 0 0 10\" Properties=species:S:1:pos:R:3:Orientation:R:4\n"
            "Q 1 1 1 0 0 0 1\nD 4 4 4 0 0 0 0\n");
  std::string zero = head;
  zero.replace(zero.find("state.inp"), std::string("state.inp").size(), "zero.xyz");
  dir.write("zero.yaml", zero);
  const struct {
    const char* config;
    const char* expected;
  } files[] = {
      {"ls1.yaml", "state.inp: molecule 2 has component 3; expected 1 to 2"},
      {"no_box.yaml", "expected system.box (ls1-mardyn keeps it in its XML config"},
      {"zero.yaml", "zero.xyz:4: the Orientation (fields 5 to 8) is not a quaternion"},
  };
  for (const auto& f : files) {
    run = novamd::test::run_novamd(std::string("run ") + f.config, dir.path());
    EXPECT_EQ(run.exit_code, 2) << run.output;
    EXPECT_NE(run.output.find(f.expected), std::string::npos) << f.expected << "\n" << run.output;
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "thermo.csv")) << f.config;
  }
}

}  // namespace
