#pragma once
/// @file pair_result.hpp
/// What a pair evaluator returns for one pair at squared distance r^2.

namespace novamd::physics {

/// force_over_r = -(dV/dr) / r, so that the force on i from j is force_over_r * (r_i - r_j)
/// and the pair's virial r_ij . f_ij is force_over_r * r^2.
template <class T>
struct PairResult {
  T force_over_r;
  T energy;
};

}  // namespace novamd::physics
