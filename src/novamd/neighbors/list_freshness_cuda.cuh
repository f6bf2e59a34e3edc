#pragma once
/// @file list_freshness_cuda.cuh
/// When a GPU pair list (per-particle Verlet lists, neighbor_list_cuda.cuh, or cluster pairs,
/// cluster_pairs_cuda.cuh) must be built again: the positions at the last build, and a kernel
/// that sets one mapped word when some particle has moved more than skin/2 since. The pairs over
/// the present list are queued behind that check where they overwrite their outputs, so that the
/// GPU works while the host waits for the word; where a build is due, the check also raises a
/// device word (StaleFlag) at which those pairs return at once, and they run again on the fresh
/// list.

#include <cstdint>
#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/core/cuda_check.cuh"
#include "novamd/core/device_buffer.cuh"
#include "novamd/core/particles.hpp"
#include "novamd/neighbors/exclusions.hpp"
#include "novamd/neighbors/list_reach.hpp"
#include "novamd/neighbors/pair_position.hpp"

namespace novamd::neighbors {

/// Whether the list a force kernel was queued over went stale at the check queued before it:
/// where *word == epoch, the kernel's blocks return at once (its pairs are queued again over the
/// fresh list, ListFreshness::evaluate_current), so a step that builds does not pay for the pairs
/// over the old list too. No word (the default): the list is current.
struct StaleFlag {
  const unsigned long long* word = nullptr;
  unsigned long long epoch = 0;
  __device__ bool raised() const { return word != nullptr && *word == epoch; }
};

/// Sets *moved (mapped host memory) and *stale = epoch (device memory) when some particle of the
/// block has moved more than sqrt(limit_squared) since `built_at` (scaled axis by axis by
/// `scale`: the box's edges now over those at the build); one write each per block at most.
template <class T>
__global__ void moved_too_far_kernel(const PairPosition<T>* __restrict__ pos,
                                     const PairPosition<T>* __restrict__ built_at, int n,
                                     core::BoxView<T> box, core::Vec3<T> scale, T limit_squared,
                                     int* moved, unsigned long long* stale,
                                     unsigned long long epoch) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool far = false;
  if (i < n) {
    const auto d =
        box.minimum_image({pos[i].x - scale.x * built_at[i].x, pos[i].y - scale.y * built_at[i].y,
                           pos[i].z - scale.z * built_at[i].z});
    far = d.x * d.x + d.y * d.y + d.z * d.z > limit_squared;
  }
  if (__syncthreads_or(far) && threadIdx.x == 0) {
    *moved = 1;
    *stale = epoch;
  }
}
/// Sets a flag for its lifetime (cleared on every way out, an exception's included).
struct Speculating {
  bool& flag;
  explicit Speculating(bool& f) : flag(f) { flag = true; }
  ~Speculating() { flag = false; }
  Speculating(const Speculating&) = delete;
  Speculating& operator=(const Speculating&) = delete;
};

/// A GPU pair list kept current: whether it is valid, for how many particles, built from which
/// positions in which box, how many builds so far, and the excluded pairs its builds leave out.
/// The list type derives from it (Derived: DeviceVerletList, DeviceClusterPairs) and supplies
/// `build(pos, n, box, stream)`, which this class calls where a build is due, and
/// `follow_scaled_box(scale, stream)`, which brings what the list keeps in absolute
/// coordinates to a box whose edges are `scale` times those at the build.
///
/// A list survives the box's moves (follow_box: the edges scaled by s, the positions with
/// them, a barostat's move): the check then measures each particle from its build position
/// scaled by s against the reach the shrink leaves (followed_list_reach, list_reach.hpp; skin /
/// 2 in the box of the build). The next evaluation checks; where the box has shrunk so far that
/// no reach is left, the list is built again.
template <class Derived, class T>
class ListFreshness {
 public:
  ListFreshness(double cutoff, double skin) : cutoff_(cutoff), skin_(skin) {}

  /// Brings the list up to date and calls `evaluate()` (which queues the pairs over it): built
  /// if there is none, the particle count changed or it was invalidated; otherwise, when
  /// `check`, built again if a particle moved more than skin/2. With `overwrites` (evaluate
  /// writes its outputs rather than adding to them), the pairs over the present list are queued
  /// behind the check, and queued again after a build.
  template <class Evaluate>
  void evaluate_current(const PairPosition<T>* pos, int n, const core::Box& box, bool check,
                        bool overwrites, cudaStream_t stream, Evaluate&& evaluate) {
    if (!valid_ || n != n_) {
      rebuild(pos, n, box, stream);
    } else if (check || box_moved_) {
      queue_check(pos, n, box, stream);
      if (overwrites) {  // skipped on the device if the check finds the list stale
        const Speculating speculating{speculative_};
        evaluate();
      }
      checked_.synchronize();
      if (moved_.value() == 0) {
        if (overwrites) return;
      } else {
        rebuild(pos, n, box, stream);
      }
    }
    evaluate();
  }

  /// Whether the next evaluation builds: no list for these n particles, or some particle moved
  /// more than skin/2 since the last build (the check queued on `stream` and waited for). A
  /// spatial decomposition asks every rank before any evaluates, and partitions anew where
  /// some rank's list is due.
  bool due(const PairPosition<T>* pos, int n, const core::Box& box, cudaStream_t stream) {
    if (!valid_ || n != n_) return true;
    queue_check(pos, n, box, stream);
    checked_.synchronize();
    return moved_.value() != 0;
  }

