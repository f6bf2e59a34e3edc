#include "novamd/io/config_quantities.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include "novamd/core/physical_scales.hpp"

namespace novamd::io {
namespace {

/// "VALUE UNIT" split at the first blank; nothing for a scalar without one (a bare number).
std::optional<std::pair<double, std::string>> value_and_unit(const YamlReader& node,
                                                             const std::string& expected) {
  if (!node.is_scalar()) node.fail_type(expected);
  const std::string& text = node.node().Scalar();
  const auto blank = text.find(' ');
  if (blank == std::string::npos) return std::nullopt;
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + blank, value);
  if (error != std::errc() || end != text.data() + blank || !std::isfinite(value))
    node.fail(fmt::format("'{}' does not start with a number", text), expected);
  const auto unit_start = text.find_first_not_of(' ', blank);
  if (unit_start == std::string::npos) return std::nullopt;  // blanks only: no unit ("1 ")
  return std::pair(value, text.substr(unit_start));
}

void check_range(const YamlReader& node, double value, const ValueRange& range,
                 const std::string& expected) {
  if (!std::isfinite(value) || !range.contains(value))  // a unit may scale past the range
    node.fail(fmt::format("{} is out of range", value), expected);
}

/// Kelvin per one of the named temperature units, or nothing.
std::optional<double> kelvin_per(const std::string& unit) {
  if (unit == "K") return 1.0;
  if (unit == "eV") return 1.0 / core::kBoltzmannEvPerKelvin;
  if (unit == "keV") return 1e3 / core::kBoltzmannEvPerKelvin;
  if (unit == "MeV") return 1e6 / core::kBoltzmannEvPerKelvin;
  return std::nullopt;
}

/// Pascals per one of the named pressure units, or nothing.
std::optional<double> pascals_per(const std::string& unit) {
  if (unit == "Pa") return 1.0;
  if (unit == "kPa") return 1e3;
  if (unit == "MPa") return 1e6;
  if (unit == "GPa") return 1e9;
  if (unit == "bar") return 1e5;
  if (unit == "atm") return 101325.0;
  return std::nullopt;
}

/// One of parse_pressure's named pressure units in energy per length^3; fails naming `unit`
/// where the units have no scale or the name is unknown.
double energy_density_per(const YamlReader& node, const std::string& unit,
                          const std::optional<core::PhysicalScales>& scales,
                          const std::string& what, const std::string& expected) {
  const auto pascals = pascals_per(unit);
  if (!scales || !pascals) node.fail(fmt::format("unknown {} unit '{}'", what, unit), expected);
  return *pascals / scales->pascals_per_energy_density;
}

}  // namespace

double parse_pressure(const YamlReader& node, const core::UnitSystem& units,
                      const ValueRange& range) {
  const auto scales = core::physical_scales(units);
  const std::string expected =
      scales ? fmt::format(
                   "a pressure{} in {}, or a number with a unit: atm, bar, Pa, kPa, MPa "
                   "or GPa (\"1 bar\")",
                   range.describe(), units.pressure)
             : fmt::format("a pressure{} in {} (reduced units have no pascals)", range.describe(),
                           units.pressure);
  const auto quantity = value_and_unit(node, expected);
  if (!quantity) return node.number(range) / units.pressure_scale;
  if (!scales) node.fail(fmt::format("'{}' has a unit", node.node().Scalar()), expected);
  const double value =
      quantity->first * energy_density_per(node, quantity->second, scales, "pressure", expected);
  check_range(node, value * units.pressure_scale, range, expected);
  return value;
}

double parse_compressibility(const YamlReader& node, const core::UnitSystem& units) {
  const auto scales = core::physical_scales(units);
  const std::string expected =
      scales ? fmt::format(
                   "a compressibility > 0 per {}, or a number with a unit: /atm, /bar, "
                   "/Pa, /kPa, /MPa or /GPa (\"4.5e-5 /bar\")",
                   units.pressure)
             : fmt::format("a compressibility > 0 per {}", units.pressure);
  const auto quantity = value_and_unit(node, expected);
  if (!quantity) return node.number(ValueRange::positive()) * units.pressure_scale;
  const std::string& unit = quantity->second;  // "/bar": per a pressure unit
  if (unit.size() < 2 || unit[0] != '/')
    node.fail(fmt::format("unknown compressibility unit '{}'", unit), expected);
  const std::string per = unit.substr(1);
  const double value =
      quantity->first / energy_density_per(node, per, scales, "compressibility", expected);
  check_range(node, value, ValueRange::positive(), expected);
  return value;
}

double parse_temperature(const YamlReader& node, const core::UnitSystem& units,
                         const ValueRange& range) {
  const auto scales = core::physical_scales(units);
  const std::string expected =
      scales ? fmt::format(
                   "a temperature{} in {}, or a number with a unit: K, eV, keV or MeV "
                   "(\"1.2e7 K\")",
                   range.describe(), units.temperature)
             : fmt::format("a number{} (reduced units have no kelvin)", range.describe());
  const auto quantity = value_and_unit(node, expected);
  if (!quantity) return node.number(range);
  if (!scales) node.fail(fmt::format("'{}' has a unit", node.node().Scalar()), expected);
  const auto kelvin = kelvin_per(quantity->second);
  if (!kelvin) node.fail(fmt::format("unknown temperature unit '{}'", quantity->second), expected);
  const double value = quantity->first * *kelvin / scales->kelvin_per_temperature;
  check_range(node, value, range, expected);
  return value;
}

DensitySetting parse_density(const YamlReader& node, const core::UnitSystem& units) {
  const auto scales = core::physical_scales(units);
  const std::string per_volume = fmt::format("{}^-3", units.length);
  const std::string expected =
      scales ? fmt::format(
                   "a number density > 0 in {} (5e-8 or \"5e-8 {}\"), or a mass density "
                   "> 0 (\"1.2e9 g/cm^3\" or \"1.2e12 kg/m^3\")",
                   per_volume, per_volume)
             : fmt::format("a number density > 0 in {}", per_volume);
  const auto quantity = value_and_unit(node, expected);
  if (!quantity) return {node.number(ValueRange::positive()), false};
  const auto& [value, unit] = *quantity;
  check_range(node, value, ValueRange::positive(), expected);
  if (unit == per_volume) return {value, false};
  if (scales && unit == "g/cm^3") return {value, true};
  if (scales && unit == "kg/m^3") return {value * 1e-3, true};
  node.fail(fmt::format("unknown density unit '{}'", unit), expected);
}

}  // namespace novamd::io
