#pragma once
/// @file thermo_units.hpp
/// The unit of each thermo column in a unit system, for the thermo CSV's `# units:` line and
/// the axes of plots: "fs", "kcal/mol", "atm"; in lj units the reduced ones ("tau", "epsilon").

#include <string>
#include <string_view>
#include <vector>

#include "novamd/core/units.hpp"

namespace novamd::analysis {

/// The unit of thermo column `column` in `units`; empty for a pure number (step, a count, a
/// relative drift, a plasma parameter).
std::string thermo_column_unit(std::string_view column, const core::UnitSystem& units);

/// `# units: time=fs temperature=K ...`: one column=unit for each of `columns` that has a unit,
/// in their order (CSV readers skip it as a comment: numpy's loadtxt, pandas with comment="#").
std::string thermo_units_line(const std::vector<std::string>& columns,
                              const core::UnitSystem& units);

}  // namespace novamd::analysis
