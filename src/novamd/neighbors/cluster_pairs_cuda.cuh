#pragma once
/// @file cluster_pairs_cuda.cuh
/// Cluster pair lists on the GPU (`neighbors.layout: clusters`): the particles grouped into
/// clusters of 32 that are close in space (cluster_grid.hpp: columns along x and y, sorted along
/// z), and for each cluster its partners in groups of 32, the tiles: first the cluster itself,
/// then every particle of a cluster of higher index that comes within cutoff + skin of the
/// cluster's bounds (OpenMM's interacting atoms of a tile: only particles near the cluster, so a
/// tile holds few pairs out of range). Each tile carries 32 masks, one per particle of the
/// cluster, a bit per partner: the pairs within cutoff + skin at the build that are not excluded
/// (exclusions.hpp), neither padding nor a particle with itself. Each pair of particles is in
/// exactly one tile (a cluster's own tile holds both orders), so the force kernel
/// (cluster_pair_force_cuda.cuh) computes it once. Built from the storage order by a CUB radix
/// sort, scans and a warp per cluster or tile; every step of the build is in a fixed order, so
/// the lists, and the forces, are the same bit for bit on every run. Rebuilt when a particle
/// has moved more than skin/2 since the last build (list_freshness_cuda.cuh).

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cub/device/device_scan.cuh>

#include "novamd/core/box.hpp"
#include "novamd/core/cuda_check.cuh"
#include "novamd/core/device_buffer.cuh"
#include "novamd/neighbors/cell_bins_cuda.cuh"
#include "novamd/neighbors/cluster_grid.hpp"
#include "novamd/neighbors/exclusions.hpp"
#include "novamd/neighbors/list_freshness_cuda.cuh"
#include "novamd/neighbors/pair_position.hpp"

namespace novamd::neighbors {

/// The tiles as the force kernel reads them.
struct ClusterPairsView {
  const int2* tiles;           ///< (cluster, 1 for its own tile else 0), in cluster order
  const int* partners;         ///< 32 per tile: the partners (storage index); -1: padding
  const std::uint32_t* masks;  ///< word 32 t + l, bit m: slot l of tile t's cluster meets
                               ///< partner m of the tile
  const int* slot_particle;    ///< the particle (storage index) at each slot; -1: padding
  /// Per cluster: the centre of its bounds (x, y, z) and w = 1 where one periodic image of each
  /// partner, the one nearest that centre, serves every pair of its tiles within the cutoff
  /// (single_image_fits), else 0 (the minimum image per pair).
  const float4* image_centers;
  int tile_count;
  int tiles_per_warp;  ///< consecutive tiles one warp of the force kernel takes
  StaleFlag stale;     ///< the force kernel does nothing where it is raised
};

/// Grows `buffer` to hold at least `size` elements, with a quarter to spare, and never shrinks
/// it: a build's sizes change a little from one build to the next, and each reallocation waits
/// for the device.
template <class B>
void hold_at_least(core::DeviceBuffer<B>& buffer, std::size_t size) {
  if (size > buffer.size()) buffer.resize(size + size / 4);
}

/// The warp (of 32 consecutive threads) this thread belongs to, in 64 bits: its tile or cluster.
__device__ inline long long warp_index() {
  return (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / kClusterSize;
}

/// Each particle's sort key: its column (above) and its coordinate along z quantised to z_bits
/// bits (below).
template <class T>
__global__ void column_key_kernel(const PairPosition<T>* __restrict__ pos, int n,
                                  core::BoxView<T> box, ClusterColumns columns, int z_bits,
                                  std::uint32_t* __restrict__ key,
                                  std::uint32_t* __restrict__ index) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const PairPosition<T> p = pos[i];
  const int cx = column_of(p.x, box.inverse_length.x, columns.nx);
  const int cy = column_of(p.y, box.inverse_length.y, columns.ny);
  const int level = column_of(p.z, box.inverse_length.z, 1 << z_bits);
  key[i] = (static_cast<std::uint32_t>(cy * columns.nx + cx) << z_bits) |
           static_cast<std::uint32_t>(level);
  index[i] = static_cast<std::uint32_t>(i);
}

/// column[k] of the k-th particle in sorted order.
__global__ inline void column_of_sorted_kernel(const std::uint32_t* __restrict__ sorted_key, int n,
                                               int z_bits, std::uint32_t* __restrict__ column) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) column[k] = sorted_key[k] >> z_bits;
}

