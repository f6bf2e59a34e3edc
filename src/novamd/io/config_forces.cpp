#include "novamd/io/config_forces.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

#include "novamd/io/config_custom_pair.hpp"
#include "novamd/io/config_pair_table.hpp"
#include "novamd/io/config_topology.hpp"

namespace novamd::io {
namespace {

/// What a force term's parser may consult besides its own keys.
struct ForceContext {
  const core::SpeciesTable& species;
  const TopologyFile* topology;  ///< the system's topology file, if any
};

/// Force terms of the design that this version does not have yet.
const NameList kPlannedForceTerms{"ewald", "pme"};  // coulomb methods of the design
const NameList kPairKeys{"types", "epsilon", "sigma", "xi", "eta"};

/// The config keys of a force term, from its settings type.
template <class Settings>
NameList keys_of() {
  return NameList(Settings::kKeys.begin(), Settings::kKeys.end());
}

bool contains(const NameList& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

/// `cutoff: none | r_c` (absent: the settings' default) and `shift: none | energy | force`, for
/// the terms whose cutoff may be none.
template <class Settings>
void parse_cutoff_and_shift(const YamlReader& node, Settings& settings) {
  if (const auto cutoff = node.optional("cutoff"))
    settings.cutoff =
        cutoff->number_or_word("none", ValueRange::positive()).value_or(forces::kNoCutoff);
  const std::string shift = node.choice_or("shift", "none", {"none", "energy", "force"});
  settings.truncation = shift == "energy"  ? forces::Truncation::ShiftEnergy
                        : shift == "force" ? forces::Truncation::ShiftForce
                                           : forces::Truncation::Cut;
}

forces::YukawaSettings parse(std::type_identity<forces::YukawaSettings>, const YamlReader& node,
                             const ForceContext&) {
  node.check_keys(keys_of<forces::YukawaSettings>());
  forces::YukawaSettings settings;
  const auto length =
      node.required("screening_length").number_or_word("thomas_fermi", ValueRange::positive());
  settings.thomas_fermi = !length;
  settings.screening_length = length.value_or(0.0);  // thomas_fermi: settled before the run
  parse_cutoff_and_shift(node, settings);
  return settings;
}

/// Every species must be a nucleon: the potential depends on tau_i tau_j.
void check_nucleons(const YamlReader& node, const core::SpeciesTable& species) {
  for (const auto& s : species.all()) {
    if (s.isospin == 1 || s.isospin == -1) continue;
    node.fail(fmt::format("species '{}' has no isospin (isospin: {}), but the nuclear potential "
                          "acts between nucleons only",
                          s.name, s.isospin),
              "every species in system.species to be a nucleon, with isospin: 1 (proton) or "
              "isospin: -1 (neutron)");
  }
}

forces::NuclearSettings parse(std::type_identity<forces::NuclearSettings>, const YamlReader& node,
                              const ForceContext& context) {
  node.check_keys(keys_of<forces::NuclearSettings>());
  forces::NuclearSettings settings;  // defaults: Horowitz et al. (2004)
  settings.a = node.number_or("a", settings.a, ValueRange::any());
  settings.b = node.number_or("b", settings.b, ValueRange::any());
  settings.c = node.number_or("c", settings.c, ValueRange::any());
  settings.lambda = node.number_or("Lambda", settings.lambda, ValueRange::positive());
  parse_cutoff_and_shift(node, settings);
  check_nucleons(node, context.species);
  return settings;
}

forces::LennardJonesPair parse_lj_pair(const YamlReader& node, const core::SpeciesTable& species) {
  node.check_keys(kPairKeys);
  forces::LennardJonesPair pair;
  std::tie(pair.species_a, pair.species_b) = parse_pair_types(node.required("types"), species);
  if (const auto e = node.optional("epsilon")) pair.epsilon = e->number(ValueRange::non_negative());
  if (const auto s = node.optional("sigma")) pair.sigma = s->number(ValueRange::positive());
  if (pair.epsilon.has_value() != pair.sigma.has_value()) {
    node.fail("epsilon and sigma come together", "both, or neither (mixing with xi, eta)");
  }
  const bool like = pair.species_a == pair.species_b;
  if (like && !pair.epsilon) node.fail("a like pair needs its parameters", "epsilon and sigma");
  if (const auto xi = node.optional("xi")) {
    if (pair.epsilon || like)
      xi->fail("xi corrects mixing", "xi only on an unlike pair without epsilon");
    pair.xi = xi->number(ValueRange::positive());
  }
  if (const auto eta = node.optional("eta")) {
    if (pair.epsilon || like)
      eta->fail("eta corrects mixing", "eta only on an unlike pair without sigma");
    pair.eta = eta->number(ValueRange::positive());
  }
  return pair;
}

/// The pairs of a topology file that has Lennard-Jones parameters, where the config gives none.
bool pairs_from_topology(const YamlReader& node, const ForceContext& context,
                         forces::LennardJonesSettings& settings) {
  if (!context.topology) return false;
  auto pairs = lennard_jones_pairs(*context.topology);
  if (pairs.empty()) return false;
  if (const auto given = node.optional("pairs"))
    given->fail("the topology file gives the Lennard-Jones parameters",
                "no pairs with a topology file that has Pair Coeffs or LJ tables");
  settings.pairs = std::move(pairs);
  settings.mixing = mixing_of(*context.topology);
  return true;
}

forces::LennardJonesSettings parse(std::type_identity<forces::LennardJonesSettings>,
                                   const YamlReader& node, const ForceContext& context) {
  node.check_keys(keys_of<forces::LennardJonesSettings>());
  forces::LennardJonesSettings settings;
  const bool from_file = pairs_from_topology(node, context, settings);
  const auto elements = from_file ? std::vector<YamlReader>{} : node.required("pairs").elements();
  if (!from_file && elements.empty())
    node.required("pairs").fail("the list is empty",
                                "at least one {types: [A, A], epsilon, sigma}");
  for (const auto& element : elements) {
    auto pair = parse_lj_pair(element, context.species);
    for (const auto& before : settings.pairs) {
      const bool same =
          (before.species_a == pair.species_a && before.species_b == pair.species_b) ||
          (before.species_a == pair.species_b && before.species_b == pair.species_a);
      if (same) element.fail("this species pair is listed twice", "one entry per pair");
    }
    settings.pairs.push_back(std::move(pair));
  }
  settings.cutoff = node.required("cutoff").number(ValueRange::positive());
  const std::string truncation =
      node.choice_or("truncation", "cut", {"cut", "shift", "force_shift"});
  settings.truncation = truncation == "shift"         ? forces::Truncation::ShiftEnergy
                        : truncation == "force_shift" ? forces::Truncation::ShiftForce
                                                      : forces::Truncation::Cut;
  if (const auto mixing = node.optional("mixing"))
    settings.mixing = mixing->choice({"arithmetic", "geometric"}) == "geometric"
                          ? forces::Mixing::Geometric
                          : forces::Mixing::Arithmetic;
  settings.tail_correction =
      node.choice_or("tail_correction", "false", {"true", "false"}) == "true";
  if (settings.tail_correction && settings.truncation == forces::Truncation::ShiftForce) {
    node.key_reader("tail_correction")
        .fail("the force-shifted potential has no tail", "tail_correction with cut or shift");
  }
  if (const auto inner = node.optional("switch")) {
    settings.switch_inner = inner->number(ValueRange::positive());
    if (*settings.switch_inner >= settings.cutoff)
      inner->fail(fmt::format("the switch starts at {}, not inside the cutoff {}",
                              *settings.switch_inner, settings.cutoff),
                  "a distance below the cutoff, where switching begins");
    if (node.optional("truncation"))
      inner->fail("switch and truncation exclude each other",
                  "either switch (CHARMM switching to the cutoff) or truncation");
    if (settings.tail_correction)
      inner->fail("the switched potential has no tail correction",
                  "switch without tail_correction");
  }
  return settings;
}

/// Refuses each of `keys` present unless the method is one of those it belongs to.
void refuse_keys_of_other_methods(const YamlReader& node, std::initializer_list<const char*> keys,
                                  bool belongs, const char* methods) {
  for (const char* key : keys) {
    if (const auto value = node.optional(key); value && !belongs)
      value->fail(fmt::format("{} is a parameter of method {}", key, methods),
                  fmt::format("{} only with method: {}", key, methods));
  }
}

/// `grid`: one integer for every axis or [Kx, Ky, Kz], each at least the B-spline order.
std::array<int, 3> parse_pme_grid(const YamlReader& grid, int order) {
  const std::string expected = fmt::format(
      "an integer or a list [Kx, Ky, Kz] of integers from {} (the order) to 4096", order);
  const auto range = ValueRange::between(order, 4096);
  if (!grid.is_list()) {
    if (!grid.is_scalar()) grid.fail_type(expected);
    const int k = static_cast<int>(grid.integer(range));
    return {k, k, k};
  }
  const auto elements = grid.elements();
  if (elements.size() != 3)
    grid.fail(fmt::format("found a list of {} numbers", elements.size()), expected);
  std::array<int, 3> points{};
  for (int a = 0; a < 3; ++a) points[a] = static_cast<int>(elements[a].integer(range));
  return points;
}

forces::CoulombSettings parse(std::type_identity<forces::CoulombSettings>, const YamlReader& node,
                              const ForceContext&) {
  node.check_keys(keys_of<forces::CoulombSettings>());
  forces::CoulombSettings settings;
  node.required("method");
  const std::string chosen =
      node.choice_or("method", "cut", {"cut", "shift", "reaction_field", "ewald", "pme"});
  settings.method = chosen == "shift"            ? forces::CoulombMethod::Shift
                    : chosen == "reaction_field" ? forces::CoulombMethod::ReactionField
                    : chosen == "ewald"          ? forces::CoulombMethod::Ewald
                    : chosen == "pme"            ? forces::CoulombMethod::Pme
                                                 : forces::CoulombMethod::Cut;
  if (settings.method == forces::CoulombMethod::Shift)
    settings.truncation = forces::Truncation::ShiftForce;
  settings.cutoff = node.required("cutoff").number(ValueRange::positive());
  settings.dielectric = node.number_or("dielectric", 1.0, ValueRange::positive());
  if (const auto rf = node.optional("epsilon_rf")) {
    if (settings.method != forces::CoulombMethod::ReactionField)
      rf->fail("epsilon_rf is the reaction field's", "epsilon_rf only with method: reaction_field");
    settings.epsilon_rf = rf->number_or_word("infinity", ValueRange::positive())
                              .value_or(std::numeric_limits<double>::infinity());
  }
  parse_ewald_parameters(node, settings);
  return settings;
}

forces::PairTableSettings parse(std::type_identity<forces::PairTableSettings>,
                                const YamlReader& node, const ForceContext& context) {
  return parse_pair_table(node, context.species);
}

forces::CustomPairSettings parse(std::type_identity<forces::CustomPairSettings>,
                                 const YamlReader& node, const ForceContext& context) {
  return parse_custom_pair(node, context.species);
}

forces::ForceSettings parse_force_term(const YamlReader& element, const ForceContext& context) {
  const std::string expected = "one force term per list element, such as '- yukawa: {...}'";
  if (!element.is_map()) element.fail_type(expected);
  if (element.node().size() != 1)
    element.fail(fmt::format("found {} keys", element.node().size()), expected);
  const auto [name, body] = element.entries().front();
  const NameList terms = forces::force_term_names();
  if (contains(kPlannedForceTerms, name))
    element.key_reader(name).fail(
        fmt::format("the force term '{}' is not available in this version", name),
        join_names(terms));
  element.check_keys(terms);
  body.expect_map();
  std::optional<forces::ForceSettings> settings;
  const std::string term = name;  // clang before 16 cannot capture structured bindings
  const YamlReader block = body;
  forces::for_each_force_kind([&]<class Settings>(std::type_identity<Settings> kind) {
    if (term == Settings::kName) settings = parse(kind, block, context);
  });
  return *settings;  // check_keys refused every other name
}

}  // namespace

std::pair<std::string, std::string> parse_pair_types(const YamlReader& node,
                                                     const core::SpeciesTable& species) {
  const auto names = node.elements();
  if (names.size() != 2) node.fail(fmt::format("found {} names", names.size()), "two species");
  NameList declared;
  for (const auto& s : species.all()) declared.push_back(s.name);
  for (const auto& name : names) {
    const std::string text = name.string();
    if (!species.find(text)) {
      name.fail(fmt::format("species '{}' is not declared in system.species", text),
                fmt::format("one of {}", join_names(declared)));
    }
  }
  return {names[0].string(), names[1].string()};
}

void parse_ewald_parameters(const YamlReader& node, forces::CoulombSettings& settings) {
  const bool ewald = settings.method == forces::CoulombMethod::Ewald;
  const bool pme = settings.method == forces::CoulombMethod::Pme;
  refuse_keys_of_other_methods(node, {"tolerance", "alpha"}, ewald || pme, "ewald or pme");
  refuse_keys_of_other_methods(node, {"kmax", "kmax_squared"}, ewald, "ewald");
  refuse_keys_of_other_methods(node, {"order", "grid"}, pme, "pme");
  if (!ewald && !pme) return;
  auto& e = settings.ewald;
  e.tolerance = node.number_or("tolerance", e.tolerance, ValueRange::between(1e-16, 0.1));
  if (const auto alpha = node.optional("alpha")) e.alpha = alpha->number(ValueRange::positive());
  if (const auto kmax = node.optional("kmax"))
    e.kmax = static_cast<int>(kmax->integer(ValueRange::between(1, 1000)));
  if (const auto k2 = node.optional("kmax_squared"))
    e.kmax_squared = static_cast<int>(k2->integer(ValueRange::between(1, 3'000'000)));
  e.order = static_cast<int>(node.integer_or("order", e.order, ValueRange::between(4, 6)));
  if (const auto grid = node.optional("grid")) e.grid = parse_pme_grid(*grid, e.order);
}

neighbors::NeighborSettings parse_neighbors(const YamlReader& node) {
  node.check_keys({"method", "skin", "check_every", "reorder_every", "layout"});
  neighbors::NeighborSettings settings;
  const std::string method =
      node.choice_or("method", "auto", {"auto", "all_pairs", "cell_list", "neighbor_list"});
  settings.method = method == "all_pairs"       ? neighbors::NeighborMethod::AllPairs
                    : method == "cell_list"     ? neighbors::NeighborMethod::CellList
                    : method == "neighbor_list" ? neighbors::NeighborMethod::NeighborList
                                                : neighbors::NeighborMethod::Auto;
  if (const auto skin = node.optional("skin")) settings.skin = skin->number(ValueRange::positive());
  if (const auto every = node.optional("check_every"))
    settings.check_every = every->integer(ValueRange::at_least(1));
  if (const auto every = node.optional("reorder_every"))
    settings.reorder_every = every->integer(ValueRange::at_least(0));
  settings.layout = *neighbors::list_layout_named(
      node.choice_or("layout", "auto", {"auto", "atoms", "clusters"}));
  return settings;
}

std::vector<forces::ForceSettings> parse_forces(const YamlReader& node,
                                                const core::SpeciesTable& species,
                                                const TopologyFile* topology) {
  const std::vector<YamlReader> elements = node.elements();
  if (elements.empty()) node.fail("the list is empty", "at least one force term");
  const ForceContext context{species, topology};
  std::vector<forces::ForceSettings> result;
  for (const YamlReader& element : elements) result.push_back(parse_force_term(element, context));
  return result;
}

}  // namespace novamd::io
