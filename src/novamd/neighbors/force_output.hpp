#pragma once
/// @file force_output.hpp
/// Where a CUDA traversal writes its results, and how: plain structs, shared by the force-term
/// interface (forces/cuda_force_term.cuh) and the kernels (neighbors/*_cuda.cuh).

namespace novamd::neighbors {

/// Where the traversal adds its results: per-particle force, energy share and virial share
/// (device memory, storage order).
struct ForceOutputView {
  double *fx, *fy, *fz, *energy, *virial;
};

/// How a traversal writes its results.
struct OutputMode {
  bool accumulate;   ///< add to the output (false: overwrite it; the first force term)
  bool with_energy;  ///< also energy and virial
};

}  // namespace novamd::neighbors
