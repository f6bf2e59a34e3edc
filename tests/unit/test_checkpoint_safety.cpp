// What a checkpoint holds beyond its checksum, and what writing one may
// replace. A crafted checkpoint with a valid CRC-32 is refused, naming the file
// and what is wrong, for ids that are not 0..N-1 once each, a box edge that is
// not a positive finite length, a step outside [0, 2^53], any value that is not
// finite and a negative counter. A checkpoint replaces only a regular file,
// through a temporary of a fresh name that it creates exclusively.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "novamd/core/error.hpp"
#include "novamd/io/checkpoint.hpp"
#include "support/checkpoint_sample.hpp"
#include "support/cli_runner.hpp"
#include "support/inputs.hpp"

namespace {

namespace fs = std::filesystem;
using novamd::core::RunError;
using novamd::io::CheckpointData;
using novamd::io::read_checkpoint;
using novamd::io::write_checkpoint;
using novamd::test::input_error_of;
using novamd::test::sample_checkpoint;
using novamd::test::TempDir;

#define EXPECT_HAS(text, part) EXPECT_NE((text).find(part), std::string::npos) << (text)

std::string run_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const RunError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected core::RunError";
  return {};
}

/// The names in `folder`, sorted.
std::vector<std::string> names_in(const fs::path& folder) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string text_of(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// --- Content under a valid checksum
// ------------------------------------------------------------

/// The message of read_checkpoint on `data`, written (with a valid checksum) to
/// a fresh file.
std::string content_error(const CheckpointData& data) {
  TempDir dir;
  const fs::path file = dir.path() / "crafted.chk";
  write_checkpoint(file, data);
  const std::string message = input_error_of([&] { read_checkpoint(file); });
  EXPECT_EQ(message.rfind(file.string() + ": invalid checkpoint: ", 0), 0u) << message;
  return message;
}

TEST(CheckpointContent, IdsMustBeEachOfZeroToNOnce) {
  CheckpointData data = sample_checkpoint(100, 21);
  data.state.particles.id[3] = 1000000;
  EXPECT_HAS(content_error(data), "particle id 1000000 at index 3 is out of range [0, 100)");
  data.state.particles.id[3] = -7;
  EXPECT_HAS(content_error(data), "particle id -7 at index 3 is out of range [0, 100)");
  data = sample_checkpoint(100, 21);
  auto& id = data.state.particles.id;
  const auto first = std::find(id.begin(), id.end(), 7) - id.begin();
  const auto second = std::find(id.begin(), id.end(), 8) - id.begin();
  id[second] = 7;
  EXPECT_HAS(content_error(data), fmt::format("duplicate particle id 7 at indices {} and {}",
                                              std::min(first, second), std::max(first, second)));
}

TEST(CheckpointContent, BoxEdgesMustBePositiveAndFinite) {
  for (const double edge : {0.0, -0.0, -5.0, std::numeric_limits<double>::infinity(),
                            std::numeric_limits<double>::quiet_NaN()}) {
    for (int d = 0; d < 3; ++d) {
      CheckpointData data = sample_checkpoint(10, 22);
      data.box[d] = edge;
      EXPECT_HAS(content_error(data), fmt::format("the box edge ({}) is {}; expected a positive, "
                                                  "finite length",
                                                  "xyz"[d], edge));
    }
  }
}

// Format 4's list-build box (a term's lists follow the box from it): finite and not negative
// (0: a term without lists).
TEST(CheckpointContent, ListBuildBoxEdgesMustBeFiniteAndNotNegative) {
  for (const double edge :
       {-2.5, std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
    CheckpointData data = sample_checkpoint(10, 24);
    data.state.terms[1].built_box = novamd::core::Box(9.5, edge, 7.5);
    EXPECT_HAS(content_error(data),
               fmt::format("the list-build box of force term 1 has an edge of {}", edge));
  }
}

// Format 5's time axis: its origin from step 0 to the checkpoint's step, its time finite and
// not negative, its timestep positive and finite.
TEST(CheckpointContent, TheTimeAxisMustLieInRange) {
  const double inf = std::numeric_limits<double>::infinity();
  const auto error = [](novamd::core::TimeAxis axis) {
    CheckpointData data = sample_checkpoint(10, 25);
    data.time_axis = axis;
    return content_error(data);
  };
  EXPECT_HAS(error({123456789012346, 1.0, 0.002}),
             "the time origin's step is 123456789012346; expected 0 to the step");
  EXPECT_HAS(error({-1, 1.0, 0.002}), "the time origin's step is -1");
  EXPECT_HAS(error({0, -1.0, 0.002}), "the time origin's time is -1; expected a finite time >= 0");
  EXPECT_HAS(error({0, inf, 0.002}), "the time origin's time is inf");
  EXPECT_HAS(error({0, 0.0, 0.0}), "the timestep is 0; expected a positive, finite time");
  EXPECT_HAS(error({0, 0.0, -inf}), "the timestep is -inf");
}

TEST(CheckpointContent, StepMustBeFromZeroTo2To53) {
  CheckpointData data = sample_checkpoint(10, 23);
  data.time_axis.origin_step = 0;
  for (const std::int64_t step :
       {std::int64_t{-1}, std::int64_t{1} << 62, (std::int64_t{1} << 53) + 1,
        std::numeric_limits<std::int64_t>::min()}) {
    data.step = step;
    EXPECT_HAS(content_error(data),
               fmt::format("the step is {}; expected 0 to 9007199254740992 (2^53)", step));
  }
  TempDir dir;
  for (const std::int64_t step : {std::int64_t{0}, std::int64_t{1} << 53}) {
    data.step = step;
    write_checkpoint(dir.path() / "ok.chk", data);
    EXPECT_EQ(read_checkpoint(dir.path() / "ok.chk").step, step);
  }
}

TEST(CheckpointContent, EveryValueMustBeFinite) {
  using Set = void (*)(CheckpointData&, double);
  const struct {
    Set set;  ///< sets value 3 of the field
    const char* what;
  } fields[] = {
      {[](CheckpointData& d, double v) { d.state.particles.position.x[3] = v; },
       "the particle positions (x)"},
      {[](CheckpointData& d, double v) { d.state.particles.position.z[3] = v; },
       "the particle positions (z)"},
      {[](CheckpointData& d, double v) { d.state.particles.velocity.y[3] = v; },
       "the particle velocities (y)"},
      {[](CheckpointData& d, double v) { d.state.particles.force.x[3] = v; },
       "the particle forces (x)"},
      {[](CheckpointData& d, double v) { d.state.thermostat_heat[3] = v; }, "the thermostat heat"},
      {[](CheckpointData& d, double v) { d.state.terms[0].built_at.y[3] = v; },
       "the list-build positions of force term 0 (y)"},
      {[](CheckpointData& d, double v) { d.integrator.values[3] = v; }, "the integrator state"},
  };
  for (const auto& [set, what] : fields) {
    for (const double bad :
         {std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::infinity()}) {
      CheckpointData data = sample_checkpoint(40, 24);
      set(data, bad);
      EXPECT_HAS(content_error(data),
                 fmt::format("{} hold {} at index 3; expected finite numbers", what, bad));
    }
  }
}

TEST(CheckpointContent, CountersMustNotBeNegative) {
  using Set = void (*)(CheckpointData&);
  const struct {
    Set set;  ///< sets the counter to -3
    const char* what;
  } counters[] = {
      {[](CheckpointData& d) { d.state.force_evaluations = -3; }, "the force-evaluation count"},
      {[](CheckpointData& d) { d.state.reorders = -3; }, "the reorder count"},
      {[](CheckpointData& d) { d.state.terms[0].calls = -3; },
       "the evaluation count of force term 0"},
      {[](CheckpointData& d) { d.state.terms[1].builds = -3; },
       "the list-build count of force term 1"},
  };
  for (const auto& [set, what] : counters) {
    CheckpointData data = sample_checkpoint(10, 25);
    set(data);
    EXPECT_HAS(content_error(data), fmt::format("{} is -3; expected a count >= 0", what));
  }
}

// --- What a write may replace
// ------------------------------------------------------------------

TEST(CheckpointWrite, RefusesASymlinkAndLeavesItAndItsTarget) {
  TempDir dir;
  const fs::path target = dir.path() / "precious.txt";
  std::ofstream(target) << "keep me";
  const fs::path file = dir.path() / "run.chk";
  fs::create_symlink(target, file);
  const std::string message =
      run_error_of([&] { write_checkpoint(file, sample_checkpoint(4, 6)); });
  EXPECT_HAS(message, file.string() + ": cannot write: the path is a symbolic link");
  EXPECT_TRUE(fs::is_symlink(file));
  EXPECT_EQ(fs::read_symlink(file), target);
  EXPECT_EQ(text_of(target), "keep me");
  EXPECT_EQ(names_in(dir.path()), (std::vector<std::string>{"precious.txt", "run.chk"}));
}

TEST(CheckpointWrite, RefusesAFifo) {
  TempDir dir;
  const fs::path file = dir.path() / "run.chk";
  ASSERT_EQ(::mkfifo(file.c_str(), 0600), 0);
  const std::string message =
      run_error_of([&] { write_checkpoint(file, sample_checkpoint(4, 6)); });
  EXPECT_HAS(message, file.string() + ": cannot write: the path is a named pipe (fifo)");
  EXPECT_TRUE(fs::is_fifo(fs::symlink_status(file)));
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"run.chk"});
}

// The temporary gets a fresh name, created exclusively: whatever lies at
// FILE.tmp (a file, a symbolic link to another file) is neither followed nor
// replaced.
TEST(CheckpointWrite, NeverTouchesAnExistingFileTmp) {
  TempDir dir;
  const fs::path file = dir.path() / "run.chk";
  const fs::path target = dir.path() / "precious.txt";
  std::ofstream(target) << "keep me";
  fs::create_symlink(target, dir.path() / "run.chk.tmp");
  const CheckpointData data = sample_checkpoint(50, 8);
  write_checkpoint(file, data);
  EXPECT_EQ(read_checkpoint(file).state.particles.id, data.state.particles.id);
  EXPECT_TRUE(fs::is_symlink(dir.path() / "run.chk.tmp"));
  EXPECT_EQ(text_of(target), "keep me");
  fs::remove(dir.path() / "run.chk.tmp");
  std::ofstream(dir.path() / "run.chk.tmp") << "someone else's";
  write_checkpoint(file, data);
  EXPECT_EQ(text_of(dir.path() / "run.chk.tmp"), "someone else's");
  EXPECT_EQ(names_in(dir.path()),
            (std::vector<std::string>{"precious.txt", "run.chk", "run.chk.tmp"}));
}

}  // namespace
