#pragma once
/// @file plasma.hpp
/// Plasma parameters of an ion mixture in a uniform, neutralising electron background (the
/// white-dwarf and neutron-star-crust systems of seed 000):
///
///     n = N / V,  n_e = sum_j Z_j N_j / V                    ion and electron densities
///     a = (3 / (4 pi n))^(1/3),  a_e = (3 / (4 pi n_e))^(1/3)  ion and electron sphere radii
///     Gamma_j = Z_j^(5/3) e^2 / (a_e k_B T)                   coupling of species j
///     kappa = a / lambda                                     screening parameter
///     omega_p = (4 pi e^2 sum_j n_j Z_j^2 / M_j)^(1/2)         ion plasma frequency
///
/// Gamma_j is the coupling of an ion of charge Z_j in its own ion sphere, Z_j^(1/3) a_e; for a
/// single species it is the usual one-component-plasma Gamma = Z^2 e^2 / (a k_B T), which
/// crystallises near 175. Source: Horowitz, Berry and Brown, Phys. Rev. E 75, 066101 (2007);
/// Horowitz, Schneider and Berry, Phys. Rev. Lett. 104, 231101 (2010).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "novamd/core/species.hpp"
#include "novamd/core/units.hpp"
#include "novamd/forces/force_settings.hpp"

namespace novamd::analysis {

class PlasmaParameters {
 public:
  struct Coupling {
    std::string species;
    double energy;  ///< Z^(5/3) e^2 / a_e: Gamma times k_B T
  };

  /// `count[t]` ions of each type in volume V; `screening_length` of the Yukawa term, if any.
  PlasmaParameters(const core::SpeciesTable& species, const std::vector<std::int64_t>& count,
                   double volume, const core::UnitSystem& units,
                   std::optional<double> screening_length);

  double ion_density() const { return ion_density_; }
  double electron_density() const { return electron_density_; }
  double ion_sphere_radius() const { return ion_sphere_radius_; }
  double electron_sphere_radius() const { return electron_sphere_radius_; }
  double plasma_frequency() const { return plasma_frequency_; }
  std::optional<double> kappa() const;
  /// Each charged species present, in declaration order.
  const std::vector<Coupling>& couplings() const { return couplings_; }
  /// Gamma of coupling `j` at temperature T (the unit system's temperature unit).
  double gamma(std::size_t j, double temperature) const;

  /// The thermo columns `plasma` stands for: gamma_<species> for each charged species, then
  /// kappa where a screening length is known.
  std::vector<std::string> thermo_columns() const;
  /// The value of one of those columns at temperature T; nothing for another column name.
  std::optional<double> thermo_value(std::string_view column, double temperature) const;

 private:
  double boltzmann_;
  double ion_density_ = 0.0, electron_density_ = 0.0;
  double ion_sphere_radius_ = 0.0, electron_sphere_radius_ = 0.0;
  double plasma_frequency_ = 0.0;
  std::optional<double> screening_length_;
  std::vector<Coupling> couplings_;
};

/// Whether a run is an ion plasma: a Yukawa term, and no nucleons (species with isospin).
bool is_ion_plasma(const std::vector<forces::ForceSettings>& forces,
                   const core::SpeciesTable& species);

/// The plasma parameters of a run that is an ion plasma (is_ion_plasma); nothing otherwise.
std::optional<PlasmaParameters> plasma_of(const std::vector<forces::ForceSettings>& forces,
                                          const core::SpeciesTable& species,
                                          const std::vector<std::int64_t>& count, double volume,
                                          const core::UnitSystem& units);

}  // namespace novamd::analysis