/// Slots of each column: its particles rounded up to whole clusters; entry `columns` is 0, so
/// that the exclusive sum's last entry is the slot total.
__global__ inline void column_slots_kernel(const int* __restrict__ start,
                                           const int* __restrict__ end, int columns,
                                           int* __restrict__ slots) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c > columns) return;
  slots[c] =
      c == columns ? 0 : (end[c] - start[c] + kClusterSize - 1) / kClusterSize * kClusterSize;
}

/// Places the k-th sorted particle at its column's first slot plus its rank in the column.
__global__ inline void fill_slots_kernel(const std::uint32_t* __restrict__ column,
                                         const std::uint32_t* __restrict__ order,
                                         const int* __restrict__ start,
                                         const int* __restrict__ column_slot, int n,
                                         int* __restrict__ slot_particle) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const int c = int(column[k]);
  slot_particle[column_slot[c] + k - start[c]] = int(order[k]);
}

/// The column of each cluster, one thread per column.
__global__ inline void cluster_columns_kernel(const int* __restrict__ column_slot, int columns,
                                              int* __restrict__ cluster_column) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= columns) return;
  for (int q = column_slot[c] / kClusterSize; q < column_slot[c + 1] / kClusterSize; ++q)
    cluster_column[q] = c;
}

/// One warp per cluster: its bounds, the particles taken under the minimum image from the
/// cluster's first (slot 0 of a cluster always holds a particle), and its image centre
/// (ClusterPairsView::image_centers) for pairs within `reach` (cutoff plus skin).
template <class T>
__global__ void cluster_bounds_kernel(const PairPosition<T>* __restrict__ pos,
                                      const int* __restrict__ slot_particle, int clusters,
                                      core::BoxView<T> box, T reach,
                                      ClusterBounds<T>* __restrict__ bounds,
                                      float4* __restrict__ image_centers) {
  const long long q = warp_index();
  const int lane = threadIdx.x % kClusterSize;
  if (q >= clusters) return;  // whole warps: blocks are multiples of 32
  const PairPosition<T> first = pos[slot_particle[q * kClusterSize]];
  const int a = slot_particle[q * kClusterSize + lane];
  core::Vec3<T> d{0, 0, 0};
  if (a >= 0) {
    const PairPosition<T> p = pos[a];
    d = box.minimum_image({p.x - first.x, p.y - first.y, p.z - first.z});
  }
  core::Vec3<T> lo = d, hi = d;
  for (int offset = kClusterSize / 2; offset > 0; offset /= 2) {
    lo.x = min(lo.x, __shfl_xor_sync(0xffffffffu, lo.x, offset));
    lo.y = min(lo.y, __shfl_xor_sync(0xffffffffu, lo.y, offset));
    lo.z = min(lo.z, __shfl_xor_sync(0xffffffffu, lo.z, offset));
    hi.x = max(hi.x, __shfl_xor_sync(0xffffffffu, hi.x, offset));
    hi.y = max(hi.y, __shfl_xor_sync(0xffffffffu, hi.y, offset));
    hi.z = max(hi.z, __shfl_xor_sync(0xffffffffu, hi.z, offset));
  }
  if (lane == 0) {
    const ClusterBounds<T> b = bounds_around(core::Vec3<T>{first.x, first.y, first.z}, lo, hi);
    bounds[q] = b;
    image_centers[q] = make_float4(float(b.cx), float(b.cy), float(b.cz),
                                   single_image_fits(b, reach, box) ? 1.0f : 0.0f);
  }
}

/// centers[q] = built[q] with its position scaled axis by axis (its flag, w, kept).
__global__ inline void scale_centers_kernel(const float4* __restrict__ built, int clusters,
                                            core::Vec3<float> scale, float4* __restrict__ centers) {
  const int q = blockIdx.x * blockDim.x + threadIdx.x;
  if (q >= clusters) return;
  const float4 c = built[q];
  centers[q] = make_float4(c.x * scale.x, c.y * scale.y, c.z * scale.z, c.w);
}

