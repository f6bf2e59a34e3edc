#include "novamd/io/config.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <fstream>
#include <limits>
#include <memory>
#include <numeric>
#include <set>
#include <sstream>

#include "novamd/analysis/plasma.hpp"
#include "novamd/core/elements.hpp"
#include "novamd/core/error.hpp"
#include "novamd/core/physical_scales.hpp"
#include "novamd/io/config_analysis.hpp"
#include "novamd/io/config_components.hpp"
#include "novamd/io/config_dynamics.hpp"
#include "novamd/io/config_forces.hpp"
#include "novamd/io/config_overrides.hpp"
#include "novamd/io/config_parallel.hpp"
#include "novamd/io/config_quantities.hpp"
#include "novamd/io/config_rigid_sites.hpp"
#include "novamd/io/config_species.hpp"
#include "novamd/io/config_topology.hpp"
#include "novamd/io/yaml_document.hpp"
#include "novamd/io/yaml_reader.hpp"

namespace novamd::io {
namespace {

/// Particle ids are 32-bit: no run holds more particles.
constexpr std::int64_t kMaxParticles = std::numeric_limits<std::int32_t>::max();
/// Fractions must add up to 1 within this.
constexpr double kFractionTolerance = 1e-6;

const NameList kRootKeys{"units",    "backend",   "precision",   "seed",    "system",
                         "forces",   "neighbors", "integrator",  "run",     "output",
                         "analysis", "parallel",  "constraints", "barostat"};
const NameList kSystemKeys{"box",        "density",  "species",   "structure",
                           "velocities", "topology", "components"};
const NameList kSpeciesKeys{"name", "element", "mass_number", "charge", "mass", "isospin"};
const NameList kStructureKeys{"generate", "read", "format"};
const NameList kGenerateKeys{"lattice", "counts", "fractions", "total", "cells", "min_separation"};

/// "run.yaml:12: system.structure.generate": the node's key path with its file and line.
std::string located_key(const YamlReader& node) {
  std::string where = node.location();
  if (where.ends_with(": ")) where.resize(where.size() - 2);
  return where;
}
const NameList kLattices{"random", "sc", "bcc", "fcc"};

/// Sites per cubic cell (sc 1, bcc 2, fcc 4); 0 for random positions.
int basis_size(const std::string& lattice) {
  if (lattice == "sc") return 1;
  if (lattice == "bcc") return 2;
  if (lattice == "fcc") return 4;
  return 0;
}

// --- system.species ----------------------------------------------------------------------------

/// The nucleus of `element` (with `mass_number`, else the most abundant isotope) as a species:
/// name "C" (or "Ne22" for another isotope), charge Z, the bare nucleus's mass.
core::Species element_species(const YamlReader& node, const core::UnitSystem& units) {
  const YamlReader element = node.required("element");
  const std::string symbol = element.string();
  const auto symbols = core::element_symbols();
  const NameList known(symbols.begin(), symbols.end());
  if (core::mass_numbers_of(symbol).empty()) {
    const auto near = nearest_name(symbol, known);
    element.fail(fmt::format("unknown element '{}'{}", symbol,
                             near ? fmt::format(" (did you mean '{}'?)", *near) : ""),
                 "an element symbol from H to Zr, e.g. C, O, Ne, Fe");
  }
  std::optional<int> mass_number;
  if (const auto a = node.optional("mass_number"))
    mass_number = static_cast<int>(a->integer(ValueRange::between(1, 300)));
  const auto isotope = core::find_isotope(symbol, mass_number);
  if (!isotope) {
    std::string numbers;
    for (int a : core::mass_numbers_of(symbol))
      numbers += fmt::format("{}{}", numbers.empty() ? "" : ", ", a);
    node.key_reader("mass_number")
        .fail(fmt::format("the element table has no {}{}", symbol, *mass_number),
              fmt::format("one of {} (or no mass_number: the most abundant isotope)", numbers));
  }
  const auto scales = core::physical_scales(units);
  if (!scales)
    element.fail(fmt::format("units: {} have no atomic masses", units.name),
                 "units: nuclear or real for species given by element, or name, charge and mass");
  core::Species species;
  species.name =
      isotope->most_abundant ? symbol : fmt::format("{}{}", symbol, isotope->mass_number);
  species.charge = isotope->charge;
  species.mass =
      isotope->atomic_mass * scales->atomic_mass_unit - isotope->charge * scales->electron_mass;
  return species;
}
core::Species parse_one_species(const YamlReader& node, const std::vector<core::Species>& before,
                                const core::UnitSystem& units) {
  node.check_keys(kSpeciesKeys);
  const bool by_element = node.has("element");
  if (!by_element && node.has("mass_number"))
    node.key_reader("mass_number").fail("mass_number needs an element", "element: SYMBOL");
  core::Species species = by_element ? element_species(node, units) : core::Species{};
  const auto name = by_element ? node.optional("name") : std::optional(node.required("name"));
  if (name) species.name = name->string();
  const YamlReader& name_node = name ? *name : node.required("element");
  if (std::any_of(species.name.begin(), species.name.end(),
                  [](unsigned char c) { return std::isspace(c) != 0; }))
    name_node.fail(fmt::format("'{}' contains a space", species.name), "a name without spaces");
  for (const core::Species& other : before) {
    if (other.name == species.name)
      name_node.fail(fmt::format("species '{}' is declared twice", species.name),
                     by_element ? "unique names (give one with name:)" : "unique names");
  }
  species.charge = node.number_or("charge", species.charge, ValueRange::any());
  species.mass = by_element ? node.number_or("mass", species.mass, ValueRange::positive())
                            : node.required("mass").number(ValueRange::positive());
  if (const auto isospin = node.optional("isospin")) {
    const std::int64_t tau = isospin->integer();
    if (tau < -1 || tau > 1)
      isospin->fail(fmt::format("{} is not an isospin", tau),
                    "+1 (proton), -1 (neutron) or 0 (not a nucleon)");
    species.isospin = static_cast<int>(tau);
  }
  return species;
}

core::SpeciesTable parse_species(const YamlReader& node, const core::UnitSystem& units) {
  const std::vector<YamlReader> elements = node.elements();
  if (elements.empty()) node.fail("the list is empty", "at least one species");
  std::vector<core::Species> species;
  for (const YamlReader& element : elements)
    species.push_back(parse_one_species(element, species, units));
  return core::SpeciesTable(std::move(species));
}

// --- system.structure.generate -----------------------------------------------------------------

NameList species_names(const core::SpeciesTable& species) {
  NameList names;
  for (const core::Species& s : species.all()) names.push_back(s.name);
  return names;
}

/// Counts in declaration order of the species.
std::vector<std::pair<std::string, std::int64_t>> in_declaration_order(
    std::vector<std::pair<int, std::int64_t>> counts, const core::SpeciesTable& species) {
  std::sort(counts.begin(), counts.end());
  std::vector<std::pair<std::string, std::int64_t>> result;
  for (const auto& [type, count] : counts) result.emplace_back(species[type].name, count);
  return result;
}

std::int64_t sum_of(const std::vector<std::pair<std::string, std::int64_t>>& counts) {
  std::int64_t sum = 0;
  for (const auto& entry : counts) sum += entry.second;
  return sum;
}

std::vector<std::pair<std::string, std::int64_t>> parse_counts(const YamlReader& node,
                                                               const core::SpeciesTable& species) {
  std::vector<std::pair<int, std::int64_t>> counts;
  for (const auto& [type, value] : species_entries(node, species))
    counts.emplace_back(type, value.integer(ValueRange::between(1, double(kMaxParticles))));
  auto result = in_declaration_order(std::move(counts), species);
  if (sum_of(result) > kMaxParticles)
    node.fail(fmt::format("the counts add up to {}", sum_of(result)),
              fmt::format("at most {} particles", kMaxParticles));
  return result;
}

/// Splits `total` by `fractions` (type id, fraction) by largest remainder: the counts add up to
/// exactly `total`; ties go to the species declared first.
std::vector<std::pair<std::string, std::int64_t>> apportion(
    const std::vector<std::pair<int, double>>& fractions, std::int64_t total,
    const core::SpeciesTable& species) {
  double fraction_sum = 0.0;
  for (const auto& entry : fractions) fraction_sum += entry.second;
  std::vector<std::pair<int, std::int64_t>> counts;
  std::vector<std::pair<double, int>> remainders;  // (remainder, type id)
  std::int64_t assigned = 0;
  for (const auto& [type, fraction] : fractions) {
    const double exact = fraction / fraction_sum * static_cast<double>(total);
    const auto whole = static_cast<std::int64_t>(std::floor(exact));
    counts.emplace_back(type, whole);
    remainders.emplace_back(exact - static_cast<double>(whole), type);
    assigned += whole;
  }
  std::stable_sort(remainders.begin(), remainders.end(), [](const auto& a, const auto& b) {
    return a.first > b.first || (a.first == b.first && a.second < b.second);
  });
  for (std::size_t i = 0; assigned < total && i < remainders.size(); ++i, ++assigned) {
    for (auto& entry : counts)
      if (entry.first == remainders[i].second) ++entry.second;
  }
  return in_declaration_order(std::move(counts), species);
}

std::vector<std::pair<int, double>> parse_fractions(const YamlReader& node,
                                                    const core::SpeciesTable& species) {
  std::vector<std::pair<int, double>> fractions;
  double sum = 0.0;
  const ValueRange unit_interval{0.0, true, 1.0, false};
  for (const auto& [type, value] : species_entries(node, species)) {
    fractions.emplace_back(type, value.number(unit_interval));
    sum += fractions.back().second;
  }
  if (std::abs(sum - 1.0) > kFractionTolerance)
    node.fail(fmt::format("the fractions add up to {}", sum),
              "fractions adding up to 1 (within 1e-6)");
  std::sort(fractions.begin(), fractions.end());
  return fractions;
}

std::array<int, 3> parse_cells(const YamlReader& node) {
  const std::string expected = "a positive integer or a list of 1 or 3 positive integers";
  const ValueRange range = ValueRange::between(1, double(kMaxParticles));
  if (node.is_scalar()) {
    const int n = static_cast<int>(node.integer(range));
    return {n, n, n};
  }
  if (!node.is_list()) node.fail_type(expected);
  const std::vector<YamlReader> elements = node.elements();
  if (elements.size() != 1 && elements.size() != 3)
    node.fail(fmt::format("found a list of {}", elements.size()), expected);
  std::array<int, 3> cells{};
  for (std::size_t axis = 0; axis < 3; ++axis)
    cells[axis] = static_cast<int>(elements[elements.size() == 1 ? 0 : axis].integer(range));
  return cells;
}

/// basis x nx x ny x nz, checked against the particle limit.
std::int64_t lattice_sites(const YamlReader& node, const std::array<int, 3>& cells, int basis) {
  const double sites = double(basis) * cells[0] * cells[1] * cells[2];
  if (sites > double(kMaxParticles))
    node.fail(fmt::format("{} x {} x {} cells of {} sites hold {} particles", cells[0], cells[1],
                          cells[2], basis, sites),
              fmt::format("at most {} particles", kMaxParticles));
  return static_cast<std::int64_t>(sites);
}

/// `counts`, or `fractions` x (`total` or the lattice sites), checked against each other.
std::vector<std::pair<std::string, std::int64_t>> parse_composition(
    const YamlReader& node, const core::SpeciesTable& species, std::optional<std::int64_t> sites) {
  const auto counts = node.optional("counts");
  const auto fractions = node.optional("fractions");
  const auto total_node = node.optional("total");
  if (counts && fractions)
    node.key_reader("fractions")
        .fail("cannot be given together with counts", "either counts or fractions");
  if (!counts && !fractions) node.fail("neither counts nor fractions is given", "one of them");
  std::optional<std::int64_t> total;
  if (total_node) total = total_node->integer(ValueRange::between(1, double(kMaxParticles)));
  if (total && sites && *total != *sites)
    total_node->fail(fmt::format("total {} differs from the {} sites of the cells", *total, *sites),
                     "no total, or one equal to the sites");
  if (counts) {
    auto result = parse_counts(*counts, species);
    const std::int64_t sum = sum_of(result);
    if (total && *total != sum)
      total_node->fail(fmt::format("total {} differs from the sum of the counts ({})", *total, sum),
                       "no total, or the sum of the counts");
    if (sites && *sites != sum)
      counts->fail(fmt::format("the counts add up to {} but the cells hold {} sites", sum, *sites),
                   fmt::format("counts adding up to {}", *sites));
    return result;
  }
  if (!total && !sites)
    node.key_reader("total").fail("required key is missing (fractions need a particle count)",
                                  "a positive integer, or cells with a lattice");
  return apportion(parse_fractions(*fractions, species), total ? *total : *sites, species);
}

GenerateSettings parse_generate(const YamlReader& node, const core::SpeciesTable& species) {
  node.check_keys(kGenerateKeys);
  GenerateSettings settings;
  settings.key = located_key(node);
  settings.lattice = node.choice_or("lattice", "random", kLattices);
  const int basis = basis_size(settings.lattice);
  std::optional<std::int64_t> sites;
  if (const auto cells = node.optional("cells")) {
    if (basis == 0)
      node.key_reader("cells").fail("cells are only for a lattice", "lattice: sc, bcc or fcc");
    settings.cells = parse_cells(*cells);
    sites = lattice_sites(*cells, *settings.cells, basis);
  }
  if (const auto separation = node.optional("min_separation")) {
    if (basis != 0)
      node.key_reader("min_separation")
          .fail(fmt::format("min_separation is only for random positions, not lattice: {}",
                            settings.lattice),
                "lattice: random");
    settings.min_separation = separation->number(ValueRange::non_negative());
  }
  settings.counts = parse_composition(node, species, sites);
  return settings;
}

StructureSettings parse_structure(const YamlReader& node, const core::SpeciesTable& species) {
  node.check_keys(kStructureKeys);
  const auto generate = node.optional("generate");
  const auto read = node.optional("read");
  if (generate && read)
    node.key_reader("read").fail("cannot be given together with generate",
                                 "either generate or read");
  if (!generate && !read) node.fail("neither generate nor read is given", "exactly one of them");
  StructureSettings settings;
  if (generate) {
    if (node.has("format"))
      node.key_reader("format").fail("a format is for a file read", "read: FILE with format");
    settings.generate = parse_generate(*generate, species);
  } else {
    settings.read = read->string();  // as written: relative to the config file's folder
    settings.format = node.choice_or("format", settings.read->extension() == ".inp" ? "ls1" : "xyz",
                                     {"xyz", "ls1"});
  }
  return settings;
}

// --- system ------------------------------------------------------------------------------------

/// The box's volume must be a finite number (edges of 1e200 overflow it).
void check_box_volume(const YamlReader& node, const std::array<double, 3>& box) {
  const double volume = box[0] * box[1] * box[2];
  if (!std::isfinite(volume) || volume <= 0.0)
    node.fail(fmt::format("the box [{}, {}, {}] has a volume of {}, which a double cannot hold",
                          box[0], box[1], box[2], volume),
              "edges whose product is between 1e-300 and 1e300");
}

std::array<double, 3> parse_box(const YamlReader& node) {
  const std::string expected = "a positive number or a list of 1 or 3 positive numbers";
  if (node.is_scalar()) {
    const double edge = node.number(ValueRange::positive());
    check_box_volume(node, {edge, edge, edge});
    return {edge, edge, edge};
  }
  if (!node.is_list()) node.fail_type(expected);
  const std::vector<YamlReader> elements = node.elements();
  if (elements.size() != 1 && elements.size() != 3)
    node.fail(fmt::format("found a list of {}", elements.size()), expected);
  std::array<double, 3> box{};
  for (std::size_t axis = 0; axis < 3; ++axis)
    box[axis] = elements[elements.size() == 1 ? 0 : axis].number(ValueRange::positive());
  check_box_volume(node, box);
  return box;
}

void parse_box_or_density(const YamlReader& node, const core::UnitSystem& units,
                          SystemSettings& settings) {
  const auto box = node.optional("box");
  const auto density = node.optional("density");
  if (box && density)
    node.key_reader("density").fail("cannot be given together with system.box",
                                    "either box or density");
  if (!box && !density && settings.structure.generate)
    node.fail("neither box nor density is given", "one of them when the structure is generated");
  if (box) settings.box = parse_box(*box);
  if (density) {
    const DensitySetting setting = parse_density(*density, units);
    (setting.is_mass ? settings.mass_density : settings.density) = setting.value;
  }
}

/// `system.topology`: species, positions and box come from the file, not from other keys.
void parse_topology_system(const YamlReader& node, const core::UnitSystem& units,
                           SystemSettings& settings) {
  const YamlReader topology = node.required("topology");
  for (const char* key : {"species", "structure", "box", "density"})
    if (node.has(key))
      node.key_reader(key).fail(
          fmt::format("system.{} cannot be given with system.topology", key),
          "the species, positions and box of the topology file (leave system.{} out)");
  const std::filesystem::path folder = std::filesystem::path(node.source().file).parent_path();
  settings.topology = parse_topology(topology, folder);
  if (settings.topology->format == "amber" && units.name != "real")
    topology.fail(
        fmt::format("an AMBER file is in real units, and this config has units: {}", units.name),
        "units: real");
  settings.species = species_of(*settings.topology->file);
}

/// The species of a system of components: one per component, its name and mass.
core::SpeciesTable species_of_components(const std::vector<core::ResolvedComponent>& components) {
  std::vector<core::Species> species;
  for (const auto& c : components) species.push_back({c.name, 0.0, c.shape.mass});
  return core::SpeciesTable(std::move(species));
}

/// `system.components`: the species are the components.
void parse_components_system(const YamlReader& node, SystemSettings& settings) {
  for (const char* key : {"species", "topology"})
    if (node.has(key))
      node.key_reader(key).fail(
          fmt::format("system.{} cannot be given with system.components", key),
          "the components alone (each is a species of molecules)");
  settings.components = parse_components(node.required("components"));
  settings.species = species_of_components(settings.components);
}

SystemSettings parse_system(const YamlReader& node, const core::UnitSystem& units) {
  node.check_keys(kSystemKeys);
  SystemSettings settings;
  if (node.has("topology") && !node.has("components")) {
    parse_topology_system(node, units, settings);
  } else {
    if (node.has("components")) {
      parse_components_system(node, settings);
    } else {
      settings.species = parse_species(node.required("species"), units);
    }
    if (node.has("structure"))
      settings.structure = parse_structure(node.required("structure"), settings.species);
    else
      settings.structure.missing = fmt::format(
          "{}.structure: required key is missing; expected generate ({{lattice, counts}}) or read "
          "(an extended XYZ file)",
          located_key(node));
    if (settings.structure.format == "ls1" && settings.components.empty())
      node.required("structure")
          .required("read")
          .fail("an ls1-mardyn phase-space file holds rigid molecules",
                "system.components (the molecules' components, numbered from 1 in the file), or "
                "an extended XYZ file");
    parse_box_or_density(node, units, settings);
  }
  if (const auto velocities = node.optional("velocities")) {
    velocities->check_keys({"temperature"});
    if (const auto temperature = velocities->optional("temperature"))
      settings.velocities.temperature =
          parse_temperature(*temperature, units, ValueRange::non_negative());
  }
  return settings;
}

/// Each term's cutoff key (or the term, where the cutoff is its default), located.
std::vector<std::string> cutoff_keys(const Config& config, const YamlReader& forces_node) {
  std::vector<std::string> keys;
  const std::vector<YamlReader> elements = forces_node.elements();
  for (std::size_t i = 0; i < config.forces.size(); ++i) {
    const YamlReader term = elements[i].required(forces::name_of(config.forces[i]));
    const auto key = term.optional("cutoff");
    keys.push_back(key ? located_key(*key) : located_key(term) + " (default cutoff)");
  }
  return keys;
}

/// A cutoff must not exceed half the shortest box edge (the minimum image would miss pairs).
void check_cutoffs(const Config& config, const YamlReader& forces_node) {
  if (!config.system.box) return;
  const auto& box = *config.system.box;
  const double shortest_edge = std::min({box[0], box[1], box[2]});
  const double half_edge = 0.5 * shortest_edge;
  const std::vector<YamlReader> elements = forces_node.elements();
  for (std::size_t i = 0; i < config.forces.size(); ++i) {
    const double cutoff = forces::cutoff_of(config.forces[i]);
    if (forces::cutoff_fits(cutoff, shortest_edge)) continue;
    const YamlReader term = elements[i].required(forces::name_of(config.forces[i]));
    const std::string problem =
        fmt::format("{} is more than half the shortest box edge ({})", cutoff, half_edge);
    const std::string allowed =
        fmt::format("{}a number <= {}",
                    forces::cutoff_may_be_none(config.forces[i]) ? "none or " : "", half_edge);
    if (const auto key = term.optional("cutoff")) key->fail(problem, allowed);
    term.fail("the default cutoff " + problem, "cutoff: " + allowed);  // the key was left out
  }
}

/// Thomas-Fermi screening is computed in nuclear units (fm, MeV).
void check_thomas_fermi_units(const Config& config, const YamlReader& forces_node) {
  if (config.units.name == "nuclear") return;
  const std::vector<YamlReader> elements = forces_node.elements();
  for (std::size_t i = 0; i < config.forces.size(); ++i) {
    const auto* yukawa = std::get_if<forces::YukawaSettings>(&config.forces[i]);
    if (!yukawa || !yukawa->thomas_fermi) continue;
    elements[i]
        .required("yukawa")
        .required("screening_length")
        .fail(fmt::format("thomas_fermi needs units: nuclear (this config has units: {})",
                          config.units.name),
              "a screening length in " + config.units.length);
  }
}

/// The topology outputs of a molecular system: the PSF beside the first trajectory by default;
/// without a topology file there is nothing to write.
void settle_topology_outputs(const YamlReader& root, Config& config) {
  auto& out = config.output;
  if (!config.system.topology) {
    for (const char* key : {"topology", "data"})
      if (const auto output = root.optional("output"); output && output->has(key))
        output->key_reader(key).fail("only a molecular system has a topology to write",
                                     "system.topology, or no output." + std::string(key));
    return;
  }
  if (!out.topology_file && !out.trajectories.empty())
    out.topology_file =
        std::filesystem::path(out.trajectories.front().file).replace_extension(".psf");
}

/// An ion plasma (a Yukawa term, no nucleons) reports its plasma parameters unless the thermo
/// columns were chosen.
void add_default_plasma_columns(Config& config) {
  auto& thermo = config.output.thermo;
  if (!thermo.columns_given && analysis::is_ion_plasma(config.forces, config.system.species))
    thermo.columns = {"plasma"};
}

/// The default skin's lower bound (neighbors::thermal_skin) at the thermostat's temperature for
/// the lightest species; 0 without a thermostat (a constant-energy run, whose restarts must keep
/// their skin whatever the initial velocities said).
double thermal_bound(const Config& config) {
  const auto& temperature = config.integrator.temperature;
  const auto& species = config.system.species.all();
  if (!temperature || species.empty()) return 0.0;
  double lightest = species.front().mass;
  for (const auto& s : species) lightest = std::min(lightest, s.mass);
  const double speed_squared =
      config.units.boltzmann * *temperature / (lightest * config.units.mvv_to_energy);
  return neighbors::thermal_skin(speed_squared, config.integrator.timestep);
}

/// Rigid molecules turn in the splittings of velocity Verlet, Langevin, Nose-Hoover and Bussi
/// (their kicks and drifts carry the rotation), under the c_rescale and monte_carlo barostats;
/// a trajectory of sites needs them.
void check_rigid_dynamics(const YamlReader& root, const Config& config) {
  if (config.system.components.empty()) {
    for (const auto& t : config.output.trajectories)
      if (t.sites)
        root.required("output")
            .required("trajectory")
            .fail("sites: true writes the sites of rigid molecules, and this system has none",
                  "system.components, or no `sites` key");
    return;
  }
  if (config.integrator.type == "leapfrog")
    root.required("integrator")
        .required("type")
        .fail("leapfrog does not turn rigid molecules (system.components)",
              "velocity_verlet, langevin, nose_hoover or bussi");
  for (const auto& stage : config.run.stages)
    if (stage.integrator.type == "leapfrog")
      root.required("run").required("stages").fail(
          "a stage's leapfrog does not turn rigid molecules (system.components)",
          "velocity_verlet, langevin, nose_hoover or bussi in every stage");
  if (config.barostat.type == "mttk")
    root.required("barostat")
        .required("type")
        .fail("mttk does not move rigid molecules (system.components)", "c_rescale or monte_carlo");
}

// --- the document ------------------------------------------------------------------------------

/// `units`: one of NovaMD's three systems. Another engine's name (LAMMPS's metal, si, cgs,
/// electron, micro, nano) is refused with what each of the three is, not with the nearest name.
std::string unit_system_name(const YamlReader& node) {
  static const NameList kOtherEngines{"metal", "si", "cgs", "electron", "micro", "nano"};
  const std::string name = node.string();
  if (std::find(kOtherEngines.begin(), kOtherEngines.end(), name) != kOtherEngines.end())
    node.fail(fmt::format("'{}' units (LAMMPS's) are not supported", name),
              "nuclear (fm, MeV, fm/c), lj (reduced: sigma, epsilon, tau) or real (A, kcal/mol, "
              "fs; docs/units.md)");
  return node.choice({"nuclear", "lj", "real"});
}

Config parse_root(const YamlReader& root) {
  root.check_keys(kRootKeys);
  Config config;
  config.units = *core::find_unit_system(unit_system_name(root.required("units")));
  config.backend = root.choice_or("backend", config.backend, {"auto", "cpu", "cuda"});
  config.precision =
      *core::parse_precision(root.choice_or("precision", "double", {"double", "mixed", "single"}));
  config.seed = static_cast<std::uint64_t>(
      root.integer_or("seed", static_cast<std::int64_t>(config.seed), ValueRange::non_negative()));
  config.system = parse_system(root.required("system"), config.units);
  const YamlReader forces_node = root.required("forces");
  if (config.system.components.empty()) {
    refuse_rigid_sites_without_components(forces_node);
    config.forces =
        parse_forces(forces_node, config.system.species,
                     config.system.topology ? config.system.topology->file.get() : nullptr);
  } else {
    config.rigid_sites = parse_rigid_sites(forces_node, config.system.components, config.units);
  }
  if (const auto neighbors = root.optional("neighbors"))
    config.neighbors = parse_neighbors(*neighbors);
  config.neighbors.layout = neighbors::resolve_layout(
      config.neighbors.layout, config.precision == core::Precision::Double,
      std::any_of(config.forces.begin(), config.forces.end(), forces::uses_particle_charges));
  config.integrator = parse_integrator(root.required("integrator"), config.units);
  config.neighbors.thermal_bound = thermal_bound(config);
  if (const auto constraints = root.optional("constraints")) {
    if (!config.system.topology)
      constraints->fail("constraints need a molecular system",
                        "system.topology (the bonds and waters to hold come from it)");
    config.constraints = parse_constraints(*constraints);
  }
  // `barostat: null` (or an empty value) is no barostat: `--set barostat=null` turns one off.
  // With constraints every barostat moves the molecules' centres (app/simulation.cpp).
  if (const auto barostat = root.optional("barostat"); barostat && !barostat->is_null())
    config.barostat = parse_barostat(*barostat, config.units, config.integrator);
  config.run = parse_run(root.required("run"), config.units, config.integrator, config.barostat);
  if (const auto output = root.optional("output"))
    config.output = parse_output(*output);
  else
    config.output.console.every = config.output.thermo.every;
  check_rigid_dynamics(root, config);
  if (const auto analysis = root.optional("analysis"))
    config.analysis = parse_analysis(*analysis, config.system.species, config.system.box);
  if (const auto parallel = root.optional("parallel")) config.parallel = parse_parallel(*parallel);
  config.cutoff_keys = cutoff_keys(config, forces_node);
  check_cutoffs(config, forces_node);
  check_thomas_fermi_units(config, forces_node);
  add_default_plasma_columns(config);
  settle_topology_outputs(root, config);
  return config;
}

Config parse_document(const std::string& text, const std::string& source_name,
                      const std::vector<Override>& overrides) {
  YAML::Node root = load_yaml_document(text, source_name);
  auto source = std::make_shared<YamlSource>();
  source->file = source_name;
  if ((!root.IsDefined() || root.IsNull()) && overrides.empty())
    throw core::InputError(fmt::format(
        "{}:1: the config is empty; expected a map with units, system, forces, integrator and run",
        source_name));
  if (root.IsDefined() && !root.IsNull())
    YamlReader(root, source).expect_map();  // before overrides, which need a map to walk
  source->overrides = apply_overrides(root, overrides, source_name);
  YamlReader(root, source).check_plain_values();  // every value fits a message from here on
  Config config = parse_root(YamlReader(root, source));
  YAML::Emitter emitter;
  emitter << root;
  config.effective_yaml = emitter.c_str();
  return config;
}

}  // namespace

std::vector<std::pair<int, YamlReader>> species_entries(const YamlReader& node,
                                                        const core::SpeciesTable& species) {
  const auto entries = node.entries();
  if (entries.empty()) node.fail("the map is empty", "at least one species");
  const NameList names = species_names(species);
  std::vector<std::pair<int, YamlReader>> result;
  std::set<std::string> seen;
  for (const auto& [name, value] : entries) {
    const auto type = species.find(name);
    if (!type) {
      const auto near = nearest_name(name, names);
      value.fail(fmt::format("species '{}' is not declared in system.species{}", name,
                             near ? fmt::format(" (did you mean '{}'?)", *near) : ""),
                 "one of " + join_names(names, ", "));
    }
    if (!seen.insert(name).second) value.fail("species appears twice", "each species once");
    result.emplace_back(*type, value);
  }
  return result;
}

Config load_config(const std::filesystem::path& file, const std::vector<Override>& overrides) {
  const std::string text = read_config_text(file);
  Config config = parse_document(text, file.string(), overrides);
  config.file = file;
  auto& read = config.system.structure.read;
  if (read && read->is_relative()) *read = file.parent_path() / *read;  // next to the config
  return config;
}

Config parse_config(const std::string& yaml_text, const std::string& source_name,
                    const std::vector<Override>& overrides) {
  Config config = parse_document(yaml_text, source_name, overrides);
  config.file = "<string>";
  return config;
}

}  // namespace novamd::io
