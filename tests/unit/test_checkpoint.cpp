// Checkpoints: a bitwise round trip of every field, atomic replacement, each refusal of
// read_checkpoint (the message names the file and says what is wrong), refusals of
// write_checkpoint, and config_differences. Content under a valid checksum and what a write
// may replace: test_checkpoint_safety.cpp.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "novamd/core/error.hpp"
#include "novamd/io/binary_io.hpp"
#include "novamd/io/checkpoint.hpp"
#include "support/checkpoint_sample.hpp"
#include "support/cli_runner.hpp"
#include "support/inputs.hpp"

namespace {

namespace fs = std::filesystem;
using novamd::core::RunError;
using novamd::core::Vec3Array;
using novamd::io::CheckpointData;
using novamd::io::config_differences;
using novamd::io::read_checkpoint;
using novamd::io::write_checkpoint;
using novamd::test::input_error_of;
using novamd::test::sample_checkpoint;
using novamd::test::TempDir;
using Bytes = std::vector<unsigned char>;

/// The documented layout (docs/file-formats.md): header size and field offsets.
constexpr std::size_t kHeaderSize = 24;
constexpr std::size_t kVersionOffset = 8;
constexpr std::size_t kMarkOffset = 12;

// --- Comparison --------------------------------------------------------------------------------

void expect_bitwise(const std::vector<double>& read, const std::vector<double>& written,
                    const std::string& what) {
  ASSERT_EQ(read.size(), written.size()) << what;
  if (read.empty()) return;
  EXPECT_EQ(std::memcmp(read.data(), written.data(), read.size() * sizeof(double)), 0) << what;
}

void expect_bitwise(const Vec3Array& read, const Vec3Array& written, const std::string& what) {
  expect_bitwise(read.x, written.x, what + ".x");
  expect_bitwise(read.y, written.y, what + ".y");
  expect_bitwise(read.z, written.z, what + ".z");
}

void expect_identical(const CheckpointData& read, const CheckpointData& written) {
  EXPECT_EQ(read.novamd_version, written.novamd_version);
  EXPECT_EQ(read.config_yaml, written.config_yaml);
  EXPECT_EQ(read.backend, written.backend);
  EXPECT_EQ(read.precision, written.precision);
  EXPECT_EQ(read.device, written.device);
  EXPECT_EQ(read.step, written.step);
  for (int d = 0; d < 3; ++d)
    EXPECT_EQ(std::bit_cast<std::uint64_t>(read.box[d]),
              std::bit_cast<std::uint64_t>(written.box[d]));
  const auto& p = read.state.particles;
  const auto& q = written.state.particles;
  expect_bitwise(p.position, q.position, "position");
  expect_bitwise(p.velocity, q.velocity, "velocity");
  expect_bitwise(p.force, q.force, "force");
  EXPECT_EQ(p.type, q.type);
  EXPECT_EQ(p.id, q.id);
  expect_bitwise(read.state.thermostat_heat, written.state.thermostat_heat, "thermostat_heat");
  EXPECT_EQ(read.state.force_evaluations, written.state.force_evaluations);
  EXPECT_EQ(read.state.reorders, written.state.reorders);
  ASSERT_EQ(read.state.terms.size(), written.state.terms.size());
  for (std::size_t k = 0; k < read.state.terms.size(); ++k) {
    EXPECT_EQ(read.state.terms[k].calls, written.state.terms[k].calls) << k;
    EXPECT_EQ(read.state.terms[k].builds, written.state.terms[k].builds) << k;
    expect_bitwise(read.state.terms[k].built_at, written.state.terms[k].built_at,
                   "built_at " + std::to_string(k));
    const auto& a = read.state.terms[k].built_box.length();
    const auto& b = written.state.terms[k].built_box.length();
    EXPECT_TRUE(a.x == b.x && a.y == b.y && a.z == b.z) << "built_box " << k;
  }
  EXPECT_EQ(read.integrator.type, written.integrator.type);
  expect_bitwise(read.integrator.values, written.integrator.values, "integrator.values");
  EXPECT_EQ(read.barostat.type, written.barostat.type);
  expect_bitwise(read.barostat.values, written.barostat.values, "barostat.values");
  EXPECT_EQ(read.time_axis.origin_step, written.time_axis.origin_step);
  expect_bitwise({read.time_axis.origin_time, read.time_axis.timestep},
                 {written.time_axis.origin_time, written.time_axis.timestep}, "time_axis");
}

// --- Files -------------------------------------------------------------------------------------

Bytes bytes_of(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_bytes(const fs::path& file, const Bytes& bytes) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

template <class T>
void patch(Bytes& bytes, std::size_t offset, T value) {
  std::memcpy(bytes.data() + offset, &value, sizeof value);
}

/// `bytes` with its trailing CRC-32 recomputed, as a writer of the edited content would store it.
void reseal(Bytes& bytes) {
  const std::size_t covered = bytes.size() - 4;
  patch(bytes, covered, novamd::io::crc32_of(std::span(bytes).first(covered)));
}

/// The offset of the particle count: after the header, five strings, the step and the box.
std::size_t particle_count_offset(const CheckpointData& data) {
  std::size_t offset = kHeaderSize;
  for (const std::string* s :
       {&data.novamd_version, &data.config_yaml, &data.backend, &data.precision, &data.device})
    offset += 8 + s->size();
  return offset + 8 + 3 * 8;
}

/// A checkpoint file in a temporary folder, its data and bytes, for the refusal tests.
class CheckpointFile : public ::testing::Test {
 protected:
  void SetUp() override {
    file_ = dir_.path() / "run.chk";
    data_ = sample_checkpoint(257, 11);
    write_checkpoint(file_, data_);
    bytes_ = bytes_of(file_);
    ASSERT_GT(bytes_.size(), 257u * 11 * 8);
  }
  /// The message of read_checkpoint on `bytes` written over the file; it must name the file.
  std::string error_reading(const Bytes& bytes) {
    write_bytes(file_, bytes);
    const std::string message = input_error_of([&] { read_checkpoint(file_); });
    EXPECT_EQ(message.rfind(file_.string() + ": ", 0), 0u) << message;
    return message;
  }

  TempDir dir_;
  fs::path file_;
  CheckpointData data_;
  Bytes bytes_;
};

std::string run_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const RunError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected core::RunError";
  return {};
}

#define EXPECT_HAS(text, part) EXPECT_NE((text).find(part), std::string::npos) << (text)

// --- Round trip and writing --------------------------------------------------------------------

TEST(Checkpoint, RoundTripIsBitwise) {
  TempDir dir;
  const CheckpointData data = sample_checkpoint(4099, 1);
  // The sample must hold the awkward values it is meant to test.
  const auto& x = data.state.particles.position.x;
  EXPECT_TRUE(
      std::any_of(x.begin(), x.end(), [](double v) { return v == 0.0 && std::signbit(v); }));
  EXPECT_TRUE(
      std::any_of(x.begin(), x.end(), [](double v) { return std::fpclassify(v) == FP_SUBNORMAL; }));
  ASSERT_TRUE(data.state.terms[1].built_at.x.empty());
  write_checkpoint(dir.path() / "run.chk", data);
  expect_identical(read_checkpoint(dir.path() / "run.chk"), data);
}

/// `bytes` without the first run of the bytes of `values` (which must occur).
void erase_first(Bytes& bytes, const std::vector<double>& values) {
  const auto* first = reinterpret_cast<const unsigned char*>(values.data());
  const auto* last = first + values.size() * sizeof(double);
  const auto at = std::search(bytes.begin(), bytes.end(), first, last);
  ASSERT_NE(at, bytes.end());
  bytes.erase(at, at + (last - first));
}

/// The version-4 bytes of `data` (written to `file`): version 5's less the time axis (the 24
/// bytes before the checksum), the version and the content length patched; the checksum is not
/// yet recomputed.
Bytes version_four_bytes(const fs::path& file, const CheckpointData& data) {
  write_checkpoint(file, data);
  Bytes bytes = bytes_of(file);
  bytes.erase(bytes.end() - 4 - 24, bytes.end() - 4);
  patch(bytes, kVersionOffset, std::uint32_t{4});
  patch(bytes, kHeaderSize - 8, std::uint64_t{bytes.size() - kHeaderSize - 4});
  return bytes;
}

/// `data` as an older file reads it: time is step x its config's integrator.timestep.
CheckpointData with_time_from_step_zero(CheckpointData data, double timestep) {
  data.time_axis = {0, 0.0, timestep};
  return data;
}

/// A sample whose config has integrator.timestep 0.005, as every run's has: the time of files
/// of version 4 and older.
CheckpointData sample_with_timestep(std::size_t n, std::uint64_t seed) {
  CheckpointData data = sample_checkpoint(n, seed);
  data.config_yaml = "units: lj\nintegrator: {type: langevin, timestep: 0.005}\n";
  return data;
}

/// The version-3 bytes of `data` (written to `file`): version 4's less each term's list-build
/// box (three edges whose values are distinctive: found by search), the version and the content
/// length patched; the checksum is not yet recomputed.
Bytes version_three_bytes(const fs::path& file, const CheckpointData& data) {
  Bytes bytes = version_four_bytes(file, data);
  for (const auto& term : data.state.terms) {
    const auto& L = term.built_box.length();
    erase_first(bytes, {L.x, L.y, L.z});
  }
  patch(bytes, kVersionOffset, std::uint32_t{3});
  patch(bytes, kHeaderSize - 8, std::uint64_t{bytes.size() - kHeaderSize - 4});
  return bytes;
}

/// `data` as a file without list-build boxes reads it: each term's lists built in its box.
CheckpointData with_lists_built_in_its_box(CheckpointData data) {
  for (auto& term : data.state.terms)
    term.built_box = novamd::core::Box(data.box[0], data.box[1], data.box[2]);
  return data;
}

// A version-3 file (no list-build boxes) reads with each term's lists built in the
// checkpoint's box.
TEST(Checkpoint, VersionThreeFilesReadWithListsBuiltInTheirBox) {
  TempDir dir;
  const CheckpointData data = sample_with_timestep(40, 9);
  const auto file = dir.path() / "v3.chk";
  Bytes bytes = version_three_bytes(file, data);
  reseal(bytes);
  write_bytes(file, bytes);
  expect_identical(read_checkpoint(file),
                   with_time_from_step_zero(with_lists_built_in_its_box(data), 0.005));
}

// A version-4 file (no time axis) reads with time step x its config's timestep; one whose config
// has none is refused by name.
TEST(Checkpoint, VersionFourFilesCountTimeFromStepZero) {
  TempDir dir;
  const CheckpointData data = sample_with_timestep(40, 5);
  const auto file = dir.path() / "v4.chk";
  Bytes bytes = version_four_bytes(file, data);
  reseal(bytes);
  write_bytes(file, bytes);
  expect_identical(read_checkpoint(file), with_time_from_step_zero(data, 0.005));
  Bytes without = version_four_bytes(file, sample_checkpoint(40, 5));  // no integrator key
  reseal(without);
  write_bytes(file, without);
  EXPECT_NE(input_error_of([&] { read_checkpoint(file); }).find("the timestep is 0"),
            std::string::npos);
}

// A version-2 file (no barostat section) reads as a run without a barostat: the bytes of
// version 3 with an empty barostat, less its two empty fields (16 bytes), the version and the
// content length patched and the checksum recomputed.
TEST(Checkpoint, VersionTwoFilesReadWithoutABarostat) {
  TempDir dir;
  CheckpointData data = sample_with_timestep(40, 7);
  data.barostat = {};
  const auto file = dir.path() / "v2.chk";
  Bytes bytes = version_three_bytes(file, data);
  bytes.erase(bytes.end() - 4 - 16, bytes.end() - 4);
  patch(bytes, kVersionOffset, std::uint32_t{2});
  patch(bytes, kHeaderSize - 8, std::uint64_t{bytes.size() - kHeaderSize - 4});
  reseal(bytes);
  write_bytes(file, bytes);
  const CheckpointData read = read_checkpoint(file);
  expect_identical(read, with_time_from_step_zero(with_lists_built_in_its_box(data), 0.005));
  EXPECT_TRUE(read.barostat.type.empty());
}

TEST(Checkpoint, EmptyStateRoundTrips) {
  TempDir dir;
  CheckpointData data;  // no particles, no terms, empty strings
  data.box = {1.0, 2.0, 3.0};
  data.time_axis.timestep = 1.0;
  write_checkpoint(dir.path() / "empty.chk", data);
  expect_identical(read_checkpoint(dir.path() / "empty.chk"), data);
}

TEST(Checkpoint, WriteLeavesNoTemporary) {
  TempDir dir;
  write_checkpoint(dir.path() / "run.chk", sample_checkpoint(100, 2));
  EXPECT_FALSE(fs::exists(dir.path() / "run.chk.tmp"));
  const auto entries = std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator());
  EXPECT_EQ(entries, 1);
}