/// for_each_partner_column for a whole warp: lane k reads the range of the k-th column of each
/// run of 32, so that the columns cost one memory latency per 32 rather than one each; the
/// ranges are visited in the same order.
template <class T, class VisitRange>
__device__ void for_each_partner_column_by_warp(int i, int lane, const ClusterSearchView<T>& s,
                                                VisitRange&& visit_range) {
  const PartnerColumns near = PartnerColumns::around(i, s);
  for (int run = 0; run < near.count; run += kClusterSize) {
    int first = 0, last = 0;
    if (run + lane < near.count) {
      const int c = near.column(run + lane);
      first = s.column_slot[c] / kClusterSize;
      last = s.column_slot[c + 1] / kClusterSize;
    }
    const int in_run = min(kClusterSize, near.count - run);
    for (int k = 0; k < in_run; ++k) {
      const int f = __shfl_sync(0xffffffffu, first, k);
      visit_range(f > i ? f : i + 1, __shfl_sync(0xffffffffu, last, k));
    }
  }
}

/// Partner clusters whose particles one warp loads together before it tests them: their
/// memory latencies overlap rather than follow one another.
inline constexpr int kClustersLoadedTogether = 8;

/// Calls visit(b, near) on every lane of the warp, for each particle b (lane l: slot l; -1 for
/// padding) of each partner cluster of cluster i, `near` where b comes within the search's
/// range of cluster i's bounds (a lower bound on its distance to every particle of i), so it
/// may meet one of them. The partner clusters are those j > i whose bounds come within range of
/// cluster i's, columns in PartnerColumns' order and clusters by index within each: the lanes
/// test 32 clusters of a column at once (lane l the l-th), and the particles of those that
/// pass are loaded kClustersLoadedTogether clusters at a time, then visited in order.
template <class T, class Visit>
__device__ void for_each_partner_particle(int i, int lane, const PairPosition<T>* pos,
                                          const int* slot_particle,
                                          const ClusterSearchView<T>& search, Visit&& visit) {
  const ClusterBounds<T> own = search.bounds[i];
  for_each_partner_column_by_warp(i, lane, search, [&](int first, int last) {
    for (int base = first; base < last; base += kClusterSize) {
      const int j = base + lane;
      const bool bounds_near =
          j < last && bounds_gap_squared(own, search.bounds[j], search.box) < search.limit_squared;
      unsigned passed = __ballot_sync(0xffffffffu, bounds_near);
      while (passed != 0) {  // the same on every lane
        int b[kClustersLoadedTogether];
        int loaded = 0;
#pragma unroll
        for (int u = 0; u < kClustersLoadedTogether; ++u) {
          b[u] = -1;
          if (passed != 0) {
            b[u] = slot_particle[(base + __ffs(passed) - 1) * kClusterSize + lane];
            passed &= passed - 1;
            loaded = u + 1;
          }
        }
        PairPosition<T> p[kClustersLoadedTogether];
#pragma unroll
        for (int u = 0; u < kClustersLoadedTogether; ++u) p[u] = pos[max(b[u], 0)];
#pragma unroll
        for (int u = 0; u < kClustersLoadedTogether; ++u) {
          if (u >= loaded) break;
          const bool near =
              b[u] >= 0 && point_gap_squared(own, core::Vec3<T>{p[u].x, p[u].y, p[u].z},
                                             search.box) < search.limit_squared;
          visit(b[u], near);
        }
      }
    }
  });
}

/// One warp per cluster: how many tiles it heads, its own and ceil(partners / 32) (entry
/// `clusters` is 0 for the scan).
template <class T>
__global__ void count_tiles_kernel(const PairPosition<T>* __restrict__ pos,
                                   const int* __restrict__ slot_particle,
                                   ClusterSearchView<T> search, int clusters,
                                   int* __restrict__ count) {
  const long long warp = warp_index();
  const int lane = threadIdx.x % kClusterSize;
  if (warp > clusters) return;  // whole warps
  const int i = int(warp);
  int partners = 0;
  if (i < clusters)
    for_each_partner_particle(i, lane, pos, slot_particle, search, [&](int, bool near) {
      partners += __popc(__ballot_sync(0xffffffffu, near));
    });
  if (lane == 0) count[i] = i < clusters ? 1 + (partners + kClusterSize - 1) / kClusterSize : 0;
}

