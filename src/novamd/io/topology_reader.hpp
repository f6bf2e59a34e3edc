#pragma once
/// @file topology_reader.hpp
/// Reads the topology file `system.topology` names, with the reader of its format.

#include "novamd/io/topology_file.hpp"
#include "novamd/io/topology_settings.hpp"

namespace novamd::io {

/// The file (and for AMBER its coordinates) read by the reader of `settings.format`.
/// @throws core::InputError naming the file and line of what is wrong.
TopologyFile read_topology_file(const TopologySettings& settings);

}  // namespace novamd::io