TEST(Checkpoint, WriteReplacesAnExistingCheckpoint) {
  TempDir dir;
  const fs::path file = dir.path() / "run.chk";
  write_checkpoint(file, sample_checkpoint(300, 3));
  CheckpointData second = sample_checkpoint(120, 4);
  second.step = 2000;
  second.time_axis.origin_step = 1000;
  write_checkpoint(file, second);
  expect_identical(read_checkpoint(file), second);
  EXPECT_FALSE(fs::exists(dir.path() / "run.chk.tmp"));
}

TEST(Checkpoint, WriteRefusesInconsistentArrays) {
  TempDir dir;
  const fs::path file = dir.path() / "run.chk";
  CheckpointData data = sample_checkpoint(50, 5);
  data.state.particles.velocity.y.pop_back();
  EXPECT_HAS(run_error_of([&] { write_checkpoint(file, data); }),
             file.string() +
                 ": cannot write the checkpoint: the particle velocities (y) hold 49 "
                 "values for 50 particles");
  data = sample_checkpoint(50, 5);
  data.state.terms[0].built_at.z.resize(10);
  EXPECT_HAS(run_error_of([&] { write_checkpoint(file, data); }),
             "the list-build positions of force term 0 (z) hold 10 values for 50 particles");
  data = sample_checkpoint(50, 5);
  data.state.thermostat_heat.resize(51);
  EXPECT_HAS(run_error_of([&] { write_checkpoint(file, data); }), "the thermostat heat hold 51");
  EXPECT_FALSE(fs::exists(file));
  EXPECT_FALSE(fs::exists(dir.path() / "run.chk.tmp"));
}

