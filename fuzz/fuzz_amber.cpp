/// @file fuzz_amber.cpp
/// Fuzz target: the AMBER reader (io::read_amber), a prmtop and its inpcrd in one input: the
/// text before the first line "%COORDINATES" is the prmtop, the text after it the coordinates
/// (all of it the prmtop, and empty coordinates, where the line is missing).
///
/// Bad input must end in core::InputError; any other exception, a crash, undefined behaviour or
/// a leak is a finding. The reader bounds each section by POINTERS and the file's size before it
/// allocates.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "memory_file.hpp"
#include "novamd/core/error.hpp"
#include "novamd/io/amber_prmtop.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static novamd::fuzz::MemoryFile prmtop, coordinates;
  constexpr std::string_view kSeparator = "\n%COORDINATES\n";
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto split = input.find(kSeparator);
  const std::string_view top = input.substr(0, split);
  const std::string_view crd = split == std::string_view::npos
                                   ? std::string_view{}
                                   : input.substr(split + kSeparator.size());
  prmtop.assign(top.data(), top.size());
  coordinates.assign(crd.data(), crd.size());
  try {
    const auto topology = novamd::io::read_amber(prmtop.path(), coordinates.path());
    (void)topology;
  } catch (const novamd::core::InputError&) {
    // Rejected with a message: what bad input should get.
  }
  return 0;
}
