/// @file fuzz_checkpoint_content.cpp
/// Fuzz target: the checkpoint content parser, and what a restart does with the content's
/// config (io::config_differences). The input is the content alone (the bytes between header
/// and checksum, docs/file-formats.md); the target wraps it in a valid header (magic, version,
/// byte-order mark, content length) and appends its CRC-32, so that every input gets past the
/// checksum to the parser: once as format version 1 (fixed particle arrays) and once as
/// version 2 (particle fields by name), so both parsers see every input.
///
/// Bad input must end in core::InputError; any other exception, a crash, undefined behaviour or
/// a leak is a finding. The content values themselves (ids, box, step, finite numbers) are not
/// checked here: read_checkpoint returns them as stored.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "memory_file.hpp"
#include "novamd/core/error.hpp"
#include "novamd/io/binary_io.hpp"
#include "novamd/io/checkpoint.hpp"

namespace {

/// The effective config of a small run, as a restart compares the stored one with it.
constexpr const char* kRunYaml = R"(units: lj
system:
  species: [{name: A, mass: 1.0, charge: 1.0}]
  structure: {generate: {lattice: random, counts: {A: 8}}}
  box: 6.0
forces:
  - yukawa: {screening_length: 1.0}
integrator: {type: velocity_verlet, timestep: 0.001}
run: {steps: 2}
)";

/// Header, `content`, CRC-32: a checkpoint file whose frame is valid whatever the content.
std::vector<unsigned char> framed(const std::uint8_t* content, std::size_t size,
                                  std::uint32_t version) {
  novamd::io::BinaryWriter out;
  out.bytes("NOVAMDCK", 8);
  out.u32(version);
  out.u32(novamd::io::kByteOrderMark);
  out.u64(size);
  out.bytes(content, size);
  out.u32(novamd::io::crc32_of(out.buffer()));
  return out.buffer();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static novamd::fuzz::MemoryFile file;
  for (const std::uint32_t version : {1u, 2u}) {
    const std::vector<unsigned char> bytes = framed(data, size, version);
    file.assign(bytes.data(), bytes.size());
    try {
      const novamd::io::CheckpointData checkpoint = novamd::io::read_checkpoint(file.path());
      (void)novamd::io::config_differences(checkpoint.config_yaml, kRunYaml);
    } catch (const novamd::core::InputError&) {
      // Rejected with a message: what bad input should get.
    }
  }
  return 0;
}