TEST(Checkpoint, WriteFailureNamesTheFileAndTheSystemError) {
  TempDir dir;
  const fs::path file = dir.path() / "no_such_folder" / "run.chk";
  const std::string message =
      run_error_of([&] { write_checkpoint(file, sample_checkpoint(4, 6)); });
  EXPECT_EQ(message.rfind(file.string() + ": cannot write", 0), 0u) << message;
  EXPECT_HAS(message, "No such file or directory");
}

/// The names in `folder`, sorted.
std::vector<std::string> names_in(const fs::path& folder) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// A checkpoint replaces only a regular file: a folder at the path is refused and left as it was,
// with no temporary beside it (symbolic links and fifos: test_checkpoint_safety.cpp).
TEST(Checkpoint, WriteRefusesAFolderAtThePath) {
  TempDir dir;
  const fs::path file = dir.path() / "run.chk";
  fs::create_directories(file / "occupied");
  const std::string message =
      run_error_of([&] { write_checkpoint(file, sample_checkpoint(4, 6)); });
  EXPECT_HAS(message, file.string() + ": cannot write: the path is a folder");
  EXPECT_TRUE(fs::exists(file / "occupied"));
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"run.chk"});
}

// --- Refusals on reading -----------------------------------------------------------------------

TEST(Checkpoint, MissingOrUnreadableFile) {
  TempDir dir;
  const fs::path file = dir.path() / "absent.chk";
  EXPECT_EQ(input_error_of([&] { read_checkpoint(file); }),
            file.string() + ": cannot read (No such file or directory)");
  EXPECT_EQ(input_error_of([&] { read_checkpoint(dir.path()); }),
            dir.path().string() + ": cannot read (Is a directory)");
}

