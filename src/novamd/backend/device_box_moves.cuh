#pragma once
/// @file device_box_moves.cuh
/// What a barostat's moves need on the device (backend.hpp: rescale_box, keep_configuration,
/// scale_velocities_by_axis, barostat_totals): the positions scaled with the box, particle by
/// particle or by the molecules' centres of mass (integrate/molecule_scaling.hpp), the
/// velocities likewise, the molecular pressure's parts (molecule_pressure.hpp), and the
/// configuration kept before a trial move.

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "novamd/backend/device_particles.cuh"
#include "novamd/backend/for_each_particle_cuda.cuh"
#include "novamd/backend/molecule_pressure.hpp"
#include "novamd/backend/segment_sums.cuh"
#include "novamd/core/device_buffer.cuh"
#include "novamd/core/topology.hpp"
#include "novamd/integrate/molecule_scaling.hpp"
#include "novamd/integrate/particle_updates.hpp"

namespace novamd::backend {

/// Particle i's position, force and image counts from one set of arrays to another.
struct CopyConfiguration {
  const double* from[6];  ///< position x y z, force x y z
  double* to[6];
  const std::int32_t* from_image[3];  ///< null where there are no image counts
  std::int32_t* to_image[3];
  NOVAMD_HD void operator()(int i) const {
    for (int k = 0; k < 6; ++k) to[k][i] = from[k][i];
    if (from_image[0] == nullptr) return;
    for (int k = 0; k < 3; ++k) to_image[k][i] = from_image[k][i];
  }
};

class DeviceBoxMoves {
 public:
  /// Moves scale the molecules' centres from now on (`mass`: per type, for the centres).
  void scale_molecules(const core::Molecules& molecules, const std::vector<double>& mass,
                       cudaStream_t stream) {
    const auto rows = integrate::MoleculeRows::of(molecules);
    offset_.copy_from_host(rows.offset, stream);
    member_id_.copy_from_host(rows.member_id, stream);
    molecule_of_id_.copy_from_host(rows.molecule_of_id, stream);
    mass_.copy_from_host(mass, stream);
    centre_.resize(rows.count());
    slot_of_id_.resize(rows.molecule_of_id.size());
    unwrapping_.resize(rows.molecule_of_id.size());
    molecules_ = static_cast<int>(rows.count());
    slot_capacity_ =
        static_cast<std::size_t>(SegmentGrid::blocks_for(rows.count(), SegmentGrid::kThreads));
    slot_partials_.resize(kRegions * slot_capacity_);
    host_slots_.resize(slot_partials_.size());
  }
  /// Whether moves scale molecules by their centres.
  bool scales_molecules() const { return molecules_ > 0; }

  /// The positions of all `n` particles scaled from box `from` to box `to` (their images
  /// counted where molecules are wrapped into it).
  void scale(DeviceParticles& p, int n, const core::Box& from, const core::Box& to,
             cudaStream_t stream) {
    const auto ratio = integrate::edge_ratios(from, to);
    if (molecules_ == 0) {
      for_each_particle(n, integrate::ScalePositions{core::pointers_of(p.position), ratio}, stream);
      return;
    }
    locate(p, n, stream);
    for_each_particle(
        molecules_,
        integrate::MoleculeCentre{offset_.data(), member_id_.data(), slot_of_id_.data(),
                                  p.type.data(), mass_.data(), core::pointers_of(p.position),
                                  from.view<double>(), centre_.data(), unwrapping_.data()},
        stream);
    for_each_particle(
        n,
        integrate::MoveWithMolecule{p.id.data(), molecule_of_id_.data(), centre_.data(),
                                    unwrapping_.data(), core::pointers_of(p.position),
                                    core::image_pointers_of(p.image), to.view<double>(), ratio},
        stream);
  }

  /// Each molecule's centre-of-mass velocity scaled by `factor` axis by axis (the motion within
  /// it untouched; scales_molecules()).
  void scale_velocities(DeviceParticles& p, int n, core::Vec3<double> factor, cudaStream_t stream) {
    locate(p, n, stream);
    for_each_particle(molecules_,
                      integrate::MoleculeVelocity{offset_.data(), member_id_.data(),
                                                  slot_of_id_.data(), p.type.data(), mass_.data(),
                                                  core::pointers_of(p.velocity), centre_.data()},
                      stream);
    for_each_particle(
        n,
        integrate::ScaleWithMoleculeVelocity{p.id.data(), molecule_of_id_.data(), centre_.data(),
                                             core::pointers_of(p.velocity), factor},
        stream);
  }

