// Dynamics with held distances (`constraints`, CPU backend): the solvated LAMMPS peptide
// (examples/peptide) with its bonds to hydrogens under SHAKE and RATTLE and its TIP3P waters
// rigid under SETTLE conserves energy to second order in the time step under velocity Verlet
// (RATTLE is symplectic: a constraint force that is not the exact Lagrange multiplier would
// drift at first order), as do leapfrog, Langevin, Nose-Hoover and Bussi their conserved
// energies; a fresh run starts at exactly the temperature asked for over the
// degrees of freedom the constraints leave (3N - constraints - 3), and a constrained run repeats
// bit for bit from its checkpoint; bad input is refused with exit code 2 naming the key. From one
// constrained state, the peptide follows LAMMPS's fix rattle step for step.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "novamd/app/simulation.hpp"
#include "novamd/parallel/mpi_session.hpp"
#include "support/cli_runner.hpp"
#include "support/csv_rows.hpp"
#include "support/two_pass_operations.hpp"

namespace {

const std::string kHeld = " --set \"constraints={bonds: h_bonds, water: settle}\"";

/// The thermo rows of a CPU run of the peptide with `args` appended.
std::vector<std::string> peptide_rows(const std::string& args, novamd::test::TempDir& dir) {
  const auto result = novamd::test::run_novamd(
      fmt::format("run {}/examples/peptide/peptide.yaml --backend cpu --set "
                  "output.trajectory=[]{}",
                  NOVAMD_SOURCE_DIR, args),
      dir.path());
  EXPECT_EQ(result.exit_code, 0) << result.output;
  return novamd::test::read_lines(dir.path() / "thermo.csv");
}

/// Every bond held (each molecule's coupled: CCMA), and the waters rigid.
const std::string kAllBonds = " --set \"constraints={bonds: all_bonds, water: settle}\"";

/// The change of the conserved energy over 50 fs at time step dt, relative to its start;
/// `integrator`: another integrator's settings (the file's velocity Verlet where empty); `held`:
/// the constraints.
double relative_drift(double dt, const std::string& integrator = "",
                      const std::string& held = kHeld) {
  novamd::test::TempDir dir;
  const int steps = static_cast<int>(std::lround(50.0 / dt));
  const std::string other =
      integrator.empty()
          ? ""
          : fmt::format(" --set \"integrator={{{}, timestep: {}}}\"", integrator, dt);
  const auto lines = peptide_rows(
      fmt::format(" --steps {} --set integrator.timestep={} --set output.thermo.every={}{}{}",
                  steps, dt, steps, held, other),
      dir);
  if (lines.size() < 3) return NAN;
  const auto first = novamd::test::numbers_of(lines[1]), last = novamd::test::numbers_of(lines[2]);
  const int conserved = 7;  // the standard columns: step, time, T, K, U, E, P, conserved
  return (last[conserved] - first[conserved]) / std::abs(first[conserved]);
}

TEST(ConstrainedDynamics, PeptideConservesEnergyToSecondOrderInTheTimeStep) {
  // 50 fs at 1 and 0.5 fs with every bond to a hydrogen and every water held. Measured:
  // 1.48e-5 and 3.57e-6 (ratio 4.1).
  const double coarse = relative_drift(1.0), fine = relative_drift(0.5);
  EXPECT_LT(std::abs(fine), 1e-5) << "drift over 50 fs at 0.5 fs";
  const double ratio = coarse / fine;
  EXPECT_GT(ratio, 3.2) << coarse << " / " << fine;
  EXPECT_LT(ratio, 4.8) << coarse << " / " << fine;
}

TEST(ConstrainedDynamics, AllBondsConserveEnergyToSecondOrderInTheTimeStep) {
  // Every bond of the peptide held (CCMA over the molecule's coupled bonds), waters rigid, 50 fs
  // at 2 and 1 fs. Measured: 5.58e-5 and 1.27e-5 (ratio 4.4; bonds to hydrogens alone, 1.48e-5
  // at 1 fs).
  const double coarse = relative_drift(2.0, "", kAllBonds);
  const double fine = relative_drift(1.0, "", kAllBonds);
  EXPECT_LT(std::abs(fine), 2e-5) << "drift over 50 fs at 1 fs";
  const double ratio = coarse / fine;
  EXPECT_GT(ratio, 3.2) << coarse << " / " << fine;
  EXPECT_LT(ratio, 4.8) << coarse << " / " << fine;
}

/// 54 rigid LJ dimers: the 108 sites of a 3 x 3 x 3 fcc lattice at density 0.8 (LJ units),
/// paired along nearest-neighbour bonds (length a / sqrt 2), as a LAMMPS data file.
std::string dimer_data() {
  const double a = std::cbrt(4.0 / 0.8), length = 3 * a;
  const double basis[4][3] = {{0, 0, 0}, {0, 0.5, 0.5}, {0.5, 0, 0.5}, {0.5, 0.5, 0}};
  std::string atoms, bonds;
  int id = 0, bond = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k)
        for (int b = 0; b < 4; ++b) {
          ++id;
          atoms += fmt::format("{} {} 1 0.0 {:.10f} {:.10f} {:.10f}\n", id, (id + 1) / 2,
                               a * (i + basis[b][0]), a * (j + basis[b][1]), a * (k + basis[b][2]));
          if (b % 2 == 1) bonds += fmt::format("{} 1 {} {}\n", ++bond, id - 1, id);
        }
  return fmt::format(
      "54 rigid LJ dimers\n\n108 atoms\n54 bonds\n\n1 atom types\n1 bond types\n\n"
      "0 {0:.10f} xlo xhi\n0 {0:.10f} ylo yhi\n0 {0:.10f} zlo zhi\n\nMasses\n\n1 1.0\n\n"
      "Pair Coeffs\n\n1 1.0 1.0\n\nBond Coeffs\n\n1 100.0 {1:.12f}\n\nAtoms # full\n\n{2}"
      "\nBonds\n\n{3}",
      length, a / std::sqrt(2.0), atoms, bonds);
}

