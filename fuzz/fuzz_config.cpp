/// @file fuzz_config.cpp
/// Fuzz target: the config reader (io::parse_config) on YAML text, with `--set` overrides.
///
/// Lines of the input that start with "#set " (YAML comments, so the document is unchanged) are
/// taken as overrides `key.path=value`, as `novamd run --set` passes them. Bad input must end in
/// core::InputError; any other exception, a crash, undefined behaviour or a leak is a finding.
/// A config that reads must also survive what a checkpoint does with it: its effective YAML,
/// compared with itself as a restart compares configs, shows no difference.

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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const novamd::io::Config config = novamd::io::parse_config(text, "<fuzz>", overrides_in(text));
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
