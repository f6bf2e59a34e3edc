#pragma once
/// @file cuda_bonded_force.cuh
/// The CUDA force term of a run's bonded families: one thread per particle gathers its share of
/// its terms (bonded_gather.hpp, the same loop body as the CPU's), in double at every precision.
/// Steps without energy evaluate every family in one kernel (a thread per particle and family,
/// the families' forces added in order from shared memory); energy steps evaluate the families
/// one by one (the term's parts), so that each family's energy reaches its thermo column. Both
/// paths add the families' forces in the same order; each repeats bit for bit, and they agree
/// with each other to round-off (two kernels, whose multiply-adds the compiler may contract
/// differently).
/// Declared here, compiled once in forces/cuda_bonded_force.cu for each precision.

#include <memory>
#include <vector>

#include "novamd/core/topology.hpp"
#include "novamd/forces/bonded_settings.hpp"
#include "novamd/forces/cuda_force_term.cuh"

namespace novamd::forces {

/// One term for all of `families` (in their order: part k is families[k]), over the terms of
/// `topology` (coefficients and memberships copied to the device). Throws core::InputError where
/// a term's type has no coefficients.
template <core::Precision P>
std::unique_ptr<CudaForceTerm<PairTypeOf<P>>> make_cuda_bonded_terms(
    const std::vector<BondedSettings>& families, const core::Topology& topology);

}  // namespace novamd::forces
