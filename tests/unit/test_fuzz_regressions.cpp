// Inputs the readers mishandled, found while writing the fuzz targets of fuzz/ and reproduced with
// them (each test names its target): each is now refused with a core::InputError that says what
// is wrong. The same inputs are in the seed corpus under fuzz/corpus/, so every fuzz run starts
// from them.

#include <gtest/gtest.h>

#include <string>

#include "novamd/core/error.hpp"
#include "novamd/io/amber_sections.hpp"
#include "novamd/io/checkpoint.hpp"
#include "novamd/io/config.hpp"
#include "support/expect_has.hpp"
#include "support/inputs.hpp"

namespace {

using novamd::io::config_differences;
using novamd::io::parse_config;
using novamd::test::input_error_of;

const std::string kConfig = R"(units: nuclear
system:
  box: 100.0
  species: [{name: C, charge: 6, mass: 11177.93}]
  structure: {generate: {counts: {C: 10}}}
  velocities: {temperature: 0.001}
forces:
  - yukawa: {screening_length: 10.0}
integrator: {type: velocity_verlet, timestep: 200.0}
run: {steps: 10}
)";

/// kConfig with `from` replaced by `to`.
std::string with(const std::string& from, const std::string& to) {
  std::string text = kConfig;
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

std::string config_error(const std::string& text) {
  return input_error_of([&] { parse_config(text, "fuzz.yaml"); });
}

// fuzz_config: a quantity with a unit ("1.2e7 K") cut the unit from after the blanks; with
// nothing after them, std::string::substr threw std::out_of_range (novamd exited 1 with
// "basic_string::substr: __pos ..."). Without a unit it is a quoted number, as "0.001" is.
TEST(FuzzRegressions, QuantityWithTrailingBlankIsAQuotedNumber) {
  EXPECT_HAS(config_error(with("temperature: 0.001", "temperature: \"0.001 \"")),
             "fuzz.yaml:6: system.velocities.temperature: '0.001 ' is quoted, so a string");
  EXPECT_HAS(config_error(with("box: 100.0", "density: \"1e9   \"")),
             "fuzz.yaml:3: system.density: '1e9   ' is quoted, so a string");
}

// fuzz_config (finite-quantity check): a unit could scale a finite number past the largest
// double, and the infinite temperature or density was accepted.
TEST(FuzzRegressions, QuantityScaledPastInfinityIsOutOfRange) {
  EXPECT_HAS(config_error(with("temperature: 0.001", "temperature: \"1e308 MeV\"")),
             "system.velocities.temperature: inf is out of range");
}

// fuzz_config (finite-quantity check): run.walltime "nan" and "inf" (which std::from_chars
// reads) and an overflowing "1e308:00" were accepted as durations.
TEST(FuzzRegressions, WalltimeMustBeFinite) {
  for (const char* walltime : {"nan", "inf", "-nan", "infinity", "1e308:00", "1e308:00:00"}) {
    const std::string text =
        with("run: {steps: 10}", std::string("run: {steps: 10, walltime: \"") + walltime + "\"}");
    EXPECT_HAS(config_error(text),
               std::string("run.walltime: '") + walltime + "' is not a duration");
  }
}

// fuzz_checkpoint_content: the config stored in a checkpoint is YAML read back from the file; an
// alias inside its own anchor made config_differences recurse until the stack overflowed.
TEST(FuzzRegressions, CheckpointConfigContainingItselfIsRefused) {
  for (const char* stored : {"&a {x: *a}", "a: &b [1, *b]", "a: {b: &c [{d: *c}]}"}) {
    const std::string message = input_error_of([&] { config_differences(stored, kConfig); });
    EXPECT_HAS(message, "the config stored in the checkpoint is nested more than 64 levels deep");
  }
}

// The same walk, made exponential by aliases of aliases: each level doubles the values below.
TEST(FuzzRegressions, CheckpointConfigRepeatedByAliasesIsRefused) {
  std::string stored = "a0: &a0 [1, 2, 3, 4, 5, 6, 7, 8]\n";
  for (int level = 1; level <= 30; ++level) {
    const std::string below = "*a" + std::to_string(level - 1);
    stored += "a" + std::to_string(level) + ": &a" + std::to_string(level) + " [" + below + ", " +
              below + "]\n";
  }
  const std::string message = input_error_of([&] { config_differences(stored, kConfig); });
  EXPECT_HAS(message, "the config stored in the checkpoint holds more than 10000 values");
}

// The limits leave real configs alone: a config with aliases (as people write them) still
// compares equal to itself.
TEST(FuzzRegressions, ConfigWithAliasesStillCompares) {
  const std::string aliased = with("integrator: {type: velocity_verlet, timestep: 200.0}",
                                   "integrator: &i {type: velocity_verlet, timestep: 200.0}\n"
                                   "x-copy: *i");
  EXPECT_TRUE(config_differences(aliased, aliased).empty());
  EXPECT_TRUE(config_differences(kConfig, kConfig).empty());
}

}  // namespace

// fuzz_amber: a %FORMAT count of many digits (8888...10I8) overflowed the int it was read into
// (undefined behaviour, caught by UBSan). Counts and widths over 1000 are refused, however many
// digits they have; the section then names the format it cannot read.
TEST(FuzzRegressions, AmberFormatWithAHugeCountIsRefused) {
  EXPECT_FALSE(novamd::io::parse_fortran_format(std::string(70, '8') + "10I8"));
  EXPECT_FALSE(novamd::io::parse_fortran_format("10I" + std::string(40, '9')));
  EXPECT_FALSE(novamd::io::parse_fortran_format("1001I8"));
  const auto ok = novamd::io::parse_fortran_format("1000I8");
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->count, 1000);
  EXPECT_EQ(ok->width, 8);
}
