#pragma once
/// @file cuda_bonded_force.cuh
/// The CUDA force term of a bonded family: one thread per particle gathers its share of its
/// terms (bonded_gather.hpp, the same loop body as the CPU's), in double at every precision.
/// Declared here, compiled once in forces/cuda_bonded_force.cu for each precision.

#include <memory>

#include "novamd/core/topology.hpp"
#include "novamd/forces/bonded_settings.hpp"
#include "novamd/forces/cuda_force_term.cuh"

namespace novamd::forces {

/// The term for `settings` over the terms of `topology` (copied to the device). Throws
/// core::InputError where a term's type has no coefficients.
template <core::Precision P>
std::unique_ptr<CudaForceTerm<PairTypeOf<P>>> make_cuda_bonded_force(
    const BondedSettings& settings, const core::Topology& topology);

}  // namespace novamd::forces
