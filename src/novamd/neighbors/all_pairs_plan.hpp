#pragma once
/// @file all_pairs_plan.hpp
/// Which all-pairs GPU kernel runs for N particles, and how many pair evaluations it makes:
/// plain C++, shared by the kernels' launchers and by `novamd bench`.

namespace novamd::neighbors {

inline constexpr int kHalfTargetTile = 128;  ///< targets per warp in the half kernel

/// Range length R of the each-pair-once (half) kernel for n particles: the longest of 512, 256
/// or 128 that still gives every multiprocessor 16 blocks. 0 when even R = 128 gives fewer than
/// 4 blocks per multiprocessor: then the chunked full-matrix kernel fills the GPU better.
inline int half_kernel_range(int n, int multiprocessors) {
  const auto blocks = [n](int r) {
    const long g = (n + r - 1) / r;
    return g * (g + 1) / 2;
  };
  int r = 512;
  while (r > kHalfTargetTile && blocks(r) < 16L * multiprocessors) r /= 2;
  return blocks(r) < 4L * multiprocessors ? 0 : r;
}

/// Pair evaluations per force evaluation: N(N-1) for the full matrix; for the half kernel each
/// pair once, plus the diagonal blocks, which take their pairs from both sides.
inline double pair_evaluations(int n, int range) {
  const double nn = n;
  if (range == 0) return nn * (nn - 1);
  const double groups = (n + range - 1) / range;
  return 0.5 * nn * (nn - 1) + 0.5 * groups * range * (range - 1);
}

}  // namespace novamd::neighbors
