#pragma once
/// @file device_constraints.cuh
/// A constraint plan held on particles in device memory: the CUDA backend's part of DESIGN
/// principle 11, the twin of constraints/host_constraints.hpp. The groups (constraint_groups.hpp:
/// each rigid water, each heavy atom with its hydrogens) live on the device, and each update runs
/// one thread per group over the same host-device functors the CPU runs: no two threads write
/// one particle (the groups share none), nothing is summed with atomics, and the virial's
/// per-group shares are reduced in a fixed order (CUB), so runs repeat bit for bit.
///
/// Each molecule of coupled bonds (all_bonds: coupled_constraints.hpp) is one thread's work,
/// with scratch of its own: correct, and fast for many small molecules; one large molecule
/// (a protein with all bonds held) is a single thread's serial CCMA.
///
/// A cluster or set where SHAKE or CCMA does not converge is marked on the device
/// (ShakeFailures) and read at the backend's next check (failure()), not at every step: the run
/// stops there, naming the particles and the deviation.

#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "novamd/backend/device_sums.cuh"
#include "novamd/backend/for_each_particle_cuda.cuh"
#include "novamd/constraints/constraint_groups.hpp"
#include "novamd/constraints/coupled_constraints.hpp"
#include "novamd/constraints/host_constraints.hpp"
#include "novamd/core/device_buffer.cuh"
#include "novamd/core/tensor.hpp"