  /// The molecules' sums of 2 K^c (scalar, tensor) and of C (0, tensor), molecule_pressure.hpp.
  struct PressureParts {
    ScalarAndTensor twice_kinetic{}, internal_virial{};
  };
  /// Queues both sums now, and their copy to the host, read by queued_pressure_parts once the
  /// stream has been waited for (one wait for these and whatever else the caller reads).
  void queue_pressure_parts(DeviceParticles& p, int n, const core::Box& box, double mvv_to_energy,
                            cudaStream_t stream) {
    queue_parts_into(kNowRegion, p, n, box, mvv_to_energy, stream);
    const std::size_t at = kNowRegion * slot_capacity_;
    host_slots_.queue_copy_from(slot_partials_.data() + at, slot_capacity_, at, stream);
  }
  /// What queue_pressure_parts queued; the stream must have been waited for since.
  PressureParts queued_pressure_parts() const { return region_sums(kNowRegion); }

  /// Queues both sums into pressure slot `slot` (< integrate::kPressureSlots), or into the slot
  /// after them (`slot` = kPressureSlots: the moved kinetic tensor); no wait.
  void queue_pressure_slot(DeviceParticles& p, int n, const core::Box& box, double mvv_to_energy,
                           int slot, cudaStream_t stream) {
    queue_parts_into(static_cast<std::size_t>(slot), p, n, box, mvv_to_energy, stream);
  }
  /// Queues the copy of slots [0, count) and the moved slot to the host; read them with
  /// slot_parts after a wait.
  void queue_slot_copy(int count, cudaStream_t stream) {
    const std::size_t moved = integrate::kPressureSlots * slot_capacity_;
    host_slots_.queue_copy_from(slot_partials_.data(),
                                static_cast<std::size_t>(count) * slot_capacity_, 0, stream);
    host_slots_.queue_copy_from(slot_partials_.data() + moved, slot_capacity_, moved, stream);
    copied_slots_ = count;
  }
  /// Slot `slot`'s 2 K^c and C as copied (`slot` = the count copied: the moved slot's).
  PressureParts slot_parts(int slot) const {
    return region_sums(slot < copied_slots_ ? static_cast<std::size_t>(slot)
                                            : static_cast<std::size_t>(integrate::kPressureSlots));
  }

  /// Keeps the positions, image counts, forces and torques of `p`, and `box`.
  /// (One launch for the nine arrays: a Monte Carlo trial keeps and may put back each time.)
  void keep(const DeviceParticles& p, const core::Box& box, cudaStream_t stream) {
    const std::size_t n = p.position.x.size();
    for (auto* a : kept_position_.components()) a->resize(n);
    for (auto* a : kept_force_.components()) a->resize(n);
    for (auto* a : kept_image_.components()) a->resize(p.image.x.size());
    copy_configuration(p.position, p.force, p.image, kept_position_, kept_force_, kept_image_,
                       stream);
    for (int k = 0; k < 3; ++k)  // rigid molecules' torques (empty arrays otherwise)
      kept_torque_.components()[k]->copy_from_device(*p.torque.components()[k], stream);
    kept_box_ = box;
  }
  /// Puts the kept arrays back into `p`; returns the kept box.
  core::Box restore(DeviceParticles& p, cudaStream_t stream) {
    if (!kept_box_) throw std::logic_error("restore_configuration: no configuration kept");
    copy_configuration(kept_position_, kept_force_, kept_image_, p.position, p.force, p.image,
                       stream);
    for (int k = 0; k < 3; ++k)
      p.torque.components()[k]->copy_from_device(*kept_torque_.components()[k], stream);
    const core::Box box = *kept_box_;
    kept_box_.reset();
    return box;
  }
  void release() { kept_box_.reset(); }
  bool keeping() const { return kept_box_.has_value(); }