/// The kinetic energies of `integrator` on the 54 rigid dimers from `seed`, every 10 steps from
/// step 5,000 to 45,000.
std::vector<double> dimer_kinetic_energies(const std::string& integrator, int seed) {
  novamd::test::TempDir dir;
  std::ofstream(dir.path() / "dimers.data") << dimer_data();
  std::ofstream(dir.path() / "dimers.yaml")
      << "units: lj\nseed: " << seed
      << "\nsystem:\n"
         "  topology: {read: dimers.data, styles: {pair: lj_cut, bond: harmonic}}\n"
         "  velocities: {temperature: 1.0}\n"
         "forces:\n  - lennard_jones: {cutoff: 2.5, truncation: force_shift}\n"
         "constraints: {bonds: all_bonds, water: none, tolerance: 1.0e-10}\n"
         "integrator: {"
      << integrator
      << ", timestep: 0.004, temperature: 1.5}\n"
         "run: {steps: 45000}\noutput: {thermo: {every: 10}}\n";
  const auto result = novamd::test::run_novamd("run dimers.yaml --backend cpu", dir.path());
  EXPECT_EQ(result.exit_code, 0) << result.output;
  const auto lines = novamd::test::read_lines(dir.path() / "thermo.csv");
  EXPECT_EQ(lines.size(), 4502u);  // header, steps 0, 10, ..., 45000
  std::vector<double> kinetic;
  for (std::size_t r = 502; r < lines.size(); ++r)  // after step 5,000
    kinetic.push_back(novamd::test::numbers_of(lines[r])[3]);
  return kinetic;
}

