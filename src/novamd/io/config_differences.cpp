/// @file config_differences.cpp
/// config_differences (declared in checkpoint.hpp): both configs flattened to dotted key paths
/// (list elements by index: forces.0.lennard_jones.cutoff), then compared key by key.
///
/// A list of scalars is one value ([1, 2, 3]). Scalars compare as the text yaml-cpp parsed,
/// except that two numbers compare as numbers (1 equals 1.0). A null value and an empty map
/// count as not set. Keys a restart may change (kNotCompared) are left out with all below them.
///
/// The stored config is read back from a file: a document nested deeper than kMaxDepth or with
/// more than kMaxValues nodes is refused, not walked. YAML aliases make both possible in a few
/// bytes (`&a {x: *a}` contains itself; each level of `&b [*a, *a]` doubles what is below it).

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "novamd/core/error.hpp"
#include "novamd/core/excerpt.hpp"
#include "novamd/io/checkpoint.hpp"

namespace novamd::io {
namespace {

using KeyPath = std::vector<std::string>;

/// What a restart may change: the run length, the output and analysis, where and how precisely
/// it runs (backend, precision, the ranks' grid, the pair-list layout, which changes only the
/// order of the force sums), and the initial structure and velocities (the checkpoint's state
/// replaces them).
const std::vector<std::vector<std::string_view>> kNotCompared{{"run"},
                                                              {"output"},
                                                              {"analysis"},
                                                              {"backend"},
                                                              {"precision"},
                                                              {"parallel"},
                                                              {"neighbors", "layout"},
                                                              {"system", "structure"},
                                                              {"system", "velocities"}};

/// What a restart may change with a note: the integrator, its timestep too (time goes on from
/// the checkpoint's: core/time_axis.hpp).
bool noted_difference(const KeyPath& path) {
  return !path.empty() && path[0] == "integrator";
}

bool not_compared(const KeyPath& path) {
  return std::any_of(kNotCompared.begin(), kNotCompared.end(), [&](const auto& skipped) {
    return std::equal(path.begin(), path.end(), skipped.begin(), skipped.end());
  });
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// Key paths segment by segment; list indices (digits) by number, so forces.2 < forces.10.
struct KeyPathLess {
  static bool segment_less(const std::string& a, const std::string& b) {
    if (all_digits(a) && all_digits(b) && a.size() != b.size()) return a.size() < b.size();
    return a < b;
  }
  bool operator()(const KeyPath& a, const KeyPath& b) const {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(), segment_less);
  }
};

/// One compared value: a scalar, or a list of scalars.
struct Leaf {
  std::vector<std::string> scalars;
  bool is_list = false;
};

using FlatConfig = std::map<KeyPath, Leaf, KeyPathLess>;

std::string quoted_if_empty(const std::string& s) {
  return s.empty() ? "\"\"" : s;
}

std::string display(const Leaf& leaf) {
  if (!leaf.is_list) return quoted_if_empty(leaf.scalars.front());
  std::string out = "[";
  for (std::size_t k = 0; k < leaf.scalars.size(); ++k)
    out += (k ? ", " : "") + quoted_if_empty(leaf.scalars[k]);
  return out + "]";
}

std::string joined(const KeyPath& path) {
  std::string out;
  for (const std::string& segment : path) out += (out.empty() ? "" : ".") + segment;
  return out;
}

/// The whole of `text` as a number (a leading '+' allowed, as in YAML), or nothing.
std::optional<double> as_number(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  double value = 0.0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return {};
  return value;
}

bool same_scalar(const std::string& a, const std::string& b) {
  const auto x = as_number(a);
  const auto y = as_number(b);
  if (x && y) return *x == *y || (std::isnan(*x) && std::isnan(*y));
  return a == b;
}

bool same(const Leaf& a, const Leaf& b) {
  return a.is_list == b.is_list && std::equal(a.scalars.begin(), a.scalars.end(), b.scalars.begin(),
                                              b.scalars.end(), same_scalar);
}

std::string key_text(const YAML::Node& key) {
  return key.IsScalar() ? key.Scalar() : YAML::Dump(key);
}

/// Far beyond any config (a few levels deep, a few hundred values).
constexpr std::size_t kMaxDepth = 64;
constexpr std::size_t kMaxValues = 10000;

/// Whose config a flattening walks (for messages), and the nodes it has visited.
struct Walk {
  std::string_view whose;
  std::size_t values = 0;
};

/// Counts `count` more nodes at `path`; throws core::InputError past kMaxDepth or kMaxValues.
void visit(Walk& walk, const KeyPath& path, std::size_t count) {
  if (path.size() > kMaxDepth)
    throw core::InputError(fmt::format("the config {} is nested more than {} levels deep (at {})",
                                       walk.whose, kMaxDepth, core::excerpt(joined(path))));
  walk.values += count;
  if (walk.values > kMaxValues)
    throw core::InputError(
        fmt::format("the config {} holds more than {} values (YAML aliases repeat parts of it)",
                    walk.whose, kMaxValues));
}

void flatten(const YAML::Node& node, KeyPath& path, FlatConfig& out, Walk& walk) {
  visit(walk, path, node.IsSequence() ? node.size() + 1 : 1);
  if (node.IsScalar()) {
    out[path] = Leaf{{node.Scalar()}, false};
  } else if (node.IsMap()) {
    for (const auto& entry : node) {
      path.push_back(key_text(entry.first));
      if (!not_compared(path)) flatten(entry.second, path, out, walk);
      path.pop_back();
    }
  } else if (node.IsSequence()) {
    const bool scalars = std::all_of(node.begin(), node.end(),
                                     [](const YAML::Node& element) { return element.IsScalar(); });
    if (scalars) {
      Leaf& leaf = out[path] = Leaf{{}, true};
      for (const YAML::Node& element : node) leaf.scalars.push_back(element.Scalar());
      return;
    }
    for (std::size_t k = 0; k < node.size(); ++k) {
      path.push_back(std::to_string(k));
      flatten(node[k], path, out, walk);
      path.pop_back();
    }
  }
  // Null and undefined nodes hold no value: the key counts as not set.
}

FlatConfig flattened(const std::string& yaml, std::string_view whose) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml);
  } catch (const YAML::Exception& e) {
    throw core::InputError(fmt::format("the config {} is not valid YAML: {}", whose, e.what()));
  }
  FlatConfig out;
  KeyPath path;
  Walk walk{whose};
  if (root.IsMap()) flatten(root, path, out, walk);
  return out;
}

}  // namespace

std::vector<std::string> config_differences(const std::string& checkpoint_yaml,
                                            const std::string& run_yaml,
                                            std::vector<std::string>* noted) {
  const FlatConfig before = flattened(checkpoint_yaml, "stored in the checkpoint");
  const FlatConfig now = flattened(run_yaml, "of this run");
  std::map<KeyPath, std::pair<const Leaf*, const Leaf*>, KeyPathLess> keys;
  for (const auto& [path, leaf] : before) keys[path].first = &leaf;
  for (const auto& [path, leaf] : now) keys[path].second = &leaf;
  std::vector<std::string> lines;
  for (const auto& [path, leaves] : keys) {
    const auto [old_value, new_value] = leaves;
    if (old_value && new_value && same(*old_value, *new_value)) continue;
    auto& out = noted && noted_difference(path) ? *noted : lines;
    out.push_back(fmt::format("{}: {} in the checkpoint, {} in this run", joined(path),
                              old_value ? display(*old_value) : "not set",
                              new_value ? display(*new_value) : "not set"));
  }
  return lines;
}

}  // namespace novamd::io
