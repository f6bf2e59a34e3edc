#pragma once
/// @file precision.hpp
/// Arithmetic precision of a run (DESIGN principle 6) and the types each one uses.

#include <optional>
#include <string>
#include <string_view>

namespace novamd::core {

enum class Precision {
  Double,  ///< everything in FP64
  Mixed,   ///< pair arithmetic in FP32; accumulation and integration in FP64
  Single,  ///< pair arithmetic and force accumulation in FP32; particle state and integration
           ///< in FP64 on both backends
};

/// Pair arithmetic type (PairT) and force/energy accumulation type (AccT) of each precision.
template <Precision P>
struct PrecisionTypes;
template <>
struct PrecisionTypes<Precision::Double> {
  using PairT = double;
  using AccT = double;
};
template <>
struct PrecisionTypes<Precision::Mixed> {
  using PairT = float;
  using AccT = double;
};
template <>
struct PrecisionTypes<Precision::Single> {
  using PairT = float;
  using AccT = float;
};

inline std::string_view to_string(Precision p) {
  switch (p) {
    case Precision::Double:
      return "double";
    case Precision::Mixed:
      return "mixed";
    case Precision::Single:
      return "single";
  }
  return "?";
}

inline std::optional<Precision> parse_precision(std::string_view s) {
  if (s == "double") return Precision::Double;
  if (s == "mixed") return Precision::Mixed;
  if (s == "single") return Precision::Single;
  return std::nullopt;
}

}  // namespace novamd::core
