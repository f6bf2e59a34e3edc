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

/// A pressure in energy per length^3 (the unit system's internal unit): a number in the unit
/// system's pressure unit (atm in real units, as the thermo output reports it), or "VALUE UNIT"
/// with UNIT one of atm, bar, Pa, kPa, MPa, GPa (not in lj units).
double parse_pressure(const YamlReader& node, const core::UnitSystem& units,
                      const ValueRange& range);

/// A compressibility in length^3 per energy: a number per the unit system's pressure unit, or
/// "VALUE /UNIT" with UNIT a pressure unit of parse_pressure ("4.5e-5 /bar"; not in lj units).
double parse_compressibility(const YamlReader& node, const core::UnitSystem& units);

/// `system.density`: particles per volume, or a mass density.
struct DensitySetting {
  double value = 0.0;
  bool is_mass = false;  ///< value in g/cm^3 (else particles per length unit cubed)
};

/// A number (particles per length^3), "VALUE LEN^-3" with the unit system's length, or
/// "VALUE g/cm^3" / "VALUE kg/m^3" (a mass density; not in lj units).
DensitySetting parse_density(const YamlReader& node, const core::UnitSystem& units);

}  // namespace novamd::io
