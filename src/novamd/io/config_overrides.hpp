#pragma once
/// @file config_overrides.hpp
/// `--set key.path=value` overrides, applied to a config's YAML tree before it is validated.
///
/// The key path is dotted; where the path meets a list, its component is an element index
/// (`forces.0.yukawa.cutoff`), and the index one past the end appends an element. Maps missing
/// along the path are created. The value is parsed as YAML, so `3`, `2.5`, `none`, `[1, 2, 3]`
/// and `{temperature: 0.1}` are all values.

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "novamd/io/config.hpp"
#include "novamd/io/yaml_reader.hpp"

namespace novamd::io {

/// Applies `overrides`, in order, to the document `root` (a map; an empty document becomes one).
/// Returns, for error messages, the key paths (display form, `forces[0].yukawa`) whose values
/// came from an override, including maps the overrides created.
///
/// @throws core::InputError naming `file` and the override for an empty key path or component,
///   a path through a plain value, an index that is not a number or lies past the end of a list,
///   or a value that is not valid YAML.
std::vector<OverrideOrigin> apply_overrides(YAML::Node& root,
                                            const std::vector<Override>& overrides,
                                            const std::string& file);

/// "key.path=value", as the user wrote it.
std::string override_text(const Override& override_);

}  // namespace novamd::io
