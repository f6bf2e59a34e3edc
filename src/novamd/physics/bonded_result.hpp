#pragma once
/// @file bonded_result.hpp
/// What a bonded evaluator (a term of K = 2 to 4 particles: bond, angle, dihedral, improper)
/// returns: the force on each of its particles and the term's energy.
///
/// A bonded evaluator is a struct with `kParticles` (K), `Params` and
///     NOVAMD_HD static BondedResult<K> evaluate(const core::Vec3<double> (&r)[K], const Params&)
/// where r[a] is particle a's position relative to particle 0 (r[0] = 0; the others the nearest
/// images, so a term must span less than half the box). The forces sum to zero (translation
/// invariance) and exert no torque (rotation invariance): the term's virial sum_a r_a (x) f_a is
/// then symmetric.

#include "novamd/core/vec3.hpp"

namespace novamd::physics {

template <int K>
struct BondedResult {
  core::Vec3<double> force[K];  ///< on particle a, in the term's order
  double energy = 0.0;
};

}  // namespace novamd::physics