// The canonical kinetic-energy test of the thermostats (test_thermostats.cpp) with 54 rigid
// dimers (every bond held, CCMA): the kinetic energy of f = 3N - 54 degrees of freedom (- 3 more
// where the thermostat keeps the momentum) is Gamma distributed, <K> = f kT / 2 and
// Var K = f (kT)^2 / 2, at kT = 1.5. From each of two seeds, 4,000 samples 10 steps (0.04 tau)
// apart after 5,000 steps, in 20 blocks; bounds as there: 4 standard errors of the 40 blocks plus
// 0.5% (mean) and 2% (variance). One run's variance strays further than its own blocks say
// (Langevin, 8 seeds: 0.84 to 1.17 of the canonical, blocks' error 0.03 to 0.08): the KE's slow
// part outlasts a block; two independent runs bound it. A thermostat that counted the
// constraints' freedom would be off by 54/270 = 20%.
TEST(ConstrainedDynamics, ThermostatsGiveTheCanonicalKineticEnergyOverTheFreedomLeft) {
  for (const auto& [integrator, dof] : {std::pair<std::string, double>{"type: langevin, "
                                                                       "friction: 1.0",
                                                                       3.0 * 108 - 54},
                                        {"type: nose_hoover, tau: 0.25", 3.0 * 108 - 54 - 3},
                                        {"type: bussi, tau: 0.25", 3.0 * 108 - 54 - 3}}) {
    SCOPED_TRACE(integrator);
    std::vector<std::vector<double>> runs;
    for (const int seed : {5, 6}) runs.push_back(dimer_kinetic_energies(integrator, seed));
    const double kT = 1.5, mean_expected = 0.5 * dof * kT, var_expected = 0.5 * dof * kT * kT;
    double overall = 0.0;
    std::size_t samples = 0;
    for (const auto& run : runs) {
      for (const double k : run) overall += k;
      samples += run.size();
    }
    ASSERT_GT(samples, 0u);
    overall /= double(samples);
    std::vector<double> means, squares;  // per block of each run
    for (const auto& run : runs) {
      const std::size_t blocks = 20, length = run.size() / blocks;
      for (std::size_t b = 0; b < blocks; ++b) {
        double mean = 0.0, square = 0.0;
        for (std::size_t k = b * length; k < (b + 1) * length; ++k) {
          mean += run[k] / double(length);
          square += (run[k] - overall) * (run[k] - overall) / double(length);
        }
        means.push_back(mean);
        squares.push_back(square);
      }
    }
    const auto mean_and_error = [&](const std::vector<double>& v) {
      double m = 0.0, s = 0.0;
      for (const double x : v) m += x / double(v.size());
      for (const double x : v) s += (x - m) * (x - m) / double(v.size() - 1);
      return std::pair{m, std::sqrt(s / double(v.size()))};
    };
    const auto [k_mean, k_error] = mean_and_error(means);
    const auto [k_var, var_error] = mean_and_error(squares);
    std::printf("%s: <K>/target %.4f +- %.4f, Var K/canonical %.4f +- %.4f\n", integrator.c_str(),
                k_mean / mean_expected, k_error / mean_expected, k_var / var_expected,
                var_error / var_expected);
    EXPECT_NEAR(k_mean / mean_expected, 1.0, 4 * k_error / mean_expected + 0.005);
    EXPECT_NEAR(k_var / var_expected, 1.0, 4 * var_error / var_expected + 0.02);
  }
}

TEST(ConstrainedDynamics, LammpsShakeBondTypesHoldTheBondsToHydrogens) {
  // in.peptide of the LAMMPS examples holds its bonds to hydrogens as `fix shake ... b 4 6 8 10
  // 12 14 18` (and its waters by angle type 31): listed so, the same clusters as h_bonds, and
  // the same run to the last digit.
  novamd::test::TempDir a, b;
  const std::string common = " --steps 20 --set output.thermo.every=10";
  const auto h_bonds = peptide_rows(common + kHeld, a);
  const auto listed = peptide_rows(
      common + " --set \"constraints={bonds: [4, 6, 8, 10, 12, 14, 18], water: settle}\"", b);
  ASSERT_EQ(listed.size(), 4u);  // header, steps 0, 10, 20
  EXPECT_EQ(listed, h_bonds);
}

