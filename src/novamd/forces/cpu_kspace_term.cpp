#include "novamd/forces/cpu_kspace_term.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <utility>

#include "novamd/physics/ewald.hpp"

namespace novamd::forces {

CpuKspaceTerm::CpuKspaceTerm(std::unique_ptr<CpuForceTerm> real_space,
                             const CoulombSettings& settings, const core::UnitSystem& units)
    : real_(std::move(real_space)),
      k_(units.coulomb / settings.dielectric),
      alpha_(*settings.ewald.alpha) {}

bool CpuKspaceTerm::restrict_targets(std::size_t begin, std::size_t end) {
  if (!splits_over_ranks() || (real_ && !real_->restrict_targets(begin, end))) return false;
  targets_ = {begin, end};
  return true;
}

void CpuKspaceTerm::add_to(const core::ParticleData& particles, const core::Box& box,
                           neighbors::ForceBuffers& out, bool with_energy) {
  if (real_) real_->add_to(particles, box, out, with_energy);
  add_reciprocal_and_constants(particles, box, out, with_energy);
}

void CpuKspaceTerm::add_part_to(int part, const core::ParticleData& particles, const core::Box& box,
                                neighbors::ForceBuffers& out, bool with_energy) {
  if (real_) real_->add_part_to(part, particles, box, out, with_energy);
  if (part == parts() - 1) add_reciprocal_and_constants(particles, box, out, with_energy);
}

void CpuKspaceTerm::add_reciprocal_and_constants(const core::ParticleData& particles,
                                                 const core::Box& box, neighbors::ForceBuffers& out,
                                                 bool with_energy) {
  if (particles.size() == 0) return;
  if (particles.charge.size() != particles.size())
    throw std::logic_error("coulomb ewald/pme: the particles have no charges");
  const auto virial = add_reciprocal(particles, box, out, with_energy);
  if (with_energy) add_constant_terms(particles.charge, box.volume(), virial, out);
}

void CpuKspaceTerm::add_constant_terms(const std::vector<double>& q, double volume,
                                       const core::SymmetricTensor<double>& reciprocal_virial,
                                       neighbors::ForceBuffers& out) const {
  const std::size_t n = q.size();
  double net = 0.0;
  for (const double x : q) net += x;
  const double background = physics::ewald_background_energy(net, k_, alpha_, volume) / n;
  const double self = -k_ * alpha_ / std::sqrt(std::numbers::pi);
  for (std::size_t i = 0; i < n; ++i) {
    out.energy[i] += self * q[i] * q[i] + background;
    for (int a = 0; a < 3; ++a) out.virial[a][i] += background;  // E ~ 1/V: W_aa = E
    for (int c = 0; c < core::kTensorComponents; ++c)
      out.virial[c][i] += reciprocal_virial.c[c] / n;
  }
}

}  // namespace novamd::forces
