#pragma once
/// @file yaml_document.hpp
/// A config's text and its one YAML document: read with a size limit (so that `/dev/zero` or a
/// binary file is refused, not read forever), parsed with syntax errors shown at their line with
/// a caret, and refused when it holds more than one document.

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <filesystem>
#include <string>

namespace novamd::io {

/// The largest config file read (a config names its structure files; it never holds data).
inline constexpr std::size_t kMaxConfigBytes = 4 << 20;

/// The whole text of config file `file`. @throws core::InputError if it cannot be read, is a
/// folder, or is larger than kMaxConfigBytes.
std::string read_config_text(const std::filesystem::path& file);

/// The single YAML document of `text`. @throws core::InputError with `source_name`, the line,
/// the line's text and a caret under the column for a syntax error, and for a second document.
YAML::Node load_yaml_document(const std::string& text, const std::string& source_name);

}  // namespace novamd::io
