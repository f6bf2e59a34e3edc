#pragma once
/// @file error.hpp
/// The two kinds of failure a user sees: bad input (exit code 2) and a run-time failure (exit code
/// 1).

#include <stdexcept>
#include <string>

namespace novamd::core {

/// Bad input or usage: the message names the file, key path or line, and what is expected.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A failure during the run (non-finite energy, I/O error): the message names step and particle.
class RunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr int kExitSuccess = 0;
inline constexpr int kExitRunFailure = 1;
inline constexpr int kExitBadInput = 2;

}  // namespace novamd::core