/// One warp per cluster: its tiles from tile_start[i] on, the first its own slots, then its
/// partners in the search's order, packed (partners are -1 beforehand).
template <class T>
__global__ void fill_tiles_kernel(const PairPosition<T>* __restrict__ pos,
                                  const int* __restrict__ slot_particle,
                                  ClusterSearchView<T> search, int clusters,
                                  const int* __restrict__ tile_start, int2* __restrict__ tiles,
                                  int* __restrict__ partners) {
  const long long warp = warp_index();
  const int lane = threadIdx.x % kClusterSize;
  if (warp >= clusters) return;  // whole warps
  const int i = int(warp);
  const int first = tile_start[i], end = tile_start[i + 1];
  for (int t = first + lane; t < end; t += kClusterSize)
    tiles[t] = make_int2(i, t == first ? 1 : 0);
  partners[std::size_t(first) * kClusterSize + lane] = slot_particle[i * kClusterSize + lane];
  int* out = partners + std::size_t(first + 1) * kClusterSize;
  const int room = (end - first - 1) * kClusterSize;  // as counted: the same search and tests
  int written = 0;
  for_each_partner_particle(i, lane, pos, slot_particle, search, [&](int b, bool near) {
    const unsigned ballot = __ballot_sync(0xffffffffu, near);
    const int at = written + __popc(ballot & ((1u << lane) - 1u));
    if (near && at < room) out[at] = b;
    written += __popc(ballot);
  });
}

/// One warp per tile: lane l's mask, bit m set where slot l of the cluster and partner m hold
/// particles within cutoff + skin (at the build) that form no excluded pair and are not one
/// particle. Each lane reads its two particles' ids once, and the partners' ids travel with
/// their positions (a pair within range is tested against the exclusions without a load).
template <class T>
__global__ void tile_masks_kernel(const PairPosition<T>* __restrict__ pos,
                                  const int* __restrict__ slot_particle,
                                  const int2* __restrict__ tiles, const int* __restrict__ partners,
                                  int tile_count, core::BoxView<T> box, T range_squared,
                                  ExclusionView exclusions, std::uint32_t* __restrict__ masks) {
  const long long warp = warp_index();
  const int lane = threadIdx.x % kClusterSize;
  if (warp >= tile_count) return;  // whole warps
  const int t = int(warp);
  const int2 tile = tiles[t];
  const int a = slot_particle[tile.x * kClusterSize + lane];
  const int b = partners[std::size_t(t) * kClusterSize + lane];
  const PairPosition<T> own = pos[max(a, 0)];
  const PairPosition<T> other = pos[max(b, 0)];
  const std::int32_t own_id = exclusions.any() ? exclusions.id[max(a, 0)] : 0;
  const std::int32_t other_id = exclusions.any() ? exclusions.id[max(b, 0)] : 0;
  std::uint32_t mask = 0;
  for (int m = 0; m < kClusterSize; ++m) {
    const int bm = __shfl_sync(0xffffffffu, b, m);
    const std::int32_t id_m = __shfl_sync(0xffffffffu, other_id, m);
    const core::Vec3<T> pm{__shfl_sync(0xffffffffu, other.x, m),
                           __shfl_sync(0xffffffffu, other.y, m),
                           __shfl_sync(0xffffffffu, other.z, m)};
    if (a < 0 || bm < 0 || (tile.y != 0 && m == lane)) continue;
    const auto d = box.minimum_image({own.x - pm.x, own.y - pm.y, own.z - pm.z});
    if (d.x * d.x + d.y * d.y + d.z * d.z >= range_squared) continue;
    if (exclusions.any() && exclusions.excludes_ids(own_id, id_m)) continue;
    mask |= 1u << m;
  }
  masks[std::size_t(t) * kClusterSize + lane] = mask;
}

/// A CUB exclusive prefix sum of n ints, its scratch in `temp`.
inline void exclusive_sum(core::DeviceBuffer<unsigned char>& temp, const int* in, int* out, int n,
                          cudaStream_t stream) {
  std::size_t bytes = 0;
  cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, n, stream);
  if (bytes > temp.size()) temp.resize(bytes);
  bytes = temp.size();
  NOVAMD_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp.data(), bytes, in, out, n, stream));
}

/// The cluster pair lists and the machinery that keeps them current (ListFreshness), for one
/// cutoff.
template <class T>
class DeviceClusterPairs : public ListFreshness<DeviceClusterPairs<T>, T> {
  using Freshness = ListFreshness<DeviceClusterPairs<T>, T>;
  friend Freshness;

 public:
  /// `resident_threads`: threads the GPU keeps resident (how many tiles a warp takes).
  DeviceClusterPairs(double cutoff, double skin, int resident_threads)
      : Freshness(cutoff, skin),
        cutoff_(cutoff),
        resident_warps_(std::max(1, resident_threads / 32)) {}

