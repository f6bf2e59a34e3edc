/// @file velocity_init.cpp
/// Maxwell-Boltzmann initial velocities (see velocity_init.hpp).

#include "novamd/io/velocity_init.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "novamd/core/error.hpp"
#include "novamd/core/random.hpp"

namespace novamd::io {
namespace {

using core::Vec3;

void check_inputs(const core::ParticleData& p, const core::SpeciesTable& species,
                  double temperature) {
  if (!(temperature >= 0.0) || !std::isfinite(temperature))
    throw core::InputError(fmt::format(
        "system.velocities.temperature: expected a non-negative temperature, got {}", temperature));
  for (std::size_t i = 0; i < p.size(); ++i) {
    const int t = p.type[i];
    if (t < 0 || t >= species.size())
      throw core::InputError(
          fmt::format("system.species: particle {} has type {}, but only {} species are declared",
                      p.id[i], t, species.size()));
    if (!(species[t].mass > 0.0) || !std::isfinite(species[t].mass))
      throw core::InputError(
          fmt::format("system.species: species '{}' has mass {}; expected a "
                      "positive mass",
                      species[t].name, species[t].mass));
  }
}

/// Unscaled Gaussian velocities with the given per-component standard deviations.
void draw_velocities(core::ParticleData& p, const core::SpeciesTable& species,
                     const core::UnitSystem& units, double temperature, std::uint64_t seed) {
  const core::RandomStream stream(seed, core::RandomPurpose::InitialVelocity);
  const double kt = units.boltzmann * temperature;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double sigma = std::sqrt(kt / (species[p.type[i]].mass * units.mvv_to_energy));
    const auto id = static_cast<std::uint32_t>(p.id[i]);
    const core::RandomPair a = stream.normal(id, 0);
    const core::RandomPair b = stream.normal(id, 1);
    p.velocity.set(i, {sigma * a.first, sigma * a.second, sigma * b.first});
  }
}

void remove_centre_of_mass_velocity(core::ParticleData& p, const core::SpeciesTable& species,
                                    const std::vector<std::size_t>& order) {
  Vec3<double> momentum{};
  double mass = 0.0;
  for (const std::size_t i : order) {
    const double m = species[p.type[i]].mass;
    momentum += m * p.velocity.get(i);
    mass += m;
  }
  const Vec3<double> v_cm = (1.0 / mass) * momentum;
  for (std::size_t i = 0; i < p.size(); ++i) p.velocity.set(i, p.velocity.get(i) - v_cm);
}

/// Kinetic energy 1/2 sum m v^2 mvv_to_energy, summed in id order.
double kinetic_energy(const core::ParticleData& p, const core::SpeciesTable& species,
                      const core::UnitSystem& units, const std::vector<std::size_t>& order) {
  double sum = 0.0;
  for (const std::size_t i : order) {
    const Vec3<double> v = p.velocity.get(i);
    sum += species[p.type[i]].mass * dot(v, v);
  }
  return 0.5 * sum * units.mvv_to_energy;
}

}  // namespace

void assign_maxwell_boltzmann(core::ParticleData& particles, const core::SpeciesTable& species,
                              const core::UnitSystem& units, double temperature,
                              std::uint64_t seed) {
  check_inputs(particles, species, temperature);
  const std::size_t n = particles.size();
  if (n == 0) return;
  if (temperature == 0.0) {
    particles.velocity.fill_zero();
    return;
  }
  draw_velocities(particles, species, units, temperature, seed);
  const auto order = core::id_order(particles);  // sums independent of the storage order
  if (n > 1) remove_centre_of_mass_velocity(particles, species, order);
  const double dof = n > 1 ? 3.0 * static_cast<double>(n) - 3.0 : 3.0;
  const double current =
      2.0 * kinetic_energy(particles, species, units, order) / (dof * units.boltzmann);
  if (!(current > 0.0)) return;  // all draws cancelled exactly: nothing to scale
  const double scale = std::sqrt(temperature / current);
  for (std::size_t i = 0; i < n; ++i) particles.velocity.set(i, scale * particles.velocity.get(i));
}

}  // namespace novamd::io
