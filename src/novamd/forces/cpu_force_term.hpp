#pragma once
/// @file cpu_force_term.hpp
/// Force terms of the CPU backend: an evaluator bound to a traversal, built from its settings.

#include <memory>
#include <string>

#include "novamd/core/box.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/core/precision.hpp"
#include "novamd/forces/force_buffers.hpp"
#include "novamd/forces/force_settings.hpp"

namespace novamd::forces {

class CpuForceTerm {
 public:
  virtual ~CpuForceTerm() = default;
  /// Adds this term's forces, energies and virials to `out`.
  virtual void add_to(const core::ParticleData& particles, const core::Box& box,
                      ForceBuffers& out) const = 0;
};

/// The CPU force term for `settings` at `precision` (pair table built for the species).
std::unique_ptr<CpuForceTerm> make_cpu_force_term(const ForceSettings& settings,
                                                  const core::SpeciesTable& species,
                                                  const core::UnitSystem& units,
                                                  core::Precision precision);

}  // namespace novamd::forces
