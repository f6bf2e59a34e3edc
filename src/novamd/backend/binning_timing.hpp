#pragma once
/// @file binning_timing.hpp
/// The GPU's cell binning (neighbors/cell_bins_cuda.cuh) timed phase by phase, for `novamd bench
/// --case ornl`: seed 002 reports the binning's assign, count and gather apart.

#include <optional>
#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/core/precision.hpp"
#include "novamd/core/vec3.hpp"

namespace novamd::backend {

/// Seconds per binning in each phase, one sample per repeat: the cell of each particle (assign),
/// the stable sort of the particles by cell (count: a radix sort's histograms and scatter), each
/// cell's range of the sorted order (gather).
struct BinningTimes {
  std::vector<double> assign, sort, ranges;
};

/// Each phase of binning `positions` into cells of at least `min_size` in `box`, positions in
/// the pair type of `precision`, timed on the GPU (events around `calls` calls, 5 repeats).
/// Nothing where CUDA is not compiled in or no device is present.
std::optional<BinningTimes> time_cell_binning(const std::vector<core::Vec3<double>>& positions,
                                              const core::Box& box, double min_size,
                                              core::Precision precision, int calls);

}  // namespace novamd::backend
