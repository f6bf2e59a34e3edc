// io::read_lammps_data: the LAMMPS peptide example (tests/data/lammps-peptide) read in full and
// spot-checked against the numbers of its file; small files written here for atom order, styles
// and their comments, and every error (each names the file and line and what is expected).

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "novamd/core/error.hpp"
#include "novamd/io/lammps_data.hpp"
#include "support/cli_runner.hpp"
#include "support/inputs.hpp"

namespace {

using novamd::io::LammpsDataStyles;
using novamd::io::read_lammps_data;
using novamd::io::TopologyFile;
using novamd::test::input_error_of;
using novamd::test::TempDir;

const std::string kPeptideDir = NOVAMD_SOURCE_DIR "/tests/data/lammps-peptide";

/// The styles of in.peptide (LAMMPS examples/peptide).
LammpsDataStyles charmm_styles() {
  LammpsDataStyles s;
  s.pair = "lj_charmm_coul_long";
  s.bond = "harmonic";
  s.angle = "charmm";
  s.dihedral = "charmm";
  s.improper = "harmonic";
  return s;
}

/// Expects every one of `parts` in `message`.
void expect_mentions(const std::string& message, const std::vector<std::string>& parts) {
  for (const auto& part : parts)
    EXPECT_NE(message.find(part), std::string::npos) << "'" << part << "' not in: " << message;
}

/// A number of the LAMMPS reference file (energies_lammps.txt): the value after `name`.
double lammps_reference(const std::string& name) {
  std::ifstream in(kPeptideDir + "/energies_lammps.txt");
  for (std::string key; in >> key;) {
    if (key == name) {
      double value = 0.0;
      in >> value;
      return value;
    }
    std::getline(in, key);
  }
  ADD_FAILURE() << name << " not in energies_lammps.txt";
  return NAN;
}

TEST(LammpsDataPeptide, CountsBoxAndTypes) {
  const TopologyFile f = read_lammps_data(
      std::string(NOVAMD_SOURCE_DIR) + "/examples/peptide/data.peptide", charmm_styles());
  EXPECT_EQ(f.format, "lammps_data");
  ASSERT_EQ(f.type.size(), 2004u);
  EXPECT_EQ(f.topology.particle_count(), 2004);
  EXPECT_EQ(f.topology.bonds().size(), 1365u);
  EXPECT_EQ(f.topology.angles().size(), 786u);
  EXPECT_EQ(f.topology.dihedrals().size(), 207u);
  EXPECT_EQ(f.topology.impropers().size(), 12u);
  ASSERT_EQ(f.types.size(), 14u);
  // Box: "36.840194 64.211560 xlo xhi" ...; the edges as hi - lo of the parsed numbers.
  EXPECT_EQ(f.box_low.x, 36.840194);
  EXPECT_EQ(f.box_low.z, 29.768095);
  ASSERT_TRUE(f.box_edges.has_value());
  EXPECT_EQ(f.box_edges->x, 64.211560 - 36.840194);
  EXPECT_EQ(f.box_edges->y, 68.385058 - 41.013691);
  EXPECT_EQ(f.box_edges->z, 57.139462 - 29.768095);
  // Masses (no "# name" comments: the names are the type numbers).
  EXPECT_EQ(f.types[0].mass, 12.0110);
  EXPECT_EQ(f.types[3].mass, 1.0080);
  EXPECT_EQ(f.types[11].mass, 32.0660);
  EXPECT_EQ(f.types[13].mass, 1.0100);
  EXPECT_EQ(f.types[0].name, "1");
  EXPECT_EQ(f.types[13].name, "14");
  EXPECT_TRUE(f.mass.empty());  // per-type masses only
}

TEST(LammpsDataPeptide, PairAndBondedCoefficients) {
  const TopologyFile f = read_lammps_data(
      std::string(NOVAMD_SOURCE_DIR) + "/examples/peptide/data.peptide", charmm_styles());
  EXPECT_EQ(f.pair_style, "lj_charmm");
  ASSERT_EQ(f.lj_by_type.size(), 14u);
  // "2 0.080000 3.670503 0.010000 3.385415": a type with its own 1-4 parameters.
  ASSERT_TRUE(f.lj_by_type[1].has_value());
  EXPECT_EQ(f.lj_by_type[1]->epsilon, 0.08);
  EXPECT_EQ(f.lj_by_type[1]->sigma, 3.670503);
  EXPECT_EQ(f.lj_by_type[1]->epsilon_14, 0.01);
  EXPECT_EQ(f.lj_by_type[1]->sigma_14, 3.385415);
  // "13 0.152100 3.150570 0.152100 3.150570": TIP3P oxygen.
  EXPECT_EQ(f.lj_by_type[12]->epsilon, 0.1521);
  EXPECT_EQ(f.lj_by_type[12]->sigma_14, 3.15057);
  EXPECT_TRUE(f.lj_pairs.empty());
  EXPECT_FALSE(f.mixing.has_value());  // a data file states no mixing rule

  ASSERT_TRUE(f.bond && f.angle && f.dihedral && f.improper);
  EXPECT_EQ(f.bond->style, "harmonic");
  ASSERT_EQ(f.bond->by_type.size(), 18u);
  EXPECT_EQ(f.bond->by_type[0], (std::vector<double>{249.999999, 1.49}));
  EXPECT_EQ(f.bond->by_type[1], (std::vector<double>{620.000001, 1.23}));
  EXPECT_EQ(f.angle->style, "charmm");
  ASSERT_EQ(f.angle->by_type.size(), 31u);
  EXPECT_EQ(f.angle->by_type[24], (std::vector<double>{58.35, 113.5, 11.16, 2.561}));
  EXPECT_EQ(f.angle->by_type[30], (std::vector<double>{55.0, 104.52, 0.0, 0.0}));
  EXPECT_EQ(f.dihedral->style, "charmm");
  ASSERT_EQ(f.dihedral->by_type.size(), 21u);
  EXPECT_EQ(f.dihedral->by_type[4], (std::vector<double>{2.5, 2.0, 180.0, 0.5}));
  EXPECT_EQ(f.dihedral->by_type[20], (std::vector<double>{0.01, 3.0, 0.0, 1.0}));
  EXPECT_EQ(f.improper->style, "harmonic");
  EXPECT_EQ(f.improper->by_type, (std::vector<std::vector<double>>{{120.0, 0.0}, {20.0, 0.0}}));
}

TEST(LammpsDataPeptide, AtomsVelocitiesAndTerms) {
  const TopologyFile f = read_lammps_data(
      std::string(NOVAMD_SOURCE_DIR) + "/examples/peptide/data.peptide", charmm_styles());
  // "1 1 1 0.510 43.99993 58.52678 36.78550 0 0 0"
  EXPECT_EQ(f.molecule[0], 1);
  EXPECT_EQ(f.type[0], 0);
  EXPECT_EQ(f.charge[0], 0.51);
  EXPECT_EQ(f.position[0].x, 43.99993);
  EXPECT_EQ(f.position[0].z, 36.7855);
  EXPECT_EQ(f.image[0], (std::array<std::int32_t, 3>{0, 0, 0}));
  // "2004 641 14 0.417 56.55074 49.75049 48.61854 1 1 1"
  EXPECT_EQ(f.molecule[2003], 641);
  EXPECT_EQ(f.type[2003], 13);
  EXPECT_EQ(f.charge[2003], 0.417);
  EXPECT_EQ(f.position[2003].y, 49.75049);
  EXPECT_EQ(f.image[2003], (std::array<std::int32_t, 3>{1, 1, 1}));
  // Velocities "1 -0.000671 -0.002823 0.003832" and "2004 -0.010076 -0.005729 -0.026032".
  ASSERT_TRUE(f.velocity.has_value());
  ASSERT_EQ(f.velocity->size(), 2004u);
  EXPECT_EQ((*f.velocity)[0].x, -0.000671);
  EXPECT_EQ((*f.velocity)[2003].z, -0.026032);
  // Bonds "1 3 1 7"; Impropers "12 2 79 64 80 81": types and atoms 0-based.
  EXPECT_EQ(f.topology.bonds()[0], (novamd::core::Bond{2, {0, 6}}));
  EXPECT_EQ(f.topology.impropers()[11], (novamd::core::Improper{1, {78, 63, 79, 80}}));
  EXPECT_EQ(f.topology.angles()[785], (novamd::core::Angle{30, {2002, 2001, 2003}}));

  // Charges: the system is neutral. Each charge is a decimal of 3 digits read to the nearest
  // double (relative error 1.1e-16); 2,004 additions of partial sums below 700 in magnitude add
  // at most 2004 * 700 * 1.1e-16 = 1.6e-10, a bound far above the error seen (about 1e-13).
  double total = 0.0, squares = 0.0;
  for (const double q : f.charge) {
    total += q;
    squares += q * q;
  }
  EXPECT_NEAR(total, 0.0, 1.6e-10);
  // The sum of squares as LAMMPS summed it (15 digits printed: relative 5e-15 of rounding, and
  // the two orders of summation differ by at most 2004 * 1.1e-16 relative).
  EXPECT_NEAR(squares, lammps_reference("sum_charge_squared"), 673.95 * 1e-13);
}

// ---------------------------------------------------------------------------------------------
// Small files

/// Three atoms with ids 7, 3, 5 (in that order), two bonds, both Coeffs sections hinted.
const std::string kSmall = R"(A small test file

3 atoms
2 bonds
2 atom types
1 bond types

0.0 10.0 xlo xhi
-1.0 9.0 ylo yhi  # a comment
0 10 zlo zhi

Masses

1 12.011 # C
2 1.008 # H

Pair Coeffs # lj/charmm/coul/long

1 0.1 3.5 0.05 3.0
2 0.02 1.0

Bond Coeffs # harmonic

1 300.0 1.1

Atoms # full

7 1 1 -0.2 1.0 1.5 2.0 0 0 0
3 1 2 0.1 2.0 1.0 1.0 0 0 1
# a comment line inside a section

5 2 2 0.1 0.0 1.0 1.0 -1 0 0

Velocities

5 0.5 0.0 0.0
7 0.7 0.0 0.0
3 0.3 0.0 0.0

Bonds

1 1 7 3
2 1 7 5
)";

