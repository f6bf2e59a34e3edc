#pragma once
// The restart check shared by the CPU and CUDA suites: a run of 2N steps straight, and a run of
// N steps whose checkpoint a second run continues for N more, must end in bitwise the same
// state. Runs go through `novamd run` in this process (app::run_command), so the whole path is
// tested: config comparison, checkpoint file, restored lists, appended thermo file.

#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "novamd/app/run_command.hpp"
#include "novamd/io/checkpoint.hpp"
#include "support/cli_runner.hpp"
#include "support/example_systems.hpp"

namespace novamd::test {

/// An LJ liquid of 864 atoms on Verlet lists, sorted along the Morton curve every 7 force
/// evaluations (so that a restart falls between sorts and between list builds); `integrator`
/// is the YAML map of the integrator.
inline std::string restart_config(const std::string& integrator) {
  return R"(units: lj
seed: 11
system:
  density: 0.8442
  species: [{name: A, mass: 1.0}]
  structure: {generate: {lattice: fcc, cells: 6, fractions: {A: 1.0}}}
  velocities: {temperature: 1.4}
forces:
  - lennard_jones: {pairs: [{types: [A, A], epsilon: 1.0, sigma: 1.0}], cutoff: 2.5, truncation: shift}
neighbors: {method: neighbor_list, skin: 0.3, reorder_every: 7}
integrator: )" +
         integrator + R"(
run: {steps: 100}
output:
  thermo: {every: 10, file: thermo.csv}
  checkpoint: {file: run.chk}
)";
}

/// 1,000 flexible SPC/E waters (examples/water) with LJ and PME of one cutoff, so that both
/// run in one pass over one list (forces/pair_sum_terms.hpp), Langevin, sorted every 7
/// evaluations, thermo rows every 5 steps (the restart's step among them, as the thermo files
/// are compared).
inline std::string water_pme_restart_config() {
  return kWaterExampleSystem +
         "  velocities: {temperature: 300.0}\n"
         "seed: 3\n"
         "forces:\n"
         "  - lennard_jones: {cutoff: 9.0}\n"
         "  - coulomb: {method: pme, cutoff: 9.0, tolerance: 5e-4}\n"
         "neighbors: {skin: 0.4, reorder_every: 7}\n"
         "integrator: {type: langevin, timestep: 0.5, temperature: 300.0, friction: 0.01}\n"
         "run: {steps: 20}\n"
         "output:\n"
         "  thermo: {every: 5, file: thermo.csv}\n"
         "  checkpoint: {file: run.chk}\n";
}

/// 1,000 rigid SPC/E waters (SETTLE) with PME at 1 fs under `integrator` and `barostat` (YAML
/// flow maps; the molecules moved by their centres), sorted every 7 evaluations, thermo rows
/// every 5 steps.
inline std::string rigid_water_npt_config(const std::string& integrator,
                                          const std::string& barostat) {
  return kWaterExampleSystem +
         "  velocities: {temperature: 300.0}\n"
         "seed: 5\n"
         "forces:\n"
         "  - lennard_jones: {cutoff: 9.0, tail_correction: true}\n"
         "  - coulomb: {method: pme, cutoff: 9.0, tolerance: 5e-4}\n"
         "neighbors: {skin: 1.0, reorder_every: 7}\n"
         "constraints: {bonds: none, water: settle}\n"
         "integrator: " +
         integrator +
         "\n"
         "barostat: " +
         barostat +
         "\n"
         "run: {steps: 20}\n"
         "output:\n"
         "  thermo: {every: 5, file: thermo.csv}\n"
         "  checkpoint: {file: run.chk}\n";
}

/// The rigid waters under Langevin and the Monte Carlo barostat (`coupling`, a move every 3
/// steps).
inline std::string rigid_water_npt_restart_config(const std::string& coupling) {
  return rigid_water_npt_config(
      "{type: langevin, timestep: 1.0, temperature: 300.0, friction: 0.01}",
      "{type: monte_carlo, pressure: 1 bar, coupling: " + coupling + ", every: 3}");
}

/// The rigid waters under Bussi's thermostat and stochastic cell rescaling (`coupling`, a move
/// every 3 steps).
inline std::string rigid_water_rescale_config(const std::string& coupling) {
  return rigid_water_npt_config(
      "{type: bussi, timestep: 1.0, temperature: 300.0, tau: 100}",
      "{type: c_rescale, pressure: 1 bar, period: 200, coupling: " + coupling + ", every: 3}");
}

/// The rigid waters under MTTK (`coupling`) with Nose-Hoover chains.
inline std::string rigid_water_mttk_config(const std::string& coupling) {
  return rigid_water_npt_config(
      "{type: nose_hoover, timestep: 1.0, temperature: 300.0, tau: 100}",
      "{type: mttk, pressure: 1 bar, period: 500, coupling: " + coupling + "}");
}

