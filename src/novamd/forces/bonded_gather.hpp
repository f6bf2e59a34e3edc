#pragma once
/// @file bonded_gather.hpp
/// One particle's share of a list of bonded terms, written once for host and device: the loop
/// body of the CPU's OpenMP loop and of the CUDA kernel (forces/cpu_bonded_force.cpp,
/// forces/cuda_bonded_force.cu).
///
/// Each particle reads its own row of the term memberships (core::TermMemberships), evaluates
/// each of its terms in full (the evaluator of physics/bonded_result.hpp, in double) and keeps
/// the force on itself, 1/K of the term's energy and 1/K of its virial sum_a r_a (x) f_a. A term
/// is evaluated the same way each time (positions relative to the term's particle 0): no
/// atomics, a fixed order, results independent of threads and storage order. The GPU's steps
/// without energy evaluate each term once instead (term_forces, a thread per term) and then sum
/// each particle's row of the stored term forces in the same order.

#include <cstdint>

#include "novamd/core/box.hpp"
#include "novamd/core/host_device.hpp"
#include "novamd/core/tensor.hpp"
#include "novamd/core/topology.hpp"
#include "novamd/core/vec3.hpp"
#include "novamd/physics/bonded_result.hpp"

namespace novamd::forces {

/// A particle's share of the terms it belongs to.
struct BondedShare {
  core::Vec3<double> force;
  double energy = 0.0;
  core::SymmetricTensor<double> virial;
};

/// Pointers to the terms (host or device memory) and to the particles, in storage order.
template <class Evaluator>
struct BondedGather {
  static constexpr int K = Evaluator::kParticles;

  core::TermListView<K> terms;
  const typename Evaluator::Params* params;  ///< per term type
  const std::int32_t* row_offsets;           ///< TermMemberships, by particle id
  const std::int32_t* row_entries;
  const double *x, *y, *z;
  const std::int32_t* id;           ///< particle id of each storage index
  const std::int32_t* index_of_id;  ///< storage index of each id
  core::BoxView<double> box;

  /// Term t evaluated, its particles' positions relative to its particle 0 left in r (r[0] is
  /// not written: zero).
  NOVAMD_HD physics::BondedResult<K> term(std::int32_t t, core::Vec3<double> (&r)[K]) const {
    const std::int32_t first = index_of_id[terms.id(t, 0)];
    for (int a = 1; a < K; ++a) {
      const std::int32_t j = index_of_id[terms.id(t, a)];
      r[a] = box.minimum_image({x[j] - x[first], y[j] - y[first], z[j] - z[first]});
    }
    return Evaluator::evaluate(r, params[terms.type[t]]);
  }

  /// The forces of term t on its K particles, to[t K + a] for particle a: the entries its
  /// particles' membership rows name.
  NOVAMD_HD void term_forces(std::int32_t t, core::Vec3<double>* to) const {
    core::Vec3<double> r[K];
    const physics::BondedResult<K> result = term(t, r);
    for (int a = 0; a < K; ++a) to[std::size_t(t) * K + a] = result.force[a];
  }

  /// Particle i's share; energy and virial only when WithEnergy.
  template <bool WithEnergy>
  NOVAMD_HD BondedShare share(int i) const {
    BondedShare out;
    const std::int32_t self = id[i];
    for (std::int32_t k = row_offsets[self]; k < row_offsets[self + 1]; ++k) {
      const std::int32_t t = row_entries[k] / K, slot = row_entries[k] % K;
      core::Vec3<double> r[K];
      const physics::BondedResult<K> term = this->term(t, r);
      out.force += term.force[slot];
      if constexpr (WithEnergy) {
        out.energy += term.energy / K;
        core::SymmetricTensor<double> w;
        for (int a = 1; a < K; ++a)  // r[0] = 0
          w.add_symmetrized_outer(r[a].x, r[a].y, r[a].z, term.force[a].x, term.force[a].y,
                                  term.force[a].z);
        w *= 1.0 / K;
        out.virial += w;
      }
    }
    return out;
  }
};

}  // namespace novamd::forces