const std::string kVelocities = "Velocities\n\n5 0.5 0.0 0.0\n7 0.7 0.0 0.0\n3 0.3 0.0 0.0\n";

/// `text` with `from` replaced by `to` (a test failure if `from` is not there).
std::string with(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "'" << from << "' not in the test file";
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

class LammpsDataFile : public ::testing::Test {
 protected:
  TopologyFile read(const std::string& text, const LammpsDataStyles& styles = {}) {
    return read_lammps_data(dir_.write("case.data", text), styles);
  }
  /// The message of reading `text`, which must name the file and `line`.
  std::string error(const std::string& text, int line, const LammpsDataStyles& styles = {}) {
    const auto file = dir_.write("case.data", text);
    const std::string message = input_error_of([&] { read_lammps_data(file, styles); });
    const std::string at = line > 0 ? file.string() + ":" + std::to_string(line) : file.string();
    EXPECT_NE(message.find(at), std::string::npos) << "'" << at << "' not in: " << message;
    return message;
  }
  TempDir dir_;
};

TEST_F(LammpsDataFile, AtomsOrderedByIdAndTermsMapped) {
  const TopologyFile f = read(kSmall);
  // Ids 3, 5, 7 are indices 0, 1, 2.
  EXPECT_EQ(f.position[0].x, 2.0);
  EXPECT_EQ(f.position[1].x, 0.0);
  EXPECT_EQ(f.position[2].y, 1.5);
  EXPECT_EQ(f.molecule, (std::vector<std::int32_t>{1, 2, 1}));
  EXPECT_EQ(f.type, (std::vector<std::int32_t>{1, 1, 0}));
  EXPECT_EQ(f.charge, (std::vector<double>{0.1, 0.1, -0.2}));
  EXPECT_EQ(f.image[0], (std::array<std::int32_t, 3>{0, 0, 1}));
  EXPECT_EQ(f.image[1], (std::array<std::int32_t, 3>{-1, 0, 0}));
  ASSERT_TRUE(f.velocity);
  EXPECT_EQ((*f.velocity)[0].x, 0.3);
  EXPECT_EQ((*f.velocity)[1].x, 0.5);
  EXPECT_EQ((*f.velocity)[2].x, 0.7);
  EXPECT_EQ(f.topology.bonds()[0], (novamd::core::Bond{0, {2, 0}}));
  EXPECT_EQ(f.topology.bonds()[1], (novamd::core::Bond{0, {2, 1}}));
  EXPECT_EQ(f.box_low.y, -1.0);
  EXPECT_EQ(f.box_edges->y, 10.0);
}

TEST_F(LammpsDataFile, WindowsLineEndsReadAlike) {
  std::string crlf;
  for (const char c : kSmall) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  const TopologyFile f = read(crlf);
  EXPECT_EQ(f.types[1].name, "H");  // no '\r' left in a name
  EXPECT_EQ(f.bond->by_type[0], (std::vector<double>{300.0, 1.1}));
  EXPECT_EQ(f.position[2].z, 2.0);
  EXPECT_EQ(f.image[1], (std::array<std::int32_t, 3>{-1, 0, 0}));
}

TEST_F(LammpsDataFile, NamesAndStylesFromComments) {
  const TopologyFile f = read(kSmall);
  EXPECT_EQ(f.types[0].name, "C");
  EXPECT_EQ(f.types[1].name, "H");
  EXPECT_EQ(f.pair_style, "lj_charmm");
  EXPECT_EQ(f.lj_by_type[0]->epsilon_14, 0.05);
  EXPECT_FALSE(f.lj_by_type[1]->epsilon_14.has_value());  // 2 values: no 1-4 parameters
  EXPECT_EQ(f.bond->style, "harmonic");
  EXPECT_TRUE(f.velocity.has_value());
  EXPECT_FALSE(read(with(kSmall, kVelocities, "")).velocity.has_value());
}

TEST_F(LammpsDataFile, StylesFromTheUserAgreeingWithComments) {
  LammpsDataStyles s;
  s.pair = "lj/charmm/coul/charmm";  // a LAMMPS name: the same family as the comment's
  s.bond = "harmonic";
  s.atom = "full";
  EXPECT_EQ(read(kSmall, s).pair_style, "lj_charmm");
  // Without comments, the user's styles decide.
  std::string bare = with(with(with(kSmall, "Pair Coeffs # lj/charmm/coul/long", "Pair Coeffs"),
                               "Bond Coeffs # harmonic", "Bond Coeffs"),
                          "Atoms # full", "Atoms");
  const TopologyFile f = read(bare, s);
  EXPECT_EQ(f.bond->style, "harmonic");
  EXPECT_EQ(f.charge[2], -0.2);
}

TEST_F(LammpsDataFile, LjCutAndPairIJCoeffs) {
  const std::string text =
      with(kSmall, "Pair Coeffs # lj/charmm/coul/long\n\n1 0.1 3.5 0.05 3.0\n2 0.02 1.0",
           "PairIJ Coeffs # lj/cut/coul/long\n\n1 1 0.1 3.5\n2 1 0.05 2.0\n2 2 0.02 1.0");
  const TopologyFile f = read(text);
  EXPECT_EQ(f.pair_style, "lj_cut");
  ASSERT_EQ(f.lj_pairs.size(), 3u);
  EXPECT_EQ(f.lj_pairs[1].type_a, 0);  // "2 1" is stored as the pair (0, 1)
  EXPECT_EQ(f.lj_pairs[1].type_b, 1);
  EXPECT_EQ(f.lj_pairs[1].coefficients.sigma, 2.0);
  EXPECT_TRUE(f.lj_by_type.empty());
}

TEST_F(LammpsDataFile, AtomStyleGuessedFromTheColumnCount) {
  // atomic: id type x y z (5 fields; 8 with image flags).
  std::string atomic = with(with(with(with(kSmall, "Atoms # full", "Atoms"),
                                      "7 1 1 -0.2 1.0 1.5 2.0 0 0 0", "7 1 1.0 1.5 2.0"),
                                 "3 1 2 0.1 2.0 1.0 1.0 0 0 1", "3 2 2.0 1.0 1.0"),
                            "5 2 2 0.1 0.0 1.0 1.0 -1 0 0", "5 2 0.0 1.0 1.0");
  const TopologyFile f = read(atomic);
  EXPECT_EQ(f.type, (std::vector<std::int32_t>{1, 1, 0}));
  EXPECT_EQ(f.charge, (std::vector<double>{0.0, 0.0, 0.0}));
  EXPECT_EQ(f.molecule, (std::vector<std::int32_t>{0, 0, 0}));
  EXPECT_EQ(f.position[2].z, 2.0);
  // charge: id type q x y z, from the comment.
  std::string charge = with(with(with(with(kSmall, "Atoms # full", "Atoms # charge"),
                                      "7 1 1 -0.2 1.0 1.5 2.0 0 0 0", "7 1 -0.2 1.0 1.5 2.0"),
                                 "3 1 2 0.1 2.0 1.0 1.0 0 0 1", "3 2 0.1 2.0 1.0 1.0"),
                            "5 2 2 0.1 0.0 1.0 1.0 -1 0 0", "5 2 0.1 0.0 1.0 1.0");
  EXPECT_EQ(read(charge).charge, (std::vector<double>{0.1, 0.1, -0.2}));
  // Six fields fit molecular and charge alike: the style must be given.
  const auto message = error(with(charge, "Atoms # charge", "Atoms"), 28);
  expect_mentions(message, {"fit both the molecular and charge atom styles",
                            "system.topology.styles.atom", "Atoms # full"});
}

// ---------------------------------------------------------------------------------------------
// Errors

TEST_F(LammpsDataFile, UnreadablePaths) {
  const auto missing = dir_.path() / "missing.data";
  expect_mentions(input_error_of([&] { read_lammps_data(missing, {}); }),
                  {missing.string(), "cannot open"});
  expect_mentions(input_error_of([&] { read_lammps_data(dir_.path(), {}); }),
                  {"is a folder", "LAMMPS data file"});
  expect_mentions(error("", 1), {"empty"});
}

TEST_F(LammpsDataFile, HeaderErrors) {
  expect_mentions(error(with(kSmall, "0 10 zlo zhi", "0 10 zlo zhi\n0.0 0.5 0.0 xy xz yz"), 11),
                  {"triclinic boxes are not supported yet"});
  expect_mentions(error(with(kSmall, "0 10 zlo zhi", "3 ellipsoids"), 10),
                  {"'ellipsoids'", "expected one of: atoms, bonds"});
  expect_mentions(error(with(kSmall, "0 10 zlo zhi", "10 0 zlo zhi"), 10),
                  {"empty box edge", "zhi greater than zlo"});
  expect_mentions(error(with(kSmall, "0 10 zlo zhi\n", ""), 0), {"no 'zlo zhi' line"});
  expect_mentions(error(with(kSmall, "3 atoms", "-3 atoms"), 3),
                  {"'-3'", "the number of atoms", "an integer from 0"});
  expect_mentions(error(with(kSmall, "1 bond types", "0 bond types"), 0),
                  {"announces 2 bonds but no bond types"});
}

TEST_F(LammpsDataFile, SectionCountsDisagree) {
  // Truncated: the file ends inside Atoms (after line 29).
  const std::string truncated = kSmall.substr(0, kSmall.find("# a comment line"));
  expect_mentions(error(truncated, 30),
                  {"ends after 2 of the 3 lines of the Atoms section (line 26)", "3 atoms"});
  // A count larger than the rest of the file can hold.
  expect_mentions(error(with(kSmall, "2 1 7 5\n", ""), 40),
                  {"announces 2 bonds, but the rest of the file is too small to hold 2 lines"});
  // Too few: the next section begins early.
  expect_mentions(
      error(with(kSmall, "5 2 2 0.1 0.0 1.0 1.0 -1 0 0\n", ""), 33),
      {"'Velocities' comes after 2 of the 3 lines of the Atoms section (line 26)", "3 atoms"});
  // Too many.
  expect_mentions(error(with(kSmall, "1 300.0 1.1\n", "1 300.0 1.1\n1 300.0 1.2\n"), 25),
                  {"Bond Coeffs section (line 22) has more than 1 lines", "1 bond types"});
  // A count larger than the file can hold, refused before anything is allocated.
  expect_mentions(error(with(kSmall, "3 atoms", "300000000 atoms"), 26),
                  {"300000000 atoms", "too small to hold"});
  // A section whose count the header leaves at zero.
  expect_mentions(error(with(kSmall, "Bonds\n\n1 1 7 3\n2 1 7 5\n", "Angles\n\n1 1 7 3 5\n"), 40),
                  {"the header announces no angles"});
  // The header announces terms the file lacks.
  expect_mentions(error(with(kSmall, "Bonds\n\n1 1 7 3\n2 1 7 5\n", ""), 0),
                  {"announces 2 bonds but the file has no Bonds section"});
}

TEST_F(LammpsDataFile, SectionErrors) {
  expect_mentions(error(with(kSmall, "Velocities", "Ellipsoids"), 34),
                  {"'Ellipsoids' is not a section the reader knows",
                   "expected one of: Masses, Pair Coeffs, PairIJ Coeffs"});
  expect_mentions(error(kSmall + "\nMasses\n\n1 1.0\n2 1.0\n", 45),
                  {"a second Masses section (the first is on line 12)"});
  // Velocities name atoms: they come after Atoms.
  expect_mentions(
      error(with(with(kSmall, kVelocities, ""), "Masses", kVelocities + "\nMasses"), 12),
      {"the Velocities section comes before the Atoms section"});
  expect_mentions(error(with(kSmall, "Masses\n\n1 12.011 # C\n2 1.008 # H\n", ""), 0),
                  {"no Masses section"});
  expect_mentions(error(with(kSmall, "Bond Coeffs # harmonic\n\n1 300.0 1.1\n", ""), 37),
                  {"2 bonds (the Bonds section) but no Bond Coeffs section",
                   "coefficients of its 1 bond types"});
}

TEST_F(LammpsDataFile, FieldErrors) {
  expect_mentions(error(with(kSmall, "3 1 2 0.1 2.0 1.0", "3 1 2 0.1 abc 1.0"), 29),
                  {"field 5 is 'abc'", "expected x: a number"});
  expect_mentions(error(with(kSmall, "3 1 2 0.1 2.0 1.0 1.0 0 0 1", "3 1 3 0.1 2.0 1.0 1.0"), 29),
                  {"field 3 is '3'", "the atom type", "an integer from 1 to 2"});
  expect_mentions(error(with(kSmall, "3 1 2 0.1 2.0 1.0 1.0 0 0 1", "3 1 2 0.1 2.0 1.0 1.0 0"), 29),
                  {"has 8 fields", "expected 7 or 10"});
  expect_mentions(error(with(kSmall, "2 1 7 5", "2 2 7 5"), 43),
                  {"the bond type", "an integer from 1 to 1"});
  expect_mentions(error(with(kSmall, "2 1 7 5", "2 1 7 9"), 43),
                  {"names atom 9, which does not exist", "Atoms section (line 26)"});
  expect_mentions(error(with(kSmall, "2 1 7 5", "2 1 7 7"), 43), {"names atom 7 twice"});
  expect_mentions(error(with(kSmall, "5 2 2 0.1", "3 2 2 0.1"), 32),
                  {"atom id 3 appears a second time", "also on line 29"});
  expect_mentions(error(with(kSmall, "7 0.7 0.0 0.0", "5 0.7 0.0 0.0"), 37),
                  {"atom 5 has a second line in Velocities (the first is line 36)"});
  expect_mentions(error(with(kSmall, "2 1.008 # H", "1 1.008 # H"), 15),
                  {"atom type 1 has a second line in Masses"});
  expect_mentions(error(with(kSmall, "2 1.008 # H", "2 0 # H"), 15), {"a positive mass"});
  expect_mentions(error(with(kSmall, "1 300.0 1.1", "1 300.0 1.1 7.0"), 24),
                  {"has 3 coefficients", "expected 2 for bond style harmonic"});
  expect_mentions(error(with(kSmall, "2 0.02 1.0", "2 0.02 1.0 0.01"), 20),
                  {"has 3 coefficients", "2 (epsilon sigma) or 4"});
}

TEST_F(LammpsDataFile, StyleErrors) {
  LammpsDataStyles morse;
  morse.bond = "morse";
  expect_mentions(error(kSmall, 22, morse),
                  {"the Bond Coeffs section's comment names the bond style 'harmonic' but "
                   "system.topology.styles.bond is 'morse'"});
  const std::string unhinted = with(kSmall, "Bond Coeffs # harmonic", "Bond Coeffs");
  expect_mentions(error(unhinted, 22),
                  {"names no bond style", "system.topology.styles.bond", "one of: harmonic"});
  expect_mentions(error(unhinted, 22, morse),
                  {"bond style 'morse'", "not one the reader knows", "expected one of: harmonic"});
  expect_mentions(error(with(kSmall, "# lj/charmm/coul/long", "# born"), 17),
                  {"pair style 'born'", "expected lj_charmm"});
  LammpsDataStyles cut;
  cut.pair = "lj_cut";
  expect_mentions(error(kSmall, 17, cut), {"system.topology.styles.pair is 'lj_cut'"});
  expect_mentions(error(with(kSmall, " # lj/charmm/coul/long", ""), 17),
                  {"names no pair style", "system.topology.styles.pair"});
  expect_mentions(error(with(kSmall, "Atoms # full", "Atoms # bond"), 26),
                  {"atom style 'bond'", "expected one of: full, molecular, charge, atomic"});
  LammpsDataStyles atomic;
  atomic.atom = "atomic";
  expect_mentions(error(kSmall, 26, atomic), {"system.topology.styles.atom is 'atomic'"});
}

TEST(LammpsDataStyleNames, PairStyleFamilies) {
  using novamd::io::pair_style_family;
  EXPECT_EQ(pair_style_family("lj/charmm/coul/charmm"), "lj_charmm");
  EXPECT_EQ(pair_style_family("lj/charmm/coul/long"), "lj_charmm");
  EXPECT_EQ(pair_style_family("lj_charmmfsw_coul_charmmfsh"), "lj_charmm");
  EXPECT_EQ(pair_style_family("lj_charmm"), "lj_charmm");
  EXPECT_EQ(pair_style_family("lj/cut"), "lj_cut");
  EXPECT_EQ(pair_style_family("lj/cut/coul/long"), "lj_cut");
  EXPECT_FALSE(pair_style_family("lj/cutx").has_value());
  EXPECT_FALSE(pair_style_family("born").has_value());
}

}  // namespace
