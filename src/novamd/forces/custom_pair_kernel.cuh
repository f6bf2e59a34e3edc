#pragma once
/// @file custom_pair_kernel.cuh
/// The GPU pair kernels of `custom_pair` (physics/custom_pair.hpp), generic over the formula.
///
/// This file is compiled twice. nvcc compiles it into the library, where its structs are the
/// kernels' arguments (forces/cuda_custom_pair.cu fills them) and the tests instantiate its
/// kernels with a formula written by hand (tests/cuda/test_cuda_custom_pair.cu), so that it is
/// checked when the library builds. At run time NVRTC compiles it again after the formula's
/// source (a struct `Formula` with `energy` and `slope`, written from the expression tree by
/// physics::to_source), and the entries `custom_pair_list` and `custom_pair_all` instantiate it.
/// It therefore includes nothing: NVRTC has no standard library.
///
/// Per pair, as physics::Truncated wraps the CPU's evaluator: with F = -dV/dr,
///     cut / energy shift:  V_c = V(r) - shift,             F_c = F(r)
///     force shift:         V_c = V(r) - shift + r F(r_c),   F_c = F(r) - F(r_c)
/// (shift = V(r_c), or V(r_c) + r_c F(r_c) with the force shift) for r < r_c, else 0.
/// Sums over one target's sources in the pair type, lane by lane in a fixed order, combined by a
/// butterfly of shuffles and stored in FP64, as neighbors/target_lanes_cuda.cuh does: no atomics,
/// bitwise reproducible.

namespace novamd::forces::custom {

/// A particle as neighbors::PairPosition<T> packs it.
template <class T>
struct alignas(4 * sizeof(T)) Position {
  T x, y, z;
  int type;
};

/// An orthorhombic box as core::BoxView<T> holds it.
template <class T>
struct Box {
  T length[3];
  T inverse_length[3];
};

/// Per-particle results (neighbors::ForceOutputView's force, energy and virial arrays).
struct Output {
  double *fx, *fy, *fz, *energy;
  double* virial[6];  ///< xx yy zz xy xz yz (core::SymmetricTensor's order)
};

/// The Verlet lists as neighbors::NeighborListView holds them: lane l of target i (thread
/// t = i G + l) reads its entries in int4 groups at (k row_stride + t), count[t] of them.
struct List {
  const int* entries;
  const int* count;
  int lanes;
  unsigned long long row_stride;
  const unsigned long long* stale_word;  ///< the pairs go again over a fresh list where
  unsigned long long stale_epoch;        ///< *stale_word == stale_epoch (null: never)
};

/// Each species pair (a, b) at params + (a num_types + b) stride: the formula's slots
/// (`parameters` of them: its parameters and its parts without r), then r_c^2, the energy shift
/// and F(r_c) (0 without force shift).
template <class T>
struct Pairs {
  const T* params;
  int num_types;
  int stride;
  int parameters;
  int force_shift;
};

/// Output flags: energy and virial too; add to the output instead of writing it.
struct Mode {
  int with_energy;
  int accumulate;
};

/// x^n by squaring, for a formula's powers with a constant integer exponent (physics::to_source
/// writes them so): the products of the host's program (physics/expression.cpp), in its order.
template <class T>
__device__ inline T integer_power(T x, int n) {
  T result = 1;
  for (unsigned m = n < 0 ? -n : n; m != 0; m >>= 1) {
    if (m & 1u) result *= x;
    x *= x;
  }
  return n < 0 ? T(1) / result : result;
}

/// d - L round(d / L), as core::BoxView<T>::nearest_image computes it on the device.
template <class T>
__device__ inline T nearest_image(T d, T l, T inverse_l) {
  const T magic = sizeof(T) == 4 ? T(12582912.0f) : T(6755399441055744.0);
  return fma(-l, fma(d, inverse_l, magic) - magic, d);
}

template <class T>
struct Sums {
  T fx = 0, fy = 0, fz = 0, energy = 0;
  T virial[6] = {0, 0, 0, 0, 0, 0};

  /// The pair (target, source); `params`: the table (pairs.params or its copy in shared
  /// memory). The energy only where asked: the formula's energy costs as much as its slope.
  template <class Formula>
  __device__ void add(const Position<T>& target, const Position<T>& source, const Box<T>& box,
                      const Pairs<T>& pairs, const T* params, bool with_energy) {
    const T dx = nearest_image(target.x - source.x, box.length[0], box.inverse_length[0]);
    const T dy = nearest_image(target.y - source.y, box.length[1], box.inverse_length[1]);
    const T dz = nearest_image(target.z - source.z, box.length[2], box.inverse_length[2]);
    const T r2 = dx * dx + dy * dy + dz * dz;
    const T* q = params + (target.type * pairs.num_types + source.type) * pairs.stride;
    const int m = pairs.parameters;
    const T r = sqrt(r2);
    T force = -Formula::slope(r, q);
    if (pairs.force_shift) force -= q[m + 2];
    const bool inside = r2 < q[m];
    const T force_over_r = inside ? force / r : T(0);
    fx = fma(force_over_r, dx, fx);
    fy = fma(force_over_r, dy, fy);
    fz = fma(force_over_r, dz, fz);
    if (with_energy) {
      T v = Formula::energy(r, q);
      if (pairs.force_shift) v += r * q[m + 2];
      energy += inside ? v - q[m + 1] : T(0);
      const T sx = force_over_r * dx, sy = force_over_r * dy, sz = force_over_r * dz;
      virial[0] += sx * dx;
      virial[1] += sy * dy;
      virial[2] += sz * dz;
      virial[3] += sx * dy;
      virial[4] += sx * dz;
      virial[5] += sy * dz;
    }
  }

