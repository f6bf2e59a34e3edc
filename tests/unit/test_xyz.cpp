// Extended XYZ: writer/reader round trip, id order, the reader's errors (each names file and line;
// counts the file cannot hold; file content quoted escaped and cut), and build_initial_system
// with structures read from a file.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "novamd/core/error.hpp"
#include "novamd/io/initial_system.hpp"
#include "novamd/io/structure_generator.hpp"
#include "novamd/io/xyz.hpp"
#include "support/cli_runner.hpp"
#include "support/inputs.hpp"

namespace {

using novamd::core::Box;
using novamd::core::InputError;
using novamd::core::ParticleData;
using novamd::core::Species;
using novamd::core::SpeciesTable;
using novamd::io::XyzWriter;
using novamd::test::TempDir;

using novamd::test::input_error_of;
using novamd::test::two_species;

std::vector<std::string> lines_of(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

/// Random particles with velocities and forces of assorted magnitudes (not round numbers).
ParticleData sample_particles(std::size_t n) {
  novamd::io::GenerateSettings s{
      "random",
      {{"C", static_cast<std::int64_t>(n / 2)}, {"O", static_cast<std::int64_t>(n - n / 2)}},
      std::nullopt,
      0.0};
  ParticleData p = novamd::io::generate_structure(s, two_species(), Box(7.3, 8.1, 9.7), 3);
  std::mt19937 gen(1);
  std::normal_distribution<double> normal;
  for (std::size_t i = 0; i < n; ++i) {
    p.velocity.set(i, {normal(gen) * 1e-3, normal(gen), normal(gen) * 1e5});
    p.force.set(i, {normal(gen), normal(gen) * 1e-7, normal(gen)});
  }
  return p;
}

/// `p` with its storage order shuffled (ids travel with the particles).
ParticleData shuffled(const ParticleData& p, unsigned seed) {
  std::vector<std::size_t> perm(p.size());
  std::iota(perm.begin(), perm.end(), std::size_t{0});
  std::shuffle(perm.begin(), perm.end(), std::mt19937(seed));
  ParticleData q;
  q.resize(p.size());
  for (std::size_t k = 0; k < p.size(); ++k) {
    q.position.set(k, p.position.get(perm[k]));
    q.velocity.set(k, p.velocity.get(perm[k]));
    q.force.set(k, p.force.get(perm[k]));
    q.type[k] = p.type[perm[k]];
    q.id[k] = p.id[perm[k]];
  }
  return q;
}

/// 10 significant digits: rounding to half a unit in the 10th digit is at most 5e-10 relative;
/// the bound adds 1e-15 for the binary rounding of the parse.
void expect_close(double read, double written) {
  EXPECT_NEAR(read, written, (5e-10 + 1e-15) * std::abs(written)) << written;
}

TEST(XyzRoundTrip, TenDigitsKeepPositionsSpeciesVelocities) {
  TempDir dir;
  const ParticleData p = sample_particles(40);
  const Box box(7.3, 8.1, 9.7);
  {
    XyzWriter writer(dir.path() / "t.xyz", true, true);
    writer.write_frame(0, 0.0, box, p, two_species());
  }
  const auto frame = novamd::io::read_xyz(dir.path() / "t.xyz", two_species());
  ASSERT_TRUE(frame.lattice.has_value());
  EXPECT_EQ(frame.lattice->length().x, 7.3);  // the Lattice is written to round-trip exactly
  EXPECT_EQ(frame.lattice->length().z, 9.7);
  EXPECT_TRUE(frame.has_velocities);
  ASSERT_EQ(frame.particles.size(), p.size());
  for (std::size_t i = 0; i < p.size(); ++i) {
    EXPECT_EQ(frame.particles.type[i], p.type[i]);
    EXPECT_EQ(frame.particles.id[i], static_cast<int>(i));
    expect_close(frame.particles.position.x[i], p.position.x[i]);
    expect_close(frame.particles.position.y[i], p.position.y[i]);
    expect_close(frame.particles.velocity.x[i], p.velocity.x[i]);
    expect_close(frame.particles.velocity.z[i], p.velocity.z[i]);
    EXPECT_EQ(frame.particles.force.x[i], 0.0);  // forces are not read
  }
}

TEST(XyzRoundTrip, RoundTripPrecisionIsBitwise) {
  TempDir dir;
  const ParticleData p = sample_particles(30);
  XyzWriter(dir.path() / "t.xyz", true, false, XyzWriter::kRoundTrip)
      .write_frame(5, 0.25, Box(7.3, 8.1, 9.7), p, two_species());
  const auto frame = novamd::io::read_xyz(dir.path() / "t.xyz", two_species());
  EXPECT_EQ(frame.particles.position.x, p.position.x);
  EXPECT_EQ(frame.particles.position.z, p.position.z);
  EXPECT_EQ(frame.particles.velocity.y, p.velocity.y);
}

TEST(XyzWriter, HeaderAndIdOrderWhenStorageIsPermuted) {
  TempDir dir;
  const ParticleData p = sample_particles(25);
  const ParticleData q = shuffled(p, 4);
  ASSERT_NE(q.id, p.id);
  XyzWriter(dir.path() / "t.xyz", true, true, XyzWriter::kRoundTrip)
      .write_frame(42, 8.5, Box(7.3, 8.1, 9.7), q, two_species());
  const auto lines = lines_of(dir.path() / "t.xyz");
  ASSERT_EQ(lines.size(), 27u);
  EXPECT_EQ(lines[0], "25");
  EXPECT_EQ(lines[1],
            "Lattice=\"7.3 0.0 0.0 0.0 8.1 0.0 0.0 0.0 9.7\" "
            "Properties=species:S:1:pos:R:3:velo:R:3:forces:R:3 Time=8.5 Step=42 pbc=\"T T T\"");
  const auto frame = novamd::io::read_xyz(dir.path() / "t.xyz", two_species());
  for (std::size_t k = 0; k < p.size(); ++k) {  // line k holds id k
    EXPECT_EQ(frame.particles.type[k], p.type[k]);
    EXPECT_EQ(frame.particles.position.y[k], p.position.y[k]);
    EXPECT_EQ(frame.particles.velocity.z[k], p.velocity.z[k]);
  }
  // the force columns hold the forces of id k too
  std::istringstream atom(lines[2]);
  std::string name;
  double x[9];
  atom >> name;
  for (double& v : x) atom >> v;
  EXPECT_EQ(x[6], p.force.x[0]);
  EXPECT_EQ(x[8], p.force.z[0]);
}

TEST(XyzWriter, FlushesEachFrameAndAppendsFrames) {
  TempDir dir;
  const ParticleData p = sample_particles(10);
  XyzWriter writer(dir.path() / "t.xyz");
  writer.write_frame(0, 0.0, Box(7.3, 8.1, 9.7), p, two_species());
  EXPECT_EQ(lines_of(dir.path() / "t.xyz").size(), 12u);  // on disk while the writer is open
  EXPECT_EQ(novamd::io::read_xyz(dir.path() / "t.xyz", two_species()).particles.size(), 10u);
  writer.write_frame(10, 1.0, Box(7.3, 8.1, 9.7), p, two_species());
  const auto lines = lines_of(dir.path() / "t.xyz");
  ASSERT_EQ(lines.size(), 24u);
  EXPECT_NE(lines[13].find("Step=10"), std::string::npos);
  EXPECT_EQ(lines[1].find(":velo:"), std::string::npos);  // no velocity column unless asked
}

TEST(XyzWriter, UnwritablePathIsAnError) {
  EXPECT_THROW(XyzWriter("/nonexistent-dir/t.xyz"), InputError);
}

TEST(XyzReader, PlainXyzAndSkippedColumns) {
  TempDir dir;
  const auto plain = dir.write("plain.xyz", "2\nwritten by hand\nC 1 2 3\nO 4.5 5e-1 -6\n");
  const auto a = novamd::io::read_xyz(plain, two_species());
  EXPECT_FALSE(a.lattice.has_value());
  EXPECT_FALSE(a.has_velocities);
  EXPECT_EQ(a.particles.type, (std::vector<std::int32_t>{0, 1}));
  EXPECT_EQ(a.particles.position.y, (std::vector<double>{2.0, 0.5}));
  EXPECT_EQ(a.particles.position.z, (std::vector<double>{3.0, -6.0}));
  // columns in another order, with forces and an integer column to skip; CRLF line ends
  const auto ext = dir.write(
      "ext.xyz",
      "1\r\nProperties=forces:R:3:species:S:1:Z:I:1:pos:R:3:vel:R:3 Lattice=\"5 0 0 0 6 0 0 0 "
      "7\"\r\n9 9 9 O 8 1.5 2.5 3.5 -1 -2 -3\r\n");
  const auto b = novamd::io::read_xyz(ext, two_species());
  ASSERT_TRUE(b.lattice.has_value());
  EXPECT_EQ(b.lattice->length().y, 6.0);
  EXPECT_TRUE(b.has_velocities);
  EXPECT_EQ(b.particles.type[0], 1);
  EXPECT_EQ(b.particles.position.get(0).x, 1.5);
  EXPECT_EQ(b.particles.position.get(0).z, 3.5);
  EXPECT_EQ(b.particles.velocity.get(0).y, -2.0);
}

struct ReaderErrorCase {
  const char* name;
  const char* text;
  const char* where;     ///< ":<line>:" expected after the file name
  const char* contains;  ///< a piece of the explanation
};

class XyzReaderError : public ::testing::TestWithParam<ReaderErrorCase> {};

TEST_P(XyzReaderError, NamesFileAndLine) {
  TempDir dir;
  const auto file = dir.write("bad.xyz", GetParam().text);
  const std::string msg = input_error_of([&] { novamd::io::read_xyz(file, two_species()); });
  EXPECT_NE(msg.find(file.string() + GetParam().where), std::string::npos) << msg;
  EXPECT_NE(msg.find(GetParam().contains), std::string::npos) << msg;
}

INSTANTIATE_TEST_SUITE_P(
    Xyz, XyzReaderError,
    ::testing::Values(
        ReaderErrorCase{"BadCount", "two\n\nC 0 0 0\n", ":1:", "number of atoms"},
        ReaderErrorCase{"EmptyFile", "", ":1:", "empty"},
        ReaderErrorCase{"NoCommentLine", "1\n", ":2:", "comment line"},
        ReaderErrorCase{"TooFewAtomLines", "3\n\nC 0.0 0.0 0.0\nO 1.0 1.0 1.0\n",
                        ":5:", "2 of 3 atom lines"},
        ReaderErrorCase{"NonNumeric", "2\n\nC 0 0 0\nO 1.0 abc 3\n", ":4:", "'abc'"},
        ReaderErrorCase{"NotFinite", "1\n\nC 0 nan 0\n", ":3:", "finite number"},
        ReaderErrorCase{"ShortLine", "1\nProperties=species:S:1:pos:R:3:vel:R:3\nC 0 0 0\n",
                        ":3:", "expected 7"},
        ReaderErrorCase{"UndeclaredSpecies", "2\n\nC 0 0 0\nNe 1 1 1\n", ":4:",
                        "species 'Ne' is not declared in system.species; expected one of C, O"},
        ReaderErrorCase{"NoSpeciesColumn", "1\nProperties=pos:R:3\n0 0 0\n", ":2:", "species:S:1"},
        ReaderErrorCase{"NoPosColumn", "1\nProperties=species:S:1:vel:R:3\nC 0 0 0\n",
                        ":2:", "pos:R:3"},
        ReaderErrorCase{"BadProperties", "1\nProperties=species:S:1:pos:R\nC 0 0 0\n",
                        ":2:", "malformed"},
        ReaderErrorCase{"Triclinic", "1\nLattice=\"5 0 0 1 5 0 0 0 5\"\nC 0 0 0\n",
                        ":2:", "orthorhombic"},
        ReaderErrorCase{"ShortLattice", "1\nLattice=\"5 5 5\"\nC 0 0 0\n", ":2:", "expected 9"},
        ReaderErrorCase{"UnterminatedQuote", "1\nLattice=\"5 0 0 0 5 0 0 0 5\nC 0 0 0\n",
                        ":2:", "unterminated"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(XyzReader, MissingFileNamesIt) {
  const std::string msg =
      input_error_of([] { novamd::io::read_xyz("/nonexistent-dir/start.xyz", two_species()); });
  EXPECT_NE(msg.find("/nonexistent-dir/start.xyz"), std::string::npos) << msg;
}

// ---------------------------------------------------------------------------------------------
// build_initial_system with a structure read from a file

novamd::io::Config read_config(const TempDir& dir, const std::string& xyz_text) {
  dir.write("start.xyz", xyz_text);
  novamd::io::Config c;
  c.file = dir.path() / "run.yaml";
  c.units = novamd::core::lj_units();
  c.system.species = two_species();
  c.system.structure.read = dir.path() / "start.xyz";  // as load_config resolves it
  return c;
}

const char* kTwoAtoms =
    "2\nLattice=\"10 0 0 0 10 0 0 0 10\" Properties=species:S:1:pos:R:3:vel:R:3\n"
    "C -1.0 2 3 0.5 0 0\nO 4 12.5 6 -0.25 0 0\n";

TEST(InitialSystemRead, BoxFromLatticePositionsWrappedFileVelocitiesKept) {
  TempDir dir;
  const auto s = novamd::io::build_initial_system(read_config(dir, kTwoAtoms));
  EXPECT_EQ(s.box.length().x, 10.0);
  EXPECT_EQ(s.particles.position.x[0], 9.0);  // -1 wrapped
  EXPECT_EQ(s.particles.position.y[1], 2.5);  // 12.5 wrapped
  EXPECT_EQ(s.particles.velocity.x[0], 0.5);
  EXPECT_EQ(s.particles.velocity.x[1], -0.25);
}

TEST(InitialSystemRead, TemperatureReplacesFileVelocities) {
  TempDir dir;
  auto c = read_config(dir, kTwoAtoms);
  c.system.velocities.temperature = 2.0;
  const auto s = novamd::io::build_initial_system(c);
  // 2 particles: dof 3, zero momentum: 12 v0 = -16 v1
  EXPECT_NEAR(12.0 * s.particles.velocity.x[0] + 16.0 * s.particles.velocity.x[1], 0.0, 1e-12);
  double kinetic = 0.0;
  for (std::size_t i = 0; i < 2; ++i) {
    const auto v = s.particles.velocity.get(i);
    kinetic += 0.5 * two_species()[s.particles.type[i]].mass * dot(v, v);
  }
  EXPECT_NEAR(2.0 * kinetic / 3.0, 2.0, 1e-12);
}

TEST(InitialSystemRead, ConfigBoxMustMatchLattice) {
  TempDir dir;
  auto c = read_config(dir, kTwoAtoms);
  c.system.box = std::array<double, 3>{10.0, 10.0, 10.0};
  EXPECT_NO_THROW(novamd::io::build_initial_system(c));
  c.system.box = std::array<double, 3>{10.0, 11.0, 10.0};
  const std::string msg = input_error_of([&] { novamd::io::build_initial_system(c); });
  EXPECT_NE(msg.find("system.box"), std::string::npos) << msg;
  EXPECT_NE(msg.find("start.xyz:2"), std::string::npos) << msg;
}

TEST(InitialSystemRead, MissingLatticeWithoutConfigBoxNamesFileLine) {
  TempDir dir;
  auto c = read_config(dir, "1\n\nC 1 2 3\n");
  const std::string msg = input_error_of([&] { novamd::io::build_initial_system(c); });
  EXPECT_NE(msg.find("start.xyz:2"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Lattice"), std::string::npos) << msg;
  c.system.box = std::array<double, 3>{5.0, 5.0, 5.0};
  EXPECT_EQ(novamd::io::build_initial_system(c).box.length().y, 5.0);
}

TEST(InitialSystemRead, DuplicatePositionsUnderMinimumImageNameBothIds) {
  TempDir dir;
  // ids 1 and 2 are one box vector apart: distance 0 under the minimum image
  auto c = read_config(dir, "3\nLattice=\"10 0 0 0 10 0 0 0 10\"\nC 1 1 1\nO 2 3 4\nC 12 3 -6\n");
  const std::string msg = input_error_of([&] { novamd::io::build_initial_system(c); });
  EXPECT_NE(msg.find("system.structure"), std::string::npos) << msg;
  EXPECT_NE(msg.find("particles 1 and 2"), std::string::npos) << msg;
  EXPECT_NE(msg.find("atom lines 4 and 5"), std::string::npos) << msg;
}

TEST(InitialSystemRead, UndeclaredSpeciesInFileNamesFileAndLine) {
  TempDir dir;
  auto c = read_config(dir, "2\nLattice=\"10 0 0 0 10 0 0 0 10\"\nC 1 1 1\nNe 2 3 4\n");
  const std::string msg = input_error_of([&] { novamd::io::build_initial_system(c); });
  EXPECT_NE(msg.find("start.xyz:4: species 'Ne' is not declared in system.species"),
            std::string::npos)
      << msg;
}

TEST(InitialSystemRead, EmptyFileAndCutoffChecked) {
  TempDir dir;
  auto c = read_config(dir, "0\nLattice=\"10 0 0 0 10 0 0 0 10\"\n");
  EXPECT_NE(input_error_of([&] { novamd::io::build_initial_system(c); }).find("system.structure"),
            std::string::npos);
  c = read_config(dir, kTwoAtoms);
  c.forces.push_back(novamd::forces::YukawaSettings{1.0, 5.5});
  EXPECT_NE(
      input_error_of([&] { novamd::io::build_initial_system(c); }).find("forces[0].yukawa.cutoff"),
      std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// Counts the file cannot hold, a folder instead of a file, and file content echoed in messages

/// The message of read_xyz on `text` written to bad.xyz in `dir`, and the seconds it took.
std::string error_reading(const TempDir& dir, const std::string& text, double* seconds = nullptr) {
  const auto file = dir.write("bad.xyz", text);
  const auto start = std::chrono::steady_clock::now();
  std::string msg = input_error_of([&] { novamd::io::read_xyz(file, two_species()); });
  if (seconds)
    *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return msg;
}

// Each atom line takes at least 8 bytes ("C 0 0 0\n"): a count beyond what the file's size allows
// is refused at line 1, before anything is allocated for it.
TEST(XyzReader, CountBeyondTheFileSizeIsRefusedAtOnce) {
  TempDir dir;
  const std::string atoms = "\n\nC 0 0 0\nO 1 1 1\n";
  for (const char* count : {"2147483647", "50000000", "3"}) {
    double seconds = 0;
    const std::string text = std::string(count) + atoms;
    const std::string msg = error_reading(dir, text, &seconds);
    EXPECT_NE(msg.find((dir.path() / "bad.xyz").string() + ":1: "), std::string::npos) << msg;
    EXPECT_NE(msg.find(fmt::format("{} atoms", count)), std::string::npos) << msg;
    EXPECT_NE(msg.find(fmt::format("{} bytes", text.size())), std::string::npos) << msg;
    EXPECT_NE(msg.find("at most 2 atom lines"), std::string::npos) << msg;
    EXPECT_LT(seconds, 0.5) << count;
  }
  // Exactly as many atoms as the bytes allow: read (the last line needs no newline).
  const auto file = dir.write("tight.xyz", "2\n\nC 0 0 0\nO 1 1 1");
  EXPECT_EQ(novamd::io::read_xyz(file, two_species()).particles.size(), 2u);
}

TEST(XyzReader, FolderIsNamedAsAFolder) {
  TempDir dir;
  const std::string msg = input_error_of([&] { novamd::io::read_xyz(dir.path(), two_species()); });
  EXPECT_EQ(msg.rfind(dir.path().string() + ": ", 0), 0u) << msg;
  EXPECT_NE(msg.find("is a folder, not a file"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("empty"), std::string::npos) << msg;
}

/// True when `msg` has no control byte and no byte >= 0x80 that is not part of valid UTF-8 (the
/// file content in it went through core::excerpt).
bool printable(const std::string& msg) {
  for (const char c : msg) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f || u >= 0x80) return false;
  }
  return true;
}

// Control bytes and binary garbage in every place the reader quotes the file: escaped, and cut
// to a short excerpt.
TEST(XyzReader, FileContentInMessagesIsEscapedAndCut) {
  TempDir dir;
  const std::string garbage = "\x01\x02\x1b[2J\r\v\f\xff\xfe";
  const std::string long_token(100000, 'x');
  const std::vector<std::string> texts = {
      garbage + "\n\nC 0 0 0\n",                                           // count line
      "1\nProperties=species:S:1:pos:R:" + garbage + "\nC 0 0 0\n",        // Properties
      "1\nProperties=species:S:1:pos:" + garbage + ":3\nC 0 0 0\n",        // its type
      "1\nLattice=\"5 0 0 0 5 0 0 0 " + garbage + "\"\nC 0 0 0\n",         // Lattice entry
      "1\nLattice=\"5 0 0 0 5 0 0\r\v" + garbage + "\"\nC 0 0 0\n",        // Lattice count
      "1\nLattice=\"5 0 0 1 5 0 0 0 5 \r\" x\nC 0 0 0\n",                  // triclinic
      "1\n\nC" + garbage + " 0 0 0\n",                                     // species
      "1\n\nC 0 0" + garbage + "\n",                                       // a number
      "1\n\nC 0 0 " + long_token + "\n",                                   // a long token
      long_token + "\n\nC 0 0 0\n",                                        // a long count
      "1\nProperties=species:S:1:pos:R:3:\x01\x1b[2J\xff:R:1\nC 0 0 0\n",  // short line
  };
  for (std::size_t k = 0; k < texts.size(); ++k) {
    const std::string msg = error_reading(dir, texts[k]);
    EXPECT_TRUE(printable(msg)) << k << ": " << msg;
    EXPECT_LT(msg.size(), 600u) << k << ": " << msg;
  }
  EXPECT_NE(error_reading(dir, texts[0]).find("\\x01\\x02\\x1b[2J\\r"), std::string::npos);
}

}  // namespace

TEST(XyzWriter, ElementsInTheSpeciesColumnAndNamesBesideThem) {
  // The nucleons p and n are no elements (ASE and MDAnalysis read them as phosphorus and
  // nitrogen); Ne22 is neon: readers get the element, or X, and the names in a column of their
  // own, which NovaMD reads back
  TempDir dir;
  const novamd::core::SpeciesTable species(
      {{"p", 1.0, 938.3, 1}, {"n", 0.0, 939.6, -1}, {"Ne22", 10.0, 20469.0}});
  ParticleData p = sample_particles(6);
  for (std::size_t i = 0; i < p.size(); ++i) p.type[i] = static_cast<int>(i % 3);
  XyzWriter(dir.path() / "t.xyz", false, false, XyzWriter::kRoundTrip)
      .write_frame(0, 0.0, Box(7.3, 8.1, 9.7), p, species);
  const auto lines = lines_of(dir.path() / "t.xyz");
  EXPECT_NE(lines[1].find("Properties=species:S:1:pos:R:3:name:S:1 "), std::string::npos)
      << lines[1];
  const std::vector<std::string> expected{"X", "X", "Ne"}, names{"p", "n", "Ne22"};
  for (std::size_t k = 0; k < 3; ++k) {
    std::istringstream atom(lines[2 + k]);
    std::string element, name;
    double x[3];
    atom >> element >> x[0] >> x[1] >> x[2] >> name;
    EXPECT_EQ(element, expected[k]);
    EXPECT_EQ(name, names[k]);
  }
  const auto frame = novamd::io::read_xyz(dir.path() / "t.xyz", species);
  EXPECT_EQ(frame.particles.type, p.type);
  EXPECT_EQ(frame.particles.position.x, p.position.x);
}

TEST(XyzWriter, NoNameColumnWhenEveryNameIsAnElement) {
  TempDir dir;
  XyzWriter(dir.path() / "t.xyz")
      .write_frame(0, 0.0, Box(7.3, 8.1, 9.7), sample_particles(4), two_species());
  EXPECT_EQ(lines_of(dir.path() / "t.xyz")[1].find("name:S:1"), std::string::npos);
}
