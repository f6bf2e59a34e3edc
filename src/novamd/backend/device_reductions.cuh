#pragma once
/// @file device_reductions.cuh
/// The CUDA backend's whole-system sums of one rank, on the device: the per-particle terms
/// (backend/particle_terms.hpp, run by for_each_particle) into a scratch array, then CUB's
/// reductions in a fixed order (device_sums.cuh), and only the sums to the host. The sums over
/// ranks are the domain's (parallel/domain.hpp).

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "novamd/backend/device_particles.cuh"
#include "novamd/backend/device_sums.cuh"
#include "novamd/backend/for_each_particle_cuda.cuh"
#include "novamd/backend/particle_terms.hpp"
#include "novamd/backend/segment_sums.cuh"
#include "novamd/core/device_buffer.cuh"
#include "novamd/core/tensor.hpp"
#include "novamd/integrate/step_operations.hpp"
#include "novamd/parallel/process_grid.hpp"

namespace novamd::backend {

/// The particles a kinetic sum runs over: `count` from the given pointers on.
struct KineticInput {
  const double* mass_energy;  ///< per type: the mass times the unit factor
  const std::int32_t* type;
  integrate::Vec3Pointers velocity;
  std::size_t count;
};

/// One rank's sums for Backend::observables: 2 K and 2 K_ab of its owned particles; the energy
/// and W_ab shares of its energy ranges; each force term's energy (its running sum over the
/// ranges, queue_term_energy).
struct LocalObservables {
  static constexpr int kEntries = ScalarAndTensor::kEntries;
  std::array<double, kEntries> kinetic{};  ///< 2 K, then 2 K_ab (core/tensor.hpp order)
  std::array<double, kEntries> shares{};   ///< U, then W_ab
  std::vector<double> term_energy;
};

/// A barostat's pressure sample (DeviceReductions::queue_pressure_slot) as one segment sum:
/// segment 0 the kinetic sums, segment 1 + r energy range r's energy and virial shares.
struct PressureSlotShares {
  static constexpr std::size_t kRanges = 3;  ///< DeviceReductions::kMaxRanges
  TwiceKineticShares kinetic;
  EnergyAndVirialShares range[kRanges];
  NOVAMD_HD ScalarAndTensor operator()(int segment, int i) const {
    return segment == 0 ? kinetic(i) : range[segment - 1](i);
  }
};

class DeviceReductions {
 public:
  /// Room for sums over up to n particles.
  void reserve(std::size_t n) {
    scratch_.resize(n);
    flags_.resize(n);
    results_.resize(1 + kMaxRanges);
    first_flag_.resize(1);
    scalar_.resize(1);
    queued_.resize(2 * kMaxRanges);
    sums_.reserve(n);
    host_.resize(kHostEntries + term_sums_.size());
    slot_capacity_ =
        static_cast<std::size_t>(SegmentGrid::kMaxSegments * SegmentGrid::blocks_for(n));
    pressure_partials_.resize((integrate::kPressureSlots + 1) * slot_capacity_);
    pressure_host_.resize(pressure_partials_.size());
  }
  /// Room for the running energy sums of `terms` force terms.
  void reserve_terms(std::size_t terms) {
    term_sums_.resize(terms * kMaxRanges);
    host_.resize(kHostEntries + term_sums_.size());
  }
  std::size_t bytes() const {
    return scratch_.bytes() + scalar_.bytes() + queued_.bytes() + flags_.bytes() +
           results_.bytes() + first_flag_.bytes() + term_sums_.bytes() + pressure_partials_.bytes();
  }

  /// Queues the sums of `energy` over `ranges` (at most kMaxRanges) into the running sum of
  /// term `term` (< the count given to reserve_terms); no wait.
  void queue_term_energy(const double* energy, const std::vector<parallel::IndexRange>& ranges,
                         std::size_t term, cudaStream_t stream) {
    queue_range_sums(energy, ranges, term_sums_.data() + term * kMaxRanges, stream);
  }

  /// The sum of values[0 .. count) on the host (waits for the stream).
  double sum(const double* values, std::size_t count, cudaStream_t stream) {
    if (count == 0) return 0.0;
    sums_.sum(values, scalar_.data(), count, stream);
    return host_value_.read(scalar_.data(), stream);
  }

  /// 2 K = sum m v^2 (waits for the stream).
  double twice_kinetic(const KineticInput& in, cudaStream_t stream) {
    if (in.count == 0) return 0.0;
    queue_twice_kinetic(in, stream);
    return sum(scratch_.data(), in.count, stream);
  }

