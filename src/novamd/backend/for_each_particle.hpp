#pragma once
/// @file for_each_particle.hpp
/// The CPU backend's loop over particles: calls f(i) for i in [begin, end) on OpenMP threads
/// (from kMinParallelParticles on). The CUDA backend's twin is for_each_particle_cuda.cuh;
/// both run the same functors (integrate/particle_updates.hpp).

#include <cstddef>

namespace novamd::backend {

/// Below this count a per-particle loop is faster on one thread than the cost of a parallel
/// region (results are the same either way: each particle is updated on its own).
inline constexpr std::ptrdiff_t kMinParallelParticles = 8192;

template <class F>
void for_each_particle(std::ptrdiff_t begin, std::ptrdiff_t end, const F& f) {
#pragma omp parallel for schedule(static) if (end - begin >= kMinParallelParticles)
  for (std::ptrdiff_t i = begin; i < end; ++i) f(static_cast<int>(i));
}

}  // namespace novamd::backend
