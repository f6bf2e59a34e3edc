// The pair_table force term in the config: values, and the errors of the config and of the
// table files, each naming its file and line; a run refused so writes nothing.

#include <gtest/gtest.h>

#include <string>

#include "novamd/core/error.hpp"
#include "novamd/io/config.hpp"
#include "support/cli_runner.hpp"
#include "support/expect_has.hpp"
#include "support/pair_tables.hpp"

namespace {

using novamd::test::TempDir;

/// A config of two species whose forces are the `pair_table` block `table`.
std::string config_with(const std::string& table) {
  return "units: lj\n"
         "system:\n"
         "  density: 0.5\n"
         "  species: [{name: A, mass: 1}, {name: B, mass: 2}]\n"
         "  structure: {generate: {lattice: fcc, cells: 3, fractions: {A: 0.5, B: 0.5}}}\n"
         "  velocities: {temperature: 1.0}\n"
         "forces:\n"
         "  - pair_table: " +
         table +
         "\n"
         "integrator: {type: velocity_verlet, timestep: 0.005}\n"
         "run: {steps: 0}\n"
         "output: {thermo: {every: 1, file: thermo.csv}}\n";
}

/// A table file with sections LJ_AA, LJ_AB and LJ_BB, from 0.8 to 2.5 on 200 rows (RSQ).
std::string lj_table() {
  const auto lj = novamd::test::lj_pair(1.0, 1.0);
  return "# LJ\n" + novamd::test::table_section("LJ_AA", lj, 0.8, 2.5, 200) +
         novamd::test::table_section("LJ_AB", lj, 0.8, 2.5, 200) +
         novamd::test::table_section("LJ_BB", lj, 0.8, 2.5, 200);
}

constexpr const char* kPairs =
    "pairs: [{types: [A, A], keyword: LJ_AA}, {types: [A, B], keyword: LJ_AB, cutoff: 2.0}, "
    "{types: [B, B], keyword: LJ_BB}]";

std::string error_of(const TempDir& dir, const std::string& table) {
  try {
    novamd::io::parse_config(config_with(table), (dir.path() / "run.yaml").string());
  } catch (const novamd::core::InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ConfigPairTable, ReadsFilesRelativeToTheConfigAndResolvesEachCutoff) {
  TempDir dir;
  dir.write("lj.table", lj_table());
  const auto config = novamd::io::parse_config(
      config_with(std::string("{file: lj.table, interpolation: spline, points: 500, ") + kPairs +
                  "}"),
      (dir.path() / "run.yaml").string());
  const auto& t = std::get<novamd::forces::PairTableSettings>(config.forces.at(0));
  ASSERT_EQ(t.pairs.size(), 3u);
  EXPECT_EQ(t.interpolation, novamd::forces::TableInterpolation::Spline);
  EXPECT_EQ(t.points, 500);
  EXPECT_DOUBLE_EQ(t.pairs[0].cutoff, 2.5);  // the table's last distance
  EXPECT_DOUBLE_EQ(t.pairs[1].cutoff, 2.0);  // its own
  EXPECT_DOUBLE_EQ(t.cutoff, 2.5);           // the lists' range: the largest
  EXPECT_EQ(t.pairs[2].section->keyword, "LJ_BB");
  EXPECT_EQ(t.pairs[2].section->r.size(), 200u);
}

TEST(ConfigPairTable, AnUnknownSectionNamesTheFileAndTheNearestSection) {
  TempDir dir;
  dir.write("lj.table", lj_table());
  const auto e = error_of(dir, "{file: lj.table, pairs: [{types: [A, A], keyword: LJ_AC}]}");
  EXPECT_HAS(e, "run.yaml:8: forces[0].pair_table.pairs[0].keyword");
  EXPECT_HAS(e, "lj.table: no section 'LJ_AC'");
  EXPECT_HAS(e, "did you mean 'LJ_AA'?");
}

TEST(ConfigPairTable, MalformedTablesNameTheirFileAndLine) {
  TempDir dir;
  const auto lj = novamd::test::lj_pair(1.0, 1.0);
  std::string rows = novamd::test::table_section("LJ", lj, 0.8, 2.5, 5);
  // line 1 LJ, 2 parameters, 3 blank, 4-8 rows: the third row loses its force
  const auto third = rows.find("\n3 ");
  const auto end = rows.find('\n', third + 1);
  dir.write("short_row.table", rows.substr(0, rows.rfind(' ', end)) + rows.substr(end));
  dir.write("few_rows.table", "LJ\nN 10 R 0.8 2.5\n\n1 0.8 1.0 2.0\n");
  dir.write("bad_word.table", "LJ\nN 2 RQS 0.8 2.5\n\n1 0.8 1 1\n2 2.5 0 0\n");
  dir.write("descending.table", "LJ\nN 3\n\n1 0.8 1 1\n2 1.5 0 0\n3 1.2 0 0\n");
  const struct {
    const char* file;
    const char* message;
  } cases[] = {
      {"short_row.table",
       "short_row.table:6: found 3 fields; expected a row 'index r energy force'"},
      {"few_rows.table", "few_rows.table:4: section LJ ends after 1 of its 10 rows"},
      {"bad_word.table", "bad_word.table:2: unknown word 'RQS'"},
      {"descending.table", "descending.table:6: r = 1.2 does not increase"},
  };
  for (const auto& c : cases) {
    const auto e = error_of(dir, std::string("{file: ") + c.file +
                                     ", pairs: [{types: [A, A], keyword: LJ}, {types: [A, B], "
                                     "keyword: LJ}, {types: [B, B], keyword: LJ}]}");
    EXPECT_HAS(e, c.message);
    EXPECT_HAS(e, "forces[0].pair_table.pairs[0].keyword");
  }
}

TEST(ConfigPairTable, CutoffsOutsideTheTableAndMissingPairsAreRefused) {
  TempDir dir;
  dir.write("lj.table", lj_table());
  auto e = error_of(dir,
                    "{file: lj.table, pairs: [{types: [A, A], keyword: LJ_AA, cutoff: 3.0}, "
                    "{types: [A, B], keyword: LJ_AB}, {types: [B, B], keyword: LJ_BB}]}");
  EXPECT_HAS(e, "forces[0].pair_table.pairs[0].cutoff: the cutoff 3 lies outside table LJ_AA");
  e = error_of(dir, "{file: lj.table, pairs: [{types: [A, A], keyword: LJ_AA}]}");
  EXPECT_HAS(e, "no table for the species pair A B");
  e = error_of(dir, "{pairs: [{types: [A, A], keyword: LJ_AA}]}");
  EXPECT_HAS(e, "no table file for this pair");
  e = error_of(dir, std::string("{file: lj.table, interpolation: cubic, ") + kPairs + "}");
  EXPECT_HAS(e, "forces[0].pair_table.interpolation");
  EXPECT_HAS(e, "linear or spline");
}

TEST(ConfigPairTable, ARunWithABadTableExitsWithCode2AndWritesNothing) {
  TempDir dir;
  dir.write("lj.table", "LJ_AA\nN 3 R 0.8 2.5\n\n1 0.8 1 1\n2 1.6 x 0\n3 2.5 0 0\n");
  dir.write("run.yaml", config_with(std::string("{file: lj.table, ") + kPairs + "}"));
  const auto r = novamd::test::run_novamd("run run.yaml --backend cpu", dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_HAS(r.output, "lj.table:5: 'x' is not a finite number");
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "thermo.csv"));
}

TEST(ConfigPairTable, ARunWithATableWritesItsEnergyAsVdw) {
  TempDir dir;
  dir.write("lj.table", lj_table());
  std::string config = config_with(std::string("{file: lj.table, ") + kPairs + "}");
  config.replace(config.find("every: 1,"), 9, "every: 1, columns: [vdw_energy],");
  dir.write("run.yaml", config);
  const auto r = novamd::test::run_novamd("run run.yaml --backend cpu", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_HAS(r.output, "pair_table (3 pair entries, linear on each table's points");
  std::ifstream in(dir.path() / "thermo.csv");
  std::string header, row;
  std::getline(in, header);
  std::getline(in, row);
  EXPECT_HAS(header, "vdw_energy");
  EXPECT_FALSE(row.empty());
}

}  // namespace
