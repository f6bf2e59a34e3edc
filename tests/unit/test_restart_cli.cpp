// Restarts through the command line: refusals of bad checkpoints, SIGTERM and walltime stops
// that leave a checkpoint which continues the run bitwise, and appended output files.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "novamd/io/checkpoint.hpp"
#include "support/cli_runner.hpp"
#include "support/restart_check.hpp"

extern char** environ;

namespace {

using novamd::test::CliResult;
using novamd::test::run_novamd;
using novamd::test::TempDir;

const std::string kLangevin = "{type: langevin, timestep: 0.005, temperature: 1.2, friction: 1.0}";

/// A finished 40-step run with its checkpoint in `dir`.
void checkpointed_run(const TempDir& dir) {
  dir.write("config.yaml", novamd::test::restart_config(kLangevin));
  const auto r = run_novamd("run config.yaml --steps 40", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  ASSERT_TRUE(std::filesystem::exists(dir.path() / "run.chk"));
}

std::string read_bytes(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::filesystem::path& file, const std::string& bytes) {
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
}

TEST(RestartCli, TruncatedCheckpointIsRefused) {
  TempDir dir;
  checkpointed_run(dir);
  const std::string bytes = read_bytes(dir.path() / "run.chk");
  write_bytes(dir.path() / "run.chk", bytes.substr(0, bytes.size() / 2));
  const auto r = run_novamd("run config.yaml --steps 80 --restart run.chk", dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("run.chk"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("truncated"), std::string::npos) << r.output;
}

TEST(RestartCli, FlippedByteIsRefused) {
  TempDir dir;
  checkpointed_run(dir);
  std::string bytes = read_bytes(dir.path() / "run.chk");
  bytes[bytes.size() / 2] ^= 0x10;
  write_bytes(dir.path() / "run.chk", bytes);
  const auto r = run_novamd("run config.yaml --steps 80 --restart run.chk", dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("checksum"), std::string::npos) << r.output;
}

TEST(RestartCli, DifferentConfigIsRefusedNamingEachDifference) {
  TempDir dir;
  checkpointed_run(dir);
  const auto r = run_novamd(
      "run config.yaml --steps 80 --restart run.chk --set seed=12 "
      "--set forces.0.lennard_jones.cutoff=2.4",
      dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("seed: 11 in the checkpoint, 12 in this run"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("forces.0.lennard_jones.cutoff: 2.5 in the checkpoint, 2.4 in this run"),
            std::string::npos)
      << r.output;
  // Keys a restart may change are not refused: more steps, other output files, the thermostat
  // (with a note).
  const auto ok = run_novamd(
      "run config.yaml --steps 60 --restart run.chk --set output.thermo.every=5", dir.path());
  EXPECT_EQ(ok.exit_code, 0) << ok.output;
  const auto warmer = run_novamd(
      "run config.yaml --steps 80 --restart run.chk --set integrator.temperature=1.3", dir.path());
  EXPECT_EQ(warmer.exit_code, 0) << warmer.output;
  EXPECT_NE(warmer.output.find("Note: the integrator changed (integrator.temperature: 1.2 in the "
                               "checkpoint, 1.3 in this run)"),
            std::string::npos)
      << warmer.output;
}

TEST(RestartCli, CheckpointAtOrPastTheLastStepHasNothingToDo) {
  TempDir dir;
  checkpointed_run(dir);
  const auto r = run_novamd("run config.yaml --steps 40 --restart run.chk", dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("nothing to do"), std::string::npos) << r.output;
}

TEST(RestartCli, MissingCheckpointIsAnInputError) {
  TempDir dir;
  dir.write("config.yaml", novamd::test::restart_config(kLangevin));
  const auto r = run_novamd("run config.yaml --restart nowhere.chk", dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("nowhere.chk"), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "thermo.csv"));  // nothing written
}

/// The run's checkpoint, edited by `edit` and written back with a valid checksum.
template <class Edit>
void craft_checkpoint(const TempDir& dir, Edit edit) {
  auto data = novamd::io::read_checkpoint(dir.path() / "run.chk");
  edit(data);
  novamd::io::write_checkpoint(dir.path() / "run.chk", data);
}

// Content a valid checksum does not make valid: refused before the first step (exit 2), naming
// the file and what is wrong, with nothing written.
TEST(RestartCli, CraftedCheckpointsAreRefused) {
  const struct {
    void (*edit)(novamd::io::CheckpointData&);
    const char* says;
  } cases[] = {
      {[](auto& d) { d.state.particles.id[3] = 1000000; },
       "particle id 1000000 at index 3 is out of range [0, 864)"},
      {[](auto& d) { d.state.particles.id[5] = d.state.particles.id[6]; }, "duplicate particle id"},
      {[](auto& d) { d.box[1] = 0.0; }, "the box edge (y) is 0"},
      {[](auto& d) {
         d.box = {9.0, 4.9, 9.0};
       },
       "the checkpoint's box 9 x 4.9 x 9 is too small for forces[0].lennard_jones.cutoff: 2.5"},
      {[](auto& d) { d.step = std::int64_t{1} << 62; }, "the step is 4611686018427387904"},
      {[](auto& d) { d.state.particles.position.x[9] = std::nan(""); },
       "the particle positions (x) hold nan at index 9"},
  };
  for (const auto& c : cases) {
    TempDir dir;
    checkpointed_run(dir);
    craft_checkpoint(dir, c.edit);
    std::filesystem::remove(dir.path() / "thermo.csv");
    const auto r = run_novamd("run config.yaml --steps 80 --restart run.chk", dir.path());
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("run.chk: "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(c.says), std::string::npos) << r.output;
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "thermo.csv")) << c.says;
  }
}

/// Starts `novamd ARGS...` in `dir` without waiting; returns its pid.
pid_t spawn_novamd(const std::filesystem::path& dir, std::vector<std::string> args,
                   const std::filesystem::path& log) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  posix_spawn_file_actions_addchdir_np(&actions, dir.c_str());
  args.insert(args.begin(), NOVAMD_BINARY);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int error = posix_spawn(&pid, NOVAMD_BINARY, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  return error == 0 ? pid : -1;
}

/// Waits (up to 60 s) until `file` has more than `lines` lines.
bool wait_for_lines(const std::filesystem::path& file, int lines) {
  for (int tries = 0; tries < 600; ++tries) {
    std::ifstream in(file);
    int count = 0;
    for (std::string line; std::getline(in, line);) ++count;
    if (count > lines) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

// SIGTERM in the middle of a long run: exit 0 with a message, a checkpoint at a step boundary,
// and a restart from it reaches the same state as a run that was never interrupted.
TEST(RestartCli, SigtermWritesACheckpointThatContinuesBitwise) {
  TempDir dir, straight;
  dir.write("config.yaml", novamd::test::restart_config(kLangevin));
  straight.write("config.yaml", novamd::test::restart_config(kLangevin));
  const pid_t pid = spawn_novamd(dir.path(), {"run", "config.yaml", "--steps", "100000000"},
                                 dir.path() / "log.txt");
  ASSERT_GT(pid, 0);
  ASSERT_TRUE(wait_for_lines(dir.path() / "thermo.csv", 4));  // past a few thermo rows
  ASSERT_EQ(kill(pid, SIGTERM), 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  const std::string log = novamd::test::file_text(dir.path() / "log.txt");
  ASSERT_TRUE(WIFEXITED(status)) << log;
  EXPECT_EQ(WEXITSTATUS(status), 0) << log;
  EXPECT_NE(log.find("Received SIGTERM at step"), std::string::npos) << log;
  EXPECT_NE(log.find("--restart run.chk"), std::string::npos) << log;

  const auto stopped = novamd::io::read_checkpoint(dir.path() / "run.chk");
  ASSERT_GT(stopped.step, 0);
  const std::string last = std::to_string(stopped.step + 25);
  const auto restarted =
      run_novamd("run config.yaml --steps " + last + " --restart run.chk", dir.path());
  ASSERT_EQ(restarted.exit_code, 0) << restarted.output;
  const auto whole = run_novamd("run config.yaml --steps " + last, straight.path());
  ASSERT_EQ(whole.exit_code, 0) << whole.output;
  const auto a = novamd::io::read_checkpoint(dir.path() / "run.chk");
  const auto b = novamd::io::read_checkpoint(straight.path() / "run.chk");
  EXPECT_TRUE(novamd::test::bitwise_equal(a.state.particles.position, b.state.particles.position));
  EXPECT_TRUE(novamd::test::bitwise_equal(a.state.particles.velocity, b.state.particles.velocity));
}

// run.walltime stops the run cleanly before the limit, with a checkpoint.
TEST(RestartCli, WalltimeStopsCleanlyWithACheckpoint) {
  TempDir dir;
  dir.write("config.yaml", novamd::test::restart_config(kLangevin));
  const auto start = std::chrono::steady_clock::now();
  const auto r =
      run_novamd("run config.yaml --steps 100000000 --set run.walltime=\"'00:00:03'\"", dir.path());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("Stopping before the wall-clock limit at step"), std::string::npos)
      << r.output;
  EXPECT_LT(seconds, 3.0 + 2.0);  // start-up (a second at most) plus the 3 s allowed
  const auto chk = novamd::io::read_checkpoint(dir.path() / "run.chk");
  EXPECT_GT(chk.step, 0);
  EXPECT_LT(chk.step, 100000000);
}

}  // namespace

namespace {

// One run writes extended XYZ, DCD and H5MD side by side; independent readers (MDAnalysis and
// h5py, in tests/scripts/compare_run_outputs.py) must find the XYZ's positions in the other
// two, to each format's precision.
TEST(TrajectoryFormats, OneRunWritesTheSamePositionsInEveryFormat) {
  TempDir dir;
  std::string config = novamd::test::restart_config(kLangevin);
  config += R"(  trajectory:
    - {every: 10, file: run.xyz}
    - {every: 10, file: run.dcd}
    - {every: 10, file: run.h5md, fields: [position, velocity]}
)";
  dir.write("config.yaml", config);
  const auto r = run_novamd("run config.yaml --steps 50", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string python =
      std::filesystem::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  const auto check = novamd::test::run_shell(
      python + " '" NOVAMD_SOURCE_DIR
               "/tests/scripts/compare_run_outputs.py' run.xyz run.dcd run.h5md",
      dir.path());
  EXPECT_EQ(check.exit_code, 0) << check.output;
}

}  // namespace
