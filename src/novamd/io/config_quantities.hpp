#pragma once
/// @file config_quantities.hpp
/// Config values that may carry their own unit: a temperature ("1.2e7 K", "0.8 MeV") or a
/// density ("1.2e9 g/cm^3", "5e-8 fm^-3"). A bare number is in the run's unit system.

#include "novamd/core/units.hpp"
#include "novamd/io/yaml_reader.hpp"

namespace novamd::io {

/// A temperature in the unit system's temperature unit: a number, or "VALUE UNIT" with UNIT
/// one of K, eV, keV, MeV (not in lj units, which have no kelvin).
double parse_temperature(const YamlReader& node, const core::UnitSystem& units,
                         const ValueRange& range);

/// `system.density`: particles per volume, or a mass density.
struct DensitySetting {
  double value = 0.0;
  bool is_mass = false;  ///< value in g/cm^3 (else particles per length unit cubed)
};

/// A number (particles per length^3), "VALUE LEN^-3" with the unit system's length, or
/// "VALUE g/cm^3" / "VALUE kg/m^3" (a mass density; not in lj units).
DensitySetting parse_density(const YamlReader& node, const core::UnitSystem& units);

}  // namespace novamd::io
