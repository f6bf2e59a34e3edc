#include "novamd/app/plasma_report.hpp"

#include <fmt/format.h>

#include "novamd/core/error.hpp"

namespace novamd::app {
namespace {

/// The temperature the run is set to: the thermostat's, else the initial velocities'.
std::optional<double> set_temperature(const io::Config& config) {
  if (config.integrator.temperature) return config.integrator.temperature;
  return config.system.velocities.temperature;
}

}  // namespace

std::string describe_plasma(const io::Config& config, const analysis::PlasmaParameters& plasma) {
  const auto& u = config.units;
  std::string text = fmt::format("n_e {:.4g} {}^-3, a_e {:.4g} {}", plasma.electron_density(),
                                 u.length, plasma.electron_sphere_radius(), u.length);
  if (const auto kappa = plasma.kappa()) text += fmt::format(", kappa {:.4g}", *kappa);
  if (plasma.plasma_frequency() > 0.0)
    text += fmt::format(", 1/omega_p {:.4g} {} (timestep {:.3g}/omega_p)",
                        1.0 / plasma.plasma_frequency(), u.time,
                        config.integrator.timestep * plasma.plasma_frequency());
  const auto temperature = set_temperature(config);
  if (!temperature || *temperature <= 0.0 || plasma.couplings().empty()) return text;
  text += fmt::format("; Gamma at T = {:.6g} {}:", *temperature, u.temperature);
  for (std::size_t j = 0; j < plasma.couplings().size(); ++j)
    text += fmt::format("{} {} {:.4g}", j == 0 ? "" : ",", plasma.couplings()[j].species,
                        plasma.gamma(j, *temperature));
  return text;
}

std::vector<std::string> expand_thermo_columns(
    const io::Config& config, const std::optional<analysis::PlasmaParameters>& plasma) {
  std::vector<std::string> columns;
  for (const auto& column : config.output.thermo.columns) {
    if (column != "plasma") {
      columns.push_back(column);
      continue;
    }
    if (!plasma)
      throw core::InputError(
          "output.thermo.columns: plasma is for ion plasmas; expected a yukawa force term and no "
          "species with isospin (nucleons), or no plasma column");
    for (auto& name : plasma->thermo_columns()) columns.push_back(std::move(name));
  }
  return columns;
}

}  // namespace novamd::app
