// Barostats on molecules held by constraints (CPU backend): 343 rigid SPC/E waters (SETTLE,
// examples/water/make_water.py --per-edge 7) with PME, settled for 300 steps of Langevin at 300 K,
// then 500 steps at 1 fs under stochastic cell rescaling (anisotropic, Bussi's thermostat) and
// MTTK (Nose-Hoover chains), both moving the waters by their centres from the molecular pressure
// (backend/molecule_pressure.hpp), and the same 500 steps at constant volume.
//
// What the moves do to K + U + P0 V is booked in the conserved quantity (U's share from the
// molecular virial); the atomic virial there would book 2 K_inner / 3 per unit of ln V too much
// (K_inner: the waters' rotational energy), some 0.02 kcal/mol per A^3 of volume change here. So
// each run's conserved quantity follows the constant-volume run's (which drifts by itself, some
// 1 kcal/mol over these 500 steps, as the short settling leaves it) within 0.5 kcal/mol (0.16
// seen), while the box moves by over 150 A^3 (some 350 seen): an account off by the rotational
// share would stray by 3 kcal/mol or more.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "support/cli_runner.hpp"
#include "support/csv_rows.hpp"

namespace {

using novamd::test::TempDir;

const std::string kForces =
    "forces:\n"
    "  - lennard_jones: {cutoff: 9.0, tail_correction: true}\n"
    "  - coulomb: {method: pme, cutoff: 9.0, tolerance: 1.0e-5}\n"
    "constraints: {bonds: none, water: settle}\n";

std::string water(const std::string& data, const std::string& integrator) {
  return "units: real\nseed: 12\nsystem:\n  topology: {read: " + data +
         ", styles: {pair: lj_cut, bond: harmonic, angle: harmonic}}\n" + kForces +
         "integrator: " + integrator + "\n";
}

/// The conserved energy and volume of every 10th step of a 500-step run of `config`.
struct Series {
  std::vector<double> conserved, volume;
};

Series run_series(const TempDir& dir, const std::string& name, const std::string& config) {
  dir.write(name + ".yaml", config + "run: {steps: 500}\noutput:\n  thermo: {every: 10, file: " +
                                name + ".csv, columns: [volume]}\n");
  const auto run = novamd::test::run_novamd("run " + name + ".yaml --backend cpu", dir.path());
  EXPECT_EQ(run.exit_code, 0) << run.output;
  const auto lines = novamd::test::read_lines(dir.path() / (name + ".csv"));
  Series s;
  if (lines.empty()) return s;
  const auto header = lines.front();
  // conserved_energy and volume by their place in the header
  std::vector<std::string> names;
  std::stringstream in(header);
  for (std::string cell; std::getline(in, cell, ',');) names.push_back(cell);
  const auto at = [&](const std::string& column) {
    return static_cast<std::size_t>(std::find(names.begin(), names.end(), column) - names.begin());
  };
  const std::size_t conserved = at("conserved_energy"), volume = at("volume");
  for (std::size_t k = 1; k < lines.size(); ++k) {
    const auto values = novamd::test::numbers_of(lines[k]);
    s.conserved.push_back(values.at(conserved));
    s.volume.push_back(values.at(volume));
  }
  return s;
}

TEST(MolecularBarostats, ConservedQuantitiesFollowTheConstantVolumeRun) {
  TempDir dir;
  const auto made = novamd::test::run_shell(
      "python3 " NOVAMD_SOURCE_DIR "/examples/water/make_water.py --per-edge 7 --out w.data",
      dir.path());
  ASSERT_EQ(made.exit_code, 0) << made.output;
  dir.write("settle.yaml",
            "units: real\nseed: 11\nsystem:\n  topology: {read: w.data, styles: {pair: lj_cut, "
            "bond: harmonic, angle: harmonic}}\n  velocities: {temperature: 300.0}\n" +
                kForces +
                "integrator: {type: langevin, timestep: 1.0, temperature: 300.0, friction: 0.05}\n"
                "run: {steps: 300}\noutput:\n  thermo: {every: 100, file: settle.csv}\n"
                "  data: {file: settled.data}\n");
  const auto settled = novamd::test::run_novamd("run settle.yaml --backend cpu", dir.path());
  ASSERT_EQ(settled.exit_code, 0) << settled.output;

  const std::string bussi = "{type: bussi, timestep: 1.0, temperature: 300.0, tau: 100}";
  const Series fixed = run_series(dir, "fixed", water("settled.data", bussi));
  const Series rescaled =
      run_series(dir, "rescaled",
                 water("settled.data", bussi) +
                     "barostat: {type: c_rescale, pressure: \"1 bar\", period: 100, every: 5, "
                     "coupling: anisotropic}\n");
  const Series mttk = run_series(
      dir, "mttk",
      water("settled.data", "{type: nose_hoover, timestep: 1.0, temperature: 300.0, tau: 100}") +
          "barostat: {type: mttk, pressure: \"1 bar\", period: 300}\n");
  ASSERT_EQ(fixed.conserved.size(), 51u);
  for (const auto* run : {&rescaled, &mttk}) {
    ASSERT_EQ(run->conserved.size(), fixed.conserved.size());
    const auto [small, large] = std::minmax_element(run->volume.begin(), run->volume.end());
    EXPECT_GT(*large - *small, 150.0);  // A^3: the box moved
    double largest = 0.0;
    for (std::size_t k = 0; k < fixed.conserved.size(); ++k)
      largest = std::max(largest, std::abs((run->conserved[k] - run->conserved[0]) -
                                           (fixed.conserved[k] - fixed.conserved[0])));
    EXPECT_LT(largest, 0.5) << (run == &mttk ? "mttk" : "c_rescale");  // kcal/mol
  }
}

}  // namespace
