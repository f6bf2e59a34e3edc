#pragma once
// Helpers shared by the input tests: a two-species table and the message of an expected
// core::InputError.

#include <gtest/gtest.h>

#include <string>

#include "novamd/core/error.hpp"
#include "novamd/core/species.hpp"

namespace novamd::test {

/// Carbon and oxygen ions (charges 6 and 8, masses 12 and 16).
inline core::SpeciesTable two_species() {
  return core::SpeciesTable({core::Species{"C", 6.0, 12.0, 0}, core::Species{"O", 8.0, 16.0, 0}});
}

/// The message of the core::InputError that `f` throws; a test failure if it throws none.
template <class F>
std::string input_error_of(F&& f) {
  try {
    f();
  } catch (const core::InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected core::InputError";
  return {};
}

}  // namespace novamd::test