TEST(ConstrainedDynamics, LangevinHeatKeepsItsConservedEnergy) {
  // BAOAB with the same constraints: the kinetic energy the O step's velocity condition removes
  // is the thermostat's heat, and nothing else is. A radial velocity that the drift's correction
  // left and the O step's condition removed would be counted as heat and drift the conserved
  // energy at first order in the time step: without the drift's own velocity condition, 4.0e-4
  // over 50 fs at 1 fs and 1.9e-4 at 0.5 fs. Measured with each drift constrained: 9.2e-6 (1 fs)
  // and -1.3e-6 (0.5 fs); with A O A constrained once (ThermostatInDrift), -3.8e-7 and -3.9e-6.
  // The noise differs with the time step, so the two do not scale as velocity Verlet's do.
  const std::string langevin = "type: langevin, temperature: 300, friction: 0.01";
  const double coarse = relative_drift(1.0, langevin), fine = relative_drift(0.5, langevin);
  std::printf("Langevin's conserved energy over 50 fs: %.3g at 1 fs, %.3g at 0.5 fs\n", coarse,
              fine);
  EXPECT_LT(std::abs(coarse), 3e-5) << "over 50 fs at 1 fs";
  EXPECT_LT(std::abs(fine), 1e-5) << "over 50 fs at 0.5 fs";
}

/// One Langevin step of the peptide (CPU, bonds to hydrogens and waters held) from its
/// constrained start at time step dt (fs): through the backend's own passes (`fused`: A O A with
/// the positions constrained once, ThermostatInDrift) or through StepOperations' defaults (each
/// drift constrained in turn, the O step's condition where it acts). The positions by id, and
/// the heat.
std::pair<novamd::core::ParticleData, double> langevin_step(double dt, bool fused) {
  novamd::test::TempDir dir;
  const novamd::app::SimulationInput input{
      NOVAMD_SOURCE_DIR "/examples/peptide/peptide.yaml",
      {{"backend", "cpu"},
       {"output.trajectory", "[]"},
       {"output.thermo.file", (dir.path() / "thermo.csv").string()},
       {"constraints", "{bonds: h_bonds, water: settle}"},
       {"integrator",
        fmt::format("{{type: langevin, timestep: {}, temperature: 300, friction: 0.01}}", dt)}},
      std::nullopt};
  const novamd::parallel::MpiSession session;
  const auto sim = novamd::app::Simulation::create(input, session);
  auto& backend = sim->backend();
  novamd::test::TwoPassOperations apart(backend);
  novamd::integrate::StepOperations& ops =
      fused ? static_cast<novamd::integrate::StepOperations&>(backend) : apart;
  backend.compute_forces(novamd::integrate::EnergyRequest::Compute);
  sim->integrator().step(ops, 1, novamd::integrate::EnergyRequest::Skip);
  const double heat = backend.langevin_heat();
  return {backend.particles_on_host(), heat};
}

TEST(ConstrainedDynamics, LangevinConstrainedOncePerStepStaysCloseToEachDriftConstrained) {
  // BAOAB's middle, A O A, with the positions constrained once after the second drift (one SHAKE
  // and SETTLE a step where there were two): from the same state and the same noise, one step
  // lands where constraining each drift lands, to a difference between dt^2.5 (the noise along
  // the constraints is taken back along their directions at the drift's start, not its middle:
  // O(dt) apart, on a displacement of O(dt^1.5)) and dt^3 (a second-order scheme's local error).
  // Measured on the peptide: 4.2e-4 A at 2 fs, 6.5e-5 at 1 fs, 1.0e-5 at 0.5 fs (6.6 and 6.2
  // times smaller at each halving; asserted above 5, dt^2.3), and the heats 0.57%, 0.22% and
  // 0.09% apart (asserted to fall by more than 2 at each halving).
  double position_gap[3], heat_gap[3];
  const double steps[3] = {2.0, 1.0, 0.5};
  for (int k = 0; k < 3; ++k) {
    const auto [once, once_heat] = langevin_step(steps[k], true);
    const auto [twice, twice_heat] = langevin_step(steps[k], false);
    position_gap[k] = 0.0;
    for (std::size_t i = 0; i < once.size(); ++i) {
      const auto d = once.position.get(i) - twice.position.get(i);
      position_gap[k] = std::max({position_gap[k], std::abs(d.x), std::abs(d.y), std::abs(d.z)});
    }
    ASSERT_NE(twice_heat, 0.0);
    heat_gap[k] = std::abs(once_heat / twice_heat - 1.0);
    std::printf("dt %.1f fs: largest position difference %.3g A, heats %.6g and %.6g\n", steps[k],
                position_gap[k], once_heat, twice_heat);
  }
  EXPECT_GT(position_gap[0], 0.0);  // the two schemes differ: the comparison compared something
  EXPECT_LT(position_gap[0], 1e-3);
  EXPECT_GT(position_gap[0] / position_gap[1], 5.0);
  EXPECT_GT(position_gap[1] / position_gap[2], 5.0);
  EXPECT_GT(heat_gap[0] / heat_gap[1], 2.0);
  EXPECT_GT(heat_gap[1] / heat_gap[2], 2.0);
}