  ClusterPairsView view() const {
    return {tiles_.data(),         partners_.data(), masks_.data(),   slot_particle_.data(),
            image_centers_.data(), tile_count_,      tiles_per_warp_, this->stale_flag()};
  }
  /// Device memory held: tiles, masks, slots, bounds, sort and scan buffers, positions at the
  /// last build.
  std::size_t bytes() const {
    return this->freshness_bytes() + tiles_.bytes() + partners_.bytes() + masks_.bytes() +
           slot_particle_.bytes() + bounds_.bytes() + image_centers_.bytes() +
           built_centers_.bytes() + key_.bytes() + sorted_key_.bytes() + index_.bytes() +
           order_.bytes() + column_.bytes() + start_.bytes() + end_.bytes() + column_slot_.bytes() +
           column_count_.bytes() + cluster_column_.bytes() + count_.bytes() + tile_start_.bytes() +
           temp_.bytes();
  }

 private:
  static constexpr int kBlock = 128;
  static int blocks(long long threads) { return int((threads + kBlock - 1) / kBlock); }

  /// Builds the tiles from the positions pos (ListFreshness calls it where a build is due).
  void build(const PairPosition<T>* pos, int n, const core::Box& box, cudaStream_t stream) {
    tile_count_ = 0;
    clusters_ = 0;
    if (n == 0) return;
    const double range = cutoff_ + this->skin();
    columns_ = cluster_columns(box, std::size_t(n), range);
    const int clusters = assign_slots(pos, n, box, stream);
    hold_at_least(bounds_, clusters);
    hold_at_least(image_centers_, clusters);
    cluster_bounds_kernel<T><<<blocks(std::int64_t(clusters) * kClusterSize), kBlock, 0, stream>>>(
        pos, slot_particle_.data(), clusters, box.view<T>(), T(range), bounds_.data(),
        image_centers_.data());
    NOVAMD_CUDA_CHECK_LAUNCH();
    clusters_ = clusters;
    hold_at_least(built_centers_, clusters);
    NOVAMD_CUDA_CHECK(cudaMemcpyAsync(built_centers_.data(), image_centers_.data(),
                                      sizeof(float4) * clusters, cudaMemcpyDeviceToDevice, stream));
    const ClusterSearchView<T> search{
        columns_,       column_slot_.data(), cluster_column_.data(),
        bounds_.data(), box.view<T>(),       T(range * range * 1.0001)};
    find_tiles(pos, search, clusters, stream);
    hold_at_least(masks_, std::size_t(tile_count_) * kClusterSize);
    if (tile_count_ > 0) {
      tile_masks_kernel<T><<<blocks(std::int64_t(tile_count_) * kClusterSize), kBlock, 0, stream>>>(
          pos, slot_particle_.data(), tiles_.data(), partners_.data(), tile_count_, box.view<T>(),
          T(range * range), this->exclusions(), masks_.data());
      NOVAMD_CUDA_CHECK_LAUNCH();
    }
    // About one tile per resident warp, and at least two: a warp adds its cluster's forces once
    // for its run of tiles that share it.
    tiles_per_warp_ = std::clamp(tile_count_ / resident_warps_, 2, 8);
  }

  /// The box's edges are `scale` times those at the build, the positions scaled with them: the
  /// clusters' image centres too (from those of the build, so that they depend on the box alone
  /// and a restart's are the same). Partners within the cutoff stay imaged right: a particle
  /// within the list's reach of its scaled build position keeps every such partner within half
  /// an edge of the scaled centre (single_image_fits held at the build).
  void follow_scaled_box(const core::Vec3<double>& scale, cudaStream_t stream) {
    if (clusters_ == 0) return;
    scale_centers_kernel<<<blocks(clusters_), kBlock, 0, stream>>>(
        built_centers_.data(), clusters_, core::vec3_cast<float>(scale), image_centers_.data());
    NOVAMD_CUDA_CHECK_LAUNCH();
  }

