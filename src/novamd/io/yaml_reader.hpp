#pragma once
/// @file yaml_reader.hpp
/// A YAML node together with where it came from (file, line, key path), with typed getters that
/// check types and ranges and raise core::InputError in the config's message format:
///
///     <file>:<line>: <key.path>: <what is wrong>; expected <what>
///
/// Values set on the command line (`--set`) have no line; their messages name the override
/// instead: `<file>: --set <key.path>=<value>: <key.path>: ...`.

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace novamd::io {

/// A list of allowed names: keys of a map, or the values of a choice.
using NameList = std::vector<std::string_view>;

/// A value that came from a `--set` override rather than from the file.
struct OverrideOrigin {
  std::string key_path;  ///< display form: forces[0].yukawa.cutoff
  std::string text;      ///< the override as given: forces.0.yukawa.cutoff=2.5
};

/// What every reader of one document shares: the file name and the overridden key paths.
struct YamlSource {
  std::string file;
  std::vector<OverrideOrigin> overrides;

  /// The override that set `key_path` or one of its parents, if any.
  const OverrideOrigin* override_for(std::string_view key_path) const;
};

/// An allowed range of numbers, with its description for messages ("> 0", "in (0, 1]").
struct ValueRange {
  std::optional<double> min;
  bool min_exclusive = false;
  std::optional<double> max;
  bool max_exclusive = false;

  static ValueRange any() { return {}; }
  static ValueRange positive() { return {0.0, true, std::nullopt, false}; }
  static ValueRange non_negative() { return {0.0, false, std::nullopt, false}; }
  static ValueRange at_least(double lower) { return {lower, false, std::nullopt, false}; }
  static ValueRange between(double lower, double upper) { return {lower, false, upper, false}; }

  bool contains(double value) const;
  /// " > 0", " >= 1", " in (0, 1]", or "" for any value.
  std::string describe() const;
};

/// One node of a config document, its key path and its line.
class YamlReader {
 public:
  /// The document's root node.
  YamlReader(YAML::Node node, std::shared_ptr<const YamlSource> source);

  /// A node at `path` (display form, e.g. `forces[0].yukawa`) reported at `line` (1-based, 0 when
  /// unknown) when the node itself carries no position.
  YamlReader(YAML::Node node, std::shared_ptr<const YamlSource> source, std::string path, int line);

  const YAML::Node& node() const { return node_; }
  const std::string& path() const { return path_; }
  int line() const { return line_; }
  const YamlSource& source() const { return *source_; }

  bool is_defined() const { return node_.IsDefined(); }
  bool is_null() const { return node_.IsDefined() && node_.IsNull(); }
  bool is_map() const { return node_.IsMap(); }
  bool is_list() const { return node_.IsSequence(); }
  bool is_scalar() const { return node_.IsScalar(); }
  /// True for an unquoted scalar spelled exactly `word` (`none`, `energy`).
  bool is_word(std::string_view word) const;

  /// Path of a child key of this map, or of an element of this list.
  std::string key_path(std::string_view key) const;
  std::string element_path(std::size_t index) const;

  // --- maps ---------------------------------------------------------------------------------

  /// Throws unless this node is a map.
  void expect_map() const;
  /// Checks that every key is a name in `allowed` and appears once; an unknown key is reported at
  /// its own line with the nearest allowed key suggested.
  void check_keys(const NameList& allowed) const;
  bool has(std::string_view key) const;
  /// The value under `key`; throws "required key is missing" (at this map's line) if absent.
  YamlReader required(std::string_view key) const;
  /// The value under `key`, or nothing if absent.
  std::optional<YamlReader> optional(std::string_view key) const;
  /// The entries of this map, in file order (throws unless a map).
  std::vector<std::pair<std::string, YamlReader>> entries() const;
  /// A reader for a key (not its value), for messages about the key itself.
  YamlReader key_reader(std::string_view key) const;

  // --- lists --------------------------------------------------------------------------------

  /// The elements of this list (throws unless a list).
  std::vector<YamlReader> elements() const;

  // --- scalars ------------------------------------------------------------------------------

  /// A finite number in `range`; quoted strings are not numbers.
  double number(const ValueRange& range = ValueRange::any()) const;
  /// Nothing for the unquoted word `word` (`none`), else a number in `range`.
  std::optional<double> number_or_word(std::string_view word, const ValueRange& range) const;
  /// An integer in `range` (1e6 is accepted, 2.5 is not).
  std::int64_t integer(const ValueRange& range = ValueRange::any()) const;
  /// A non-empty string (any scalar).
  std::string string() const;
  /// One of `allowed`; an unknown value is reported with the nearest allowed one.
  std::string choice(const NameList& allowed) const;

  /// `number(range)` of the value under `key`, or `fallback` if the key is absent.
  double number_or(std::string_view key, double fallback, const ValueRange& range) const;
  std::int64_t integer_or(std::string_view key, std::int64_t fallback,
                          const ValueRange& range) const;
  std::string string_or(std::string_view key, const std::string& fallback) const;
  std::string choice_or(std::string_view key, const std::string& fallback,
                        const NameList& allowed) const;

  // --- the whole tree -----------------------------------------------------------------------

  /// The longest value a config may hold (a path is at most 4096 bytes on Linux).
  static constexpr std::size_t kMaxValueBytes = 4096;
  /// Checks every key and value below this node: no YAML tags (`!!int`; the quoting of a string
  /// is fine), no value longer than kMaxValueBytes, no control characters. After this, any
  /// value fits in a message. @throws core::InputError at the first offender.
  void check_plain_values() const;

  // --- errors -------------------------------------------------------------------------------

  /// "<file>:<line>: " or "<file>: --set k=v: ", then the key path and ": ".
  std::string location() const;
  /// Throws core::InputError: "<location><problem>; expected <expected>" (no "; expected" part
  /// when `expected` is empty).
  [[noreturn]] void fail(std::string_view problem, std::string_view expected = {}) const;
  /// Throws the message for a node of the wrong kind: "found a list; expected a number > 0".
  [[noreturn]] void fail_type(std::string_view expected) const;
  /// What this node is, for messages: "a map", "a list", "no value", "'abc'".
  std::string describe() const;

 private:
  YamlReader child(const YAML::Node& key, const YAML::Node& value, std::string path) const;
  std::optional<std::pair<YAML::Node, YAML::Node>> find(std::string_view key) const;
  const std::string& scalar_for_number(std::string_view expected) const;
  double checked_number(const ValueRange& range, const std::string& expected) const;

  YAML::Node node_;
  std::shared_ptr<const YamlSource> source_;
  std::string path_;
  int line_ = 0;
};

/// Restricted Damerau-Levenshtein distance (a swap of neighbours counts as one edit).
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The candidate closest to `name` if it is close enough to be a likely typo
/// (distance <= max(2, length / 3) and shorter than `name`), else nothing.
std::optional<std::string> nearest_name(std::string_view name, const NameList& candidates);

/// "a, b or c", for messages.
std::string join_names(const NameList& names, std::string_view last_separator = " or ");

/// 1-based line of a node's position, or 0 where the node has none (built in memory).
int line_of(const YAML::Node& node);

}  // namespace novamd::io
