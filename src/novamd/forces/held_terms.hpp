#pragma once
/// @file held_terms.hpp
/// Bonded terms that constraints make constant, left out of the force evaluation.
///
/// A term of two or three particles whose every distance is held (a constrained bond; the
/// Ewald correction of a constrained pair; the angle of a rigid water, whose three sides are
/// held) acts within a rigid body: its forces have no net force or torque, so they lie in the
/// span of the constraint forces of those distances. SHAKE, RATTLE and SETTLE solve for
/// multipliers along exactly those directions (at the positions where the forces are computed),
/// so such a term's forces change the multipliers and nothing else: positions and velocities
/// come out the same, and so does the virial, the constraint virial taking the term's share.
/// Its energy is a constant, the term at the held geometry. OpenMM's and GROMACS's topologies
/// drop these terms outright (OpenMM's flexibleConstraints = False, the default); NovaMD leaves
/// out their evaluation but keeps the constant in the family's thermo column, so that energies
/// read the same with and without the saving.
///
/// Terms of four particles stay evaluated (their energy may depend on chirality, which
/// distances do not give).

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <variant>
#include <vector>

#include "novamd/core/held_distances.hpp"
#include "novamd/core/topology.hpp"
#include "novamd/core/vec3.hpp"
#include "novamd/forces/bonded_settings.hpp"

namespace novamd::forces {

/// A family's terms split by the constraints.
template <int K>
struct HeldSplit {
  core::TermList<K> evaluated;      ///< the terms still evaluated, in their order
  std::vector<double> held_energy;  ///< by particle id: 1/K of each held term's energy; empty
                                    ///< when no term is held
  std::size_t held = 0;             ///< terms left out
};

namespace detail {

/// The positions of a term's particles relative to its particle 0 at the held geometry, or false
/// where some distance among them is not held (or K > 3).
template <int K>
bool held_geometry(const core::TermList<K>& terms, std::size_t t, const core::HeldDistances& held,
                   core::Vec3<double> (&r)[K]) {
  if constexpr (K == 2) {
    const auto d = held.length(terms.ids[2 * t], terms.ids[2 * t + 1]);
    if (!d) return false;
    r[0] = {};
    r[1] = {*d, 0.0, 0.0};
    return true;
  } else if constexpr (K == 3) {
    const std::int32_t* id = &terms.ids[3 * t];
    const auto d01 = held.length(id[0], id[1]), d02 = held.length(id[0], id[2]),
               d12 = held.length(id[1], id[2]);
    if (!d01 || !d02 || !d12) return false;
    // Particle 2 in the plane z = 0, at d02 from particle 0 and d12 from particle 1.
    const double x = (*d01 * *d01 + *d02 * *d02 - *d12 * *d12) / (2.0 * *d01);
    r[0] = {};
    r[1] = {*d01, 0.0, 0.0};
    r[2] = {x, std::sqrt(std::fmax(0.0, *d02 * *d02 - x * x)), 0.0};
    return true;
  } else {
    return false;
  }
}

}  // namespace detail

/// `terms` split into those still evaluated and the held ones' energy (Evaluator at the held
/// geometry, physics/bonded_result.hpp), for ids 0..particle_count-1. No `held` (or an empty
/// one): every term is evaluated.
template <class Evaluator>
HeldSplit<Evaluator::kParticles> split_held_terms(
    const core::TermList<Evaluator::kParticles>& terms,
    const std::vector<typename Evaluator::Params>& params, const core::HeldDistances* held,
    std::int32_t particle_count) {
  constexpr int K = Evaluator::kParticles;
  HeldSplit<K> split;
  if (held == nullptr || held->empty()) {
    split.evaluated = terms;
    return split;
  }
  for (std::size_t t = 0; t < terms.size(); ++t) {
    core::Vec3<double> r[K];
    if (!detail::held_geometry(terms, t, *held, r)) {
      split.evaluated.type.push_back(terms.type[t]);
      for (int a = 0; a < K; ++a) split.evaluated.ids.push_back(terms.ids[K * t + a]);
      continue;
    }
    if (split.held_energy.empty()) split.held_energy.assign(std::size_t(particle_count), 0.0);
    const double energy = Evaluator::evaluate(r, params[std::size_t(terms.type[t])]).energy;
    for (int a = 0; a < K; ++a) split.held_energy[std::size_t(terms.ids[K * t + a])] += energy / K;
    ++split.held;
  }
  return split;
}

/// How many terms of `families` over `topology` are held (left out), for the run's header: the
/// terms split_held_terms leaves out, counted without evaluating them.
inline std::size_t held_term_count(const std::vector<BondedSettings>& families,
                                   const core::Topology& topology,
                                   const core::HeldDistances& held) {
  std::size_t count = 0;
  for (const auto& family : families)
    std::visit(
        [&](const auto& s) {
          const auto& terms = s.terms_of(topology);
          constexpr int K = std::decay_t<decltype(terms)>::kArity;
          for (std::size_t t = 0; t < terms.size(); ++t) {
            core::Vec3<double> r[K];
            if (detail::held_geometry(terms, t, held, r)) ++count;
          }
        },
        family);
  return count;
}

}  // namespace novamd::forces
