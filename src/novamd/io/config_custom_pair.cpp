/// @file config_custom_pair.cpp
/// Reading `forces: - custom_pair: {...}`.

#include "novamd/io/config_custom_pair.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>

#include "novamd/io/config_forces.hpp"

namespace novamd::io {
namespace {

NameList views_of(const std::vector<std::string>& names) {
  return NameList(names.begin(), names.end());
}

/// A parameter's name: a letter or '_', then letters, digits and '_'; not r, not a function.
void check_parameter_name(const YamlReader& at, const std::string& name) {
  const bool identifier =
      !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_') &&
      std::all_of(name.begin(), name.end(),
                  [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
  if (!identifier)
    at.fail(fmt::format("'{}' is not a name a formula can use", name),
            "a letter or '_', then letters, digits or '_'");
  if (name == "r") at.fail("'r' is the pair's distance", "another name for the parameter");
  const auto& functions = physics::expression_functions();
  if (std::find(functions.begin(), functions.end(), name) != functions.end())
    at.fail(fmt::format("'{}' is a function of the formulas", name),
            "another name for the parameter");
}

/// `parameters: {name: value, ...}`: names in the config's order, and their values.
void parse_parameters(const YamlReader& node, std::vector<std::string>& names,
                      std::vector<double>& values) {
  const auto given = node.optional("parameters");
  if (!given) return;
  given->expect_map();
  for (const auto& [name, value] : given->entries()) {
    check_parameter_name(given->key_reader(name), name);
    names.push_back(name);
    values.push_back(value.number());
  }
  if (static_cast<int>(names.size()) > physics::kMaxCustomParameters)
    given->fail(fmt::format("{} parameters", names.size()),
                fmt::format("at most {}", physics::kMaxCustomParameters));
}

/// "<formula>\n    <caret under the character>": where the formula does not read.
std::string pointed_at(const std::string& text, std::size_t position) {
  return fmt::format("\n    {}\n    {}^", text, std::string(std::min(position, text.size()), ' '));
}

std::shared_ptr<const physics::CustomFormula> parse_formula(const YamlReader& energy,
                                                            const std::vector<std::string>& names) {
  const std::string text = energy.string();
  try {
    return std::make_shared<const physics::CustomFormula>(text, names);
  } catch (const physics::ExpressionError& e) {
    std::string problem =
        fmt::format("the formula does not read at character {}: {}", e.position() + 1, e.what());
    std::string expected = fmt::format(
        "a formula of r and the parameters ({}), with + - * / ^, "
        "parentheses and the functions {}",
        names.empty() ? std::string("none given") : join_names(views_of(names), " and "),
        join_names(views_of(physics::expression_functions()), " and "));
    if (!e.unknown_name().empty()) {
      const bool function = std::string_view(e.what()).starts_with("unknown function");
      const NameList known = views_of(function ? physics::expression_functions() : names);
      if (const auto near = nearest_name(e.unknown_name(), known))
        problem += fmt::format(" (did you mean '{}'?)", *near);
      else if (!function)
        expected = "every name but r declared under custom_pair.parameters";
    }
    energy.fail(problem + pointed_at(text, e.position()), expected);
  }
}

/// One entry of `pairs`: {types: [A, B], name: value, ...}, each name a declared parameter.
forces::CustomPairValues parse_pair(const YamlReader& pair, const core::SpeciesTable& species,
                                    const std::vector<std::string>& names) {
  pair.expect_map();
  NameList allowed = views_of(names);
  allowed.insert(allowed.begin(), "types");
  pair.check_keys(allowed);
  forces::CustomPairValues p;
  std::tie(p.species_a, p.species_b) = parse_pair_types(pair.required("types"), species);
  for (const auto& [key, value] : pair.entries()) {
    if (key == "types") continue;
    const auto k = std::find(names.begin(), names.end(), key) - names.begin();
    p.values.emplace_back(static_cast<int>(k), value.number());
  }
  if (p.values.empty())
    pair.fail("this pair sets no parameter",
              fmt::format("one or more of {}", join_names(views_of(names), " and ")));
  return p;
}

void check_pairs_once(const std::vector<forces::CustomPairValues>& pairs,
                      const std::vector<YamlReader>& elements) {
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    for (std::size_t j = 0; j < k; ++j) {
      const bool same =
          (pairs[j].species_a == pairs[k].species_a && pairs[j].species_b == pairs[k].species_b) ||
          (pairs[j].species_a == pairs[k].species_b && pairs[j].species_b == pairs[k].species_a);
      if (same) elements[k].fail("this species pair is listed twice", "one entry per pair");
    }
  }
}

}  // namespace

forces::CustomPairSettings parse_custom_pair(const YamlReader& node,
                                             const core::SpeciesTable& species) {
  node.check_keys(
      NameList(forces::CustomPairSettings::kKeys.begin(), forces::CustomPairSettings::kKeys.end()));
  forces::CustomPairSettings settings;
  std::vector<std::string> names;
  parse_parameters(node, names, settings.defaults);
  settings.formula = parse_formula(node.required("energy"), names);
  if (const auto list = node.optional("pairs")) {
    if (names.empty())
      list->fail("the formula has no parameters to set per pair",
                 "custom_pair.parameters with their defaults first");
    const auto elements = list->elements();
    for (const auto& element : elements)
      settings.pairs.push_back(parse_pair(element, species, names));
    check_pairs_once(settings.pairs, elements);
  }
  settings.cutoff = node.required("cutoff")
                        .number_or_word("none", ValueRange::positive())
                        .value_or(forces::kNoCutoff);
  const std::string shift = node.choice_or("shift", "none", {"none", "energy", "force"});
  settings.truncation = shift == "energy"  ? forces::Truncation::ShiftEnergy
                        : shift == "force" ? forces::Truncation::ShiftForce
                                           : forces::Truncation::Cut;
  if (std::isinf(settings.cutoff) && settings.truncation != forces::Truncation::Cut)
    node.key_reader("shift").fail("a shift needs a cutoff", "shift: none with cutoff: none");
  return settings;
}

}  // namespace novamd::io