inline std::string file_text(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

template <class T>
bool bitwise_equal(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

inline bool bitwise_equal(const core::Vec3Array& a, const core::Vec3Array& b) {
  return bitwise_equal(a.x, b.x) && bitwise_equal(a.y, b.y) && bitwise_equal(a.z, b.z);
}

/// Runs `novamd run` in `dir` (config.yaml there), with --steps and optionally --restart.
inline void run_in(const TempDir& dir, const std::string& backend, const std::string& precision,
                   std::int64_t steps, bool restart) {
  const auto here = std::filesystem::current_path();
  std::filesystem::current_path(dir.path());
  app::RunOptions options;
  options.config = dir.path() / "config.yaml";
  options.overrides = {
      {"backend", backend}, {"precision", precision}, {"run.steps", std::to_string(steps)}};
  if (restart) options.restart = dir.path() / "run.chk";
  const int code = app::run_command(options);
  std::filesystem::current_path(here);
  ASSERT_EQ(code, 0);
}

/// 2N steps straight against N + restart + N: the final checkpoints must agree bit for bit in
/// every particle array, counter, list and thermostat variable, and the thermo files must be
/// identical (the restarted one appended after step N).
/// `config`: the whole config (thermo.csv and run.chk outputs), sorting along the curve within
/// 2N evaluations.
inline void expect_bitwise_restart_of_config(const std::string& config, const std::string& backend,
                                             const std::string& precision, std::int64_t n) {
  TempDir straight, pieces;
  straight.write("config.yaml", config);
  pieces.write("config.yaml", config);
  run_in(straight, backend, precision, 2 * n, false);
  run_in(pieces, backend, precision, n, false);
  ASSERT_EQ(io::read_checkpoint(pieces.path() / "run.chk").step, n);
  run_in(pieces, backend, precision, 2 * n, true);

  const auto a = io::read_checkpoint(straight.path() / "run.chk");
  const auto b = io::read_checkpoint(pieces.path() / "run.chk");
  ASSERT_EQ(a.step, 2 * n);
  ASSERT_EQ(b.step, 2 * n);
  auto p = a.state.particles;
  auto q = b.state.particles;
  EXPECT_TRUE(bitwise_equal(p.id, q.id)) << "storage orders differ";
  core::for_each_field_array(  // every field, the optional ones (orientations, ...) as well
      [](const core::FieldInfo& info, int component, const auto& x, const auto& y) {
        EXPECT_TRUE(bitwise_equal(x, y))
            << info.description << " differ (component " << component << ")";
      },
      p, q);
  EXPECT_TRUE(bitwise_equal(a.state.thermostat_heat, b.state.thermostat_heat));
  EXPECT_EQ(a.state.force_evaluations, b.state.force_evaluations);
  EXPECT_GT(a.state.reorders, 0);  // the sorting is exercised
  ASSERT_EQ(a.state.terms.size(), b.state.terms.size());
  for (std::size_t t = 0; t < a.state.terms.size(); ++t) {
    EXPECT_EQ(a.state.terms[t].calls, b.state.terms[t].calls);
    EXPECT_EQ(a.state.terms[t].builds, b.state.terms[t].builds);
    EXPECT_TRUE(bitwise_equal(a.state.terms[t].built_at, b.state.terms[t].built_at));
    const auto& p = a.state.terms[t].built_box.length();
    const auto& q = b.state.terms[t].built_box.length();
    EXPECT_TRUE(p.x == q.x && p.y == q.y && p.z == q.z) << "list-build boxes differ";
  }
  EXPECT_EQ(a.integrator.type, b.integrator.type);
  EXPECT_TRUE(bitwise_equal(a.integrator.values, b.integrator.values));
  EXPECT_EQ(a.barostat.type, b.barostat.type);
  EXPECT_TRUE(bitwise_equal(a.barostat.values, b.barostat.values));
  EXPECT_EQ(a.box, b.box);
  EXPECT_EQ(file_text(straight.path() / "thermo.csv"), file_text(pieces.path() / "thermo.csv"));
}

/// The same for restart_config(integrator).
inline void expect_bitwise_restart(const std::string& integrator, const std::string& backend,
                                   const std::string& precision, std::int64_t n) {
  expect_bitwise_restart_of_config(restart_config(integrator), backend, precision, n);
}

/// The integrator maps the restart tests cover (every integrator and thermostat).
inline const std::vector<std::string>& restart_integrators() {
  static const std::vector<std::string> all{
      "{type: velocity_verlet, timestep: 0.005}", "{type: leapfrog, timestep: 0.005}",
      "{type: langevin, timestep: 0.005, temperature: 1.2, friction: 1.0}",
      "{type: nose_hoover, timestep: 0.005, temperature: 1.2, tau: 0.2, chain: 3}",
      "{type: bussi, timestep: 0.005, temperature: 1.2, tau: 0.2}"};
  return all;
}

/// "langevin" for "{type: langevin, ...}": a test-name suffix.
inline std::string integrator_name(const std::string& map) {
  const auto start = map.find("type: ") + 6;
  return map.substr(start, map.find(',') - start);
}

}  // namespace novamd::test
