#include "novamd/constraints/host_constraints.hpp"

#include <fmt/format.h>

#include <climits>
#include <cstddef>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "novamd/core/error.hpp"

namespace novamd::constraints {

HostConstraints::HostConstraints(const ConstraintPlan& plan, double tolerance)
    : groups_(groups_of(plan)),
      count_(plan.constraint_count()),
      tolerance_(tolerance),
      failed_(groups_.size(), INT32_MAX),
      deviation_(groups_.size(), 0.0),
      layout_(layout_of(plan.coupled)) {
  for (auto& component : virial_) component.resize(groups_.size());
  coupled_.fill(layout_, [](auto& to, const auto& from) { to = from; });
  kept_groups_.resize(groups_.size());
  std::iota(kept_groups_.begin(), kept_groups_.end(), 0);
  kept_sets_.resize(static_cast<std::size_t>(layout_.sets()));
  std::iota(kept_sets_.begin(), kept_sets_.end(), 0);
}

template <class Update>
void HostConstraints::for_each_group(const Update& update) const {
  const auto groups = static_cast<std::ptrdiff_t>(kept_groups_.size());
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t g = 0; g < groups; ++g) update(kept_groups_[static_cast<std::size_t>(g)]);
}

template <class Update>
void HostConstraints::for_each_set(const Update& update) const {
  const auto sets = static_cast<std::ptrdiff_t>(kept_sets_.size());
#pragma omp parallel for schedule(dynamic)
  for (std::ptrdiff_t k = 0; k < sets; ++k) update(kept_sets_[static_cast<std::size_t>(k)]);
}

void HostConstraints::check_coupled() const {
  for (int k = 0; k < layout_.sets(); ++k)
    if (coupled_.failed[std::size_t(k)] != INT32_MAX)
      throw core::RunError(
          ccma_failure_message(layout_, k, coupled_.deviation[std::size_t(k)], tolerance_));
}

void HostConstraints::locate(const core::ParticleData& p) {
  index_of_.resize(p.size());
  const IndexById index{p.id.data(), index_of_.data()};
  for (std::size_t i = 0; i < p.size(); ++i) index(static_cast<int>(i));
  // Every group, kept or not: keep_to reads where each one's first particle is.
  const LocateGroup locate_group{groups_.data(), index_of_.data()};
  for (std::size_t g = 0; g < groups_.size(); ++g) locate_group(static_cast<int>(g));
  const LocateCoupled locate_set{coupled_.view(), index_of_.data()};
  for (int k = 0; k < layout_.sets(); ++k) locate_set(k);
}

void HostConstraints::keep_to(std::size_t begin, std::size_t end) {
  auto kept = groups_stored_in(groups_, layout_, index_of_, begin, end);  // index_of_: locate's
  kept_groups_ = std::move(kept.groups);
  kept_sets_ = std::move(kept.sets);
}

std::vector<std::int32_t> HostConstraints::anchors(std::size_t n) const {
  return anchors_of(groups_, layout_, n);
}

std::vector<std::int32_t> anchors_of(const std::vector<ConstraintGroup>& groups,
                                     const CoupledLayout& layout, std::size_t n) {
  std::vector<std::int32_t> anchor(n);
  std::iota(anchor.begin(), anchor.end(), 0);
  for (const auto& g : groups)
    for (int k = 1; k < g.count; ++k) anchor[static_cast<std::size_t>(g.id[k])] = g.id[0];
  for (int k = 0; k < layout.sets(); ++k) {
    const auto begin = static_cast<std::size_t>(layout.particle_offset[std::size_t(k)]);
    const auto end = static_cast<std::size_t>(layout.particle_offset[std::size_t(k) + 1]);
    for (std::size_t p = begin + 1; p < end; ++p)
      anchor[static_cast<std::size_t>(layout.id[p])] = layout.id[begin];
  }
  return anchor;
}

KeptGroups groups_stored_in(const std::vector<ConstraintGroup>& groups, const CoupledLayout& layout,
                            const std::vector<std::int32_t>& slot_of_id, std::size_t begin,
                            std::size_t end) {
  const auto inside = [&](std::int32_t id) {
    const auto slot = static_cast<std::size_t>(slot_of_id[static_cast<std::size_t>(id)]);
    return slot >= begin && slot < end;
  };
  KeptGroups kept;
  for (std::size_t g = 0; g < groups.size(); ++g)
    if (inside(groups[g].id[0])) kept.groups.push_back(static_cast<int>(g));
  for (int k = 0; k < layout.sets(); ++k)
    if (inside(layout.id[static_cast<std::size_t>(layout.particle_offset[std::size_t(k)])]))
      kept.sets.push_back(k);
  return kept;
}

core::Vec3Pointers HostConstraints::positions_before_drift(std::size_t n) {
  before_.resize(n);
  return core::pointers_of(before_);
}

namespace {

/// The group updates' view of host particles.
GroupArrays arrays_of(core::ParticleData& p, const core::BoxView<double>& box,
                      const std::vector<double>& inverse_mass_by_type) {
  return {core::pointers_of(p.position),
          core::pointers_of(p.velocity),
          core::pointers_of(p.force),
          core::image_pointers_of(p.image),
          p.type.data(),
          inverse_mass_by_type.data(),
          box};
}

}  // namespace

