/// @file fuzz_checkpoint.cpp
/// Fuzz target: the checkpoint reader (io::read_checkpoint) on raw file bytes: the header
/// checks (magic, byte-order mark, version, content length) and the CRC-32. Mutations of a
/// real checkpoint mostly fail the checksum here; fuzz_checkpoint_content.cpp reaches the
/// content parser behind it.
///
/// Bad input must end in core::InputError; any other exception, a crash, undefined behaviour or
/// a leak is a finding.

#include <cstddef>
#include <cstdint>

#include "memory_file.hpp"
#include "novamd/core/error.hpp"
#include "novamd/io/checkpoint.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static novamd::fuzz::MemoryFile file;
  file.assign(data, size);
  try {
    const novamd::io::CheckpointData checkpoint = novamd::io::read_checkpoint(file.path());
    (void)checkpoint;
  } catch (const novamd::core::InputError&) {
    // Rejected with a message: what bad input should get.
  }
  return 0;
}