namespace novamd::backend {

using constraints::ConstraintGroup;
using constraints::GroupArrays;

/// f(g) for every group g < n: one thread per group, in blocks of 64 (a few thousand groups of
/// long double-precision chains: small blocks spread them over every multiprocessor).
template <class F>
void for_each_group(int n, const F& f, cudaStream_t stream) {
  for_each_particle<64>(n, f, stream);
}

/// f(kept[k]) for each k: an update over the groups (or coupled sets) a rank keeps.
template <class F>
struct OnKept {
  F f;
  const int* kept;
  __device__ void operator()(int k) const { f(kept[k]); }
};

/// Device storage for CoupledArrays.
template <class T>
using DeviceArray = core::DeviceBuffer<T>;

class DeviceConstraints {
 public:
  /// The plan's groups on the device; locate() before the first update.
  DeviceConstraints(const constraints::ConstraintPlan& plan, double tolerance, cudaStream_t stream)
      : host_groups_(constraints::groups_of(plan)),
        tolerance_(tolerance),
        layout_(constraints::layout_of(plan.coupled)) {
    const std::size_t g = host_groups_.size();
    coupled_.fill(layout_,
                  [stream](auto& to, const auto& from) { to.copy_from_host(from, stream); });
    groups_.copy_from_host(host_groups_, stream);
    failed_.copy_from_host(std::vector<std::int32_t>(g, INT32_MAX), stream);
    deviation_.copy_from_host(std::vector<double>(g, 0.0), stream);
    for (auto& component : virial_) component.resize(g);
    results_.resize(core::kTensorComponents + 1);
    sums_.reserve(std::max(g, std::size_t(sets())));
    NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));  // the host vectors are temporaries
  }

  /// Finds each group's particles from the particle ids (storage order, n particles).
  void locate(const std::int32_t* id, std::size_t n, cudaStream_t stream) {
    index_of_.resize(n);
    for_each_particle(static_cast<int>(n), constraints::IndexById{id, index_of_.data()}, stream);
    for_each_group(groups(), constraints::LocateGroup{groups_.data(), index_of_.data()}, stream);
    for_each_group(sets(), constraints::LocateCoupled{coupled_.view(), index_of_.data()}, stream);
  }

  /// From now on only the groups and coupled sets whose first particle is stored in [begin,
  /// end) are solved, and only their virial counted (a spatial decomposition's owned range,
  /// where the partition keeps each group on one rank); `slot_of_id`: each particle id's storage
  /// index. Every group until the first call.
  void keep_to(const std::vector<std::int32_t>& slot_of_id, std::size_t begin, std::size_t end,
               cudaStream_t stream) {
    const auto kept = constraints::groups_stored_in(host_groups_, layout_, slot_of_id, begin, end);
    kept_groups_.copy_from_host(kept.groups, stream);
    kept_sets_.copy_from_host(kept.sets, stream);
    kept_group_count_ = static_cast<int>(kept.groups.size());
    kept_set_count_ = static_cast<int>(kept.sets.size());
    for (auto& component : virial_) component.fill_zero(stream);  // the groups not kept: 0
    for (auto& component : coupled_.virial) component.fill_zero(stream);
    NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));  // `kept` goes out of scope
  }

  /// Every group and coupled set solved again (as before the first keep_to).
  void keep_all() { kept_group_count_ = kept_set_count_ = -1; }

  /// Per particle id (ids 0 .. n - 1): the id of the first particle of its group or set, or its
  /// own (constraints::anchors_of).
  std::vector<std::int32_t> anchors(std::size_t n) const {
    return constraints::anchors_of(host_groups_, layout_, n);
  }

  /// The positions of n particles kept as a drift's start (for a projection from themselves).
  void keep_positions(const core::Vec3Pointers& position, std::size_t n, cudaStream_t stream) {
    const core::Vec3Pointers before = positions_before_drift(n);
    const double* from[3] = {position.x, position.y, position.z};
    double* to[3] = {before.x, before.y, before.z};
    for (int c = 0; c < 3; ++c)
      NOVAMD_CUDA_CHECK(
          cudaMemcpyAsync(to[c], from[c], n * sizeof(double), cudaMemcpyDeviceToDevice, stream));
  }

  /// Where a drift keeps the positions it starts from (RememberingPositions).
  core::Vec3Pointers positions_before_drift(std::size_t n) {
    for (auto* a : before_.components()) a->resize(n);
    return {before_.x.data(), before_.y.data(), before_.z.data()};
  }

  /// After a drift over dt from the positions kept: positions constrained, velocities corrected
  /// by displacement / dt (where `correct_velocities`), velocities constrained (where
  /// `velocity_condition`); `on_move(i, x)` with each moved particle's new position.
  template <class OnMove>
  void after_drift(const GroupArrays& a, double dt, bool correct_velocities,
                   bool velocity_condition, const OnMove& on_move, cudaStream_t stream) {
    const auto drift = correction_of(dt, correct_velocities, velocity_condition, on_move);
    on_groups(
        constraints::ConstrainDrift<OnMove>{
            a, groups_.data(), drift, {failed_.data(), deviation_.data()}},
        stream);
    on_sets(constraints::CoupledDrift<OnMove>{a, coupled_.view(), drift, coupled_.failures()},
            stream);
  }

  /// after_drift (velocities corrected) for a drift with a Langevin O step inside it
  /// (constraints::ThermostatInDrift): the O step's velocity condition at the drift's start
  /// first. Only without coupled sets (has_coupled_sets).
  template <class OnMove>
  void after_drift_with_thermostat(const GroupArrays& a, double dt, bool velocity_condition,
                                   const constraints::ThermostatInDrift& thermostat,
                                   const OnMove& on_move, cudaStream_t stream) {
    const auto drift = correction_of(dt, true, velocity_condition, on_move);
    on_groups(
        constraints::ConstrainDrift<OnMove, true>{
            a, groups_.data(), drift, {failed_.data(), deviation_.data()}, thermostat},
        stream);
  }

  /// Whether the plan has coupled sets (constraints solved together beyond a cluster).
  bool has_coupled_sets() const { return sets() > 0; }

  /// The velocity condition; with `heat`, the kinetic-energy changes added to it.
  void constrain_velocities(const GroupArrays& a, double* heat, cudaStream_t stream) {
    on_groups(constraints::ConstrainVelocities{a, groups_.data(), heat}, stream);
    on_sets(constraints::CoupledVelocities{a, coupled_.view(), heat, coupled_.failures()}, stream);
  }

  /// The virial of the constraint forces (waits for the stream).
  core::SymmetricTensor<double> virial(const GroupArrays& a, cudaStream_t stream) {
    core::SymmetricTensor<double> total;
    if (groups() > 0) {
      constraints::ConstraintVirial update{a, groups_.data(), {}};
      for (int c = 0; c < core::kTensorComponents; ++c) update.out[c] = virial_[c].data();
      on_groups(update, stream);
      total += summed(virial_, host_groups_.size(), stream);
    }
    if (sets() > 0) {
      constraints::CoupledVirial update{a, coupled_.view(), {}};
      for (int c = 0; c < core::kTensorComponents; ++c) update.out[c] = coupled_.virial[c].data();
      on_sets(update, stream);
      total += summed(coupled_.virial, std::size_t(sets()), stream);
    }
    return total;
  }

  /// What to say if SHAKE failed on some cluster since the start (waits for the stream).
  std::optional<std::string> failure(cudaStream_t stream) {
    if (const auto g = first_failed(failed_.data(), host_groups_.size(), stream))
      return constraints::shake_failure_message(host_groups_[*g], deviation_at(deviation_, *g),
                                                tolerance_);
    if (const auto k = first_failed(coupled_.failed.data(), std::size_t(sets()), stream))
      return constraints::ccma_failure_message(layout_, int(*k),
                                               deviation_at(coupled_.deviation, *k), tolerance_);
    return std::nullopt;
  }

  std::size_t bytes() const {
    std::size_t total = groups_.bytes() + index_of_.bytes() + failed_.bytes() +
                        first_failed_.bytes() + deviation_.bytes() + results_.bytes();
    for (const auto* a : before_.components()) total += a->bytes();
    for (const auto& component : virial_) total += component.bytes();
    coupled_.for_each_array([&total](const auto& a) { total += a.bytes(); });
    return total;
  }

 private:
  /// A drift over dt from the positions kept (DriftCorrection).
  template <class OnMove>
  constraints::DriftCorrection<OnMove> correction_of(double dt, bool correct_velocities,
                                                     bool velocity_condition,
                                                     const OnMove& on_move) {
    return {{before_.x.data(), before_.y.data(), before_.z.data()},
            dt,
            correct_velocities,
            velocity_condition,
            tolerance_,
            on_move};
  }
  int groups() const { return static_cast<int>(host_groups_.size()); }
  int sets() const { return layout_.sets(); }

  /// `update` over every group kept (all of them before keep_to), a thread each.
  template <class Update>
  void on_groups(const Update& update, cudaStream_t stream) {
    if (kept_group_count_ < 0) return for_each_group(groups(), update, stream);
    for_each_group(kept_group_count_, OnKept<Update>{update, kept_groups_.data()}, stream);
  }
  /// `update` over every coupled set kept, a thread each.
  template <class Update>
  void on_sets(const Update& update, cudaStream_t stream) {
    if (kept_set_count_ < 0) return for_each_group(sets(), update, stream);
    for_each_group(kept_set_count_, OnKept<Update>{update, kept_sets_.data()}, stream);
  }

  /// The per-group (or per-set) virial shares summed in a fixed order (waits for the stream).
  core::SymmetricTensor<double> summed(
      core::DeviceBuffer<double> (&shares)[core::kTensorComponents], std::size_t n,
      cudaStream_t stream) {
    for (int c = 0; c < core::kTensorComponents; ++c)
      sums_.sum(shares[c].data(), results_.data() + c, n, stream);
    std::vector<double> host;
    results_.copy_to_host(host, stream);
    NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));
    core::SymmetricTensor<double> total;
    for (int c = 0; c < core::kTensorComponents; ++c) total.c[c] = host[c];
    return total;
  }

  /// The lowest of n failure marks (INT32_MAX: none), if any is set (waits for the stream).
  std::optional<std::size_t> first_failed(const std::int32_t* failed, std::size_t n,
                                          cudaStream_t stream) {
    if (n == 0) return std::nullopt;
    sums_.min(failed, first_failed_.data(), n, stream);
    std::vector<std::int32_t> first;
    first_failed_.copy_to_host(first, stream);
    NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));
    if (first[0] == INT32_MAX) return std::nullopt;
    return static_cast<std::size_t>(first[0]);
  }

  /// Entry k of a device array of deviations (one copy, on the failure path).
  static double deviation_at(const core::DeviceBuffer<double>& deviation, std::size_t k) {
    double value = 0.0;
    NOVAMD_CUDA_CHECK(
        cudaMemcpy(&value, deviation.data() + k, sizeof(double), cudaMemcpyDeviceToHost));
    return value;
  }

  std::vector<ConstraintGroup> host_groups_;  ///< ids and geometry, for messages
  double tolerance_;
  core::DeviceBuffer<ConstraintGroup> groups_;
  core::DeviceBuffer<std::int32_t> index_of_, failed_, first_failed_{1};
  core::DeviceBuffer<double> deviation_, results_;
  core::Vec3Of<core::DeviceBuffer<double>> before_;
  core::DeviceBuffer<double> virial_[core::kTensorComponents];  ///< per group
  /// The groups and sets solved (keep_to; counts -1: every one).
  core::DeviceBuffer<int> kept_groups_, kept_sets_;
  int kept_group_count_ = -1, kept_set_count_ = -1;
  constraints::CoupledLayout layout_;  // the plan's coupled sets (all_bonds), for messages
  constraints::CoupledArrays<DeviceArray> coupled_;
  DeviceSums sums_;
};

}  // namespace novamd::backend
