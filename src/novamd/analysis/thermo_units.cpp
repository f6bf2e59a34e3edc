#include "novamd/analysis/thermo_units.hpp"

#include <array>

namespace novamd::analysis {
namespace {

bool ends_with(std::string_view text, std::string_view tail) {
  return text.size() >= tail.size() && text.substr(text.size() - tail.size()) == tail;
}

/// "g/cm^3" where the units have a physical scale (the mass_density column converts to it).
std::string mass_density_unit(const core::UnitSystem& units) {
  return units.name == "lj" ? "m/sigma^3" : "g/cm^3";
}

}  // namespace

std::string thermo_column_unit(std::string_view column, const core::UnitSystem& units) {
  const std::string& length = units.length;
  if (column == "time") return units.time;
  if (column == "wall_time") return "s";
  if (ends_with(column, "temperature")) return units.temperature;
  if (ends_with(column, "_energy") || ends_with(column, "_energy_per_particle") ||
      column == "virial")
    return units.energy;
  constexpr std::array pressures{"pressure", "pxx", "pyy", "pzz", "pxy", "pxz", "pyz"};
  for (const std::string_view p : pressures)
    if (column == p) return units.pressure;
  if (column == "volume") return length + "^3";
  if (column == "density") return "1/" + length + "^3";
  if (column == "mass_density") return mass_density_unit(units);
  return {};  // step, conserved_energy_drift, neighbor_list_builds, gamma_<species>, kappa
}

std::string thermo_units_line(const std::vector<std::string>& columns,
                              const core::UnitSystem& units) {
  std::string line = "# units:";
  for (const auto& column : columns)
    if (const std::string unit = thermo_column_unit(column, units); !unit.empty())
      line += " " + column + "=" + unit;
  return line;
}

}  // namespace novamd::analysis
