/// @file force_descriptions.cpp
/// What the run header says of each force term (the `describe` member of each settings type).

#include <fmt/format.h>

#include <cmath>
#include <string>

#include "novamd/forces/force_settings.hpp"

namespace novamd::forces {
namespace {

std::string describe_truncation(Truncation t) {
  switch (t) {
    case Truncation::Cut:
      return "cut";
    case Truncation::ShiftEnergy:
      return "energy shifted";
    case Truncation::ShiftForce:
      return "force shifted";
  }
  return "?";
}

/// "all pairs under the minimum image" or "cutoff 10 fm, cut".
std::string describe_range(double rc, Truncation truncation, const core::UnitSystem& units) {
  return std::isinf(rc)
             ? "all pairs under the minimum image"
             : fmt::format("cutoff {} {}, {}", rc, units.length, describe_truncation(truncation));
}

}  // namespace

std::string YukawaSettings::describe(const core::UnitSystem& units) const {
  return fmt::format("yukawa (screening length {:.6g} {}{}, {})", screening_length, units.length,
                     thomas_fermi ? " (Thomas-Fermi)" : "",
                     describe_range(cutoff, truncation, units));
}

std::string NuclearSettings::describe(const core::UnitSystem& units) const {
  return fmt::format("nuclear (a {} {e}, b {} {e}, c {} {e}, Lambda {} {l}^2, {})", a, b, c, lambda,
                     describe_range(cutoff, truncation, units), fmt::arg("e", units.energy),
                     fmt::arg("l", units.length));
}

std::string LennardJonesSettings::describe(const core::UnitSystem& units) const {
  const std::string range = switch_inner
                                ? fmt::format("switched from {} {}", *switch_inner, units.length)
                                : describe_truncation(truncation);
  return fmt::format("lennard_jones ({} pair entries, {} mixing, cutoff {} {}, {}{})", pairs.size(),
                     mixing == Mixing::Geometric ? "geometric" : "arithmetic", cutoff, units.length,
                     range, tail_correction ? ", tail correction" : "");
}

std::string CoulombSettings::describe(const core::UnitSystem& units) const {
  const std::string name = method == CoulombMethod::Cut     ? "cut"
                           : method == CoulombMethod::Shift ? "force shifted"
                                                            : "reaction field";
  std::string text = fmt::format("coulomb ({}, cutoff {} {}", name, cutoff, units.length);
  if (dielectric != 1.0) text += fmt::format(", dielectric {}", dielectric);
  if (method == CoulombMethod::ReactionField) text += fmt::format(", epsilon_rf {}", epsilon_rf);
  return text + ")";
}

}  // namespace novamd::forces
