#include "novamd/forces/rigid_kspace.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "novamd/core/tensor.hpp"
#include "novamd/forces/cpu_kspace_term.hpp"
#include "novamd/forces/kspace_parameters.hpp"

namespace novamd::forces {

double intramolecular_ewald_energy(const std::vector<MoleculeSite<double>>& sites, double k,
                                   double alpha) {
  double energy = 0.0;
  for (std::size_t a = 0; a < sites.size(); ++a) {
    if (sites[a].kind != core::SiteKind::Charge) continue;
    for (std::size_t b = a + 1; b < sites.size(); ++b) {
      if (sites[b].kind != core::SiteKind::Charge) continue;
      const auto d = sites[a].position - sites[b].position;
      const double r = std::sqrt(core::dot(d, d));
      // erf(alpha r) / r -> 2 alpha / sqrt(pi) for two charges at one point.
      const double screened =
          r > 0.0 ? std::erf(alpha * r) / r : 2.0 * alpha / std::sqrt(std::numbers::pi);
      energy -= k * sites[a].strength * sites[b].strength * screened;
    }
  }
  return energy;
}

std::optional<CoulombSettings> resolved_kspace(const RigidModelSettings& settings,
                                               const core::Box& box) {
  if (!settings.kspace) return std::nullopt;
  if (!settings.cutoff) throw std::logic_error("rigid_sites.coulomb: no cutoff");
  CoulombSettings kspace = *settings.kspace;
  kspace.cutoff = *settings.cutoff;
  resolve_ewald(kspace, box);
  return kspace;
}

ChargeSlots charge_slots(const RigidModel& model) {
  ChargeSlots slots;
  for (const auto& sites : model.sites)
    slots.stride = std::max(
        slots.stride, static_cast<int>(std::count_if(sites.begin(), sites.end(), [](const auto& s) {
          return s.kind == core::SiteKind::Charge;
        })));
  const auto stride = static_cast<std::size_t>(slots.stride);
  slots.position.assign(model.sites.size() * stride, {});
  slots.charge.assign(model.sites.size() * stride, 0.0);
  slots.site.assign(model.sites.size() * stride, -1);
  for (std::size_t c = 0; c < model.sites.size(); ++c) {
    std::size_t k = c * stride;
    for (std::size_t t = 0; t < model.sites[c].size(); ++t) {
      const auto& s = model.sites[c][t];
      if (s.kind != core::SiteKind::Charge) continue;
      slots.position[k] = s.position;
      slots.site[k] = static_cast<int>(t);
      slots.charge[k++] = s.strength;
    }
    slots.intramolecular_energy.push_back(
        intramolecular_ewald_energy(model.sites[c], model.coulomb_constant, model.ewald_alpha));
  }
  return slots;
}

std::vector<double> slot_charges(const ChargeSlots& slots, const std::vector<std::int32_t>& types) {
  const auto stride = static_cast<std::size_t>(slots.stride);
  std::vector<double> q(types.size() * stride);
  for (std::size_t i = 0; i < types.size(); ++i)
    for (std::size_t k = 0; k < stride; ++k)
      q[i * stride + k] = slots.charge[static_cast<std::size_t>(types[i]) * stride + k];
  return q;
}

namespace {

/// The reciprocal term alone (no real space), in a unit system whose Coulomb constant is the
/// model's.
std::unique_ptr<CpuForceTerm> make_reciprocal(const RigidModel& model,
                                              const CoulombSettings& settings) {
  if (!settings.kspace_resolved())
    throw std::logic_error("rigid molecules: the Ewald parameters are not resolved");
  core::UnitSystem units{};
  units.coulomb = model.coulomb_constant;
  return settings.method == CoulombMethod::Pme ? make_cpu_pme_term(nullptr, settings, units)
                                               : make_cpu_ewald_term(nullptr, settings, units);
}

}  // namespace

CpuRigidKspace::CpuRigidKspace(const RigidModel& model, const CoulombSettings& settings)
    : slots_(charge_slots(model)), reciprocal_(make_reciprocal(model, settings)) {}

bool CpuRigidKspace::restrict_targets(std::size_t begin, std::size_t end) {
  const auto stride = static_cast<std::size_t>(slots_.stride);
  const std::size_t site_end = end == SIZE_MAX ? SIZE_MAX : end * stride;
  if (!reciprocal_->restrict_targets(begin * stride, site_end)) return false;
  target_begin_ = begin;
  target_end_ = end;
  return true;
}

void CpuRigidKspace::place_charges(const core::ParticleData& molecules, const PlacedSites& placed) {
  const auto stride = static_cast<std::size_t>(slots_.stride);
  const std::size_t n = molecules.size() * stride;
  sites_.type.assign(n, 0);
  sites_.position.resize(n);
  sites_.charge.resize(n);
  for (std::size_t i = 0; i < molecules.size(); ++i) {
    const auto type = static_cast<std::size_t>(molecules.type[i]);
    const auto centre = molecules.position.get(i);
    for (std::size_t k = 0; k < stride; ++k) {
      sites_.position.set(i * stride + k, centre + offset(placed, i, type, k));
      sites_.charge[i * stride + k] = slots_.charge[type * stride + k];
    }
  }
}

void CpuRigidKspace::add_to(const core::ParticleData& molecules, const PlacedSites& placed,
                            const core::Box& box, core::Vec3Array& force_out,
                            core::Vec3Array& torque_out, RigidShares shares) {
  const bool with_energy = shares.energy || shares.virial;
  if (molecules.size() == 0 || slots_.stride == 0) return;
  place_charges(molecules, placed);
  site_out_.reset(sites_.size(), with_energy);
  reciprocal_->add_to(sites_, box, site_out_, with_energy);
  const auto stride = static_cast<std::size_t>(slots_.stride);
  const std::size_t end = std::min(target_end_, molecules.size());
  for (std::size_t i = std::min(target_begin_, end); i < end; ++i) {
    const auto type = static_cast<std::size_t>(molecules.type[i]);
    core::Vec3<double> force{}, torque{};
    double energy = slots_.intramolecular_energy[type];
    core::SymmetricTensor<double> virial;
    for (std::size_t k = 0; k < stride; ++k) {
      const std::size_t s = i * stride + k;
      const auto d = offset(placed, i, type, k);
      const auto f = site_out_.force.get(s);
      force += f;
      torque += core::cross(d, f);
      if (!with_energy) continue;
      energy += site_out_.energy[s];
      for (int c = 0; c < core::kTensorComponents; ++c)
        virial.c[c] += site_out_.virial[static_cast<std::size_t>(c)][s];
      virial.add_symmetrized_outer(-d.x, -d.y, -d.z, f.x, f.y, f.z);
    }
    force_out.set(i, force_out.get(i) + force);
    torque_out.set(i, torque_out.get(i) + torque);
    if (shares.energy) (*shares.energy)[i] += energy;
    if (shares.virial)
      for (int c = 0; c < core::kTensorComponents; ++c)
        (*shares.virial)[static_cast<std::size_t>(c)][i] += virial.c[c];
  }
}

}  // namespace novamd::forces