  /// Every lane of each aligned group of `lanes` ends with the group's total; all 32 lanes of
  /// the warp call it.
  __device__ void combine_lanes(int lanes, bool with_energy) {
    for (int offset = lanes / 2; offset > 0; offset /= 2) {
      fx += __shfl_xor_sync(0xffffffffu, fx, offset);
      fy += __shfl_xor_sync(0xffffffffu, fy, offset);
      fz += __shfl_xor_sync(0xffffffffu, fz, offset);
      if (with_energy) {
        energy += __shfl_xor_sync(0xffffffffu, energy, offset);
        for (int k = 0; k < 6; ++k) virial[k] += __shfl_xor_sync(0xffffffffu, virial[k], offset);
      }
    }
  }

  /// The force of particle i, and half of its pairs' energy and virial (each pair is met from
  /// both ends).
  __device__ void store(const Output& out, int i, const Mode& mode) const {
    const auto put = [&](double& to, double value) { to = mode.accumulate ? to + value : value; };
    put(out.fx[i], fx);
    put(out.fy[i], fy);
    put(out.fz[i], fz);
    if (mode.with_energy) {
      put(out.energy[i], 0.5 * double(energy));
      for (int k = 0; k < 6; ++k) put(out.virial[k][i], 0.5 * double(virial[k]));
    }
  }
};

/// The most table entries (species pairs x stride) copied to shared memory; a larger table is
/// read where it lies. The launch gives the block this much dynamic shared memory.
constexpr int kSharedTableEntries = 2048;

/// The table in shared memory where it fits (every thread of the block calls it).
template <class T>
__device__ const T* table_in_shared(const Pairs<T>& pairs) {
  extern __shared__ unsigned char shared_bytes[];
  const int entries = pairs.num_types * pairs.num_types * pairs.stride;
  if (entries > kSharedTableEntries) return pairs.params;
  T* copy = reinterpret_cast<T*>(shared_bytes);
  for (int k = threadIdx.x; k < entries; k += blockDim.x) copy[k] = pairs.params[k];
  __syncthreads();
  return copy;
}

/// The pairs of every target over its Verlet list, G = list.lanes lanes per target; four
/// entries (one 16-byte load) and their sources' positions are loaded before any of the four
/// pairs is summed, so that a lane keeps four gathers in flight (as the built-in terms' list
/// kernel, neighbors/neighbor_list_force_cuda.cuh).
template <class Formula, class T>
__device__ void list_forces(const Position<T>* __restrict__ pos, int n, Box<T> box, Pairs<T> pairs,
                            List list, Output out, Mode mode) {
  if (list.stale_word != nullptr && *list.stale_word == list.stale_epoch) return;
  const T* params = table_in_shared(pairs);
  const int thread = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = thread / list.lanes;
  const int lane = thread % list.lanes;
  Sums<T> sums;
  if (i < n) {
    const Position<T> target = pos[i];
    const int count = list.count[thread];
    const int4* group = reinterpret_cast<const int4*>(list.entries) + thread;
    for (int k = 0; k < count; k += 4, group += list.row_stride) {
      const int4 four = __ldg(group);
      const int left = count - k;  // entries past the count are stale: the first stands in
      const int j[4] = {four.x, left > 1 ? four.y : four.x, left > 2 ? four.z : four.x,
                        left > 3 ? four.w : four.x};
      Position<T> source[4];
      for (int e = 0; e < 4; ++e) source[e] = pos[j[e]];
      for (int e = 0; e < 4; ++e)
        if (e < left)
          sums.template add<Formula>(target, source[e], box, pairs, params, mode.with_energy);
    }
  }
  sums.combine_lanes(list.lanes, mode.with_energy);
  if (i < n && lane == 0) sums.store(out, i, mode);
}

/// Every pair under the minimum image (no cutoff, or a box too small for the lists' cells):
/// one thread per target, its sources in index order.
template <class Formula, class T>
__device__ void all_pair_forces(const Position<T>* __restrict__ pos, int n, Box<T> box,
                                Pairs<T> pairs, Output out, Mode mode) {
  const T* params = table_in_shared(pairs);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Position<T> target = pos[i];
  Sums<T> sums;
  for (int j = 0; j < n; ++j)
    if (j != i) sums.template add<Formula>(target, pos[j], box, pairs, params, mode.with_energy);
  sums.store(out, i, mode);
}

}  // namespace novamd::forces::custom
