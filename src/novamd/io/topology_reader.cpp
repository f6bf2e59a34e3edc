#include "novamd/io/topology_reader.hpp"

#include "novamd/core/error.hpp"

namespace novamd::io {

TopologyFile read_topology_file(const TopologySettings& settings) {
  throw core::InputError(settings.read.string() + ": no reader for format '" + settings.format +
                         "' yet");
}

}  // namespace novamd::io
