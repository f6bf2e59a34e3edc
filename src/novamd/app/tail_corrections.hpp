#pragma once
/// @file tail_corrections.hpp
/// A config's tail corrections in a box of volume V: the pair terms' (forces::tail_correction)
/// and, for rigid molecules, MarDyn's homogeneous correction (forces::rigid_tail).

#include <cstdint>
#include <vector>

#include "novamd/forces/force_settings.hpp"
#include "novamd/forces/rigid_model.hpp"
#include "novamd/io/config.hpp"

namespace novamd::app {

/// What the tails add to the energy and to the virial (sum r . f) for `count` particles of each
/// species in `volume`. Everything but rigid molecules' reaction-field self energy scales as
/// 1 / V (a barostat's energy of a trial volume scales it so); `with_self_energy` adds that
/// constant too (a thermo row's energy).
inline forces::TailCorrection tail_corrections(const io::Config& config,
                                               const std::vector<std::int64_t>& count,
                                               double volume, bool with_self_energy) {
  forces::TailCorrection tail =
      forces::tail_correction(config.forces, config.system.species, count, volume);
  if (!config.rigid_sites) return tail;
  const forces::RigidTail rigid =
      forces::rigid_tail(config.system.components, *config.rigid_sites, count);
  tail.energy += rigid.energy_times_volume / volume + (with_self_energy ? rigid.self_energy : 0.0);
  tail.virial += rigid.virial_times_volume / volume;
  return tail;
}

}  // namespace novamd::app
