// The Simulation library object (app/simulation.hpp): built from a config and overrides as the
// command line builds it, it writes the same files, bitwise; a restart with nothing left to do
// gives no simulation; bad input is an InputError before any file is written.

#include <gtest/gtest.h>

#include <filesystem>

#include "novamd/app/simulation.hpp"
#include "novamd/core/error.hpp"
#include "novamd/io/checkpoint.hpp"
#include "novamd/parallel/mpi_session.hpp"
#include "support/cli_runner.hpp"
#include "support/restart_check.hpp"

namespace {

using novamd::app::Simulation;
using novamd::app::SimulationInput;
using novamd::test::TempDir;

const std::string kBussi = "{type: bussi, timestep: 0.005, temperature: 1.2, tau: 0.5}";

/// The input of `dir`'s config, its outputs in `dir`, `steps` long.
SimulationInput input_in(const TempDir& dir, int steps) {
  return {dir.path() / "config.yaml",
          {{"run.steps", std::to_string(steps)},
           {"output.thermo.file", (dir.path() / "thermo.csv").string()},
           {"output.checkpoint.file", (dir.path() / "run.chk").string()}},
          std::nullopt};
}

TEST(Simulation, RunsAConfigExactlyAsTheCommandLineDoes) {
  TempDir cli, library;
  cli.write("config.yaml", novamd::test::restart_config(kBussi));
  library.write("config.yaml", novamd::test::restart_config(kBussi));
  const auto r = novamd::test::run_novamd("run config.yaml --steps 30", cli.path());
  ASSERT_EQ(r.exit_code, 0) << r.output;

  const novamd::parallel::MpiSession session;
  const auto sim = Simulation::create(input_in(library, 30), session);
  ASSERT_NE(sim, nullptr);
  EXPECT_EQ(sim->first_step(), 0);
  EXPECT_EQ(sim->backend().size(), 864u);  // 6^3 fcc cells of 4
  const auto result = sim->run();
  EXPECT_EQ(result.last_step, 30);
  EXPECT_EQ(result.thermo_rows, 4);  // steps 0, 10, 20, 30

  EXPECT_EQ(novamd::test::file_text(library.path() / "thermo.csv"),
            novamd::test::file_text(cli.path() / "thermo.csv"));
  const auto a = novamd::io::read_checkpoint(library.path() / "run.chk");
  const auto b = novamd::io::read_checkpoint(cli.path() / "run.chk");
  EXPECT_TRUE(novamd::test::bitwise_equal(a.state.particles.position.x,
                                          b.state.particles.position.x));
  EXPECT_TRUE(novamd::test::bitwise_equal(a.state.particles.velocity.z,
                                          b.state.particles.velocity.z));
}

TEST(Simulation, ARestartWithNothingLeftToDoGivesNoSimulation) {
  TempDir dir;
  dir.write("config.yaml", novamd::test::restart_config(kBussi));
  const novamd::parallel::MpiSession session;
  Simulation::create(input_in(dir, 20), session)->run();
  auto input = input_in(dir, 20);
  input.restart = dir.path() / "run.chk";
  EXPECT_EQ(Simulation::create(input, session), nullptr);
  input.overrides[0].value = "30";  // run.steps: 10 more
  const auto more = Simulation::create(input, session);
  ASSERT_NE(more, nullptr);
  EXPECT_EQ(more->first_step(), 20);
  EXPECT_EQ(more->run().last_step, 30);
}

TEST(Simulation, BadInputThrowsBeforeAnyFileIsWritten) {
  TempDir dir;
  dir.write("config.yaml", novamd::test::restart_config(kBussi) + "unknown_key: 1\n");
  const novamd::parallel::MpiSession session;
  EXPECT_THROW(Simulation::create(input_in(dir, 20), session), novamd::core::InputError);
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "thermo.csv"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "run.chk"));
}

}  // namespace
