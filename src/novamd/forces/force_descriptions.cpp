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
  const std::string name = method == CoulombMethod::Cut             ? "cut"
                           : method == CoulombMethod::Shift         ? "force shifted"
                           : method == CoulombMethod::ReactionField ? "reaction field"
                           : method == CoulombMethod::Pme           ? "smooth PME"
                                                                    : "Ewald sum";
  std::string text = fmt::format("coulomb ({}, cutoff {} {}", name, cutoff, units.length);
  if (dielectric != 1.0) text += fmt::format(", dielectric {}", dielectric);
  if (method == CoulombMethod::ReactionField) text += fmt::format(", epsilon_rf {}", epsilon_rf);
  if (ewald_split()) {
    text += fmt::format(", tolerance {:g}", ewald.tolerance);
    if (ewald.alpha) text += fmt::format(", alpha {:.6g} /{}", *ewald.alpha, units.length);
  }
  if (method == CoulombMethod::Pme) {
    text += fmt::format(", order {}", ewald.order);
    if (kspace_resolved())
      text += fmt::format(", grid {} x {} x {}", ewald.grid_per_axis[0], ewald.grid_per_axis[1],
                          ewald.grid_per_axis[2]);
  }
  if (method == CoulombMethod::Ewald) {
    if (kspace_resolved())
      text += fmt::format(", kmax {} {} {}", ewald.kmax_per_axis[0], ewald.kmax_per_axis[1],
                          ewald.kmax_per_axis[2]);
    if (ewald.kmax_squared) text += fmt::format(", n^2 <= {}", *ewald.kmax_squared);
  }
  return text + ")";
}

std::string PairTableSettings::describe(const core::UnitSystem& units) const {
  const std::string knots = points ? fmt::format("{} points", *points) : "each table's points";
  return fmt::format("pair_table ({} pair {}, {} on {}, cutoffs up to {} {})", pairs.size(),
                     pairs.size() == 1 ? "entry" : "entries",
                     interpolation == TableInterpolation::Spline ? "spline" : "linear", knots,
                     cutoff, units.length);
}

std::string CustomPairSettings::describe(const core::UnitSystem& units) const {
  std::string names;
  for (const auto& name : formula->parameters) names += (names.empty() ? "" : ", ") + name;
  return fmt::format("custom_pair ({}{}; {})", formula->text,
                     names.empty() ? "" : "; parameters " + names,
                     describe_range(cutoff, truncation, units));
}

}  // namespace novamd::forces
