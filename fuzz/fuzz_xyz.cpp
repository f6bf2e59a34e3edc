/// @file fuzz_xyz.cpp
/// Fuzz target: the extended XYZ structure reader (io::read_xyz), the input given as a file.
///
/// Bad input must end in core::InputError; any other exception, a crash, undefined behaviour or
/// a leak is a finding. Inputs whose atom count exceeds kMaxAtoms are skipped: the reader sizes
/// its arrays from the count line before reading the atom lines (a known defect, fixed
/// separately), so a count of 2e9 allocates tens of GB before the missing lines are noticed.

#include <cctype>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "memory_file.hpp"
#include "novamd/core/error.hpp"
#include "novamd/core/species.hpp"
#include "novamd/io/xyz.hpp"

namespace {

constexpr std::int64_t kMaxAtoms = 1 << 16;

/// True when the first line is a number above kMaxAtoms.
bool count_too_large(std::string_view text) {
  std::string_view line = text.substr(0, text.find('\n'));
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front())))
    line.remove_prefix(1);
  std::int64_t count = 0;
  const auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), count);
  return ec == std::errc::result_out_of_range || (ec == std::errc() && count > kMaxAtoms);
}

/// The species the inputs may name: those of the examples and tests.
novamd::core::SpeciesTable fuzz_species() {
  return novamd::core::SpeciesTable(
      {novamd::core::Species{"C", 6.0, 12.0, 0}, novamd::core::Species{"O", 8.0, 16.0, 0},
       novamd::core::Species{"A", 0.0, 1.0, 0}, novamd::core::Species{"B", 0.0, 1.0, 0},
       novamd::core::Species{"n", 0.0, 939.6, -1}, novamd::core::Species{"p", 1.0, 938.3, 1}});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static novamd::fuzz::MemoryFile file;
  static const novamd::core::SpeciesTable species = fuzz_species();
  if (count_too_large(std::string_view(reinterpret_cast<const char*>(data), size))) return 0;
  file.assign(data, size);
  try {
    const novamd::io::XyzFrame frame = novamd::io::read_xyz(file.path(), species);
    (void)frame;
  } catch (const novamd::core::InputError&) {
    // Rejected with a message: what bad input should get.
  }
  return 0;
}
