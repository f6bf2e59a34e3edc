#pragma once
/// @file cuda_bonded_force.cuh
/// The CUDA force term of a run's bonded families, in double at every precision
/// (bonded_gather.hpp, the same evaluation as the CPU's). Each term is evaluated once (a thread
/// per term of every family, in one kernel) and stores its forces; eight threads per particle
/// then sum the forces its terms store, in a fixed order, without atomics, so that each step
/// repeats bit for bit. Energy steps take their forces from the same two kernels and add each
/// family's energy and virial apart (the term's parts, a thread per particle gathering its share
/// of the family's terms), so that each family's energy reaches its thermo column and the forces
/// do not depend on whether a step computes energies.
/// Declared here, compiled once in forces/cuda_bonded_force.cu for each precision.

#include <memory>
#include <vector>

#include "novamd/core/held_distances.hpp"
#include "novamd/core/topology.hpp"
#include "novamd/forces/bonded_settings.hpp"
#include "novamd/forces/cuda_force_term.cuh"

namespace novamd::forces {

/// One term for all of `families` (in their order: part k is families[k]), over the terms of
/// `topology` (terms, coefficients and memberships copied to the device), less those whose
/// distances `held` holds (held_terms.hpp: their constant energy is counted, their forces not).
/// Throws core::InputError where a term's type has no coefficients.
template <core::Precision P>
std::unique_ptr<CudaForceTerm<PairTypeOf<P>>> make_cuda_bonded_terms(
    const std::vector<BondedSettings>& families, const core::Topology& topology,
    const core::HeldDistances* held = nullptr);

}  // namespace novamd::forces
