#pragma once
/// @file version.hpp

#include <string>

namespace novamd::app {

/// "novamd 0.1.0 (commit 1a2b3c4d5e6f)"
std::string version_line();

/// The full `novamd --version` text: version, commit, CUDA compiled in, the device if any.
std::string version_report();

}  // namespace novamd::app
