#pragma once
/// @file cuda_bonded_force.cuh
/// The CUDA force term of a run's bonded families, in double at every precision
/// (bonded_gather.hpp, the same evaluation as the CPU's). Steps without energy evaluate each term
/// once (a thread per term of every family, in one kernel) and store its forces; a thread per
/// particle then sums its rows of them, family by family. Energy steps evaluate the families one
/// by one (the term's parts), a thread per particle gathering its share of its terms, so that
/// each family's energy reaches its thermo column. Both add the same term forces in the same
/// order, without atomics: the forces do not depend on whether a step computes energies, and
/// each repeats bit for bit.
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