TEST_F(CheckpointFile, WrongMagic) {
  Bytes bytes = bytes_;
  bytes[7] = 'X';
  EXPECT_HAS(error_reading(bytes),
             "not a NovaMD checkpoint (the file does not start with NOVAMDCK)");
  const std::string yaml = "units: lj\nseed: 1\nsystem: {density: 0.8}\n";
  EXPECT_HAS(error_reading(Bytes(yaml.begin(), yaml.end())), "not a NovaMD checkpoint");
  EXPECT_HAS(error_reading(Bytes{'N', 'O', 'X'}), "not a NovaMD checkpoint");
}

// The version is checked before the checksum (a later version may checksum differently), so a
// patched version is refused for its version whether or not the CRC was recomputed.
TEST_F(CheckpointFile, FutureVersion) {
  Bytes bytes = bytes_;
  patch(bytes, kVersionOffset, std::uint32_t{7});
  EXPECT_EQ(error_reading(bytes),
            file_.string() + ": checkpoint format version 7; this novamd reads versions 1 to 5");
  reseal(bytes);
  EXPECT_HAS(error_reading(bytes),
             "checkpoint format version 7; this novamd reads versions 1 to 5");
}

TEST_F(CheckpointFile, ForeignByteOrder) {
  Bytes bytes = bytes_;
  std::reverse(bytes.begin() + kMarkOffset, bytes.begin() + kMarkOffset + 4);
  EXPECT_HAS(error_reading(bytes), "other byte order (big-endian)");
  patch(bytes, kMarkOffset, std::uint32_t{0xdeadbeef});
  EXPECT_HAS(error_reading(bytes), "corrupt header: byte-order mark 0xdeadbeef");
}

