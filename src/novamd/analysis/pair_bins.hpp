#pragma once
/// @file pair_bins.hpp
/// The histogram of pair distances behind g(r), written once for the CPU and CUDA pair counts:
/// the bin of a pair at its nearest periodic image, and the index of a species pair.

#include <cmath>

#include "novamd/core/box.hpp"
#include "novamd/core/host_device.hpp"
#include "novamd/core/vec3.hpp"

namespace novamd::analysis {

/// Unordered species pairs of `species` species: (0,0), (0,1), ..., (0,S-1), (1,1), ...
NOVAMD_HD int species_pairs(int species) {
  return species * (species + 1) / 2;
}

/// The index of the unordered pair {a, b} in that order.
NOVAMD_HD int species_pair_index(int a, int b, int species) {
  if (a > b) {
    const int t = a;
    a = b;
    b = t;
  }
  return a * species - a * (a - 1) / 2 + (b - a);
}

/// `bins` equal bins of distance over [0, r_max).
struct DistanceBins {
  double r_max = 0.0;
  int bins = 1;

  NOVAMD_HD double width() const { return r_max / bins; }

  /// The bin of the pair (r_i, r_j) at its nearest image, or -1 at r >= r_max.
  NOVAMD_HD int bin_of(const core::BoxView<double>& box, const core::Vec3<double>& ri,
                       const core::Vec3<double>& rj) const {
    const core::Vec3<double> d = box.minimum_image(ri - rj);
    const double r = sqrt(dot(d, d));
    if (!(r < r_max)) return -1;
    const int bin = static_cast<int>(r * (bins / r_max));
    return bin < bins ? bin : bins - 1;  // r a rounding below r_max
  }
};

}  // namespace novamd::analysis
