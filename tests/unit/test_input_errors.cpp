// Bad input is refused with a message a person can act on: the file and line, the offending
// text cut and escaped, a caret under a YAML syntax error; inputs that used to be accepted
// silently (a second YAML document, YAML tags, empty or out-of-range command-line values, an
// endless config file) are errors with exit code 2.

#include <gtest/gtest.h>

#include <string>

#include "novamd/core/error.hpp"
#include "novamd/core/excerpt.hpp"
#include "novamd/io/config.hpp"
#include "support/cli_runner.hpp"

namespace {

using novamd::core::InputError;
using novamd::test::run_novamd;
using novamd::test::TempDir;

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// The message of the InputError that parsing `yaml` throws ("" if none).
std::string error_of(const std::string& yaml) {
  try {
    novamd::io::parse_config(yaml, "c.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

const std::string kLj = R"(units: lj
system:
  box: [10, 10, 10]
  species: [{name: Ar, mass: 1}]
  structure: {generate: {lattice: random, counts: {Ar: 10}, min_separation: 0.5}}
forces:
  - lennard_jones: {pairs: [{types: [Ar, Ar], epsilon: 1, sigma: 1}], cutoff: 2.5}
integrator: {type: velocity_verlet, timestep: 0.005}
run: {steps: 10}
)";

std::string with(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(Excerpt, EscapesControlBytesKeepsUtf8AndCutsLongText) {
  using novamd::core::excerpt;
  EXPECT_EQ(excerpt(std::string("a\0b\n\x01", 5)), "a\\0b\\n\\x01");
  EXPECT_EQ(excerpt("Å ok"), "Å ok");
  EXPECT_EQ(excerpt("\xff\xfe"), "\\xff\\xfe");
  const std::string big(100000, 'x');
  EXPECT_EQ(excerpt(big), std::string(60, 'x') + " ... (100000 bytes)");
}

TEST(InputErrors, YamlSyntaxErrorShowsTheLineWithACaret) {
  const std::string message = error_of(with(kLj, "box: [10, 10, 10]", "box: [10, 10, 10"));
  EXPECT_TRUE(has(message, "c.yaml:")) << message;
  EXPECT_TRUE(has(message, "YAML syntax error")) << message;
  EXPECT_TRUE(has(message, " | ")) << message;
  EXPECT_TRUE(has(message, "^")) << message;
}

TEST(InputErrors, SecondYamlDocumentIsRefused) {
  const std::string message = error_of(kLj + "---\nunits: real\n");
  EXPECT_TRUE(has(message, "c.yaml:10: a second YAML document")) << message;
  EXPECT_EQ(error_of(kLj + "---\n"), "");  // an empty document after a final --- is harmless
}

TEST(InputErrors, TextOnWhichYamlLoadAllNeverReturnsIsReadOnce) {
  // Found by fuzz_config: yaml-cpp 0.7's LoadAll loops forever on this text (allocating).
  const std::string text = ",set sysM-_tem.structuneighbor_list_builds=8\n#set es0rf.co."
                           "ytkawa.cutoff=2.5\n#se{ 1.0, 0\"}";
  EXPECT_TRUE(has(error_of(text), "c.yaml")) << error_of(text);
  EXPECT_TRUE(has(error_of("units: lj\n...\nfoo: 1\n"), "c.yaml:2: a second YAML document"));
}

TEST(InputErrors, YamlTagsAreRefusedAndQuotedIsNotSaidOfThem) {
  std::string message = error_of(with(kLj, "units: lj", "units: !!int lj"));
  EXPECT_TRUE(has(message, "c.yaml:1: units: the YAML tag 'tag:yaml.org,2002:int' is not "
                           "supported"))
      << message;
  message = error_of(with(kLj, "timestep: 0.005", "timestep: !!int 0.005"));
  EXPECT_TRUE(has(message, "integrator.timestep: the YAML tag")) << message;
  EXPECT_FALSE(has(message, "quoted")) << message;
  message = error_of(with(kLj, "timestep: 0.005", "timestep: \"0.005\""));
  EXPECT_TRUE(has(message, "is quoted, so a string")) << message;
}

TEST(InputErrors, HugeValuesAndControlBytesAreCutAndEscaped) {
  const std::string huge(100000, 'z');
  std::string message = error_of(with(kLj, "units: lj", "units: " + huge));
  EXPECT_LT(message.size(), 400u) << message.substr(0, 400);
  EXPECT_TRUE(has(message, "(100000 bytes)")) << message.substr(0, 400);
  message = error_of(with(kLj, "units: lj", std::string("units: \"l\\0j\"")));
  EXPECT_TRUE(has(message, "control character 0x00")) << message;
  EXPECT_FALSE(has(message, std::string(1, '\0')));
}

TEST(InputErrors, OverflowingBoxIsNamedForItsVolume) {
  const std::string message = error_of(with(kLj, "box: [10, 10, 10]", "box: 1e200"));
  EXPECT_TRUE(has(message, "c.yaml:3: system.box: the box [1e+200, 1e+200, 1e+200] has a volume "
                           "of inf"))
      << message;
}

TEST(InputErrors, CutoffAndMinSeparationErrorsNameFileAndLineWhenTheBoxComesFromDensity) {
  TempDir dir;
  std::string config = with(kLj, "  box: [10, 10, 10]\n", "  density: 0.8\n");
  dir.write("cut.yaml", with(config, "cutoff: 2.5", "cutoff: 20"));
  auto r = run_novamd("run cut.yaml --backend cpu", dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(has(r.output, "cut.yaml:7: forces[0].lennard_jones.cutoff: 20 exceeds half the "
                            "shortest box edge"))
      << r.output;
  dir.write("sep.yaml", with(config, "min_separation: 0.5", "min_separation: 5"));
  r = run_novamd("run sep.yaml --backend cpu", dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(has(r.output, "sep.yaml:5: system.structure.generate.min_separation: placed"))
      << r.output;
}

TEST(InputErrors, CommandLineValuesThatUsedToBeIgnored) {
  TempDir dir;
  dir.write("c.yaml", kLj);
  const char* refused[] = {
      "run c.yaml --steps ''",     "run c.yaml --restart ''",  "bench --steps 0",
      "bench --steps -1",          "bench --warmup -1",        "bench --sizes 100000000000",
  };
  for (const char* args : refused) {
    const auto r = run_novamd(args, dir.path());
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output;
    EXPECT_FALSE(has(r.output, "internal error")) << args << "\n" << r.output;
  }
}

TEST(InputErrors, EndlessConfigFileIsRefused) {
  TempDir dir;
  const auto r = run_novamd("run /dev/zero", dir.path());  // used to read forever
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(has(r.output, "config file '/dev/zero' is larger than")) << r.output;
}

}  // namespace
