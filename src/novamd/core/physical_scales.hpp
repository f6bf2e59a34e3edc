#pragma once
/// @file physical_scales.hpp
/// What a unit system's units are in CGS and kelvin, for quantities given with their own units
/// in a config (a mass density in g/cm^3, a temperature in K) and for plasma parameters.
/// Constants: CODATA 2018 (docs/units.md).

#include <optional>

#include "novamd/core/units.hpp"

namespace novamd::core {

/// Reduced (lj) units have no physical scale.
struct PhysicalScales {
  double grams_per_mass;              ///< one mass unit in grams
  double centimetres_per_length;      ///< one length unit in cm
  double kelvin_per_temperature;      ///< one temperature unit in K
  double atomic_mass_unit;            ///< 1 u in mass units
  double electron_mass;               ///< m_e in mass units
  double pascals_per_energy_density;  ///< one energy per length^3 in Pa
};

inline constexpr double kBoltzmannEvPerKelvin = 8.617333262e-5;  ///< k_B, eV/K (exact)
inline constexpr double kHbarCMeVFm = 197.3269804;               ///< hbar c, MeV fm
inline constexpr double kFineStructure = 7.2973525693e-3;        ///< alpha
inline constexpr double kElectronMassMeV = 0.51099895000;        ///< m_e c^2, MeV
inline constexpr double kAtomicMassUnitMeV = 931.49410242;       ///< u c^2, MeV
inline constexpr double kAvogadro = 6.02214076e23;               ///< 1/mol (exact)

inline std::optional<PhysicalScales> physical_scales(const UnitSystem& units) {
  if (units.name == "nuclear") {
    // 1 MeV/c^2 = 1.782661921e-30 kg; 1 fm = 1e-13 cm; 1 MeV / k_B = 1e6 / 8.617333262e-5 K.
    // 1 MeV/fm^3 = 1.602176634e-13 J / 1e-45 m^3.
    return PhysicalScales{
        1.782661921e-27,  1e-13,         1e6 / kBoltzmannEvPerKelvin, kAtomicMassUnitMeV,
        kElectronMassMeV, 1.602176634e32};
  }
  if (units.name == "real") {
    // 1 g/mol = 1/N_A g; 1 A = 1e-8 cm; u = 1 g/mol (to 4e-10 since the 2019 SI).
    // 1 kcal/mol/A^3 = 4184 J / (N_A 1e-30 m^3).
    return PhysicalScales{
        1.0 / kAvogadro, 1e-8, 1.0, 1.0, 5.48579909065e-4, 4184.0 / (kAvogadro * 1e-30)};
  }
  return std::nullopt;
}

}  // namespace novamd::core