  /// `remap(values)` applied to a host copy of each kept array of positions, forces and image
  /// counts (these as doubles: exact), which then goes back (waits for the stream): a spatial
  /// decomposition's partition during a trial gathers them from their owners and puts them in
  /// the new storage order, so that a rejected trial restores each particle's own.
  template <class Remap>
  void remap_kept(Remap&& remap, cudaStream_t stream) {
    std::vector<double> values;
    for (auto* a : {&kept_position_.x, &kept_position_.y, &kept_position_.z, &kept_force_.x,
                    &kept_force_.y, &kept_force_.z}) {
      a->copy_to_host(values, stream);
      NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));
      remap(values);
      a->copy_from_host(values, stream);
      NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));  // before `values` is refilled
    }
    std::vector<std::int32_t> counts;
    for (auto* a : kept_image_.components()) {
      if (a->size() == 0) continue;
      a->copy_to_host(counts, stream);
      NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));
      values.assign(counts.begin(), counts.end());
      remap(values);
      counts.assign(values.size(), 0);
      for (std::size_t i = 0; i < values.size(); ++i)
        counts[i] = static_cast<std::int32_t>(values[i]);
      a->copy_from_host(counts, stream);
      NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));
    }
  }

  std::size_t bytes() const {
    return offset_.bytes() + member_id_.bytes() + molecule_of_id_.bytes() + mass_.bytes() +
           centre_.bytes() + unwrapping_.bytes() + slot_of_id_.bytes() + slot_partials_.bytes() +
           3 * (kept_position_.x.bytes() + kept_force_.x.bytes() + kept_image_.x.bytes() +
                kept_torque_.x.bytes());
  }

 private:
  /// Regions of the molecules' partial sums: the pressure slots, the moved slot, then the sums
  /// queue_pressure_parts takes now.
  static constexpr std::size_t kNowRegion = integrate::kPressureSlots + 1;
  static constexpr std::size_t kRegions = kNowRegion + 1;

  /// Locates the members, then queues the molecules' partial sums of both parts into `region`
  /// (one launch, a molecule a thread: a molecule's share is many loads).
  void queue_parts_into(std::size_t region, DeviceParticles& p, int n, const core::Box& box,
                        double mvv_to_energy, cudaStream_t stream) {
    locate(p, n, stream);
    const MoleculePressureShares shares{offset_.data(),
                                        member_id_.data(),
                                        slot_of_id_.data(),
                                        p.type.data(),
                                        mass_.data(),
                                        mvv_to_energy,
                                        core::pointers_of(p.position),
                                        core::pointers_of(p.velocity),
                                        core::pointers_of(p.force),
                                        box.view<double>()};
    region_grids_[region] = SegmentGrid::of(
        std::array<std::size_t, 1>{static_cast<std::size_t>(molecules_)}, SegmentGrid::kThreads);
    queue_segment_partials<MoleculePressureShares::Parts, AddMoleculePressureParts>(
        MoleculePartsOfSegment{shares}, region_grids_[region],
        slot_partials_.data() + region * slot_capacity_, stream);
  }
  /// A region's sums from its partials as copied to the host.
  PressureParts region_sums(std::size_t region) const {
    const auto sum = segment_sum<MoleculePressureShares::Parts, AddMoleculePressureParts>(
        host_slots_.data() + region * slot_capacity_, region_grids_[region], 0);
    return {sum.twice_kinetic, sum.internal_virial};
  }
  /// slot_of_id_ for the present storage order of `p`'s `n` particles.
  void locate(DeviceParticles& p, int n, cudaStream_t stream) {
    for_each_particle(n, integrate::SlotsOfIds{p.id.data(), slot_of_id_.data()}, stream);
  }

  /// Positions, forces and image counts copied from the first three arrays to the last three
  /// (of equal sizes; no images where the image arrays are empty), in one launch.
  static void copy_configuration(const DeviceVec3Array& position, const DeviceVec3Array& force,
                                 const core::Vec3Of<core::DeviceBuffer<std::int32_t>>& image,
                                 DeviceVec3Array& to_position, DeviceVec3Array& to_force,
                                 core::Vec3Of<core::DeviceBuffer<std::int32_t>>& to_image,
                                 cudaStream_t stream) {
    CopyConfiguration c{};
    const auto from_doubles =
        std::array{&position.x, &position.y, &position.z, &force.x, &force.y, &force.z};
    const auto to_doubles = std::array{&to_position.x, &to_position.y, &to_position.z,
                                       &to_force.x,    &to_force.y,    &to_force.z};
    for (std::size_t k = 0; k < 6; ++k) {
      c.from[k] = from_doubles[k]->data();
      c.to[k] = to_doubles[k]->data();
    }
    if (image.x.size() > 0) {
      const auto from_images = image.components();
      const auto to_images = to_image.components();
      for (std::size_t k = 0; k < 3; ++k) {
        c.from_image[k] = from_images[k]->data();
        c.to_image[k] = to_images[k]->data();
      }
    }
    for_each_particle(static_cast<int>(position.x.size()), c, stream);
  }

  int molecules_ = 0;  ///< 0: moves scale every particle
  core::DeviceBuffer<std::int32_t> offset_, member_id_, molecule_of_id_, slot_of_id_;
  core::DeviceBuffer<double> mass_;
  core::DeviceBuffer<core::Vec3<double>> centre_;  ///< per molecule: its centre, or velocity
  core::DeviceBuffer<core::Vec3<double>> unwrapping_;
  /// Per region (kRegions: the pressure slots, the moved one, now), slot_capacity_ blocks'
  /// partial sums of 2 K^c and C, and the grid each was queued with.
  core::DeviceBuffer<MoleculePressureShares::Parts> slot_partials_;
  core::PinnedHostArray<MoleculePressureShares::Parts> host_slots_;
  std::array<SegmentGrid, kRegions> region_grids_{};
  std::size_t slot_capacity_ = 0;
  int copied_slots_ = 0;
  DeviceVec3Array kept_position_, kept_force_, kept_torque_;
  core::Vec3Of<core::DeviceBuffer<std::int32_t>> kept_image_;
  std::optional<core::Box> kept_box_;
};

}  // namespace novamd::backend
