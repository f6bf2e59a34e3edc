/// @file fuzz_xyz.cpp
/// Fuzz target: the extended XYZ structure reader (io::read_xyz), the input given as a file.
///
/// Bad input must end in core::InputError; any other exception, a crash, undefined behaviour or
/// a leak is a finding. Every input is read, whatever its count line says: the reader bounds the
/// count by what the file can hold before it allocates.

#include <cstddef>
#include <cstdint>

#include "memory_file.hpp"
#include "novamd/core/error.hpp"
#include "novamd/core/species.hpp"
#include "novamd/io/xyz.hpp"

namespace {

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
  file.assign(data, size);
  try {
    const novamd::io::XyzFrame frame = novamd::io::read_xyz(file.path(), species);
    (void)frame;
  } catch (const novamd::core::InputError&) {
    // Rejected with a message: what bad input should get.
  }
  return 0;
}