TEST(ConstrainedDynamics, EveryIntegratorKeepsItsConservedEnergy) {
  // Leapfrog reports the mean of the half-step kinetic energies, off the on-step value by
  // O(dt^2): a larger constant, the same order. Measured: 4.1e-4 at 1 fs, 1.0e-4 at 0.5 fs
  // (ratio 4.0). Nose-Hoover and Bussi at 1 fs: 1.9e-5 and 2.1e-5.
  const double coarse = relative_drift(1.0, "type: leapfrog");
  const double fine = relative_drift(0.5, "type: leapfrog");
  EXPECT_GT(coarse / fine, 3.2) << coarse << " / " << fine;
  EXPECT_LT(coarse / fine, 4.8) << coarse << " / " << fine;
  EXPECT_LT(std::abs(relative_drift(1.0, "type: nose_hoover, temperature: 300, tau: 100")), 5e-5);
  EXPECT_LT(std::abs(relative_drift(1.0, "type: bussi, temperature: 300, tau: 100")), 5e-5);
}

TEST(ConstrainedDynamics, FreshRunStartsAtTheTemperatureAskedForOverTheFreedomLeft) {
  novamd::test::TempDir dir;
  const auto lines =
      peptide_rows(" --steps 0 --set system.velocities.temperature=310" + kHeld, dir);
  ASSERT_GE(lines.size(), 2u);
  const auto row = novamd::test::numbers_of(lines[1]);
  EXPECT_NEAR(row[2], 310.0, 1e-9);  // temperature over 3N - constraints - 3
  // Without constraints the same velocities would count 3N - 3 degrees of freedom; the kinetic
  // energy over the constrained count is lower by their share (2,004 atoms: 6,009 against
  // 6,009 - constraints).
  novamd::test::TempDir free_dir;
  const auto free_lines =
      peptide_rows(" --steps 0 --set system.velocities.temperature=310", free_dir);
  const auto free_row = novamd::test::numbers_of(free_lines[1]);
  EXPECT_LT(row[3], free_row[3]);  // kinetic energy
  // Every bond held: fewer degrees of freedom still, the temperature as exact.
  novamd::test::TempDir all_dir;
  const auto all_lines =
      peptide_rows(" --steps 0 --set system.velocities.temperature=310" + kAllBonds, all_dir);
  ASSERT_GE(all_lines.size(), 2u);
  const auto all_row = novamd::test::numbers_of(all_lines[1]);
  EXPECT_NEAR(all_row[2], 310.0, 1e-9);
  EXPECT_LT(all_row[3], row[3]);
}

/// A Langevin run of 20 steps at 2 fs with constraints `held`, whole and split at step 10:
/// the last rows, every column but the conserved energy's drift.
void expect_bitwise_restart(const std::string& held) {
  novamd::test::TempDir dir;
  const std::string common =
      " --set \"integrator={type: langevin, timestep: 2.0, temperature: 300, friction: 0.01}\""
      " --set output.thermo.every=10" +
      held;
  const auto whole = peptide_rows(" --steps 20" + common, dir);
  novamd::test::TempDir split;
  peptide_rows(" --steps 10 --set \"output.checkpoint={file: run.chk}\"" + common, split);
  const auto resumed = peptide_rows(" --steps 20 --restart run.chk" + common, split);
  ASSERT_FALSE(whole.empty());
  ASSERT_FALSE(resumed.empty());
  // Step 20, every column to the last digit but conserved_energy_drift (the peptide's last),
  // which each run counts from its own first step.
  const auto without_last = [](const std::string& row) { return row.substr(0, row.rfind(',')); };
  EXPECT_EQ(without_last(resumed.back()), without_last(whole.back()));
  EXPECT_EQ(resumed.back().substr(0, 3), "20,");
}

