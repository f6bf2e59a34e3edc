#include "novamd/io/topology_reader.hpp"

#include "novamd/io/amber_prmtop.hpp"
#include "novamd/io/lammps_data.hpp"

namespace novamd::io {
namespace {

std::optional<std::string> style(const TopologySettings& settings, std::string_view kind) {
  const auto found = settings.styles.find(kind);
  if (found == settings.styles.end()) return std::nullopt;
  return found->second;
}

}  // namespace

TopologyFile read_topology_file(const TopologySettings& settings) {
  if (settings.format == "amber") return read_amber(settings.read, *settings.coordinates);
  const LammpsDataStyles styles{style(settings, "atom"),     style(settings, "pair"),
                                style(settings, "bond"),     style(settings, "angle"),
                                style(settings, "dihedral"), style(settings, "improper")};
  return read_lammps_data(settings.read, styles);
}

}  // namespace novamd::io