TEST_F(CheckpointFile, Truncated) {
  const std::size_t size = bytes_.size();
  const std::size_t positions = particle_count_offset(data_) + 8 + 8 + 100 * 8;
  for (const std::size_t length : {std::size_t{0}, std::size_t{5}, std::size_t{12}, std::size_t{20},
                                   std::size_t{27}, positions, size / 2, size - 4, size - 1}) {
    const std::string message = error_reading(Bytes(bytes_.begin(), bytes_.begin() + length));
    EXPECT_HAS(message, fmt::format("{}: truncated: {} bytes, ", file_.string(), length));
  }
  EXPECT_HAS(error_reading(Bytes(bytes_.begin(), bytes_.end() - 1)),
             fmt::format("truncated: {} bytes, the content needs {}", size - 1, size));
  EXPECT_HAS(error_reading({}), "truncated: 0 bytes, a checkpoint needs at least 28");
}

TEST_F(CheckpointFile, BytesAfterTheEnd) {
  Bytes bytes = bytes_;
  bytes.push_back(0);
  EXPECT_HAS(error_reading(bytes), "1 bytes after the checksum: the file is corrupt");
}

TEST_F(CheckpointFile, FlippedByteIsAChecksumMismatch) {
  Bytes bytes = bytes_;
  bytes[bytes.size() / 2] ^= 0x10;
  std::uint32_t stored = 0;
  std::memcpy(&stored, bytes.data() + bytes.size() - 4, 4);
  const std::string message = error_reading(bytes);
  EXPECT_HAS(message, fmt::format("checksum mismatch (stored 0x{:08x}, computed 0x", stored));
  EXPECT_HAS(message, "the file is corrupt");
}

// Counts that disagree with the content, under a valid checksum: the parser's own checks.
TEST_F(CheckpointFile, CorruptCountsUnderAValidChecksum) {
  const std::size_t count_at = particle_count_offset(data_);
  std::uint64_t count = 0;
  std::memcpy(&count, bytes_.data() + count_at, 8);
  ASSERT_EQ(count, 257u);  // the documented layout
  Bytes bytes = bytes_;
  patch(bytes, count_at, std::uint64_t{258});
  reseal(bytes);
  EXPECT_HAS(error_reading(bytes),
             "truncated or corrupt: the particle positions (x) hold 257 values for 258 particles");
  bytes = bytes_;
  // The length of the positions (x), after the field count (4 bytes), the name "position" (8 +
  // 8), its component count and value size (4 + 4).
  patch(bytes, count_at + 8 + 4 + 16 + 8, std::uint64_t{1} << 60);
  reseal(bytes);
  EXPECT_HAS(error_reading(bytes), "truncated or corrupt: the particle positions (x) claim");
  bytes = bytes_;
  patch(bytes, count_at, std::uint64_t{1} << 40);
  reseal(bytes);
  EXPECT_HAS(error_reading(bytes), "truncated or corrupt: a particle count of");
}

