#pragma once
/// @file config_parallel.hpp
/// The `parallel` section of the config: `parallel: {grid: [P, Q] | auto}`.

#include "novamd/parallel/parallel_settings.hpp"
#include "novamd/io/yaml_reader.hpp"

namespace novamd::io {

/// `parallel: {grid}`; the rank count is checked against the grid when the run starts.
parallel::ParallelSettings parse_parallel(const YamlReader& node);

}  // namespace novamd::io