  /// Sorts the particles by column and z, places them in their columns' slots; returns the
  /// number of clusters.
  int assign_slots(const PairPosition<T>* pos, int n, const core::Box& box, cudaStream_t stream) {
    const int columns = columns_.count();
    const int column_bits = int(std::bit_width(unsigned(columns - 1)));
    const int z_bits = std::min(20, 32 - column_bits);
    for (auto* b : {&key_, &sorted_key_, &index_, &order_, &column_}) b->resize(n);
    start_.resize(columns);
    end_.resize(columns);
    column_slot_.resize(columns + 1);
    column_count_.resize(columns + 1);
    column_key_kernel<T><<<blocks(n), kBlock, 0, stream>>>(pos, n, box.view<T>(), columns_, z_bits,
                                                           key_.data(), index_.data());
    NOVAMD_CUDA_CHECK_LAUNCH();
    radix_sort_pairs(temp_, key_.data(), sorted_key_.data(), index_.data(), order_.data(), n,
                     column_bits + z_bits, stream);
    column_of_sorted_kernel<<<blocks(n), kBlock, 0, stream>>>(sorted_key_.data(), n, z_bits,
                                                              column_.data());
    NOVAMD_CUDA_CHECK_LAUNCH();
    cell_ranges_kernel<<<blocks(n + 1), kBlock, 0, stream>>>(column_.data(), n, columns,
                                                             start_.data(), end_.data());
    NOVAMD_CUDA_CHECK_LAUNCH();
    column_slots_kernel<<<blocks(columns + 1), kBlock, 0, stream>>>(start_.data(), end_.data(),
                                                                    columns, column_count_.data());
    NOVAMD_CUDA_CHECK_LAUNCH();
    exclusive_sum(temp_, column_count_.data(), column_slot_.data(), columns + 1, stream);
    const int slots = host_value_.read(column_slot_.data() + columns, stream);
    hold_at_least(slot_particle_, slots);
    NOVAMD_CUDA_CHECK(cudaMemsetAsync(slot_particle_.data(), 0xff, slot_particle_.bytes(), stream));
    fill_slots_kernel<<<blocks(n), kBlock, 0, stream>>>(column_.data(), order_.data(),
                                                        start_.data(), column_slot_.data(), n,
                                                        slot_particle_.data());
    NOVAMD_CUDA_CHECK_LAUNCH();
    const int clusters = slots / kClusterSize;
    hold_at_least(cluster_column_, clusters);
    cluster_columns_kernel<<<blocks(columns), kBlock, 0, stream>>>(column_slot_.data(), columns,
                                                                   cluster_column_.data());
    NOVAMD_CUDA_CHECK_LAUNCH();
    return clusters;
  }

  /// The tiles of every cluster: counted, summed, then written in the same order.
  void find_tiles(const PairPosition<T>* pos, const ClusterSearchView<T>& search, int clusters,
                  cudaStream_t stream) {
    hold_at_least(count_, clusters + 1);
    hold_at_least(tile_start_, clusters + 1);
    const long long warps_threads = (std::int64_t(clusters) + 1) * kClusterSize;
    count_tiles_kernel<T><<<blocks(warps_threads), kBlock, 0, stream>>>(
        pos, slot_particle_.data(), search, clusters, count_.data());
    NOVAMD_CUDA_CHECK_LAUNCH();
    exclusive_sum(temp_, count_.data(), tile_start_.data(), clusters + 1, stream);
    tile_count_ = host_value_.read(tile_start_.data() + clusters, stream);
    hold_at_least(tiles_, tile_count_);
    hold_at_least(partners_, std::size_t(tile_count_) * kClusterSize);
    NOVAMD_CUDA_CHECK(cudaMemsetAsync(partners_.data(), 0xff, partners_.bytes(), stream));
    fill_tiles_kernel<T><<<blocks(std::int64_t(clusters) * kClusterSize), kBlock, 0, stream>>>(
        pos, slot_particle_.data(), search, clusters, tile_start_.data(), tiles_.data(),
        partners_.data());
    NOVAMD_CUDA_CHECK_LAUNCH();
  }

  double cutoff_;
  int resident_warps_;
  ClusterColumns columns_;
  int tile_count_ = 0;
  int tiles_per_warp_ = 2;
  core::DeviceBuffer<int2> tiles_;
  core::DeviceBuffer<int> partners_;
  core::DeviceBuffer<std::uint32_t> masks_;
  core::DeviceBuffer<int> slot_particle_;
  core::DeviceBuffer<ClusterBounds<T>> bounds_;
  core::DeviceBuffer<float4> image_centers_;
  core::DeviceBuffer<float4> built_centers_;  ///< image_centers_ as built (follow_scaled_box)
  int clusters_ = 0;                          ///< clusters of the last build
  core::DeviceBuffer<std::uint32_t> key_, sorted_key_, index_, order_, column_;
  core::DeviceBuffer<int> start_, end_, column_count_, column_slot_, cluster_column_;
  core::DeviceBuffer<int> count_, tile_start_;
  core::DeviceBuffer<unsigned char> temp_;
  core::MappedHostValue<int> host_value_;
};

}  // namespace novamd::neighbors
