// H5MD trajectories, read back with h5py (layout, per-field steps, exact doubles) and
// MDAnalysis's H5MDReader (positions, velocities, forces, box, unit conversion) through
// tests/scripts/read_trajectory.py: all fields at once, fields at their own frequencies, resume,
// and the unit strings of each unit system. Built where HDF5 is (NOVAMD_HAVE_HDF5);
// test_trajectory_writers.cpp checks open_trajectory's message elsewhere.

#ifdef NOVAMD_HAVE_HDF5

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "novamd/core/error.hpp"
#include "novamd/io/h5md_writer.hpp"
#include "support/cli_runner.hpp"
#include "support/inputs.hpp"
#include "support/trajectories.hpp"

namespace {

using novamd::core::RunError;
using novamd::io::FieldSet;
using novamd::io::H5mdWriter;
using novamd::io::XyzWriter;
using novamd::test::input_error_of;
using novamd::test::quoted;
using novamd::test::read_trajectory;
using novamd::test::TempDir;
using novamd::test::trajectory_open;
using novamd::test::two_species;
using novamd::test::write_frames;

constexpr FieldSet kAllFields{true, true, true};

/// "--steps FIELD=s0,s1,..." for the script.
std::string steps_arg(const char* field, const std::vector<std::int64_t>& steps) {
  return fmt::format(" --steps {}={}", field, fmt::join(steps, ","));
}

/// Frames of the same data with the same layout, for a reference.
struct H5mdRun {
  TempDir dir;
  std::filesystem::path file = dir.path() / "t.h5";
  std::filesystem::path reference = dir.path() / "ref.xyz";
  novamd::core::SpeciesTable species = two_species();
};

TEST(H5mdWriter, AllFieldsReadByH5pyAndMDAnalysis) {
  H5mdRun run;
  {
    H5mdWriter writer(trajectory_open(run.file, kAllFields, run.species, 0, 5));
    XyzWriter ref(run.reference, true, true, XyzWriter::kRoundTrip);
    write_frames(writer, &ref, run.species, 0, 4, 0, 5, [](int) { return kAllFields; });
  }
  const std::vector<std::int64_t> steps{0, 5, 10, 15};
  // h5py: layout, exact doubles; MDAnalysis with its defaults (it converts every field to its
  // units, so every field needs a unit it knows): float32
  EXPECT_EQ(read_trajectory(fmt::format(
                "h5md {} {} --species C,O{}{}{} --units position/value=Angstrom "
                "--units 'velocity/value=Angstrom fs-1' --units position/time=fs "
                "--units 'force/value=kcal mol-1 Angstrom-1' --units box/edges/value=Angstrom "
                "--mdanalysis --convert-units",
                quoted(run.file), quoted(run.reference), steps_arg("position", steps),
                steps_arg("velocity", steps), steps_arg("force", steps))),
            0);
}

TEST(H5mdWriter, MDAnalysisConvertsOurUnitStrings) {
  // Positions and velocities in `real` units: MDAnalysis must read "Angstrom", "Angstrom fs-1"
  // and "fs" as its Angstrom, Angstrom/fs and fs, and converts them to A/ps and ps.
  H5mdRun run;
  const FieldSet fields{true, true, false};
  {
    H5mdWriter writer(trajectory_open(run.file, fields, run.species, 10, 10));
    XyzWriter ref(run.reference, true, true, XyzWriter::kRoundTrip);
    write_frames(writer, &ref, run.species, 0, 3, 10, 10, [&](int) { return fields; });
  }
  EXPECT_EQ(read_trajectory(fmt::format("h5md {} {} --species C,O{}{} --mdanalysis --convert-units",
                                        quoted(run.file), quoted(run.reference),
                                        steps_arg("position", {10, 20, 30}),
                                        steps_arg("velocity", {10, 20, 30}))),
            0);
}

TEST(H5mdWriter, UnitStringsOfNuclearAndLennardJonesUnits) {
  H5mdRun run;
  const auto lj = run.dir.path() / "lj.h5";
  {
    H5mdWriter nuclear(
        trajectory_open(run.file, kAllFields, run.species, 0, 1, {}, "fm", "fm/c", "MeV"));
    H5mdWriter reduced(trajectory_open(lj, kAllFields, run.species, 0, 1, {}, "", "", ""));
    XyzWriter ref(run.reference, true, true, XyzWriter::kRoundTrip);
    write_frames(nuclear, &ref, run.species, 0, 2, 0, 1, [](int) { return kAllFields; });
    write_frames(reduced, nullptr, run.species, 0, 2, 0, 1, [](int) { return kAllFields; });
  }
  const std::string steps =
      steps_arg("position", {0, 1}) + steps_arg("velocity", {0, 1}) + steps_arg("force", {0, 1});
  // fm/c is "fm c-1" and fm per fm/c is c; MDAnalysis refuses unit strings it does not know even
  // with convert_units=False: the script registers them the way docs/user-guide.md shows
  EXPECT_EQ(read_trajectory(fmt::format(
                "h5md {} {} --species C,O{} --units position/value=fm --units velocity/value=c "
                "--units 'position/time=fm c-1' --units 'velocity/time=fm c-1' "
                "--units box/edges/value=fm --units 'force/value=MeV fm-1' --mdanalysis "
                "--register-unknown-units",
                quoted(run.file), quoted(run.reference), steps)),
            0);
  // reduced LJ units: no unit attribute anywhere; MDAnalysis reads it with convert_units=False
  EXPECT_EQ(read_trajectory(fmt::format(
                "h5md {} {} --species C,O{} --units position/value=none --units position/time=none "
                "--units velocity/value=none --units force/value=none --units box/edges/value=none "
                "--mdanalysis",
                quoted(lj), quoted(run.reference), steps)),
            0);
}

TEST(H5mdWriter, FieldsAtTheirOwnFrequencies) {
  // positions every step, velocities every other step, forces every third: each field's step
  // array holds its own steps, and the box follows the positions
  H5mdRun run;
  const auto fields_of = [](int k) { return FieldSet{true, k % 2 == 0, k % 3 == 0}; };
  {
    H5mdWriter writer(trajectory_open(run.file, kAllFields, run.species, 0, 1));
    XyzWriter ref(run.reference, true, true, XyzWriter::kRoundTrip);
    write_frames(writer, &ref, run.species, 0, 7, 0, 1, fields_of);
  }
  EXPECT_EQ(read_trajectory(
                fmt::format("h5md {} {} --species C,O{}{}{}", quoted(run.file),
                            quoted(run.reference), steps_arg("position", {0, 1, 2, 3, 4, 5, 6}),
                            steps_arg("velocity", {0, 2, 4, 6}), steps_arg("force", {0, 3, 6}))),
            0);
}

TEST(H5mdWriter, BoxFollowsTheFirstFieldWithoutPositions) {
  H5mdRun run;
  const FieldSet fields{false, true, true};
  const auto fields_of = [](int k) { return FieldSet{false, true, k % 2 == 1}; };
  {
    H5mdWriter writer(trajectory_open(run.file, fields, run.species, 0, 1));
    XyzWriter ref(run.reference, true, true, XyzWriter::kRoundTrip);
    write_frames(writer, &ref, run.species, 0, 4, 0, 1, fields_of);
  }
  EXPECT_EQ(read_trajectory(fmt::format("h5md {} {} --species C,O{}{}", quoted(run.file),
                                        quoted(run.reference), steps_arg("velocity", {0, 1, 2, 3}),
                                        steps_arg("force", {1, 3}))),
            0);
}

TEST(H5mdWriter, ResumeCutsEachFieldAndAppends) {
  H5mdRun run;
  const auto fields_of = [](int k) { return FieldSet{true, k % 2 == 0, false}; };
  const FieldSet fields{true, true, false};
  XyzWriter ref(run.reference, true, true, XyzWriter::kRoundTrip);
  {
    H5mdWriter writer(trajectory_open(run.file, fields, run.species, 0, 1));
    write_frames(writer, &ref, run.species, 0, 4, 0, 1, fields_of);     // steps 0 .. 3
    write_frames(writer, nullptr, run.species, 4, 6, 0, 1, fields_of);  // 4, 5: dropped
  }
  {
    H5mdWriter writer(trajectory_open(run.file, fields, run.species, 0, 1, 3));
    write_frames(writer, &ref, run.species, 4, 8, 0, 1, fields_of, 1);  // new data, 4 .. 7
  }
  // the values at steps 4 and 5 are the new ones (the script compares each step exactly)
  // (h5py only: MDAnalysis pairs frame k of every field, so it needs fields at one frequency)
  EXPECT_EQ(
      read_trajectory(fmt::format(
          "h5md {} {} --species C,O{}{}", quoted(run.file), quoted(run.reference),
          steps_arg("position", {0, 1, 2, 3, 4, 5, 6, 7}), steps_arg("velocity", {0, 2, 4, 6}))),
      0);
}

TEST(H5mdWriter, ResumeAddsAFieldAndRefusesAnotherBoxField) {
  H5mdRun run;
  const FieldSet positions{true, false, false};
  const FieldSet both{true, true, false};
  XyzWriter ref(run.reference, true, true, XyzWriter::kRoundTrip);
  {
    H5mdWriter writer(trajectory_open(run.file, positions, run.species, 0, 1));
    write_frames(writer, &ref, run.species, 0, 2, 0, 1, [&](int) { return positions; });
  }
  // the box follows the positions: a run without them cannot continue the file
  const auto velocities =
      trajectory_open(run.file, FieldSet{false, true, false}, run.species, 0, 1, 1);
  EXPECT_NE(input_error_of([&] { H5mdWriter w(velocities); }).find("its box follows position"),
            std::string::npos);
  {  // a run that adds velocities: the group is created and holds the new steps only
    H5mdWriter writer(trajectory_open(run.file, both, run.species, 0, 1, 1));
    write_frames(writer, &ref, run.species, 2, 4, 0, 1, [&](int) { return both; });
  }
  EXPECT_EQ(read_trajectory(fmt::format("h5md {} {} --species C,O{}{}", quoted(run.file),
                                        quoted(run.reference), steps_arg("position", {0, 1, 2, 3}),
                                        steps_arg("velocity", {2, 3}))),
            0);
}

TEST(H5mdWriter, FramesMustMatchTheFile) {
  H5mdRun run;
  H5mdWriter writer(trajectory_open(run.file, FieldSet{true, false, false}, run.species, 0, 1));
  const auto p = novamd::test::frame_particles(0);
  const auto box = novamd::test::box_of_frame(0);
  EXPECT_THROW(writer.write({0, 0.0, box, p, kAllFields}), RunError);
  novamd::core::ParticleData fewer = p;
  fewer.resize(10);
  EXPECT_THROW(writer.write({0, 0.0, box, fewer, FieldSet{true, false, false}}), RunError);
  EXPECT_NE(
      input_error_of([&] {
        H5mdWriter w(trajectory_open(run.dir.path() / "none.h5", FieldSet{}, run.species, 0, 1));
      }).find("at least one field"),
      std::string::npos);
  EXPECT_NE(input_error_of([&] {
              H5mdWriter w(trajectory_open("/nonexistent-dir/t.h5", kAllFields, run.species, 0, 1));
            }).find("cannot create"),
            std::string::npos);
}

}  // namespace

#endif  // NOVAMD_HAVE_HDF5
