#include "novamd/io/yaml_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <system_error>

#include "novamd/core/error.hpp"
#include "novamd/core/excerpt.hpp"

namespace novamd::io {
namespace {

/// Largest integer a double holds exactly (2^53): integers written as 1e6 must stay below it.
constexpr double kMaxExactInteger = 9007199254740992.0;

/// The whole of `text` as a double, or nothing (a leading '+' is allowed, as in YAML).
std::optional<double> parse_double(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  double value = 0.0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

/// The whole of `text` as a 64-bit integer, or nothing.
std::optional<std::int64_t> parse_int64(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

/// A bound written for people: 0 not 0.000000, 1e-06 not 0.000001.
std::string format_bound(double value) {
  return fmt::format("{}", value);
}

}  // namespace

// --- YamlSource, ValueRange -------------------------------------------------------------------

const OverrideOrigin* YamlSource::override_for(std::string_view key_path) const {
  for (auto it = overrides.rbegin(); it != overrides.rend(); ++it) {
    const std::string& prefix = it->key_path;
    if (!key_path.starts_with(prefix)) continue;
    if (key_path.size() == prefix.size() || key_path[prefix.size()] == '.' ||
        key_path[prefix.size()] == '[')
      return &*it;
  }
  return nullptr;
}

bool ValueRange::contains(double value) const {
  if (min && (min_exclusive ? value <= *min : value < *min)) return false;
  if (max && (max_exclusive ? value >= *max : value > *max)) return false;
  return true;
}

std::string ValueRange::describe() const {
  if (min && max) {
    return fmt::format(" in {}{}, {}{}", min_exclusive ? "(" : "[", format_bound(*min),
                       format_bound(*max), max_exclusive ? ")" : "]");
  }
  if (min) return fmt::format(" {} {}", min_exclusive ? ">" : ">=", format_bound(*min));
  if (max) return fmt::format(" {} {}", max_exclusive ? "<" : "<=", format_bound(*max));
  return "";
}

// --- construction and paths --------------------------------------------------------------------

YamlReader::YamlReader(YAML::Node node, std::shared_ptr<const YamlSource> source)
    : YamlReader(node, std::move(source), "", 0) {
  line_ = std::max(1, line_of(node_));
}

YamlReader::YamlReader(YAML::Node node, std::shared_ptr<const YamlSource> source, std::string path,
                       int line)
    : node_(std::move(node)), source_(std::move(source)), path_(std::move(path)), line_(line) {}

bool YamlReader::is_word(std::string_view word) const {
  return node_.IsScalar() && node_.Tag() == "?" && node_.Scalar() == word;
}

std::string YamlReader::key_path(std::string_view key) const {
  return path_.empty() ? std::string(key) : fmt::format("{}.{}", path_, key);
}

std::string YamlReader::element_path(std::size_t index) const {
  return fmt::format("{}[{}]", path_, index);
}

YamlReader YamlReader::child(const YAML::Node& key, const YAML::Node& value,
                             std::string path) const {
  int line = line_of(key);
  if (line == 0) line = line_of(value);
  if (line == 0) line = line_;
  return YamlReader(value, source_, std::move(path), line);
}

// --- maps -------------------------------------------------------------------------------------

void YamlReader::expect_map() const {
  if (!node_.IsMap()) fail_type("a map");
}

std::optional<std::pair<YAML::Node, YAML::Node>> YamlReader::find(std::string_view key) const {
  expect_map();
  for (const auto& entry : node_) {
    if (entry.first.IsScalar() && entry.first.Scalar() == key)
      return std::make_pair(entry.first, entry.second);
  }
  return std::nullopt;
}

void YamlReader::check_keys(const NameList& allowed) const {
  expect_map();
  std::set<std::string> seen;
  for (const auto& entry : node_) {
    const YAML::Node& key = entry.first;
    if (!key.IsScalar()) child(key, key, path_).fail_type("a key name");
    const YamlReader at_key = child(key, key, key_path(key.Scalar()));
    if (std::find(allowed.begin(), allowed.end(), key.Scalar()) == allowed.end()) {
      if (auto near = nearest_name(key.Scalar(), allowed))
        at_key.fail(fmt::format("unknown key; did you mean '{}'?", *near));
      at_key.fail("unknown key", "one of " + join_names(allowed, ", "));
    }
    if (!seen.insert(key.Scalar()).second) at_key.fail("key appears twice", "each key once");
  }
}

bool YamlReader::has(std::string_view key) const {
  return find(key).has_value();
}

YamlReader YamlReader::required(std::string_view key) const {
  if (auto found = optional(key)) return *found;
  YamlReader(YAML::Node(), source_, key_path(key), line_).fail("required key is missing");
}

std::optional<YamlReader> YamlReader::optional(std::string_view key) const {
  auto found = find(key);
  if (!found) return std::nullopt;
  return child(found->first, found->second, key_path(key));
}

std::vector<std::pair<std::string, YamlReader>> YamlReader::entries() const {
  expect_map();
  std::vector<std::pair<std::string, YamlReader>> result;
  for (const auto& entry : node_) {
    if (!entry.first.IsScalar()) child(entry.first, entry.first, path_).fail_type("a key name");
    const std::string name = entry.first.Scalar();
    result.emplace_back(name, child(entry.first, entry.second, key_path(name)));
  }
  return result;
}

YamlReader YamlReader::key_reader(std::string_view key) const {
  auto found = find(key);
  if (!found) return YamlReader(YAML::Node(), source_, key_path(key), line_);
  return child(found->first, found->first, key_path(key));
}

// --- lists ------------------------------------------------------------------------------------

std::vector<YamlReader> YamlReader::elements() const {
  if (!node_.IsSequence()) fail_type("a list");
  std::vector<YamlReader> result;
  for (std::size_t i = 0; i < node_.size(); ++i) {
    const YAML::Node element = node_[i];
    const int line = line_of(element);
    result.emplace_back(element, source_, element_path(i), line > 0 ? line : line_);
  }
  return result;
}

// --- scalars ----------------------------------------------------------------------------------

const std::string& YamlReader::scalar_for_number(std::string_view expected) const {
  if (!node_.IsScalar()) fail_type(expected);
  if (node_.Tag() != "?")
    fail(fmt::format("'{}' is quoted, so a string", core::excerpt(node_.Scalar())), expected);
  return node_.Scalar();
}

double YamlReader::number(const ValueRange& range) const {
  return checked_number(range, "a number" + range.describe());
}

std::optional<double> YamlReader::number_or_word(std::string_view word,
                                                 const ValueRange& range) const {
  if (is_word(word)) return std::nullopt;
  return checked_number(range, fmt::format("{} or a number{}", word, range.describe()));
}

double YamlReader::checked_number(const ValueRange& range, const std::string& expected) const {
  const std::string& text = scalar_for_number(expected);
  const auto value = parse_double(text);
  if (!value) fail(fmt::format("'{}' is not a number", text), expected);
  if (!std::isfinite(*value)) fail(fmt::format("'{}' is not a finite number", text), expected);
  if (!range.contains(*value)) fail(fmt::format("{} is out of range", text), expected);
  return *value;
}

std::int64_t YamlReader::integer(const ValueRange& range) const {
  const std::string expected = "an integer" + range.describe();
  const std::string& text = scalar_for_number(expected);
  std::int64_t result = 0;
  if (const auto exact = parse_int64(text)) {
    result = *exact;
  } else {
    const auto value = parse_double(text);
    if (!value) fail(fmt::format("'{}' is not a number", text), expected);
    if (!std::isfinite(*value) || std::abs(*value) > kMaxExactInteger)
      fail(fmt::format("{} is out of range", text), expected);
    if (*value != std::trunc(*value)) fail(fmt::format("{} is not an integer", text), expected);
    result = static_cast<std::int64_t>(*value);
  }
  if (!range.contains(static_cast<double>(result)))
    fail(fmt::format("{} is out of range", text), expected);
  return result;
}

std::string YamlReader::string() const {
  if (!node_.IsScalar()) fail_type("a string");
  if (node_.Scalar().empty()) fail("the string is empty", "a non-empty string");
  return node_.Scalar();
}

std::string YamlReader::choice(const NameList& allowed) const {
  const std::string expected = join_names(allowed);
  if (!node_.IsScalar()) fail_type(expected);
  const std::string& value = node_.Scalar();
  if (std::find(allowed.begin(), allowed.end(), value) != allowed.end()) return value;
  if (auto near = nearest_name(value, allowed))
    fail(fmt::format("unknown value '{}' (did you mean '{}'?)", core::excerpt(value), *near),
         expected);
  fail(fmt::format("unknown value '{}'", core::excerpt(value)), expected);
}

double YamlReader::number_or(std::string_view key, double fallback, const ValueRange& range) const {
  const auto value = optional(key);
  return value ? value->number(range) : fallback;
}

std::int64_t YamlReader::integer_or(std::string_view key, std::int64_t fallback,
                                    const ValueRange& range) const {
  const auto value = optional(key);
  return value ? value->integer(range) : fallback;
}

std::string YamlReader::string_or(std::string_view key, const std::string& fallback) const {
  const auto value = optional(key);
  return value ? value->string() : fallback;
}

std::string YamlReader::choice_or(std::string_view key, const std::string& fallback,
                                  const NameList& allowed) const {
  const auto value = optional(key);
  return value ? value->choice(allowed) : fallback;
}

// --- errors -----------------------------------------------------------------------------------

std::string YamlReader::location() const {
  std::string result = source_->file;
  if (const OverrideOrigin* origin = source_->override_for(path_)) {
    result += ": --set " + core::excerpt(origin->text);
  } else if (line_ > 0) {
    result += fmt::format(":{}", line_);
  }
  result += ": ";
  if (!path_.empty()) result += core::excerpt(path_, 2 * core::kExcerptBytes) + ": ";
  return result;
}

void YamlReader::fail(std::string_view problem, std::string_view expected) const {
  std::string message = location() + std::string(problem);
  if (!expected.empty()) message += fmt::format("; expected {}", expected);
  throw core::InputError(message);
}

void YamlReader::fail_type(std::string_view expected) const {
  fail("found " + describe(), expected);
}

std::string YamlReader::describe() const {
  if (!node_.IsDefined() || node_.IsNull()) return "no value";
  if (node_.IsMap()) return "a map";
  if (node_.IsSequence()) return "a list";
  return fmt::format("'{}'", core::excerpt(node_.Scalar()));
}

// --- plain values -------------------------------------------------------------------------------

namespace {

/// yaml-cpp's tags for a plain scalar or collection ("?", or none) and a quoted one ("!").
bool is_plain_tag(const std::string& tag) { return tag.empty() || tag == "?" || tag == "!"; }

/// The first control character of `text` (tabs and line ends of block values aside), or nothing.
std::optional<unsigned char> control_character(const std::string& text) {
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && u != '\t' && u != '\n') || u == 0x7f) return u;
  }
  return std::nullopt;
}

}  // namespace

