#include "novamd/io/config_components.hpp"

#include <fmt/format.h>

#include <cmath>
#include <string>

#include "novamd/core/error.hpp"

namespace novamd::io {
namespace {

const NameList kComponentKeys{"name", "sites", "inertia"};
const NameList kSiteTypes{"lj", "charge", "dipole", "quadrupole"};

core::Vec3<double> three_numbers(const YamlReader& node, const ValueRange& range,
                                 std::string_view expected) {
  if (!node.is_list()) node.fail_type(expected);
  const std::vector<YamlReader> elements = node.elements();
  if (elements.size() != 3) node.fail(fmt::format("found a list of {}", elements.size()), expected);
  return {elements[0].number(range), elements[1].number(range), elements[2].number(range)};
}

core::Vec3<double> unit_direction(const YamlReader& node) {
  const core::Vec3<double> d = three_numbers(node, ValueRange::any(), "a direction [x, y, z]");
  const double length = std::sqrt(core::dot(d, d));
  if (!(length > 0.0)) node.fail("the direction is [0, 0, 0]", "a non-zero vector [x, y, z]");
  return (1.0 / length) * d;
}

core::ComponentSite parse_site(const YamlReader& node) {
  node.expect_map();
  const std::string type = node.required("type").choice(kSiteTypes);
  core::ComponentSite site;
  site.position =
      three_numbers(node.required("position"), ValueRange::any(), "a position [x, y, z]");
  if (type == "lj") {
    node.check_keys({"type", "position", "epsilon", "sigma", "mass"});
    site.kind = core::SiteKind::LennardJones;
    site.epsilon = node.required("epsilon").number(ValueRange::non_negative());
    site.sigma = node.required("sigma").number(ValueRange::positive());
    site.mass = node.required("mass").number(ValueRange::non_negative());
    return site;
  }
  if (type == "charge") {
    node.check_keys({"type", "position", "charge", "mass"});
    site.kind = core::SiteKind::Charge;
    site.strength = node.required("charge").number();
  } else {
    node.check_keys({"type", "position", "direction", "moment", "mass"});
    site.kind = type == "dipole" ? core::SiteKind::Dipole : core::SiteKind::Quadrupole;
    site.direction = unit_direction(node.required("direction"));
    site.strength = node.required("moment").number();
  }
  site.mass = node.number_or("mass", 0.0, ValueRange::non_negative());
  return site;
}

/// Principal moments: each at most the sum of the other two (a mass distribution's), and a
/// linear molecule's as [0, I, I].
core::Vec3<double> parse_inertia(const YamlReader& node) {
  const std::string_view expected = "principal moments [Ixx, Iyy, Izz] >= 0, or [0, I, I]";
  const core::Vec3<double> I = three_numbers(node, ValueRange::non_negative(), expected);
  if (I.x > I.y + I.z || I.y > I.x + I.z || I.z > I.x + I.y)
    node.fail(fmt::format("[{}, {}, {}] is no mass distribution's (one exceeds the other two)", I.x,
                          I.y, I.z),
              expected);
  if ((I.y == 0.0 || I.z == 0.0) && !(I.x == 0.0 && I.y == 0.0 && I.z == 0.0))
    node.fail("a linear molecule's axis is x", "[0, I, I] for a linear molecule");
  return I;
}

core::ResolvedComponent parse_component(const YamlReader& node,
                                        const std::vector<core::ResolvedComponent>& before) {
  node.expect_map();
  node.check_keys(kComponentKeys);
  core::Component component;
  const YamlReader name = node.required("name");
  component.name = name.string();
  for (const auto& other : before)
    if (other.name == component.name)
      name.fail(fmt::format("component '{}' is declared twice", component.name), "unique names");
  const YamlReader sites = node.required("sites");
  const std::vector<YamlReader> elements = sites.elements();
  if (elements.empty()) sites.fail("the list is empty", "at least one site");
  for (const YamlReader& element : elements) component.sites.push_back(parse_site(element));
  if (const auto inertia = node.optional("inertia")) component.inertia = parse_inertia(*inertia);
  try {
    return core::resolve_component(component);
  } catch (const core::InputError& e) {
    sites.fail(e.what(), "a mass on at least one site");
  }
}

}  // namespace

std::vector<core::ResolvedComponent> parse_components(const YamlReader& node) {
  const std::vector<YamlReader> elements = node.elements();
  if (elements.empty()) node.fail("the list is empty", "at least one component");
  std::vector<core::ResolvedComponent> components;
  for (const YamlReader& element : elements)
    components.push_back(parse_component(element, components));
  return components;
}

}  // namespace novamd::io
