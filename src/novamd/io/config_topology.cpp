#include "novamd/io/config_topology.hpp"

#include <fmt/format.h>

#include "novamd/io/hydrogen_mass.hpp"
#include "novamd/io/topology_reader.hpp"

namespace novamd::io {
namespace {

const NameList kTopologyKeys{"read",   "format",        "coordinates",
                             "styles", "special_bonds", "hydrogen_mass"};
const NameList kStyleKeys{"atom", "pair", "bond", "angle", "dihedral", "improper"};

/// The format from the file name where `format` is left out.
std::optional<std::string> format_from_extension(const std::filesystem::path& file) {
  const std::string ext = file.extension().string();
  const std::string name = file.filename().string();
  if (ext == ".prmtop" || ext == ".parm7" || ext == ".top") return "amber";
  if (ext == ".data" || ext == ".lmp" || name.rfind("data.", 0) == 0) return "lammps_data";
  return std::nullopt;
}

std::array<double, 3> parse_weights(const YamlReader& node) {
  const auto elements = node.elements();
  if (elements.size() != 3)
    node.fail(fmt::format("found {} numbers", elements.size()),
              "three scale factors [1-2, 1-3, 1-4], each from 0 to 1");
  std::array<double, 3> w{};
  for (int s = 0; s < 3; ++s) w[s] = elements[s].number(ValueRange::between(0.0, 1.0));
  return w;
}

SpecialBonds parse_special_bonds(const YamlReader& node) {
  node.check_keys({"lj", "coulomb"});
  SpecialBonds special;
  if (const auto lj = node.optional("lj")) special.lj = parse_weights(*lj);
  if (const auto coulomb = node.optional("coulomb")) special.coulomb = parse_weights(*coulomb);
  return special;
}

}  // namespace

TopologySettings parse_topology(const YamlReader& node, const std::filesystem::path& folder) {
  node.check_keys(kTopologyKeys);
  TopologySettings settings;
  const YamlReader read = node.required("read");
  settings.read = read.string();
  if (settings.read.is_relative()) settings.read = folder / settings.read;
  if (const auto format = node.optional("format")) {
    settings.format = format->choice({"lammps_data", "amber"});
  } else if (const auto guessed = format_from_extension(settings.read)) {
    settings.format = *guessed;
  } else {
    read.fail(fmt::format("the format of '{}' is not clear from its name", settings.read.string()),
              "a name ending in .data or .lmp (LAMMPS data) or .prmtop or .parm7 (AMBER), or "
              "system.topology.format: lammps_data | amber");
  }
  const bool amber = settings.format == "amber";
  if (const auto coordinates = node.optional("coordinates")) {
    if (!amber)
      coordinates->fail("a LAMMPS data file holds its own coordinates",
                        "coordinates only with format: amber");
    settings.coordinates = coordinates->string();
    if (settings.coordinates->is_relative()) settings.coordinates = folder / *settings.coordinates;
  } else if (amber) {
    node.fail("coordinates are missing", "coordinates: an AMBER inpcrd or rst7 file");
  }
  if (const auto styles = node.optional("styles")) {
    if (amber) styles->fail("an AMBER file states its own styles", "styles only with lammps_data");
    styles->check_keys(kStyleKeys);
    for (const auto& [kind, value] : styles->entries()) settings.styles[kind] = value.string();
  }
  if (const auto special = node.optional("special_bonds")) {
    if (amber)
      special->fail("an AMBER file states its own 1-4 scaling (SCEE, SCNB) and exclusions",
                    "special_bonds only with lammps_data");
    settings.special_bonds = parse_special_bonds(*special);
  }
  if (const auto mass = node.optional("hydrogen_mass"))
    settings.hydrogen_mass = mass->number(ValueRange::positive());
  TopologyFile file = read_topology_file(settings);
  if (settings.hydrogen_mass)
    file =
        repartition_hydrogen_mass(std::move(file), *settings.hydrogen_mass, settings.read.string());
  settings.file = std::make_shared<const TopologyFile>(std::move(file));
  return settings;
}

std::vector<forces::LennardJonesPair> lennard_jones_pairs(const TopologyFile& file) {
  std::vector<forces::LennardJonesPair> pairs;
  for (std::size_t t = 0; t < file.lj_by_type.size(); ++t) {
    if (!file.lj_by_type[t]) continue;
    const auto& name = file.types[t].name;
    pairs.push_back({name, name, file.lj_by_type[t]->epsilon, file.lj_by_type[t]->sigma});
  }
  for (const auto& p : file.lj_pairs) {
    if (p.type_a == p.type_b) continue;  // a like pair: as above
    pairs.push_back({file.types[p.type_a].name, file.types[p.type_b].name, p.coefficients.epsilon,
                     p.coefficients.sigma});
  }
  return pairs;
}

forces::Mixing mixing_of(const TopologyFile& file) {
  if (file.mixing)
    return *file.mixing == MixingRule::Geometric ? forces::Mixing::Geometric
                                                 : forces::Mixing::Arithmetic;
  if (file.format == "lammps_data" && file.pair_style == "lj_cut") return forces::Mixing::Geometric;
  return forces::Mixing::Arithmetic;
}

core::SpeciesTable species_of(const TopologyFile& file) {
  std::vector<core::Species> species;
  for (const auto& t : file.types) species.push_back({t.name, 0.0, t.mass, 0, t.atomic_number});
  return core::SpeciesTable(std::move(species));
}

}  // namespace novamd::io