void YamlReader::check_plain_values() const {
  if (!is_plain_tag(node_.Tag()))
    fail(fmt::format("the YAML tag '{}' is not supported", core::excerpt(node_.Tag())),
         "a plain value (write 0.005, not !!float 0.005; quote a string: \"text\")");
  if (node_.IsScalar()) {
    const std::string& text = node_.Scalar();
    if (text.size() > kMaxValueBytes)
      fail(fmt::format("the value '{}' is {} bytes long", core::excerpt(text), text.size()),
           fmt::format("at most {} bytes", kMaxValueBytes));
    if (const auto c = control_character(text))
      fail(fmt::format("the value '{}' holds the control character 0x{:02x}", core::excerpt(text),
                       *c),
           "printable text");
  } else if (node_.IsMap()) {
    for (const auto& entry : node_) {
      const std::string path = entry.first.IsScalar() ? key_path(entry.first.Scalar()) : path_;
      child(entry.first, entry.first, path_).check_plain_values();  // the key itself
      child(entry.first, entry.second, path).check_plain_values();
    }
  } else if (node_.IsSequence()) {
    for (const YamlReader& element : elements()) element.check_plain_values();
  }
}

// --- free functions ---------------------------------------------------------------------------

std::size_t edit_distance(std::string_view a, std::string_view b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[n][m];
}

std::optional<std::string> nearest_name(std::string_view name, const NameList& candidates) {
  std::optional<std::string> best;
  std::size_t best_distance = 0;
  for (const std::string_view candidate : candidates) {
    const std::size_t distance = edit_distance(name, candidate);
    if (!best || distance < best_distance) {
      best = std::string(candidate);
      best_distance = distance;
    }
  }
  const std::size_t limit = std::max<std::size_t>(2, name.size() / 3);
  if (best && best_distance <= limit && best_distance < name.size()) return best;
  return std::nullopt;
}

std::string join_names(const NameList& names, std::string_view last_separator) {
  std::string result;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) result += (i + 1 == names.size()) ? last_separator : std::string_view(", ");
    result += names[i];
  }
  return result;
}

int line_of(const YAML::Node& node) {
  if (!node.IsDefined()) return 0;
  const YAML::Mark mark = node.Mark();
  return mark.is_null() ? 0 : mark.line + 1;
}

}  // namespace novamd::io
