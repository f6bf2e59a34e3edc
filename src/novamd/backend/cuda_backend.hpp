#pragma once
/// @file cuda_backend.hpp
/// The CUDA backend: particle data resident on the device for the whole run; integration,
/// forces and reductions are kernels; the host receives a few scalars at thermo steps and the
/// particle arrays only for output.

#include <memory>

#include "novamd/backend/backend.hpp"

namespace novamd::backend {

/// Builds the CUDA backend on device 0 (defined only where CUDA is compiled in).
std::unique_ptr<Backend> make_cuda_backend(BackendSetup setup);

}  // namespace novamd::backend
