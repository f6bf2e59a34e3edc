#pragma once
/// @file pair_block.hpp
/// A block of the force matrix: the targets whose forces a traversal computes and the sources
/// it applies to them (parallel::Domain::pair_block deals the blocks out to ranks). The whole
/// matrix, every particle against every other, is the block of one rank.

#include <cstddef>

namespace novamd::neighbors {

struct PairBlock {
  std::ptrdiff_t target_begin = 0, target_end = 0;
  std::ptrdiff_t source_begin = 0, source_end = 0;

  static PairBlock whole(std::ptrdiff_t n) { return {0, n, 0, n}; }
  bool is_whole(std::ptrdiff_t n) const {
    return target_begin == 0 && target_end == n && source_begin == 0 && source_end == n;
  }
};

}  // namespace novamd::neighbors