TEST(ConstrainedDynamics, RestartContinuesBitForBit) {
  expect_bitwise_restart(kHeld);      // clusters and waters
  expect_bitwise_restart(kAllBonds);  // the peptide's bonds coupled (CCMA), waters
}

// Steps nobody reads join their closing kick with the next step's opening one (one kick and one
// velocity condition between force evaluations: integrate::StepEnd): a run with a thermo row
// every step and one with a row every 20 reach the same step-20 state, up to rounding (the
// joined kick adds F/m dt once where the split one adds it in halves): every column within
// 1e-9 relative. Velocity Verlet and Langevin, bonds to hydrogens and rigid waters held.
TEST(ConstrainedDynamics, StepsNobodyReadsJoinTheirKicksToRounding) {
  for (const std::string integrator :
       {"",
        " --set \"integrator={type: langevin, timestep: 2.0, temperature: 300, "
        "friction: 0.01}\""}) {
    SCOPED_TRACE(integrator.empty() ? "velocity Verlet" : "Langevin");
    novamd::test::TempDir every_step, every_twenty;
    const std::string common = " --steps 20 --set integrator.timestep=2.0" + kHeld + integrator;
    const auto read = peptide_rows(common + " --set output.thermo.every=1", every_step);
    const auto joined = peptide_rows(common + " --set output.thermo.every=20", every_twenty);
    ASSERT_EQ(read.size(), 22u);
    ASSERT_EQ(joined.size(), 3u);
    const auto a = novamd::test::numbers_of(read.back()),
               b = novamd::test::numbers_of(joined.back());
    ASSERT_EQ(a.size(), b.size());
    EXPECT_EQ(a[0], 20.0);
    EXPECT_EQ(b[0], 20.0);
    // Columns 1 to 7 (time, T, K, U, E, P, conserved): the trajectory's; later ones count
    // from each run's own start.
    for (std::size_t c = 1; c < 8; ++c)
      EXPECT_NEAR(a[c], b[c], 1e-9 * std::max(1.0, std::abs(a[c]))) << "column " << c;
  }
}

