#pragma once
/// @file custom_pair.hpp
/// A pair potential given as a formula in the config (`custom_pair`; the model is OpenMM's
/// CustomNonbondedForce): the energy V(r; p_1 ... p_m) of a pair at distance r with the named
/// parameters of its species pair, and the force from the formula's symbolic derivative,
///
///     F(r) = -dV/dr,    force_over_r = F(r) / r,
///
/// both exact to the rounding of the formula's own operations (no finite differences, no
/// table). The cutoff and its shifts are the common wrapper's (truncated.hpp).
///
/// On the CPU the formula runs as a stack program (physics/expression.hpp) per pair; on the GPU
/// it is compiled at run time to native code by NVRTC (forces/cuda_custom_pair.cu), from the
/// same tree.
///
/// Units: those of the unit system (energy; r in its length); the parameters carry whatever the
/// formula gives them.

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "novamd/physics/expression.hpp"
#include "novamd/physics/pair_result.hpp"

namespace novamd::physics {

/// The most parameters one formula may name (each species pair carries them all).
inline constexpr int kMaxCustomParameters = 8;
/// The most values a species pair carries: its parameters, then the formula's parts that do not
/// depend on r, computed once per pair (CustomFormula::constants).
inline constexpr int kMaxCustomSlots = 24;

/// A formula read once: its tree, derivative and the programs that run them on the host.
/// Every largest part of V and dV/dr that does not depend on r (C = n/(n-m) (n/m)^(m/(n-m)) in
/// a Mie potential, sigma^6) is computed once per species pair, not per pair of particles: it
/// becomes a value of its own after the parameters (variable parameters.size() + k + 1 for
/// constants[k]), which slot_values fills.
struct CustomFormula {
  std::string text;                     ///< as the config gives it
  std::vector<std::string> parameters;  ///< the names, in the order of Params::p
  Expression energy, derivative;        ///< V and dV/dr over r and the slots
  std::vector<Expression> constants;    ///< over the parameters only
  ExpressionProgram energy_program, derivative_program;

  /// Reads `text` over r and `parameters`.
  /// @throws ExpressionError (position and message) where it does not read, where the energy
  /// does not depend on r, or where it has more parts without r than a pair's slots hold.
  CustomFormula(std::string text, std::vector<std::string> parameters);

  /// The values of one species pair the programs read: `values` (one per parameter), then the
  /// constants computed from them.
  std::vector<double> slot_values(const std::vector<double>& values) const;
  int slots() const { return static_cast<int>(parameters.size() + constants.size()); }
};

/// The evaluator: host only (the device runs the compiled formula instead).
template <class T>
struct CustomPair {
  using Real = T;

  struct Params {
    const CustomFormula* formula;  ///< kept alive by the table (PairTable::hold)
    T p[kMaxCustomSlots];          ///< the species pair's slot values (slot_values)
  };

  static PairResult<T> evaluate(T r2, const Params& params) {
    const T r = std::sqrt(r2);
    const T energy = params.formula->energy_program(r, params.p);
    const T slope = params.formula->derivative_program(r, params.p);
    return {-slope / r, energy};
  }
};

}  // namespace novamd::physics