  /// The particles were reordered: the list is built again at the next evaluation.
  void invalidate() { valid_ = false; }
  /// The box is now `box`, the positions scaled with its edges (axis by axis) since the list
  /// was built: the list follows (checked at the next evaluation), or is built again there
  /// where the box has shrunk too far (see the class comment).
  void follow_box(const core::Box& box, cudaStream_t stream) {
    if (!valid_) return;
    const auto& now = box.length();
    const auto& then = built_box_.length();
    scale_ = {now.x / then.x, now.y / then.y, now.z / then.z};
    if (moved_limit() <= 0.0) {
      valid_ = false;
      return;
    }
    box_moved_ = true;
    static_cast<Derived*>(this)->follow_scaled_box(scale_, stream);
  }
  /// Pairs that every later build leaves out (device pointers, the ids of the storage order
  /// that the next build sees); default: none.
  void set_exclusions(const ExclusionView& exclusions) { exclusions_ = exclusions; }
  /// Builds the list from the positions `built_at` (device, storage order) in `built_box`, as
  /// it was built then, follows the box to `box`, and counts `builds` builds so far: a
  /// restart's list is the uninterrupted run's.
  void restore(const PairPosition<T>* built_at, int n, const core::Box& built_box,
               const core::Box& box, std::int64_t builds, cudaStream_t stream) {
    rebuild(built_at, n, built_box.volume() > 0.0 ? built_box : box, stream);  // 0: unknown
    builds_ = builds;
    follow_box(box, stream);
    box_moved_ = false;  // the run's own next check is the uninterrupted run's
  }
  /// The box of the last build.
  const core::Box& built_box() const { return built_box_; }

  /// Positions at the last build, in double (empty when the list is not valid).
  core::Vec3Array built_at_on_host(cudaStream_t stream) const {
    core::Vec3Array out;
    if (!valid_) return out;
    std::vector<PairPosition<T>> packed;
    built_at_.copy_to_host(packed, stream);
    NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));
    out.resize(packed.size());
    for (std::size_t i = 0; i < packed.size(); ++i) {
      out.set(i, core::Vec3<double>{double(packed[i].x), double(packed[i].y), double(packed[i].z)});
    }
    return out;
  }
  std::int64_t builds() const { return builds_; }

 protected:
  /// For the views of Derived: the check's flag while the pairs queued behind it are evaluated,
  /// else none.
  StaleFlag stale_flag() const {
    return speculative_ ? StaleFlag{stale_.data(), epoch_} : StaleFlag{};
  }
  int particles() const { return n_; }
  double cutoff() const { return cutoff_; }
  double skin() const { return skin_; }
  const ExclusionView& exclusions() const { return exclusions_; }
  std::size_t freshness_bytes() const { return built_at_.bytes(); }

 private:
  /// Queues the check whether a particle moved more than skin/2 since the last build (the
  /// answer in moved_ once checked_ is reached).
  void queue_check(const PairPosition<T>* pos, int n, const core::Box& box, cudaStream_t stream) {
    constexpr int kBlock = 256;
    moved_.value() = 0;
    box_moved_ = false;
    if (epoch_ == 0)  // the first check: no epoch is 0 (64 bits: never wraps)
      NOVAMD_CUDA_CHECK(cudaMemsetAsync(stale_.data(), 0, sizeof(unsigned long long), stream));
    ++epoch_;
    moved_too_far_kernel<T><<<(n + kBlock - 1) / kBlock, kBlock, 0, stream>>>(
        pos, built_at_.data(), n, box.view<T>(), core::vec3_cast<T>(scale_),
        T(moved_limit() * moved_limit()), moved_.device(), stale_.data(), epoch_);
    NOVAMD_CUDA_CHECK_LAUNCH();
    checked_.record(stream);
  }

  /// How far a particle may move from its scaled build position (list_reach.hpp).
  double moved_limit() const { return followed_list_reach(cutoff_, skin_, scale_); }

  void rebuild(const PairPosition<T>* pos, int n, const core::Box& box, cudaStream_t stream) {
    n_ = n;
    valid_ = true;
    built_box_ = box;
    scale_ = {1.0, 1.0, 1.0};
    box_moved_ = false;
    ++builds_;
    built_at_.resize(n);
    static_cast<Derived*>(this)->build(pos, n, box, stream);
    if (n == 0) return;
    NOVAMD_CUDA_CHECK(cudaMemcpyAsync(built_at_.data(), pos, sizeof(PairPosition<T>) * n,
                                      cudaMemcpyDeviceToDevice, stream));
  }

  double cutoff_, skin_;
  core::Box built_box_;
  core::Vec3<double> scale_{1.0, 1.0, 1.0};  ///< the box's edges now over those at the build
  bool box_moved_ = false;                   ///< the box moved since the last check
  int n_ = 0;
  bool valid_ = false;
  std::int64_t builds_ = 0;
  ExclusionView exclusions_;
  core::DeviceBuffer<PairPosition<T>> built_at_;
  core::MappedHostValue<int> moved_;
  core::DeviceBuffer<unsigned long long> stale_{1};  ///< the last epoch that found moves
  unsigned long long epoch_ = 0;                     ///< checks so far (the first is 1)
  bool speculative_ = false;                         ///< evaluating behind a check not yet read
  core::CudaEvent checked_;                          ///< recorded after the last check
};

}  // namespace novamd::neighbors
