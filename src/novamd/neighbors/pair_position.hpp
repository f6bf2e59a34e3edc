#pragma once
/// @file pair_position.hpp
/// A particle as the pair kernels read it: position in the pair arithmetic type and species type,
/// packed so that one 16-byte (float) or 32-byte (double) load fetches it.

#include <cstdint>

namespace novamd::neighbors {

template <class T>
struct alignas(4 * sizeof(T)) PairPosition {
  T x, y, z;
  std::int32_t type;
};

}  // namespace novamd::neighbors
