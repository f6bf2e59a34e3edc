// Bad output settings end the run before anything is written or truncated (exit 2); outputs
// that are the same file, or that another running novamd writes, are refused; a restart checks
// every file it continues before it cuts any; signals are caught before anything is written;
// a write that fails names the system's reason.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "support/cli_runner.hpp"

namespace {

namespace fs = std::filesystem;
using novamd::test::read_text;
using novamd::test::run_novamd;
using novamd::test::run_shell;
using novamd::test::TempDir;

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const std::string kLjNvt = "run " NOVAMD_SOURCE_DIR
                           "/examples/lj_nvt.yaml --backend cpu "
                           "--set system.structure.generate.cells=3";

/// Only these files (and the config) are in the folder.
void expect_only(const TempDir& dir, std::set<std::string> names) {
  for (const auto& entry : fs::directory_iterator(dir.path()))
    EXPECT_TRUE(names.erase(entry.path().filename().string()))
        << "unexpected file " << entry.path().filename();
  EXPECT_TRUE(names.empty()) << "missing " << *names.begin();
}

TEST(OutputSafety, MissingTrajectoryFolderTruncatesAndCreatesNothing) {
  TempDir dir;
  dir.write("lj_nvt_thermo.csv", "an earlier run's rows\n");
  const auto r =
      run_novamd(kLjNvt + " --steps 10 --set output.trajectory.1.file=nodir/x.h5md", dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(has(r.output,
                  "output.trajectory[1].file: nodir/x.h5md: the folder 'nodir' does not "
                  "exist"))
      << r.output;
  EXPECT_EQ(read_text(dir.path() / "lj_nvt_thermo.csv"), "an earlier run's rows\n");
  expect_only(dir, {"lj_nvt_thermo.csv"});
}

TEST(OutputSafety, DcdIntervalPastItsRangeTruncatesAndCreatesNothing) {
  TempDir dir;
  dir.write("lj_nvt_thermo.csv", "an earlier run's rows\n");
  const auto r =
      run_novamd(kLjNvt + " --steps 10 --set output.trajectory.0.every=2147483648", dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(has(r.output, "output.trajectory[0].every")) << r.output;
  EXPECT_TRUE(has(r.output, "2147483647")) << r.output;
  EXPECT_EQ(read_text(dir.path() / "lj_nvt_thermo.csv"), "an earlier run's rows\n");
  expect_only(dir, {"lj_nvt_thermo.csv"});
}

TEST(OutputSafety, CheckpointAndAnalysisPathsAreCheckedBeforeStepZero) {
  TempDir dir;
  auto r = run_novamd(kLjNvt + " --steps 10 --set output.checkpoint.file=nodir/r.chk", dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(has(r.output, "output.checkpoint.file: nodir/r.chk: the folder")) << r.output;
  fs::create_directory(dir.path() / "g.csv");  // a folder where a file should go
  r = run_novamd(kLjNvt + " --steps 10 --set 'analysis={rdf: {every: 5, file: g.csv}}'",
                 dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(has(r.output, "analysis.rdf.file: g.csv: the path is a folder")) << r.output;
  expect_only(dir, {"g.csv"});
}

TEST(OutputSafety, OutputsThatAreOneFileAreRefused) {
  const struct {
    const char* overrides;
    const char* first;
    const char* second;
  } cases[] = {
      {"--set output.checkpoint.file=lj_nvt_thermo.csv", "output.thermo.file",
       "output.checkpoint.file"},
      {"--set output.trajectory.1.file=./lj_nvt.dcd --set output.trajectory.1.format=dcd "
       "--set 'output.trajectory.1.fields=[position]' --set output.trajectory.1.every=100",
       "output.trajectory[0].file", "output.trajectory[1].file"},
      {"--set 'analysis={rdf: {every: 5, file: lj_nvt_thermo.csv}}'", "output.thermo.file",
       "analysis.rdf.file"},
      {"--set 'analysis={rdf: {every: 5, file: a.csv}, msd: {every: 5, file: a.csv}}'",
       "analysis.rdf.file", "analysis.msd.file"},
  };
  for (const auto& c : cases) {
    TempDir dir;
    const auto r = run_novamd(kLjNvt + " --steps 10 " + c.overrides, dir.path());
    EXPECT_EQ(r.exit_code, 2) << c.overrides << "\n" << r.output;
    EXPECT_TRUE(has(r.output, std::string(c.first) + " and " + c.second + " are the same file"))
        << c.overrides << "\n"
        << r.output;
    expect_only(dir, {});
  }
}

TEST(OutputSafety, AnOutputOverTheConfigIsRefused) {
  TempDir dir;
  const auto config = dir.write("c.yaml", read_text(NOVAMD_SOURCE_DIR "/examples/lj_nvt.yaml"));
  const auto r = run_novamd("run c.yaml --steps 1 --set output.thermo.file=c.yaml", dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(has(r.output, "output.thermo.file: 'c.yaml' is the config file")) << r.output;
  EXPECT_EQ(read_text(config), read_text(NOVAMD_SOURCE_DIR "/examples/lj_nvt.yaml"));
}

TEST(OutputSafety, CheckpointSymlinkIsRefusedAndLeftAlone) {
  TempDir dir;
  dir.write("elsewhere.chk", "not to be replaced");
  fs::create_symlink("elsewhere.chk", dir.path() / "lj_nvt.chk");
  const auto r = run_novamd(kLjNvt + " --steps 10", dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(has(r.output, "output.checkpoint.file: lj_nvt.chk: the path is a symbolic link"))
      << r.output;
  EXPECT_TRUE(fs::is_symlink(dir.path() / "lj_nvt.chk"));
  EXPECT_EQ(read_text(dir.path() / "elsewhere.chk"), "not to be replaced");
}

TEST(OutputSafety, SecondRunOnTheSameOutputsIsRefused) {
  TempDir dir;
  // The first run goes on for a while in the background; its lock files appear before step 0.
  run_shell(
      "(" NOVAMD_BINARY " " + kLjNvt + " --steps 100000000 > first.log 2>&1 & echo $! > first.pid)",
      dir.path());
  const fs::path lock = dir.path() / ".lj_nvt_thermo.csv.lock";
  for (int i = 0; i < 600 && !fs::exists(dir.path() / "lj_nvt_thermo.csv"); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_TRUE(fs::exists(lock)) << read_text(dir.path() / "first.log");
  const auto second = run_novamd(kLjNvt + " --steps 10", dir.path());
  run_shell("kill -KILL $(cat first.pid)", dir.path());
  EXPECT_EQ(second.exit_code, 2) << second.output;
  EXPECT_TRUE(has(second.output, "another novamd run (process ")) << second.output;
  EXPECT_TRUE(has(second.output, "is writing this file")) << second.output;
  // A lock left by a killed run blocks nothing: the kernel released it with the process.
  for (int i = 0; i < 100 && run_shell("kill -0 $(cat first.pid)", dir.path()).exit_code == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const auto third = run_novamd(kLjNvt + " --steps 2", dir.path());
  EXPECT_EQ(third.exit_code, 0) << third.output;
  EXPECT_FALSE(fs::exists(lock));  // removed at the end of the run
}

TEST(OutputSafety, RestartChecksEveryFileItContinuesBeforeCuttingAny) {
  TempDir dir;
  const std::string config = R"(units: lj
system:
  density: 0.8442
  species: [{name: Ar, mass: 1}]
  structure: {generate: {lattice: fcc, cells: 3, fractions: {Ar: 1}}}
  velocities: {temperature: 1.0}
forces:
  - lennard_jones: {pairs: [{types: [Ar, Ar], epsilon: 1, sigma: 1}], cutoff: 2.5}
integrator: {type: velocity_verlet, timestep: 0.005}
run: {steps: 40}
output:
  thermo: {every: 10, file: thermo.csv}
  trajectory:
    - {every: 10, file: t.xyz}
    - {every: 10, file: t.dcd}
  checkpoint: {every: 20, file: run.chk}
)";
  dir.write("config.yaml", config);
  ASSERT_EQ(run_novamd("run config.yaml --backend cpu", dir.path()).exit_code, 0);
  // Back to step 20 by hand: the checkpoint at 40 is replaced by the one at 20.
  ASSERT_EQ(
      run_novamd("run config.yaml --backend cpu --steps 20 --set output.thermo.file=t2.csv "
                 "--set output.trajectory.0.file=t2.xyz --set output.trajectory.1.file=t2.dcd",
                 dir.path())
          .exit_code,
      0);
  // The DCD loses its last two frames (steps 30 and 40) and a frame the restart needs (20).
  const auto dcd = dir.path() / "t.dcd";
  const auto thermo_before = read_text(dir.path() / "thermo.csv");
  const auto xyz_before = read_text(dir.path() / "t.xyz");
  const std::uintmax_t frame_bytes = 4 * 14 + 3 * (4 * 108 + 8);  // unit cell + x, y, z records
  fs::resize_file(dcd, fs::file_size(dcd) - 3 * frame_bytes);
  const auto dcd_before = read_text(dcd);
  const auto r =
      run_novamd("run config.yaml --backend cpu --steps 60 --restart run.chk", dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(has(r.output, "t.dcd: cannot continue this DCD file")) << r.output;
  EXPECT_TRUE(has(r.output, "cut short")) << r.output;
  EXPECT_EQ(read_text(dir.path() / "thermo.csv"), thermo_before);
  EXPECT_EQ(read_text(dir.path() / "t.xyz"), xyz_before);
  EXPECT_EQ(read_text(dcd), dcd_before);
}

/// Whether process `pid` waits in open() for the other end of a named pipe (Linux: its wait
/// channel, or else its system call, openat, as /proc tells).
bool waits_in_fifo_open(const std::string& pid) {
  const std::string wchan = read_text("/proc/" + pid + "/wchan");
  const std::string syscall = read_text("/proc/" + pid + "/syscall");
  return wchan == "wait_for_partner" || syscall.rfind("257 ", 0) == 0;
}

TEST(OutputSafety, SignalDuringSetUpStopsCleanlyAtTheFirstStep) {
  // The config comes through a named pipe: novamd waits in its open() until we write. A SIGTERM
  // then used to kill it outright (handlers came after the files were opened); now it stops at
  // the first step boundary with a checkpoint. The signal goes once novamd waits in that open()
  // (on a loaded machine its start may take longer than any fixed pause), and the pipe is opened
  // read-write, which never blocks: a novamd gone early fails the test instead of hanging it.
  TempDir dir;
  ASSERT_EQ(::mkfifo((dir.path() / "pipe.yaml").c_str(), 0600), 0);
  run_shell("(" NOVAMD_BINARY
            " run pipe.yaml --backend cpu > run.log 2>&1 & echo $! > pid; "
            "wait $!; echo $? > code) > /dev/null 2>&1 &",
            dir.path());
  for (int i = 0; i < 500 && read_text(dir.path() / "pid").empty(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::string pid = read_text(dir.path() / "pid");
  while (!pid.empty() && pid.back() == '\n') pid.pop_back();
  ASSERT_FALSE(pid.empty());
  for (int i = 0; i < 1000 && !waits_in_fifo_open(pid); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_TRUE(waits_in_fifo_open(pid)) << "novamd did not reach its open() in 10 s";
  run_shell("kill -TERM " + pid, dir.path());
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  {
    const std::string config = read_text(NOVAMD_SOURCE_DIR "/examples/lj_liquid.yaml");
    const int fd = ::open((dir.path() / "pipe.yaml").c_str(), O_RDWR);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::write(fd, config.data(), config.size()), static_cast<ssize_t>(config.size()));
    for (int i = 0; i < 500 && !fs::exists(dir.path() / "code"); ++i) {
      int unread = 0;  // keep our end open until novamd has read the config
      if (::ioctl(fd, FIONREAD, &unread) == 0 && unread == 0) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ::close(fd);
  }
  for (int i = 0; i < 600 && !fs::exists(dir.path() / "code"); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const std::string log = read_text(dir.path() / "run.log");
  EXPECT_EQ(read_text(dir.path() / "code"), "0\n") << log;
  EXPECT_TRUE(has(log, "Received SIGTERM at step 1: wrote checkpoint run.chk")) << log;
  EXPECT_TRUE(fs::exists(dir.path() / "run.chk"));
}

TEST(OutputSafety, FailedWritesNameTheReason) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "SKIPPED: no /dev/full";
  TempDir dir;
  auto r = run_novamd(kLjNvt + " --steps 2 --set output.thermo.file=/dev/full", dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(has(r.output, "/dev/full: writing the thermo file failed: No space left on device"))
      << r.output;
  r = run_novamd(kLjNvt +
                     " --steps 2 --set output.trajectory.0.file=/dev/full "
                     "--set output.trajectory.0.format=dcd",
                 dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(has(r.output, "No space left on device")) << r.output;
}

}  // namespace
