// Trajectory writers: DCD (header layout read back by a reader of our own, positions and boxes by
// MDAnalysis, resume, positions only), the extended XYZ adapter (all fields, resume), the unit
// strings of H5MD, and the format table of trajectory_files.hpp. H5MD files are tested in
// test_h5md_writer.cpp.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "novamd/core/error.hpp"
#include "novamd/io/dcd_writer.hpp"
#include "novamd/io/h5md_units.hpp"
#include "novamd/io/trajectory_files.hpp"
#include "novamd/io/xyz_trajectory.hpp"
#ifdef NOVAMD_HAVE_HDF5
#include "novamd/io/h5md_writer.hpp"
#endif
#include "support/cli_runner.hpp"
#include "support/inputs.hpp"
#include "support/trajectories.hpp"

namespace {

using novamd::core::InputError;
using novamd::core::RunError;
using novamd::io::DcdWriter;
using novamd::io::FieldSet;
using novamd::io::TrajectoryFormat;
using novamd::io::XyzTrajectoryWriter;
using novamd::io::XyzWriter;
using novamd::test::input_error_of;
using novamd::test::kTrajectoryParticles;
using novamd::test::quoted;
using novamd::test::read_trajectory;
using novamd::test::TempDir;
using novamd::test::trajectory_open;
using novamd::test::two_species;
using novamd::test::write_frames;

constexpr FieldSet kPositions{true, false, false};
constexpr FieldSet kAllFields{true, true, true};
const auto positions_only = [](int) { return kPositions; };

std::vector<unsigned char> bytes_of(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string text_of(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A reader of our own for the DCD header fields, little-endian, at the offsets of VMD's
// dcdplugin (file offset = 4 + offset in the 84-byte header record).
std::int32_t i32_at(const std::vector<unsigned char>& b, std::size_t at) {
  std::uint32_t u = 0;
  for (int k = 0; k < 4; ++k) u |= static_cast<std::uint32_t>(b.at(at + k)) << (8 * k);
  return static_cast<std::int32_t>(u);
}
float f32_at(const std::vector<unsigned char>& b, std::size_t at) {
  const std::uint32_t u = static_cast<std::uint32_t>(i32_at(b, at));
  float f = 0;
  std::memcpy(&f, &u, 4);
  return f;
}
double f64_at(const std::vector<unsigned char>& b, std::size_t at) {
  const std::uint64_t u = static_cast<std::uint32_t>(i32_at(b, at)) |
                          static_cast<std::uint64_t>(static_cast<std::uint32_t>(i32_at(b, at + 4)))
                              << 32;
  double d = 0;
  std::memcpy(&d, &u, 8);
  return d;
}
std::int32_t dcd_nset(const std::filesystem::path& file) {
  return i32_at(bytes_of(file), 8);
}

constexpr std::size_t kDcdHeaderBytes = 4 + 84 + 4 + 4 + 4 + 2 * 80 + 4 + 12;  // 2 title lines
constexpr std::size_t kDcdFrameBytes = 56 + 3 * (8 + 4 * kTrajectoryParticles);

TEST(DcdWriter, HeaderAndFirstFrameFollowTheCharmmLayout) {
  TempDir dir;
  const auto file = dir.path() / "t.dcd";
  const auto species = two_species();
  {
    DcdWriter writer(trajectory_open(file, kPositions, species, 200, 20));
    write_frames(writer, nullptr, species, 0, 4, 200, 20, positions_only);
  }
  const auto b = bytes_of(file);
  ASSERT_EQ(b.size(), kDcdHeaderBytes + 4 * kDcdFrameBytes);
  EXPECT_EQ(i32_at(b, 0), 84);
  EXPECT_EQ(std::string(b.begin() + 4, b.begin() + 8), "CORD");
  EXPECT_EQ(i32_at(b, 8), 4);     // NSET
  EXPECT_EQ(i32_at(b, 12), 200);  // ISTART
  EXPECT_EQ(i32_at(b, 16), 20);   // NSAVC
  EXPECT_EQ(i32_at(b, 20), 260);  // NSTEP: the last frame's step
  EXPECT_EQ(i32_at(b, 40), 0);    // NAMNF: no fixed atoms
  // DELTA in AKMA time units for a run in fs; a float: the float nearest 0.5 fs / 48.8882129 fs
  EXPECT_EQ(f32_at(b, 44), static_cast<float>(0.5 / novamd::io::kAkmaTimeFs));
  EXPECT_EQ(i32_at(b, 48), 1);   // unit cell before each frame
  EXPECT_EQ(i32_at(b, 52), 0);   // no 4th dimension
  EXPECT_EQ(i32_at(b, 84), 24);  // CHARMM version
  EXPECT_EQ(i32_at(b, 88), 84);
  EXPECT_EQ(i32_at(b, 92), 164);  // title record: NTITLE and 2 x 80 characters
  EXPECT_EQ(i32_at(b, 96), 2);
  const std::string title(b.begin() + 100, b.begin() + 260);
  EXPECT_NE(title.find("NovaMD"), std::string::npos) << title;
  EXPECT_NE(title.find("length A, time fs"), std::string::npos) << title;
  EXPECT_EQ(i32_at(b, 260), 164);
  EXPECT_EQ(i32_at(b, 264), 4);
  EXPECT_EQ(i32_at(b, 268), static_cast<std::int32_t>(kTrajectoryParticles));
  EXPECT_EQ(i32_at(b, 272), 4);

  // First frame: [A, gamma, B, beta, alpha, C] as doubles (exact), then x, y, z in id order.
  std::size_t at = kDcdHeaderBytes;
  EXPECT_EQ(i32_at(b, at), 48);
  const auto box = novamd::test::box_of_frame(0).length();
  const double cell[6] = {box.x, 90.0, box.y, 90.0, 90.0, box.z};
  for (int k = 0; k < 6; ++k) EXPECT_EQ(f64_at(b, at + 4 + 8 * k), cell[k]) << k;
  EXPECT_EQ(i32_at(b, at + 52), 48);
  at += 56;
  const auto p = novamd::test::frame_particles(0);
  const auto order = novamd::core::id_order(p);
  for (const auto* axis : {&p.position.x, &p.position.y, &p.position.z}) {
    EXPECT_EQ(i32_at(b, at), static_cast<std::int32_t>(4 * kTrajectoryParticles));
    for (std::size_t k = 0; k < kTrajectoryParticles; ++k)
      ASSERT_EQ(f32_at(b, at + 4 + 4 * k), static_cast<float>((*axis)[order[k]])) << k;
    EXPECT_EQ(i32_at(b, at + 4 + 4 * kTrajectoryParticles),
              static_cast<std::int32_t>(4 * kTrajectoryParticles));
    at += 8 + 4 * kTrajectoryParticles;
  }
}

TEST(DcdWriter, DeltaIsTheTimestepOutsideFs) {
  TempDir dir;
  const auto species = two_species();
  const auto nuclear = dir.path() / "nuclear.dcd";
  DcdWriter writer(trajectory_open(nuclear, kPositions, species, 0, 1, {}, "fm", "fm/c"));
  const auto b = bytes_of(nuclear);
  EXPECT_EQ(f32_at(b, 44), 0.5f);  // in fm/c, as the run has it
  EXPECT_NE(std::string(b.begin() + 100, b.begin() + 260).find("length fm, time fm/c"),
            std::string::npos);
  EXPECT_EQ(i32_at(b, 8), 0);  // no frames yet, and a valid file already
}

TEST(DcdWriter, MDAnalysisReadsPositionsBoxesAndHeader) {
  TempDir dir;
  const auto file = dir.path() / "t.dcd";
  const auto reference = dir.path() / "ref.xyz";
  const auto species = two_species();
  {
    DcdWriter writer(trajectory_open(file, kPositions, species, 200, 20));
    XyzWriter ref(reference, true, true, XyzWriter::kRoundTrip);
    write_frames(writer, &ref, species, 0, 4, 200, 20, positions_only);
  }
  // dt: 20 steps x 0.5 fs = 0.01 ps, read back from DELTA in AKMA units
  EXPECT_EQ(
      read_trajectory(fmt::format("dcd {} {} --istart 200 --nsavc 20 --delta {} --dt-ps 0.01",
                                  quoted(file), quoted(reference), 0.5 / novamd::io::kAkmaTimeFs)),
      0);
}

TEST(DcdWriter, ResumeDropsLaterFramesAndAppends) {
  TempDir dir;
  const auto file = dir.path() / "t.dcd";
  const auto reference = dir.path() / "ref.xyz";
  const auto species = two_species();
  XyzWriter ref(reference, true, true, XyzWriter::kRoundTrip);
  {
    DcdWriter writer(trajectory_open(file, kPositions, species, 100, 10));
    write_frames(writer, &ref, species, 0, 3, 100, 10, positions_only);     // steps 100, 110, 120
    write_frames(writer, nullptr, species, 3, 6, 100, 10, positions_only);  // 130 .. 150, dropped
  }
  std::ofstream(file, std::ios::binary | std::ios::app) << "half a frame";  // a crash's leftover
  ASSERT_EQ(dcd_nset(file), 6);
  {
    DcdWriter writer(trajectory_open(file, kPositions, species, 100, 10, 125));
    EXPECT_EQ(writer.frames(), 3);
    EXPECT_EQ(dcd_nset(file), 3);  // fixed on disk before anything is appended
    EXPECT_EQ(std::filesystem::file_size(file), kDcdHeaderBytes + 3 * kDcdFrameBytes);
    // new data at steps 130 and 140 (seed 1: not the dropped frames)
    write_frames(writer, &ref, species, 3, 5, 100, 10, positions_only, 1);
  }
  const auto b = bytes_of(file);
  EXPECT_EQ(i32_at(b, 8), 5);
  EXPECT_EQ(i32_at(b, 20), 140);
  EXPECT_EQ(b.size(), kDcdHeaderBytes + 5 * kDcdFrameBytes);
  // MDAnalysis reads frames at steps ISTART + k NSAVC = 100, 110, 120, 130, 140 with the
  // reference's positions (the script checks each step against the reference's Step=)
  EXPECT_EQ(
      read_trajectory(fmt::format("dcd {} {} --istart 100 --nsavc 10 --delta {}", quoted(file),
                                  quoted(reference), 0.5 / novamd::io::kAkmaTimeFs)),
      0);
}

TEST(DcdWriter, ResumeKeepsEveryCompleteFrameAndCutsAPartialOne) {
  TempDir dir;
  const auto file = dir.path() / "t.dcd";
  const auto species = two_species();
  {
    DcdWriter writer(trajectory_open(file, kPositions, species, 0, 5));
    write_frames(writer, nullptr, species, 0, 3, 0, 5, positions_only);
  }
  std::ofstream(file, std::ios::binary | std::ios::app) << std::string(kDcdFrameBytes - 4, 'x');
  // A checkpoint at step 1000 needs the frames up to 1000: this file was cut short.
  const auto cut_short = trajectory_open(file, kPositions, species, 0, 5, 1000);
  EXPECT_NE(input_error_of([&] { DcdWriter w(cut_short); }).find("the file was cut short"),
            std::string::npos);
  DcdWriter writer(trajectory_open(file, kPositions, species, 0, 5, 10));
  EXPECT_EQ(writer.frames(), 3);
  EXPECT_EQ(std::filesystem::file_size(file), kDcdHeaderBytes + 3 * kDcdFrameBytes);
  write_frames(writer, nullptr, species, 3, 4, 0, 5, positions_only);  // step 15 is next
  EXPECT_EQ(dcd_nset(file), 4);
  // a resume before the first frame keeps nothing: a fresh file
  DcdWriter again(trajectory_open(file, kPositions, species, 0, 5, -1));
  EXPECT_EQ(again.frames(), 0);
  EXPECT_EQ(std::filesystem::file_size(file), kDcdHeaderBytes);
}

TEST(DcdWriter, ResumeRefusesAnotherParticleCountOrInterval) {
  TempDir dir;
  const auto file = dir.path() / "t.dcd";
  const auto species = two_species();
  {
    DcdWriter writer(trajectory_open(file, kPositions, species, 0, 5));
    write_frames(writer, nullptr, species, 0, 2, 0, 5, positions_only);
  }
  auto open = trajectory_open(file, kPositions, species, 0, 10, 5);
  EXPECT_NE(input_error_of([&] { DcdWriter w(open); }).find("5 steps apart"), std::string::npos);
  open.every = 5;
  open.particles = 49;
  EXPECT_NE(input_error_of([&] { DcdWriter w(open); }).find("holds 50 particles"),
            std::string::npos);
  const auto text = dir.write("not.dcd", "this is not a DCD file at all, not even close to one");
  const auto not_dcd = trajectory_open(text, kPositions, species, 0, 5, 5);
  EXPECT_NE(input_error_of([&] { DcdWriter w(not_dcd); }).find("cannot continue this DCD file"),
            std::string::npos);
}

TEST(DcdWriter, HoldsPositionsOnly) {
  TempDir dir;
  const auto species = two_species();
  for (const FieldSet fields : {FieldSet{true, true, false}, FieldSet{true, false, true}}) {
    const auto message = input_error_of(
        [&] { DcdWriter w(trajectory_open(dir.path() / "t.dcd", fields, species, 0, 1)); });
    EXPECT_NE(message.find("DCD holds positions only"), std::string::npos) << message;
  }
  // a frame carrying velocities is refused as well (the file was opened without them)
  DcdWriter writer(trajectory_open(dir.path() / "t.dcd", kPositions, species, 0, 1));
  const auto p = novamd::test::frame_particles(0);
  EXPECT_THROW(writer.write({0, 0.0, novamd::test::box_of_frame(0), p, kAllFields}), RunError);
}

TEST(DcdWriter, StepsOffTheGridAreRefused) {
  TempDir dir;
  const auto species = two_species();
  DcdWriter writer(trajectory_open(dir.path() / "t.dcd", kPositions, species, 0, 10));
  const auto p = novamd::test::frame_particles(0);
  const auto box = novamd::test::box_of_frame(0);
  writer.write({0, 0.0, box, p, kPositions});
  try {
    writer.write({15, 7.5, box, p, kPositions});
    ADD_FAILURE() << "expected core::RunError";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("must be at step 10"), std::string::npos) << e.what();
  }
  writer.write({10, 5.0, box, p, FieldSet{}});  // a frame without positions writes nothing
  EXPECT_EQ(writer.frames(), 1);
}

// ---------------------------------------------------------------------------------------------
// Extended XYZ

std::vector<std::int64_t> xyz_steps(const std::filesystem::path& file) {
  std::vector<std::int64_t> steps;
  std::istringstream in(text_of(file));
  for (std::string line; std::getline(in, line);) {
    const auto at = line.find(" Step=");
    if (at != std::string::npos) steps.push_back(std::stoll(line.substr(at + 6)));
  }
  return steps;
}

TEST(XyzTrajectoryWriter, WritesEveryFieldOfTheFileInEveryFrame) {
  TempDir dir;
  const auto file = dir.path() / "t.xyz";
  const auto species = two_species();
  XyzTrajectoryWriter writer(trajectory_open(file, kAllFields, species, 0, 1));
  write_frames(writer, nullptr, species, 0, 1, 0, 1, positions_only);  // frame says: positions
  const auto frame = novamd::io::read_xyz(file, species);
  ASSERT_TRUE(frame.has_velocities);
  const auto p = novamd::test::frame_particles(0);
  const auto order = novamd::core::id_order(p);
  // default 10 significant digits: relative rounding at most 5e-10 (+1e-15 for the parse)
  for (std::size_t k = 0; k < kTrajectoryParticles; ++k) {
    const double v = p.velocity.z[order[k]];
    EXPECT_NEAR(frame.particles.velocity.z[k], v, (5e-10 + 1e-15) * std::abs(v)) << k;
    EXPECT_EQ(frame.particles.type[k], p.type[order[k]]);
  }
  std::istringstream in(text_of(file));
  std::string line;
  std::getline(in, line);
  std::getline(in, line);
  EXPECT_NE(line.find("Properties=species:S:1:pos:R:3:velo:R:3:forces:R:3"), std::string::npos);
}

TEST(XyzTrajectoryWriter, ResumeDropsLaterFramesAndAppends) {
  TempDir dir;
  const auto file = dir.path() / "t.xyz";
  const auto species = two_species();
  {
    XyzTrajectoryWriter writer(trajectory_open(file, kPositions, species, 0, 10));
    write_frames(writer, nullptr, species, 0, 3, 0, 10, positions_only);
  }
  const std::string first_three = text_of(file);
  {
    XyzTrajectoryWriter writer(trajectory_open(file, kPositions, species, 0, 10, 20));
    write_frames(writer, nullptr, species, 3, 6, 0, 10, positions_only);  // 30, 40, 50
  }
  std::ofstream(file, std::ios::app) << "50\nLattice=\"1 0 0 0 1 0 0 0 1\" Step=60\nC 1 2";
  ASSERT_EQ(xyz_steps(file), (std::vector<std::int64_t>{0, 10, 20, 30, 40, 50, 60}));
  {
    XyzTrajectoryWriter writer(trajectory_open(file, kPositions, species, 0, 10, 25));
    EXPECT_EQ(text_of(file), first_three);  // cut right after step 20, byte for byte
    write_frames(writer, nullptr, species, 3, 5, 0, 10, positions_only, 1);  // 30, 40
  }
  EXPECT_EQ(xyz_steps(file), (std::vector<std::int64_t>{0, 10, 20, 30, 40}));
  {  // a resume past the end keeps every complete frame and cuts the partial one
    std::ofstream(file, std::ios::app) << "50\nLattice=\"1 0 0 0 1 0 0 0 1\" Step=50\nC 1 2\n";
    XyzTrajectoryWriter writer(trajectory_open(file, kPositions, species, 0, 10, 1000));
  }
  EXPECT_EQ(xyz_steps(file), (std::vector<std::int64_t>{0, 10, 20, 30, 40}));
  {  // a resume before the first frame keeps nothing
    XyzTrajectoryWriter writer(trajectory_open(file, kPositions, species, 0, 10, -1));
  }
  EXPECT_EQ(std::filesystem::file_size(file), 0u);
}

TEST(XyzTrajectoryWriter, ResumeNeedsStepInEveryCommentLine) {
  TempDir dir;
  const auto species = two_species();
  const auto file = dir.write("t.xyz", "1\nno step here\nC 1 2 3\n");
  auto open = trajectory_open(file, kPositions, species, 0, 10, 5);
  open.particles = 1;
  const auto message = input_error_of([&] { XyzTrajectoryWriter w(open); });
  EXPECT_NE(message.find("t.xyz:2:"), std::string::npos) << message;
  EXPECT_NE(message.find("no Step="), std::string::npos) << message;
  const auto other = dir.write("n.xyz", "3\nStep=0\nC 1 2 3\nC 1 2 3\nC 1 2 3\n");
  const auto fifty = trajectory_open(other, kPositions, species, 0, 10, 5);
  EXPECT_NE(input_error_of([&] { XyzTrajectoryWriter w(fifty); }).find("the run has 50"),
            std::string::npos);
  // A count line of binary garbage is quoted escaped and cut (core::excerpt).
  const auto garbage = dir.write("g.xyz", "\x01\x1b[2J\v" + std::string(500, '7') + "\nStep=0\n");
  const auto quoted_count = input_error_of(
      [&] { XyzTrajectoryWriter w(trajectory_open(garbage, kPositions, species, 0, 10, 5)); });
  EXPECT_NE(quoted_count.find("'\\x01\\x1b[2J\\x0b777"), std::string::npos) << quoted_count;
  EXPECT_LT(quoted_count.size(), 300u) << quoted_count;
  // TimeStep= is not Step=
  EXPECT_EQ(
      novamd::io::xyz_resume_offset(dir.write("s.xyz", "1\nTimeStep=3 Step=7\nC 1 2 3\n"), 1, 5),
      0u);
}

// ---------------------------------------------------------------------------------------------
// Formats and units

TEST(TrajectoryFiles, FormatFromExtension) {
  using novamd::io::format_from_extension;
  EXPECT_EQ(format_from_extension("a/run.xyz"), TrajectoryFormat::Xyz);
  EXPECT_EQ(format_from_extension("run.EXTXYZ"), TrajectoryFormat::Xyz);
  EXPECT_EQ(format_from_extension("run.dcd"), TrajectoryFormat::Dcd);
  EXPECT_EQ(format_from_extension("run.h5"), TrajectoryFormat::H5md);
  EXPECT_EQ(format_from_extension("run.h5md"), TrajectoryFormat::H5md);
  EXPECT_EQ(format_from_extension("run.HDF5"), TrajectoryFormat::H5md);
  EXPECT_EQ(format_from_extension("run.txt"), std::nullopt);
  EXPECT_EQ(format_from_extension("dcd"), std::nullopt);
  EXPECT_EQ(format_from_extension("run.xyz/trajectory"), std::nullopt);
  EXPECT_EQ(novamd::io::to_string(TrajectoryFormat::Xyz), "xyz");
  EXPECT_EQ(novamd::io::to_string(TrajectoryFormat::Dcd), "dcd");
  EXPECT_EQ(novamd::io::to_string(TrajectoryFormat::H5md), "h5md");
}

TEST(TrajectoryFiles, OpenTrajectoryMakesTheWriterOfEachFormat) {
  TempDir dir;
  const auto species = two_species();
  using novamd::io::open_trajectory;
  const auto xyz = open_trajectory(
      TrajectoryFormat::Xyz, trajectory_open(dir.path() / "a.xyz", kAllFields, species, 0, 1));
  EXPECT_NE(dynamic_cast<XyzTrajectoryWriter*>(xyz.get()), nullptr);
  EXPECT_EQ(xyz->path(), dir.path() / "a.xyz");
  const auto dcd = open_trajectory(
      TrajectoryFormat::Dcd, trajectory_open(dir.path() / "a.dcd", kPositions, species, 0, 1));
  EXPECT_NE(dynamic_cast<DcdWriter*>(dcd.get()), nullptr);
  EXPECT_THROW(open_trajectory(TrajectoryFormat::Dcd,
                               trajectory_open(dir.path() / "b.dcd", kAllFields, species, 0, 1)),
               InputError);
  const auto h5_open = trajectory_open(dir.path() / "a.h5", kAllFields, species, 0, 1);
#ifdef NOVAMD_HAVE_HDF5
  EXPECT_TRUE(novamd::io::h5md_available());
  const auto h5 = open_trajectory(TrajectoryFormat::H5md, h5_open);
  EXPECT_NE(dynamic_cast<novamd::io::H5mdWriter*>(h5.get()), nullptr);
#else
  EXPECT_FALSE(novamd::io::h5md_available());
  EXPECT_NE(input_error_of([&] {
              open_trajectory(TrajectoryFormat::H5md, h5_open);
            }).find("this build has no HDF5; install libhdf5-dev and rebuild"),
            std::string::npos);
#endif
}

TEST(H5mdUnits, SpellingOfTheUnitsModule) {
  using novamd::io::h5md_quotient_unit;
  using novamd::io::h5md_unit;
  EXPECT_EQ(h5md_unit("fm"), "fm");
  EXPECT_EQ(h5md_unit("fm/c"), "fm c-1");
  EXPECT_EQ(h5md_unit("A"), "Angstrom");
  EXPECT_EQ(h5md_unit("kcal/mol"), "kcal mol-1");
  EXPECT_EQ(h5md_unit("um2 s-1"), "um2 s-1");
  EXPECT_EQ(h5md_unit(""), "");
  EXPECT_EQ(h5md_quotient_unit("A", "fs"), "Angstrom fs-1");
  EXPECT_EQ(h5md_quotient_unit("fm", "fm/c"), "c");
  EXPECT_EQ(h5md_quotient_unit("sigma", "tau"), "sigma tau-1");
  EXPECT_EQ(h5md_quotient_unit("", "fs"), "");
  EXPECT_EQ(h5md_quotient_unit("fm", ""), "");
  EXPECT_EQ(h5md_quotient_unit("kcal/mol", "A"), "kcal mol-1 Angstrom-1");  // MDAnalysis's name
  EXPECT_EQ(h5md_quotient_unit("MeV", "fm"), "MeV fm-1");
}

TEST(TrajectoryReadBack, TheScriptRejectsAMismatch) {
  // The independent reader must fail when the file and the reference differ: here the DCD holds
  // frames of seed 0 and the reference those of seed 1.
  TempDir dir;
  const auto file = dir.path() / "t.dcd";
  const auto reference = dir.path() / "ref.xyz";
  const auto species = two_species();
  {
    DcdWriter writer(trajectory_open(file, kPositions, species, 0, 1));
    write_frames(writer, nullptr, species, 0, 2, 0, 1, positions_only);
    DcdWriter other(trajectory_open(dir.path() / "other.dcd", kPositions, species, 0, 1));
    XyzWriter ref(reference, true, true, XyzWriter::kRoundTrip);
    write_frames(other, &ref, species, 0, 2, 0, 1, positions_only, 1);
  }
  EXPECT_EQ(read_trajectory(fmt::format("dcd {} {} --istart 0 --nsavc 1 --delta {}", quoted(file),
                                        quoted(reference), 0.5 / novamd::io::kAkmaTimeFs)),
            1);
}

}  // namespace
