/// @file fuzz_lammps_data.cpp
/// Fuzz target: the LAMMPS data file reader (io::read_lammps_data), the input given as a file,
/// with the styles of the CHARMM peptide example (the file's section comments may name others).
///
/// Bad input must end in core::InputError; any other exception, a crash, undefined behaviour or
/// a leak is a finding. The reader checks each header count against the file's size before it
/// allocates.

#include <cstddef>
#include <cstdint>

#include "memory_file.hpp"
#include "novamd/core/error.hpp"
#include "novamd/io/lammps_data.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static novamd::fuzz::MemoryFile file;
  static const novamd::io::LammpsDataStyles styles{std::nullopt, std::nullopt, "harmonic",
                                                   "charmm",     "charmm",     "harmonic"};
  file.assign(data, size);
  try {
    const auto topology = novamd::io::read_lammps_data(file.path(), styles);
    (void)topology;
  } catch (const novamd::core::InputError&) {
    // Rejected with a message: what bad input should get.
  }
  return 0;
}