TEST(ConstrainedDynamics, PeptideFollowsLammpsRattle) {
  // tests/data/lammps-peptide/data.peptide_held (the peptide with its bonds to hydrogens and its
  // waters held: NovaMD's projection of data.peptide) under velocity Verlet at 1 fs, LJ switched
  // 8-10 A and the Ewald sum at alpha 0.42 / A and 1e-10, 50 steps; LAMMPS's fix rattle on the
  // same state and model gave rattle_lammps.txt and rattle_positions.txt (`lmp -in in.rattle`
  // there). LAMMPS's real-space erfc is a polynomial (1e-7 absolute), which puts its potential
  // energy 0.0126 kcal/mol above NovaMD's at step 0 (ewald_erfc_effect.py); beyond that offset the
  // two trajectories agree. Measured: the potential energies' difference within 3.3e-4 kcal/mol
  // of its step-0 value, the kinetic energies within 4.1e-4 (both some 1e-7 of the energies),
  // every unwrapped position within 1.5e-5 A at step 50. Bounds: ten times those.
  novamd::test::TempDir dir;
  const std::string data = NOVAMD_SOURCE_DIR "/tests/data/lammps-peptide/";
  dir.write("held.yaml",
            "units: real\n"
            "system:\n"
            "  topology:\n"
            "    read: " +
                data +
                "data.peptide_held\n"
                "    styles: {pair: lj_charmm, bond: harmonic, angle: charmm, dihedral: charmm, "
                "improper: harmonic}\n"
                "forces:\n"
                "  - lennard_jones: {cutoff: 10.0, switch: 8.0}\n"
                "  - coulomb: {method: ewald, cutoff: 10.0, alpha: 0.42, tolerance: 1.0e-10}\n"
                "constraints: {bonds: h_bonds, water: settle, tolerance: 1.0e-10}\n"
                "integrator: {type: velocity_verlet, timestep: 1.0}\n"
                "run: {steps: 50}\n"
                "output:\n"
                "  thermo: {every: 10}\n"
                "  data: {file: final.data}\n");
  const auto result = novamd::test::run_novamd("run held.yaml --backend cpu", dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("1960 distances held (640 rigid waters)"), std::string::npos)
      << result.output;  // LAMMPS: 19 + 6 + 3 clusters (40 distances) and 640 frozen angles
  // Held constant: the 40 bonds to hydrogens, each water's two bonds and its angle, and the
  // Ewald corrections of the 1,960 held pairs.
  EXPECT_NE(result.output.find("; 3920 bonded terms held constant"), std::string::npos)
      << result.output;

  std::map<long, std::vector<double>> lammps;  // step: potential, kinetic, total energy
  for (const auto& line : novamd::test::read_lines(data + "rattle_lammps.txt")) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream in(line);
    long step;
    double u, k, e;
    if (in >> step >> u >> k >> e) lammps[step] = {u, k, e};
  }
  const auto rows = novamd::test::read_lines(dir.path() / "thermo.csv");
  ASSERT_EQ(rows.size(), 7u);  // the header and steps 0, 10, ..., 50
  double offset = NAN;
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const auto v = novamd::test::numbers_of(rows[r]);  // step, time, T, K, U, ...
    const auto& reference = lammps.at(std::lround(v[0]));
    if (std::isnan(offset)) offset = v[4] - reference[0];
    EXPECT_NEAR(v[4] - reference[0], offset, 3.3e-3) << "potential energy, step " << v[0];
    EXPECT_NEAR(v[3], reference[1], 4.1e-3) << "kinetic energy, step " << v[0];
  }
  EXPECT_NEAR(offset, -0.0126, 0.001);  // LAMMPS's erfc

  // Unwrapped positions at step 50: LAMMPS's dump (id xu yu zu after 9 header lines) against
  // NovaMD's data file (id mol type q x y z ix iy iz, box from 0).
  std::map<long, std::vector<double>> at;
  const auto dump = novamd::test::read_lines(data + "rattle_positions.txt");
  for (std::size_t k = 9; k < dump.size(); ++k) {
    std::istringstream in(dump[k]);
    long id;
    double x, y, z;
    if (in >> id >> x >> y >> z) at[id] = {x, y, z};
  }
  ASSERT_EQ(at.size(), 2004u);
  const double edge[3] = {27.371366000000009, 27.371366999999999, 27.371367000000003};
  const auto lines = novamd::test::read_lines(dir.path() / "final.data");
  std::size_t k = 0;
  while (k < lines.size() && lines[k].rfind("Atoms", 0) != 0) ++k;
  double worst = 0.0;
  int seen = 0;
  for (k += 2; k < lines.size() && !lines[k].empty(); ++k, ++seen) {
    std::istringstream in(lines[k]);
    long id, molecule, type, image[3];
    double q, x[3];
    in >> id >> molecule >> type >> q >> x[0] >> x[1] >> x[2] >> image[0] >> image[1] >> image[2];
    for (int c = 0; c < 3; ++c)
      worst = std::max(worst, std::abs(x[c] + image[c] * edge[c] - at.at(id)[c]));
  }
  EXPECT_EQ(seen, 2004);
  EXPECT_LT(worst, 1.5e-4) << "largest position difference, A";
}

TEST(ConstrainedDynamics, BadInputIsRefusedNamingTheKey) {
  novamd::test::TempDir dir;
  // Runs `example` with `constraints` set to `section`: exit code 2, `expected` in the message.
  const auto refused = [&](const char* example, const char* section, const char* expected) {
    const auto result = novamd::test::run_novamd(
        fmt::format("run {}/examples/{} --backend cpu --steps 1 --set \"constraints={}\"",
                    NOVAMD_SOURCE_DIR, example, section),
        dir.path());
    EXPECT_EQ(result.exit_code, 2) << result.output;
    EXPECT_NE(result.output.find(expected), std::string::npos) << result.output;
  };
  refused("peptide/peptide.yaml", "{tolerance: 0.5}", "constraints.tolerance");
  refused("lj_liquid.yaml", "{water: settle}", "system.topology");
  refused("peptide/peptide.yaml", "{bonds: [4, 99]}", "no bond has type 99");
  refused("peptide/peptide.yaml", "{bonds: []}", "an empty list of bond types");
  refused("peptide/peptide.yaml", "{bonds: [h_bonds]}", "constraints.bonds");
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));  // nothing written
}

}  // namespace