// Format 2's particle fields by name, under a valid checksum: an unknown name, a field stored
// twice, a field of the wrong shape are refused naming the file and the field.
TEST_F(CheckpointFile, FieldsOfFormatTwoAreCheckedByName) {
  const std::size_t count_at = particle_count_offset(data_);
  // After the count (8) and the field count (4): the first field's name, "position" (8 + 8),
  // then its component count (4); the second field, "velocity", starts after the three arrays
  // of 257 doubles (3 x (8 + 257 x 8)) and the value size (4).
  const std::size_t first_name = count_at + 8 + 4 + 8;
  const std::size_t first_components = first_name + 8;
  const std::size_t second_name = first_components + 4 + 4 + 3 * (8 + 257 * 8) + 8;
  const auto rename = [&](std::size_t at, const char* name) {
    Bytes bytes = bytes_;
    std::memcpy(bytes.data() + at, name, 8);
    reseal(bytes);
    return error_reading(bytes);
  };
  ASSERT_EQ(std::string(reinterpret_cast<const char*>(bytes_.data() + first_name), 8), "position");
  ASSERT_EQ(std::string(reinterpret_cast<const char*>(bytes_.data() + second_name), 8), "velocity");
  EXPECT_HAS(rename(first_name, "pozition"),
             file_.string() +
                 ": truncated or corrupt: a particle field named 'pozition', which "
                 "this novamd does not know");
  EXPECT_HAS(rename(second_name, "position"), "the particle positions are stored twice");
  Bytes bytes = bytes_;
  patch(bytes, first_components, std::uint32_t{2});
  reseal(bytes);
  EXPECT_HAS(error_reading(bytes),
             "the particle positions stored as 2 components of 8 bytes; expected 3 of 8");
}

// --- config_differences ------------------------------------------------------------------------

const std::string kConfig = R"(units: lj
seed: 1995
backend: cpu
precision: double
system:
  density: 1.2
  species:
    - {name: A, mass: 1.0}
    - {name: B, mass: 1.0}
  structure:
    generate: {lattice: fcc, cells: 8, fractions: {A: 0.8, B: 0.2}}
  velocities: {temperature: 1.0}
forces:
  - lennard_jones:
      pairs:
        - {types: [A, A], epsilon: 1.0, sigma: 1.0}
        - {types: [A, B], epsilon: 1.5, sigma: 0.8}
      cutoff: 2.5
      truncation: shift
neighbors: {method: auto, skin: 0.3}
integrator: {type: velocity_verlet, timestep: 0.003}
run: {steps: 2000}
output:
  thermo: {every: 100, file: thermo.csv}
)";

