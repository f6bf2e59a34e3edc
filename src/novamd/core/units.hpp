#pragma once
/// @file units.hpp
/// Unit systems. Every quantity in a config, in memory and in output is in the run's unit system;
/// the constants below are the only conversions. docs/units.md lists them with their sources.

#include <optional>
#include <string>
#include <string_view>

namespace novamd::core {

struct UnitSystem {
  std::string name;
  std::string length, energy, mass, time, temperature;  ///< unit names, for headers and docs
  double boltzmann;                                     ///< k_B in energy per temperature unit
  double coulomb;                                       ///< e^2 / (4 pi eps0) in energy x length
  double mvv_to_energy;  ///< m v^2 in mass x (length/time)^2 converted to the energy unit
  /// The pressure unit of the thermo output, and its value of one energy per length^3 (1 where
  /// the pressure unit is energy per length^3).
  std::string pressure = "energy/length^3";
  double pressure_scale = 1.0;
};

/// One kcal/mol/A^3 in atm: 4184 J / (N_A 1e-30 m^3) / 101325 Pa, with N_A = 6.02214076e23 /mol
/// (exact since 2019), the thermochemical calorie and the standard atmosphere (both exact):
/// 68,568.423. LAMMPS's `units real` take 68,568.415 (its nktv2p), 1.2e-7 less.
inline constexpr double kAtmPerKcalPerMolPerA3 = 4184.0 / (6.02214076e23 * 1e-30 * 101325.0);

/// nuclear: fm, MeV, MeV/c^2, fm/c, temperature in MeV (k_B = 1).
/// e^2 = hbar c alpha = 197.3269804 MeV fm x 7.2973525693e-3 (CODATA 2018).
inline UnitSystem nuclear_units() {
  return {"nuclear", "fm",         "MeV", "MeV/c^2",  "fm/c", "MeV",
          1.0,       1.4399645474, 1.0,   "MeV/fm^3", 1.0};
}

/// lj: reduced Lennard-Jones units; sigma, epsilon, m and k_B are 1, charges in (4 pi eps0 sigma
/// epsilon)^(1/2) so that the Coulomb constant is 1.
inline UnitSystem lj_units() {
  return {"lj", "sigma", "epsilon",         "m", "tau", "epsilon/k_B", 1.0,
          1.0,  1.0,     "epsilon/sigma^3", 1.0};
}

/// real: Angstrom, kcal/mol, g/mol, fs, K, and pressure in atm (as in LAMMPS `units real`).
/// k_B = 1.380649e-23 J/K x N_A / 4184 J/kcal; Coulomb constant from CODATA 2018;
/// 1 g/mol (A/fs)^2 = 1e7 J/kg per mol ... = 1 / 4.184e-4 kcal/mol.
inline UnitSystem real_units() {
  return {"real",
          "A",
          "kcal/mol",
          "g/mol",
          "fs",
          "K",
          0.0019872042586,
          332.06371329919,
          1.0 / 4.184e-4,
          "atm",
          kAtmPerKcalPerMolPerA3};
}

inline std::optional<UnitSystem> find_unit_system(std::string_view name) {
  if (name == "nuclear") return nuclear_units();
  if (name == "lj") return lj_units();
  if (name == "real") return real_units();
  return std::nullopt;
}

}  // namespace novamd::core
