#include "novamd/io/config_rigid_sites.hpp"

#include <fmt/format.h>

#include <cstddef>
#include <optional>
#include <string>

#include "novamd/io/config_forces.hpp"

namespace novamd::io {
namespace {

constexpr std::string_view kTerm = "rigid_sites";
const NameList kRigidSitesKeys{"cutoff", "shift",           "epsilon_rf",
                               "mixing", "tail_correction", "coulomb"};
const NameList kCoulombKeys{"method",       "tolerance", "alpha", "kmax",
                            "kmax_squared", "order",     "grid"};
const NameList kMixingKeys{"components", "xi", "eta"};

/// The index of the component named by `node`, or a message with the names there are.
std::size_t component_named(const YamlReader& node,
                            const std::vector<core::ResolvedComponent>& components) {
  const std::string name = node.string();
  NameList names;
  for (std::size_t c = 0; c < components.size(); ++c) {
    if (components[c].name == name) return c;
    names.push_back(components[c].name);
  }
  const auto near = nearest_name(name, names);
  node.fail(fmt::format("component '{}' is not declared in system.components{}", name,
                        near ? fmt::format(" (did you mean '{}'?)", *near) : ""),
            "one of " + join_names(names, ", "));
}

/// `mixing: [{components: [a, b], xi, eta}]` into the settings' a x b tables (symmetric).
void parse_mixing(const YamlReader& node, const std::vector<core::ResolvedComponent>& components,
                  forces::RigidModelSettings& settings) {
  const std::size_t n = components.size();
  settings.xi.assign(n * n, 1.0);
  settings.eta.assign(n * n, 1.0);
  std::vector<bool> given(n * n, false);
  for (const YamlReader& entry : node.elements()) {
    entry.expect_map();
    entry.check_keys(kMixingKeys);
    const YamlReader pair = entry.required("components");
    const std::vector<YamlReader> names =
        pair.is_list() ? pair.elements() : std::vector<YamlReader>{};
    if (names.size() != 2) pair.fail_type("two component names [a, b]");
    const std::size_t a = component_named(names[0], components);
    const std::size_t b = component_named(names[1], components);
    if (a == b)
      pair.fail("a component with itself",
                "two different components (xi and eta mix unlike pairs)");
    if (given[a * n + b])
      pair.fail(fmt::format("{} and {} are mixed twice", components[a].name, components[b].name),
                "each pair once");
    given[a * n + b] = given[b * n + a] = true;
    const double xi = entry.number_or("xi", 1.0, ValueRange::positive());
    const double eta = entry.number_or("eta", 1.0, ValueRange::positive());
    settings.xi[a * n + b] = settings.xi[b * n + a] = xi;
    settings.eta[a * n + b] = settings.eta[b * n + a] = eta;
  }
}

/// `coulomb: {method: ewald | pme, tolerance, alpha, kmax, kmax_squared, order, grid}`: the
/// charge sites' Ewald sum (its cutoff the centres').
forces::CoulombSettings parse_kspace(const YamlReader& node, double cutoff) {
  node.expect_map();
  node.check_keys(kCoulombKeys);
  forces::CoulombSettings settings;
  node.required("method");
  settings.method = node.choice_or("method", "pme", {"ewald", "pme"}) == "ewald"
                        ? forces::CoulombMethod::Ewald
                        : forces::CoulombMethod::Pme;
  settings.cutoff = cutoff;
  parse_ewald_parameters(node, settings);
  return settings;
}

/// The `rigid_sites` map of the list's one entry.
YamlReader rigid_sites_entry(const YamlReader& forces_node) {
  const std::vector<YamlReader> elements = forces_node.elements();
  const std::string expected =
      "one entry, rigid_sites: {cutoff, shift, epsilon_rf, mixing} (system.components' sites "
      "interact through it alone)";
  if (elements.size() != 1)
    forces_node.fail(fmt::format("a list of {} force terms", elements.size()), expected);
  const YamlReader& element = elements.front();
  element.expect_map();
  if (!element.has(kTerm)) {
    const auto entries = element.entries();
    const std::string name = entries.empty() ? std::string("nothing") : entries.front().first;
    element.fail(fmt::format("'{}' with system.components", name), expected);
  }
  element.check_keys({std::string(kTerm)});
  return element.required(kTerm);
}

}  // namespace

forces::RigidModelSettings parse_rigid_sites(const YamlReader& forces_node,
                                             const std::vector<core::ResolvedComponent>& components,
                                             const core::UnitSystem& units) {
  const YamlReader node = rigid_sites_entry(forces_node);
  node.expect_map();
  node.check_keys(kRigidSitesKeys);
  forces::RigidModelSettings settings;
  settings.coulomb_constant = units.coulomb;
  settings.cutoff = node.required("cutoff").number(ValueRange::positive());
  settings.shift = node.choice_or("shift", "energy", {"energy", "none"}) == "energy";
  if (const auto rf = node.optional("epsilon_rf"))
    settings.epsilon_rf = rf->number_or_word("none", ValueRange::at_least(1.0));
  if (const auto mixing = node.optional("mixing")) parse_mixing(*mixing, components, settings);
  settings.tail_correction =
      node.choice_or("tail_correction", "false", {"true", "false"}) == "true";
  if (const auto coulomb = node.optional("coulomb")) {
    if (const auto rf = node.optional("epsilon_rf"))
      rf->fail("epsilon_rf with coulomb (Ewald or PME)",
               "one of them: the reciprocal sum replaces the reaction field");
    settings.kspace = parse_kspace(*coulomb, *settings.cutoff);
    if (const auto why = forces::ewald_refusal(components))
      coulomb->fail(*why, forces::kEwaldExpected);
  }
  return settings;
}

void refuse_rigid_sites_without_components(const YamlReader& forces_node) {
  for (const YamlReader& element : forces_node.elements())
    if (element.is_map() && element.has(kTerm))
      element.key_reader(kTerm).fail("rigid_sites without system.components",
                                     "system.components (the rigid molecules whose sites it "
                                     "couples), or another force term");
}

}  // namespace novamd::io