/// kConfig with the first `from` replaced by `to`.
std::string edited(const std::string& from, const std::string& to) {
  std::string text = kConfig;
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

using Lines = std::vector<std::string>;

TEST(CheckpointConfigDifferences, IdenticalConfigsGiveNoLines) {
  EXPECT_EQ(config_differences(kConfig, kConfig), Lines{});
}

TEST(CheckpointConfigDifferences, TheIntegratorItsTimestepTooMayChangeWithANote) {
  const std::string bussi = edited("{type: velocity_verlet, timestep: 0.003}",
                                   "{type: bussi, timestep: 0.004, temperature: 1.0, tau: 0.1}");
  Lines noted;
  EXPECT_EQ(config_differences(kConfig, bussi, &noted), Lines{});
  EXPECT_EQ(noted,
            (Lines{"integrator.tau: not set in the checkpoint, 0.1 in this run",
                   "integrator.temperature: not set in the checkpoint, 1.0 in this run",
                   "integrator.timestep: 0.003 in the checkpoint, 0.004 in this run",
                   "integrator.type: velocity_verlet in the checkpoint, bussi in this run"}));
  EXPECT_EQ(config_differences(kConfig, bussi).size(), 4u);  // without `noted`, every line
}

TEST(CheckpointConfigDifferences, ChangedNumber) {
  EXPECT_EQ(config_differences(kConfig, edited("cutoff: 2.5", "cutoff: 3.0")),
            Lines{"forces.0.lennard_jones.cutoff: 2.5 in the checkpoint, 3.0 in this run"});
}

TEST(CheckpointConfigDifferences, AddedAndRemovedKeys) {
  EXPECT_EQ(config_differences(kConfig, edited("skin: 0.3}", "skin: 0.3, check_every: 5}")),
            Lines{"neighbors.check_every: not set in the checkpoint, 5 in this run"});
  EXPECT_EQ(config_differences(kConfig, edited("{method: auto, skin: 0.3}", "{method: auto}")),
            Lines{"neighbors.skin: 0.3 in the checkpoint, not set in this run"});
}

TEST(CheckpointConfigDifferences, ChangedListElement) {
  EXPECT_EQ(config_differences(
                kConfig, edited("types: [A, B], epsilon: 1.5", "types: [B, A], epsilon: 1.5")),
            Lines{"forces.0.lennard_jones.pairs.1.types: [A, B] in the checkpoint, [B, A] in "
                  "this run"});
  EXPECT_EQ(config_differences(kConfig, edited("{name: B, mass: 1.0}", "{name: B, mass: 2.0}")),
            Lines{"system.species.1.mass: 1.0 in the checkpoint, 2.0 in this run"});
}

TEST(CheckpointConfigDifferences, NumbersCompareAsNumbers) {
  EXPECT_EQ(config_differences(kConfig, edited("cutoff: 2.5", "cutoff: 2.50")), Lines{});
  EXPECT_EQ(config_differences(kConfig, edited("seed: 1995", "seed: 1995.0")), Lines{});
  EXPECT_EQ(config_differences(kConfig, edited("sigma: 1.0}", "sigma: 1}")), Lines{});
  EXPECT_EQ(config_differences(kConfig, edited("units: lj", "units: nuclear")),
            Lines{"units: lj in the checkpoint, nuclear in this run"});
}

TEST(CheckpointConfigDifferences, KeysARestartMayChangeAreNotCompared) {
  std::string run = edited("run: {steps: 2000}", "run: {steps: 9000}");
  run = std::string(run).replace(run.find("every: 100"), 10, "every: 7");
  run = std::string(run).replace(run.find("backend: cpu"), 12, "backend: cuda");
  run = std::string(run).replace(run.find("precision: double"), 17, "precision: mixed");
  run = std::string(run).replace(run.find("cells: 8"), 8, "cells: 9");
  run = std::string(run).replace(run.find("temperature: 1.0"), 16, "temperature: 2.0");
  EXPECT_EQ(config_differences(kConfig, run), Lines{});
  // The pair-list layout changes only the order of the force sums; the skin is compared.
  EXPECT_EQ(config_differences(kConfig, edited("skin: 0.3}", "skin: 0.3, layout: clusters}")),
            Lines{});
  EXPECT_EQ(config_differences(kConfig, edited("skin: 0.3}", "skin: 0.4, layout: clusters}")),
            Lines{"neighbors.skin: 0.3 in the checkpoint, 0.4 in this run"});
  EXPECT_EQ(config_differences(kConfig, run + "unknown: 1\n"),
            Lines{"unknown: not set in the checkpoint, 1 in this run"});
}

TEST(CheckpointConfigDifferences, LinesAreSortedByKeyPath) {
  const std::string run =
      edited("seed: 1995", "seed: 2").replace(0, 9, "units: real") + "neighbors_extra: 1\n";
  const Lines lines = config_differences(kConfig, run);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "neighbors_extra: not set in the checkpoint, 1 in this run");
  EXPECT_EQ(lines[1], "seed: 1995 in the checkpoint, 2 in this run");
  EXPECT_EQ(lines[2], "units: lj in the checkpoint, real in this run");
}

TEST(CheckpointConfigDifferences, InvalidYamlIsAnInputError) {
  EXPECT_HAS(input_error_of([] { config_differences("a: [1, 2", kConfig); }),
             "the config stored in the checkpoint is not valid YAML");
}

}  // namespace
