#include "novamd/analysis/plasma.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace novamd::analysis {
namespace {

/// Radius of the sphere that holds one particle at number density n.
double sphere_radius(double density) {
  return density > 0.0 ? std::cbrt(3.0 / (4.0 * std::numbers::pi * density)) : 0.0;
}

}  // namespace

PlasmaParameters::PlasmaParameters(const core::SpeciesTable& species,
                                   const std::vector<std::int64_t>& count, double volume,
                                   const core::UnitSystem& units,
                                   std::optional<double> screening_length)
    : boltzmann_(units.boltzmann), screening_length_(screening_length) {
  double omega_squared = 0.0;
  for (int t = 0; t < species.size(); ++t) {
    const double n = static_cast<double>(count[t]) / volume;
    const double z = species[t].charge;
    ion_density_ += n;
    electron_density_ += z * n;
    // e^2 n Z^2 / M is energy / (mass length^2); m v^2 -> energy converts it to 1 / time^2.
    omega_squared += 4.0 * std::numbers::pi * units.coulomb * n * z * z /
                     (species[t].mass * units.mvv_to_energy);
  }
  ion_sphere_radius_ = sphere_radius(ion_density_);
  electron_sphere_radius_ = sphere_radius(electron_density_);
  plasma_frequency_ = std::sqrt(omega_squared);
  for (int t = 0; t < species.size(); ++t) {
    const double z = species[t].charge;
    if (count[t] == 0 || z <= 0.0 || electron_sphere_radius_ == 0.0) continue;
    couplings_.push_back(
        {species[t].name, std::pow(z, 5.0 / 3.0) * units.coulomb / electron_sphere_radius_});
  }
}

std::optional<double> PlasmaParameters::kappa() const {
  if (!screening_length_) return std::nullopt;
  return ion_sphere_radius_ / *screening_length_;
}

double PlasmaParameters::gamma(std::size_t j, double temperature) const {
  return couplings_[j].energy / (boltzmann_ * temperature);
}

std::vector<std::string> PlasmaParameters::thermo_columns() const {
  std::vector<std::string> columns;
  for (const auto& c : couplings_) columns.push_back("gamma_" + c.species);
  if (screening_length_) columns.push_back("kappa");
  return columns;
}

std::optional<double> PlasmaParameters::thermo_value(std::string_view column,
                                                     double temperature) const {
  if (column == "kappa") return kappa();
  for (std::size_t j = 0; j < couplings_.size(); ++j)
    if (column.substr(0, 6) == "gamma_" && column.substr(6) == couplings_[j].species)
      return gamma(j, temperature);
  return std::nullopt;
}

bool is_ion_plasma(const std::vector<forces::ForceSettings>& forces,
                   const core::SpeciesTable& species) {
  const auto nucleon = [](const core::Species& s) { return s.isospin != 0; };
  const auto yukawa = [](const auto& f) { return std::holds_alternative<forces::YukawaSettings>(f); };
  return std::none_of(species.all().begin(), species.all().end(), nucleon) &&
         std::any_of(forces.begin(), forces.end(), yukawa);
}

std::optional<PlasmaParameters> plasma_of(const std::vector<forces::ForceSettings>& forces,
                                          const core::SpeciesTable& species,
                                          const std::vector<std::int64_t>& count, double volume,
                                          const core::UnitSystem& units) {
  if (!is_ion_plasma(forces, species)) return std::nullopt;
  for (const auto& term : forces) {
    if (const auto* yukawa = std::get_if<forces::YukawaSettings>(&term))
      return PlasmaParameters(species, count, volume, units, yukawa->screening_length);
  }
  return std::nullopt;
}

}  // namespace novamd::analysis