  /// 2 K and 2 K_ab of `in` (one reduction, one wait).
  std::array<double, LocalObservables::kEntries> kinetic_sums(const KineticInput& in,
                                                              cudaStream_t stream) {
    std::array<double, LocalObservables::kEntries> out{};
    if (in.count == 0) return out;
    sums_.sum_shares(TwiceKineticShares{in.mass_energy, in.type, in.velocity}, results_.data(),
                     in.count, stream);
    host_.queue_copy_from(reinterpret_cast<const double*>(results_.data()), out.size(), 0, stream);
    NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));
    for (std::size_t k = 0; k < out.size(); ++k) out[k] = host_[k];
    return out;
  }

  /// The kinetic sums of `in`, the energy and virial shares of `particles` over `ranges` (at
  /// most kMaxRanges, disjoint; their sums added in order) and the running energy sums of the
  /// first `terms` terms: one reduction per range, one copy to the host, one wait.
  LocalObservables observables(const KineticInput& in, const DeviceParticles& particles,
                               const std::vector<parallel::IndexRange>& ranges, std::size_t terms,
                               cudaStream_t stream) {
    constexpr int kEntries = LocalObservables::kEntries;
    ScalarAndTensor* to = results_.data();
    if (in.count > 0) {
      sums_.sum_shares(TwiceKineticShares{in.mass_energy, in.type, in.velocity}, to, in.count,
                       stream);
    } else {
      NOVAMD_CUDA_CHECK(cudaMemsetAsync(to, 0, sizeof(ScalarAndTensor), stream));
    }
    for (std::size_t r = 0; r < ranges.size(); ++r) {
      EnergyAndVirialShares shares{particles.energy.data(), {}, ranges[r].begin};
      for (int k = 0; k < core::kTensorComponents; ++k)
        shares.virial[k] = particles.virial[k].data();
      sums_.sum_shares(shares, to + 1 + r, ranges[r].size(), stream);
    }
    // One copy: the sums and the terms' running sums lie side by side on the host.
    host_.queue_copy_from(reinterpret_cast<const double*>(to), kEntries * (1 + ranges.size()), 0,
                          stream);
    host_.queue_copy_from(term_sums_.data(), term_sums_.size(), kHostEntries, stream);
    NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));
    LocalObservables out;
    for (int k = 0; k < kEntries; ++k) out.kinetic[k] = host_[k];
    for (std::size_t r = 0; r < ranges.size(); ++r)
      for (int k = 0; k < kEntries; ++k) out.shares[k] += host_[kEntries * (1 + r) + k];
    out.term_energy.assign(terms, 0.0);
    for (std::size_t t = 0; t < terms; ++t)
      for (std::size_t r = 0; r < kMaxRanges; ++r)
        out.term_energy[t] += host_[kHostEntries + t * kMaxRanges + r];
    return out;
  }

  /// Queues the kinetic sums of `in` and the energy and virial shares of `particles` over
  /// `ranges` into pressure slot `slot` (< integrate::kPressureSlots; a barostat's sample): one
  /// launch, no wait.
  void queue_pressure_slot(const KineticInput& in, const DeviceParticles& particles,
                           const std::vector<parallel::IndexRange>& ranges, int slot,
                           cudaStream_t stream) {
    if (ranges.size() > kMaxRanges)
      throw std::logic_error("DeviceReductions: more energy ranges than a pressure slot holds");
    PressureSlotShares shares{TwiceKineticShares{in.mass_energy, in.type, in.velocity}, {}};
    std::vector<std::size_t> counts{in.count};
    for (std::size_t r = 0; r < ranges.size(); ++r) {
      shares.range[r] = EnergyAndVirialShares{particles.energy.data(), {}, ranges[r].begin};
      for (int k = 0; k < core::kTensorComponents; ++k)
        shares.range[r].virial[k] = particles.virial[k].data();
      counts.push_back(ranges[r].size());
    }
    queue_slot(slot, shares, counts, stream);
  }
  /// Queues the kinetic sums of `in` into the slot after the pressure slots (the kinetic tensor
  /// a move scales); no wait.
  void queue_moved_kinetic(const KineticInput& in, cudaStream_t stream) {
    const PressureSlotShares shares{TwiceKineticShares{in.mass_energy, in.type, in.velocity}, {}};
    queue_slot(integrate::kPressureSlots, shares, std::vector<std::size_t>{in.count}, stream);
  }
  /// Pressure slots [0, count) and the moved kinetic sums, each slot's 2 K and 2 K_ab, then its
  /// ranges' U and W_ab (kSlotEntries ScalarAndTensor a slot, zero past its ranges; the moved
  /// one last), read after one wait (anything else queued before is complete too).
  std::vector<ScalarAndTensor> read_pressure_slots(int count, cudaStream_t stream) {
    const std::size_t n = static_cast<std::size_t>(count);
    pressure_host_.queue_copy_from(pressure_partials_.data(), n * slot_capacity_, 0, stream);
    pressure_host_.queue_copy_from(pressure_partials_.data() + moved_region(), slot_capacity_,
                                   moved_region(), stream);
    NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));
    std::vector<ScalarAndTensor> out((n + 1) * kSlotEntries);
    for (std::size_t k = 0; k <= n; ++k) {
      const int slot = k < n ? static_cast<int>(k) : integrate::kPressureSlots;
      const SegmentGrid& grid = slot_grids_[static_cast<std::size_t>(slot)];
      const ScalarAndTensor* partials = pressure_host_.data() + slot * slot_capacity_;
      for (int s = 0; s < grid.segments; ++s)
        out[k * kSlotEntries + static_cast<std::size_t>(s)] =
            segment_sum<ScalarAndTensor, AddScalarAndTensor>(partials, grid, s);
    }
    out.resize(n * kSlotEntries + 1);  // the moved slot: its kinetic sums alone
    return out;
  }
  /// Queues the sum of `energy` over `ranges` (at most kMaxRanges) into slot `slot` (0 or 1)
  /// of the energies read by queued_energies; no wait.
  void queue_energy(const double* energy, const std::vector<parallel::IndexRange>& ranges, int slot,
                    cudaStream_t stream) {
    queue_range_sums(energy, ranges, queued_.data() + static_cast<std::size_t>(slot) * kMaxRanges,
                     stream);
  }
  /// The two energies queue_energy queued, each summed over its ranges in order (one copy,
  /// one wait).
  std::array<double, 2> queued_energies(cudaStream_t stream) {
    host_.queue_copy_from(queued_.data(), queued_.size(), 0, stream);
    NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));
    std::array<double, 2> out{};
    for (std::size_t s = 0; s < out.size(); ++s)
      for (std::size_t r = 0; r < kMaxRanges; ++r) out[s] += host_[s * kMaxRanges + r];
    return out;
  }

  /// The smallest flag InstabilityFlag writes over `count` particles (INT32_MAX: none flagged).
  /// Waits for the stream.
  std::int32_t first_flagged(InstabilityFlag flag, std::size_t count, cudaStream_t stream) {
    if (count == 0) return INT32_MAX;
    flag.out = flags_.data();
    for_each_particle(static_cast<int>(count), flag, stream);
    sums_.min(flags_.data(), first_flag_.data(), count, stream);
    std::vector<std::int32_t> host;
    first_flag_.copy_to_host(host, stream);
    NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));
    return host[0];
  }

  /// Energy ranges a rank may have (parallel::Domain::energy_ranges: its targets, and with each
  /// pair once the sources before and after them).
  static constexpr std::size_t kMaxRanges = 3;
  /// Entries a pressure slot takes: the kinetic sums, then one per energy range.
  static constexpr std::size_t kSlotEntries = 1 + kMaxRanges;

 private:
  /// The host copy's entries before the terms' sums: the kinetic sums and a range's shares each.
  static constexpr std::size_t kHostEntries = LocalObservables::kEntries * (1 + kMaxRanges);

  /// to[r] = the sum of values over ranges[r] (kMaxRanges entries, those past the ranges 0).
  void queue_range_sums(const double* values, const std::vector<parallel::IndexRange>& ranges,
                        double* to, cudaStream_t stream) {
    NOVAMD_CUDA_CHECK(cudaMemsetAsync(to, 0, sizeof(double) * kMaxRanges, stream));
    for (std::size_t r = 0; r < ranges.size(); ++r)
      if (ranges[r].size() > 0)
        sums_.sum(values + ranges[r].begin, to + r, ranges[r].size(), stream);
  }

  static_assert(PressureSlotShares::kRanges == kMaxRanges);
  static_assert(1 + kMaxRanges <= SegmentGrid::kMaxSegments);

  std::size_t moved_region() const { return integrate::kPressureSlots * slot_capacity_; }
  /// Queues the partial sums of `shares` over segments of `counts` into slot `slot`'s region.
  template <class Counts>
  void queue_slot(int slot, const PressureSlotShares& shares, const Counts& counts,
                  cudaStream_t stream) {
    const SegmentGrid grid = SegmentGrid::of(counts);
    if (static_cast<std::size_t>(grid.blocks()) > slot_capacity_)
      throw std::logic_error(
          "DeviceReductions: a pressure sample over more particles than reserved");
    slot_grids_[static_cast<std::size_t>(slot)] = grid;
    queue_segment_partials<ScalarAndTensor, AddScalarAndTensor>(
        shares, grid, pressure_partials_.data() + slot * slot_capacity_, stream);
  }

  void queue_twice_kinetic(const KineticInput& in, cudaStream_t stream) {
    for_each_particle(static_cast<int>(in.count),
                      TwiceKineticEnergy{in.mass_energy, in.type, in.velocity, scratch_.data()},
                      stream);
  }

  DeviceSums sums_;
  core::DeviceBuffer<double> scratch_, scalar_;
  core::DeviceBuffer<double> queued_;            ///< queue_energy's two slots, kMaxRanges each
  core::DeviceBuffer<ScalarAndTensor> results_;  ///< the kinetic sums, then each range's shares
  core::DeviceBuffer<double> term_sums_;         ///< kMaxRanges per force term
  core::PinnedHostArray<double> host_;           ///< results_ and term_sums_, copied back
  /// Per pressure slot (then the moved kinetic sums), slot_capacity_ blocks' partial sums, and
  /// the grid each was queued with.
  core::DeviceBuffer<ScalarAndTensor> pressure_partials_;
  core::PinnedHostArray<ScalarAndTensor> pressure_host_;
  std::array<SegmentGrid, integrate::kPressureSlots + 1> slot_grids_{};
  std::size_t slot_capacity_ = 0;
  core::DeviceBuffer<std::int32_t> flags_, first_flag_;
  core::MappedHostValue<double> host_value_;
};

}  // namespace novamd::backend