std::string shake_failure_message(const ConstraintGroup& group, double deviation,
                                  double tolerance) {
  return fmt::format(
      "constraints: SHAKE did not converge in {} iterations for the hydrogens of particle {} (id): "
      "a length is off by {:.3g} of itself, the tolerance is {:.3g} (a time step too long, or "
      "forces too large)",
      kMaxShakeIterations, group.id[0], deviation, tolerance);
}

std::string ccma_failure_message(const CoupledLayout& layout, int k, double deviation,
                                 double tolerance) {
  const auto first = layout.id[std::size_t(layout.particle_offset[std::size_t(k)])];
  const auto last = layout.id[std::size_t(layout.particle_offset[std::size_t(k) + 1] - 1)];
  return fmt::format(
      "constraints: CCMA did not converge in {} iterations for the bonds of the molecule of "
      "particles {} to {} (ids): a length is off by {:.3g} of itself, the tolerance is {:.3g} (a "
      "time step too long, or forces too large)",
      kMaxCcmaIterations, first, last, deviation, tolerance);
}

void HostConstraints::constrain_drift(core::ParticleData& p, double dt,
                                      const core::BoxView<double>& box,
                                      const std::vector<double>& inverse_mass_by_type,
                                      bool correct_velocities, bool velocity_condition) {
  const GroupArrays a = arrays_of(p, box, inverse_mass_by_type);
  const DriftCorrection<> drift{core::pointers_of(before_), dt, correct_velocities,
                                velocity_condition, tolerance_};
  for_each_group(ConstrainDrift<>{a, groups_.data(), drift, {failed_.data(), deviation_.data()}});
  throw_on_shake_failure();
  for_each_set(CoupledDrift<>{a, coupled_.view(), drift, coupled_.failures()});
  check_coupled();
}

void HostConstraints::throw_on_shake_failure() const {
  for (std::size_t g = 0; g < groups_.size(); ++g)
    if (failed_[g] != INT32_MAX)
      throw core::RunError(shake_failure_message(groups_[g], deviation_[g], tolerance_));
}

void HostConstraints::after_drift(core::ParticleData& p, double dt,
                                  const core::BoxView<double>& box,
                                  const std::vector<double>& inverse_mass_by_type,
                                  bool velocity_condition) {
  constrain_drift(p, dt, box, inverse_mass_by_type, true, velocity_condition);
}

void HostConstraints::after_drift_with_thermostat(core::ParticleData& p, double dt,
                                                  const core::BoxView<double>& box,
                                                  const std::vector<double>& inverse_mass_by_type,
                                                  bool velocity_condition,
                                                  const ThermostatInDrift& thermostat) {
  if (has_coupled_sets())
    throw std::logic_error("after_drift_with_thermostat: the plan has coupled sets");
  const GroupArrays a = arrays_of(p, box, inverse_mass_by_type);
  const DriftCorrection<> drift{core::pointers_of(before_), dt, true, velocity_condition,
                                tolerance_};
  for_each_group(ConstrainDrift<NoMoveHook, true>{
      a, groups_.data(), drift, {failed_.data(), deviation_.data()}, thermostat});
  throw_on_shake_failure();
}

bool HostConstraints::has_coupled_sets() const {
  return layout_.sets() > 0;
}

void HostConstraints::constrain_velocities(core::ParticleData& p, const core::BoxView<double>& box,
                                           const std::vector<double>& inverse_mass_by_type,
                                           double* heat) {
  const GroupArrays a = arrays_of(p, box, inverse_mass_by_type);
  for_each_group(ConstrainVelocities{a, groups_.data(), heat});
  for_each_set(CoupledVelocities{a, coupled_.view(), heat, coupled_.failures()});
  check_coupled();
}

core::SymmetricTensor<double> HostConstraints::virial(
    core::ParticleData& p, const core::BoxView<double>& box,
    const std::vector<double>& inverse_mass_by_type) {
  const GroupArrays a = arrays_of(p, box, inverse_mass_by_type);
  ConstraintVirial update{a, groups_.data(), {}};
  for (int c = 0; c < core::kTensorComponents; ++c) update.out[c] = virial_[c].data();
  for_each_group(update);
  CoupledVirial coupled{a, coupled_.view(), {}};
  for (int c = 0; c < core::kTensorComponents; ++c) coupled.out[c] = coupled_.virial[c].data();
  for_each_set(coupled);
  core::SymmetricTensor<double> total;
  for (int c = 0; c < core::kTensorComponents; ++c) {
    for (const int g : kept_groups_) total.c[c] += virial_[c][static_cast<std::size_t>(g)];
    for (const int k : kept_sets_) total.c[c] += coupled_.virial[c][static_cast<std::size_t>(k)];
  }
  return total;
}

void HostConstraints::constrain_state(core::ParticleData& p, const core::BoxView<double>& box,
                                      const std::vector<double>& inverse_mass_by_type) {
  before_ = p.position;
  constrain_drift(p, 1.0, box, inverse_mass_by_type, false, true);
}

}  // namespace novamd::constraints
