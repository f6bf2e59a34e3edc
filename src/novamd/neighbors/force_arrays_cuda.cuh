#pragma once
/// @file force_arrays_cuda.cuh
/// Device arrays of per-particle force results (neighbors/force_output.hpp's layout): the
/// traversals' partial sums, and the output of a force term where no backend provides one
/// (tests).

#include <array>
#include <cstddef>

#include "novamd/core/device_buffer.cuh"
#include "novamd/core/tensor.hpp"
#include "novamd/neighbors/force_output.hpp"

namespace novamd::neighbors {

template <class T>
struct DeviceForceArrays {
  core::DeviceBuffer<T> fx, fy, fz, energy;
  std::array<core::DeviceBuffer<T>, core::kTensorComponents> virial;

  /// Every array of `size` entries (contents undefined where grown).
  void resize(std::size_t size) {
    for (auto* b : {&fx, &fy, &fz, &energy}) b->resize(size);
    for (auto& b : virial) b.resize(size);
  }
  ForceArraysView<T> view() {
    ForceArraysView<T> v{fx.data(), fy.data(), fz.data(), energy.data(), {}};
    for (int k = 0; k < core::kTensorComponents; ++k) v.virial[k] = virial[k].data();
    return v;
  }
  std::size_t bytes() const { return fx.bytes() * (4 + core::kTensorComponents); }
};

}  // namespace novamd::neighbors
