#pragma once
// Molecules with every kind of bonded term, the bonded families with two term types each, and a
// direct sum over the terms written out with the evaluators: what the CPU and CUDA bonded tests
// share.

#include <cmath>
#include <cstdint>
#include <numbers>
#include <variant>
#include <vector>

#include "novamd/backend/backend.hpp"
#include "novamd/core/box.hpp"
#include "novamd/core/topology.hpp"
#include "novamd/core/vec3.hpp"
#include "novamd/forces/bonded_settings.hpp"

namespace novamd::test {

/// Adds to the bonds of `chains` chains of `length` particles (ids in chain order, as
/// random_chains makes them) the angles and dihedrals along each chain (types alternating 0 and
/// 1) and one improper per chain, (1, 0, 2, 3) of the chain (particle 1 central; type alternating
/// by chain).
inline void add_angles_and_torsions(core::Topology& topology, int chains, int length) {
  for (int c = 0; c < chains; ++c) {
    const std::int32_t first = c * length;
    for (int a = 1; a + 1 < length; ++a)
      topology.add_angle({a % 2, {first + a - 1, first + a, first + a + 1}});
    for (int a = 1; a + 2 < length; ++a)
      topology.add_dihedral({a % 2, {first + a - 1, first + a, first + a + 1, first + a + 2}});
    if (length >= 4) topology.add_improper({c % 2, {first + 1, first, first + 2, first + 3}});
  }
}

/// The periodic term list of `terms` cosines (K, n, d in radians).
inline physics::PeriodicDihedral::Params cosines(std::initializer_list<double> k,
                                                 std::initializer_list<int> n,
                                                 std::initializer_list<double> phase) {
  physics::PeriodicDihedral::Params p{};
  p.terms = static_cast<int>(k.size());
  const double* k_m = k.begin();
  const int* n_m = n.begin();
  const double* phase_m = phase.begin();
  for (int m = 0; m < p.terms; ++m) p.set(m, k_m[m], n_m[m], phase_m[m]);
  return p;
}

/// Each family other than the harmonic bond, with coefficients for term types 0 and 1.
inline std::vector<forces::BondedSettings> angle_and_torsion_families() {
  constexpr double pi = std::numbers::pi;
  return {
      forces::HarmonicAngleSettings{{{50.0, 1.9}, {40.0, 2.1}}},
      forces::CharmmAngleSettings{{{50.0, 1.9, 20.0, 2.0}, {40.0, 2.1, 15.0, 2.2}}},
      forces::PeriodicDihedralSettings{
          {cosines({1.4, 0.6, 0.25}, {3, 2, 1}, {pi / 6, pi, -0.4}), cosines({0.8}, {1}, {0.0})}},
      forces::OplsDihedralSettings{{{1.3, -0.5, 0.7, 0.2}, {0.4, 0.9, -0.3, 0.1}}},
      forces::HarmonicImproperSettings{{{30.0, 0.2}, {20.0, 0.0}}},
      forces::PeriodicImproperSettings{{cosines({2.5}, {2}, {pi}), cosines({1.1}, {3}, {0.4})}},
  };
}

/// Forces (by id), energy and virial of the bonded terms of `setup`, term by term with the
/// evaluators, and each particle's round-off scale.
struct BondedSum {
  std::vector<core::Vec3<double>> force;
  double energy = 0.0;
  double virial[3][3] = {};        ///< sum over terms and particles of r_a (x) f_a
  std::vector<double> magnitudes;  ///< per id: sum over its terms of every |f_a| component
};

/// The direct sum over every term of `families` for `positions` (by id). With `box`, a term's
/// particles are its first one's nearest images; without, the positions are taken as they are
/// (an unwrapped molecule).
inline BondedSum bonded_direct_sum(const std::vector<forces::BondedSettings>& families,
                                   const core::Topology& topology,
                                   const std::vector<core::Vec3<double>>& positions,
                                   const core::Box* box) {
  BondedSum out;
  out.force.assign(positions.size(), {});
  out.magnitudes.assign(positions.size(), 0.0);
  for (const auto& family : families) {
    std::visit(
        [&](const auto& s) {
          using Evaluator = typename std::decay_t<decltype(s)>::Evaluator;
          constexpr int K = Evaluator::kParticles;
          const auto& terms = s.terms_of(topology);
          for (std::size_t t = 0; t < terms.size(); ++t) {
            core::Vec3<double> r[K];
            const auto origin = positions[terms.ids[K * t]];
            for (int a = 1; a < K; ++a) {
              const auto d = positions[terms.ids[K * t + a]] - origin;
              r[a] = box ? box->view<double>().minimum_image(d) : d;
            }
            const auto term = Evaluator::evaluate(r, s.types[terms.type[t]]);
            out.energy += term.energy;
            double size = 0.0;
            for (int a = 0; a < K; ++a) {
              const auto& f = term.force[a];
              size += std::abs(f.x) + std::abs(f.y) + std::abs(f.z);
              out.force[terms.ids[K * t + a]] += f;
              const double ra[3] = {r[a].x, r[a].y, r[a].z}, fa[3] = {f.x, f.y, f.z};
              for (int u = 0; u < 3; ++u)
                for (int v = 0; v < 3; ++v) out.virial[u][v] += ra[u] * fa[v];
            }
            for (int a = 0; a < K; ++a) out.magnitudes[terms.ids[K * t + a]] += size;
          }
        },
        family);
  }
  return out;
}

}  // namespace novamd::test
