#pragma once
/// @file cuda_kspace_term.cuh
/// The Coulomb term of methods `ewald` and `pme` on the GPU: the real-space pair term (the
/// CUDA traversal of physics::EwaldReal), then the reciprocal sum, the self energy and the
/// neutralising background (physics/ewald.hpp, physics/pme.hpp).
///
/// ewald (double at every precision): one block per wave vector sums its structure factor over
/// the particles in a fixed order; one thread per particle sums its force over the wave vectors.
/// pme: one thread per particle and stencil z-offset spreads its charge in 64-bit fixed point
/// (integer atomics, whose sums do not depend on their order: 2^-40 e resolution, up to 2^23 e on
/// a grid point), cuFFT's transforms, four blocks per grid plane multiply the spectrum by G(m)
/// and sum their virial in a fixed order, one thread per particle interpolates its force. The
/// mesh (B-spline weights, grid, spectrum, interpolation) is double at double precision and
/// FP32 under mixed and single, where the pairs are FP32 too (as OpenMM's mixed precision); the
/// influence function, the energy and the virial are double at every precision. Kernels are
/// compiled for each order (4 to 6): the stencil loops unroll.
/// Every sum runs in a fixed order: a run repeats bit for bit on the same GPU.
/// Declared here, compiled once in forces/cuda_kspace_term.cu for each precision.

#include <memory>
#include <vector>

#include "novamd/core/units.hpp"
#include "novamd/forces/cuda_force_term.cuh"
#include "novamd/forces/force_settings.hpp"

namespace novamd::forces {

/// `real_space` (or null: the reciprocal sum, self energy and background alone; the positions
/// and charges read from CudaForceInput::fields) wrapped with the reciprocal sum of `settings`
/// (method ewald or pme, resolved: kspace_parameters.hpp) for particles with `charges` (storage
/// order at construction; only their sum and squares are kept, which reordering leaves unchanged).
template <core::Precision P>
std::unique_ptr<CudaForceTerm<PairTypeOf<P>>> make_cuda_kspace_term(
    std::unique_ptr<CudaForceTerm<PairTypeOf<P>>> real_space, const CoulombSettings& settings,
    const core::UnitSystem& units, const std::vector<double>& charges);

}  // namespace novamd::forces
