#include "novamd/io/rigid_start.hpp"

#include <cmath>

#include "novamd/core/random_orientation.hpp"
#include "novamd/integrate/rigid_updates.hpp"

namespace novamd::io {
namespace {

void thermal_angular_momenta(core::ParticleData& p,
                             const std::vector<integrate::RotorInertia<double>>& rotors, double kT,
                             std::size_t freedom, std::uint64_t seed) {
  double kinetic = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const auto& rotor = rotors[static_cast<std::size_t>(p.type[i])];
    // Moments that are zero (a linear molecule's I_1, a point's) get no momentum.
    const core::Vec3<double> L = core::thermal_angular_momentum(
        seed, static_cast<std::uint32_t>(p.id[i]), rotor.moments, kT);
    p.angular_momentum.set(i, L);
    kinetic += integrate::kinetic_energy_of_rotation(L, rotor);
  }
  // Summed in storage order: the scale may differ in the last bit between storage orders,
  // which the generated structures do not have (they come in id order).
  if (!(kinetic > 0.0)) return;
  const double scale = std::sqrt(0.5 * static_cast<double>(freedom) * kT / kinetic);
  for (std::size_t i = 0; i < p.size(); ++i)
    p.angular_momentum.set(i, scale * p.angular_momentum.get(i));
}

}  // namespace

std::size_t rotational_freedom(const core::ParticleData& particles,
                               const std::vector<core::ResolvedComponent>& components) {
  std::size_t freedom = 0;
  if (components.empty()) return freedom;
  for (const auto t : particles.type)
    freedom +=
        static_cast<std::size_t>(components[static_cast<std::size_t>(t)].shape.rotational_freedom);
  return freedom;
}

void start_rigid_molecules(core::ParticleData& particles,
                           const std::vector<core::ResolvedComponent>& components,
                           const core::UnitSystem& units, std::optional<double> temperature,
                           std::uint64_t seed) {
  if (!particles.has(particles.orientation)) {
    particles.enable(particles.orientation);
    for (std::size_t i = 0; i < particles.size(); ++i)
      particles.orientation.set(
          i, core::random_orientation(seed, static_cast<std::uint32_t>(particles.id[i])));
  }
  if (!particles.has(particles.angular_momentum)) particles.enable(particles.angular_momentum);
  if (!particles.has(particles.torque)) particles.enable(particles.torque);
  if (temperature)
    thermal_angular_momenta(particles, integrate::rotors_of(components, units.mvv_to_energy),
                            units.boltzmann * *temperature,
                            rotational_freedom(particles, components), seed);
}

}  // namespace novamd::io
