/// @file fuzz_config.cpp
/// Fuzz target: the config reader (io::parse_config) on YAML text, with `--set` overrides.
///
/// Lines of the input that start with "#set " (YAML comments, so the document is unchanged) are
/// taken as overrides `key.path=value`, as `novamd run --set` passes them. Bad input must end in
/// core::InputError; any other exception, a crash, undefined behaviour or a leak is a finding.
///
/// Besides: the text is compared with itself as a restart compares the config stored in a
/// checkpoint, which may be any YAML, with the run's (io::config_differences). A config that reads
/// must hold finite, positive quantities where a run divides or steps by them (check_quantities),
/// and its effective YAML, which a checkpoint stores, must compare equal to itself.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "novamd/core/error.hpp"
#include "novamd/io/checkpoint.hpp"
#include "novamd/io/config.hpp"

namespace {

constexpr std::string_view kOverridePrefix = "#set ";
constexpr std::size_t kMaxOverrides = 8;

std::vector<novamd::io::Override> overrides_in(std::string_view text) {
  std::vector<novamd::io::Override> overrides;
  while (!text.empty() && overrides.size() < kMaxOverrides) {
    const std::size_t end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    if (line.starts_with(kOverridePrefix)) {
      const std::string_view assignment = line.substr(kOverridePrefix.size());
      const std::size_t equals = assignment.find('=');
      if (equals != std::string_view::npos)
        overrides.push_back({std::string(assignment.substr(0, equals)),
                             std::string(assignment.substr(equals + 1))});
    }
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return overrides;
}

[[noreturn]] void finding(const char* what, double value) {
  std::fprintf(stderr, "the config reader accepted %s = %g\n", what, value);
  std::abort();
}

void check_positive(const char* what, double value) {
  if (!(std::isfinite(value) && value > 0.0)) finding(what, value);
}

void check_non_negative(const char* what, double value) {
  if (!(std::isfinite(value) && value >= 0.0)) finding(what, value);
}

/// The quantities a run takes as they are: finite, and positive where they must be.
void check_quantities(const novamd::io::Config& config) {
  const auto& system = config.system;
  if (system.box)
    for (const double edge : *system.box) check_positive("a box edge", edge);
  if (system.density) check_positive("system.density", *system.density);
  if (system.mass_density) check_positive("system.density (mass)", *system.mass_density);
  for (const auto& species : system.species.all()) {
    check_positive("a species mass", species.mass);
    if (!std::isfinite(species.charge)) finding("a species charge", species.charge);
  }
  if (system.velocities.temperature)
    check_non_negative("system.velocities.temperature", *system.velocities.temperature);
  if (system.structure.generate)
    check_non_negative("min_separation", system.structure.generate->min_separation);
  const auto& integrator = config.integrator;
  check_positive("integrator.timestep", integrator.timestep);
  if (integrator.temperature) check_positive("integrator.temperature", *integrator.temperature);
  check_non_negative("integrator.friction", integrator.friction);
  check_non_negative("integrator.tau", integrator.tau);
  if (config.run.walltime) check_positive("run.walltime", *config.run.walltime);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)novamd::io::config_differences(text, text);
  } catch (const novamd::core::InputError&) {
    // Not YAML, or past the limits on a stored config.
  }
  try {
    const novamd::io::Config config = novamd::io::parse_config(text, "<fuzz>", overrides_in(text));
    check_quantities(config);
    const auto differences =
        novamd::io::config_differences(config.effective_yaml, config.effective_yaml);
    if (!differences.empty()) {
      std::fprintf(stderr, "the effective YAML differs from itself: %s\n",
                   differences.front().c_str());
      std::abort();
    }
  } catch (const novamd::core::InputError&) {
    // Rejected with a message: what bad input should get.
  }
  return 0;
}
