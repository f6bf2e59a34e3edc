#include "novamd/io/config_overrides.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <string_view>

#include "novamd/core/error.hpp"
#include "novamd/core/excerpt.hpp"

namespace novamd::io {
namespace {

constexpr std::string_view kExpectedPath = "a dotted key path such as forces.0.yukawa.cutoff";

/// Applies one override; collects the key paths it set or created.
class OverrideApplier {
 public:
  OverrideApplier(const Override& override_, const std::string& file)
      : override_(override_), file_(file), text_(override_text(override_)) {}

  void apply(YAML::Node& root, std::vector<OverrideOrigin>& origins);

 private:
  [[noreturn]] void fail(std::string_view problem, std::string_view expected) const {
    throw core::InputError(
        fmt::format("{}: --set {}: {}; expected {}", file_, text_, problem, expected));
  }
  std::vector<std::string> components() const;
  YAML::Node parse_value() const;
  std::size_t list_index(const YAML::Node& list, const std::string& component) const;
  YAML::Node step_into_list(YAML::Node& list, const std::string& component, bool last);
  YAML::Node step_into_map(YAML::Node& map, const std::string& component, bool last);

  const Override& override_;
  const std::string& file_;
  std::string text_;
  YAML::Node value_;
  std::string path_;  ///< display path reached so far
  std::vector<OverrideOrigin> created_;
};

std::vector<std::string> OverrideApplier::components() const {
  std::vector<std::string> result;
  std::string_view rest = override_.key_path;
  while (true) {
    const std::size_t dot = rest.find('.');
    const std::string_view component = rest.substr(0, dot);
    if (component.empty()) fail("the key path has an empty component", kExpectedPath);
    result.emplace_back(component);
    if (dot == std::string_view::npos) break;
    rest.remove_prefix(dot + 1);
  }
  return result;
}

YAML::Node OverrideApplier::parse_value() const {
  try {
    return YAML::Load(override_.value);
  } catch (const YAML::Exception& error) {
    fail(fmt::format("the value is not valid YAML ({})", error.msg), "a YAML value");
  }
}

std::size_t OverrideApplier::list_index(const YAML::Node& list,
                                        const std::string& component) const {
  const std::string expected = fmt::format("an index from 0 to {}", list.size());
  const bool digits = std::all_of(component.begin(), component.end(),
                                  [](unsigned char c) { return std::isdigit(c) != 0; });
  if (!digits || component.size() > 9)
    fail(fmt::format("'{}' is not an index into the list {}", component, path_), expected);
  const std::size_t index = std::stoul(component);
  if (index > list.size()) {
    fail(fmt::format("index {} is past the end of the list {} ({} elements)", index, path_,
                     list.size()),
         expected);
  }
  return index;
}

YAML::Node OverrideApplier::step_into_list(YAML::Node& list, const std::string& component,
                                           bool last) {
  const std::size_t index = list_index(list, component);
  path_ += fmt::format("[{}]", index);
  if (index == list.size()) {
    list.push_back(last ? value_ : YAML::Node(YAML::NodeType::Map));
    if (!last) created_.push_back({path_, text_});
  } else if (last) {
    YAML::Node element = list[index];
    element = value_;  // rebinds the element itself (yaml-cpp assignment has reference semantics)
  }
  return list[index];
}

YAML::Node OverrideApplier::step_into_map(YAML::Node& map, const std::string& component,
                                          bool last) {
  path_ = path_.empty() ? component : path_ + "." + component;
  if (last) {
    map.remove(component);  // a fresh entry, so that a YAML alias of the old value is untouched
    map[component] = value_;
    return map[component];
  }
  YAML::Node child = map[component];  // inserted (undefined) when missing
  if (!child.IsDefined() || child.IsNull()) {
    child = YAML::Node(YAML::NodeType::Map);
    created_.push_back({path_, text_});
  }
  return child;
}

void OverrideApplier::apply(YAML::Node& root, std::vector<OverrideOrigin>& origins) {
  const std::vector<std::string> parts = components();
  value_ = parse_value();
  YAML::Node current = root;  // shares root's node; moved on below with reset(), never with =
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const bool last = i + 1 == parts.size();
    YAML::Node next;
    if (current.IsSequence()) {
      next.reset(step_into_list(current, parts[i], last));
    } else if (current.IsMap() || current.IsNull()) {
      next.reset(step_into_map(current, parts[i], last));
    } else {
      fail(fmt::format("{} holds the plain value '{}', which has no key '{}'",
                       path_.empty() ? "the document" : path_, current.Scalar(), parts[i]),
           "a key path through maps and lists only");
    }
    current.reset(next);
  }
  origins.insert(origins.end(), created_.begin(), created_.end());
  origins.push_back({path_, text_});
}

}  // namespace

std::string override_text(const Override& override_) {
  return core::excerpt(override_.key_path + "=" + override_.value);
}

std::vector<OverrideOrigin> apply_overrides(YAML::Node& root,
                                            const std::vector<Override>& overrides,
                                            const std::string& file) {
  std::vector<OverrideOrigin> origins;
  if (overrides.empty()) return origins;
  if (!root.IsDefined() || root.IsNull()) root.reset(YAML::Node(YAML::NodeType::Map));
  for (const Override& override_ : overrides) OverrideApplier(override_, file).apply(root, origins);
  return origins;
}

}  // namespace novamd::io
