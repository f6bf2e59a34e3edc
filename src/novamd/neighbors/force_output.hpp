#pragma once
/// @file force_output.hpp
/// Where a CUDA traversal writes its results, and how: plain structs, shared by the force-term
/// interface (forces/cuda_force_term.cuh) and the kernels (neighbors/*_cuda.cuh).

#include <cstddef>

#include "novamd/core/host_device.hpp"
#include "novamd/core/tensor.hpp"

namespace novamd::neighbors {

/// Per-particle results in device memory (storage order): force, energy share and the six
/// components of the virial-tensor share (core/tensor.hpp order), and the torque where the
/// particles are rigid molecules (null otherwise). T: double for the output, the accumulation
/// type for a traversal's partial sums.
template <class T>
struct ForceArraysView {
  T *fx, *fy, *fz, *energy;
  T* virial[core::kTensorComponents];
  T *tx = nullptr, *ty = nullptr, *tz = nullptr;

  /// The same arrays from entry `first` on.
  NOVAMD_HD ForceArraysView from(std::ptrdiff_t first) const {
    ForceArraysView v{fx + first, fy + first, fz + first, energy + first, {}};
    for (int k = 0; k < core::kTensorComponents; ++k) v.virial[k] = virial[k] + first;
    if (tx != nullptr) {
      v.tx = tx + first;
      v.ty = ty + first;
      v.tz = tz + first;
    }
    return v;
  }
};

/// Where the traversal adds its results.
using ForceOutputView = ForceArraysView<double>;

/// How a traversal writes its results.
struct OutputMode {
  bool accumulate;   ///< add to the output (false: overwrite it; the first force term)
  bool with_energy;  ///< also energy and virial tensor
};

}  // namespace novamd::neighbors
