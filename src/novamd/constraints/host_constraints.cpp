#include "novamd/constraints/host_constraints.hpp"

#include <fmt/format.h>

#include <cstddef>
#include <utility>

#include "novamd/constraints/cluster_constraints.hpp"
#include "novamd/constraints/settle.hpp"
#include "novamd/core/error.hpp"

namespace novamd::constraints {
namespace {

using core::Vec3;
using WaterCluster = ConstraintCluster<3, 3>;
using HydrogenShake = ConstraintCluster<5, 4>;

/// The three distances of a rigid water as a cluster (for the velocity condition).
WaterCluster water_cluster(const WaterGeometry& g, double w_o, double w_h) {
  WaterCluster c;
  c.particles = 3;
  c.constraints = 3;
  c.inverse_mass[0] = w_o;
  c.inverse_mass[1] = c.inverse_mass[2] = w_h;
  c.constraint[0] = {0, 1, g.d_oh};
  c.constraint[1] = {0, 2, g.d_oh};
  c.constraint[2] = {1, 2, g.d_hh};
  return c;
}

/// A heavy atom (particle 0) and its hydrogens as a cluster, masses by type.
template <class Members>
HydrogenShake hydrogen_cluster(const HydrogenCluster& c, const Members& m,
                               const core::ParticleData& p,
                               const std::vector<double>& inverse_mass_by_type) {
  HydrogenShake cluster;
  cluster.particles = m.count;
  cluster.constraints = c.count;
  for (int q = 0; q < m.count; ++q)
    cluster.inverse_mass[q] = inverse_mass_by_type[std::size_t(p.type[m.index[q]])];
  for (int h = 0; h < c.count; ++h) cluster.constraint[h] = {0, h + 1, c.length[h]};
  return cluster;
}

}  // namespace

HostConstraints::HostConstraints(ConstraintPlan plan, double tolerance)
    : plan_(std::move(plan)), tolerance_(tolerance) {}

void HostConstraints::locate(const core::ParticleData& p) {
  std::vector<std::int32_t> index_of(p.size(), -1);
  for (std::size_t i = 0; i < p.size(); ++i) index_of[std::size_t(p.id[i])] = std::int32_t(i);
  waters_.assign(plan_.waters.size(), {});
  for (std::size_t k = 0; k < plan_.waters.size(); ++k) {
    const auto& w = plan_.waters[k];
    waters_[k] = {3, {index_of[w.o], index_of[w.h1], index_of[w.h2]}};
  }
  clusters_.assign(plan_.clusters.size(), {});
  for (std::size_t k = 0; k < plan_.clusters.size(); ++k) {
    const auto& c = plan_.clusters[k];
    Members& m = clusters_[k];
    m.count = c.count + 1;
    m.index[0] = index_of[c.central];
    for (int h = 0; h < c.count; ++h) m.index[h + 1] = index_of[c.hydrogen[h]];
  }
}

void HostConstraints::positions(core::ParticleData& p, const std::vector<Vec3<double>>& before,
                                double dt, const core::BoxView<double>& box,
                                const std::vector<double>& inverse_mass_by_type,
                                bool correct_velocities) {
  const bool images = !p.image.x.empty();
  // Moves particle i by delta (wrapped again), and its velocity by delta / dt.
  const auto move = [&](std::int32_t i, const Vec3<double>& delta) {
    Vec3<std::int32_t> crossed = images ? p.image.get(i) : Vec3<std::int32_t>{0, 0, 0};
    p.position.set(i, box.wrap(p.position.get(i) + delta, crossed));
    if (images) p.image.set(i, crossed);
    if (correct_velocities) p.velocity.set(i, p.velocity.get(i) + (1.0 / dt) * delta);
  };
  // Positions of a group relative to its first particle (minimum image), now and before.
  const auto relative = [&](const Members& m, Vec3<double>* now, Vec3<double>* then) {
    const Vec3<double> ref = p.position.get(m.index[0]), ref0 = before[m.index[0]];
    for (int k = 0; k < m.count; ++k) {
      now[k] = box.minimum_image(p.position.get(m.index[k]) - ref);
      then[k] = box.minimum_image(before[m.index[k]] - ref0);
    }
  };

#pragma omp parallel for schedule(static)
  for (std::size_t k = 0; k < waters_.size(); ++k) {
    const Members& m = waters_[k];
    Vec3<double> now[3], then[3];
    relative(m, now, then);
    const Water solved = settle_positions({then[0], then[1], then[2]}, {now[0], now[1], now[2]},
                                          plan_.waters[k].geometry);
    move(m.index[0], solved.o - now[0]);
    move(m.index[1], solved.h1 - now[1]);
    move(m.index[2], solved.h2 - now[2]);
  }

  std::vector<ShakeResult> results(clusters_.size());
#pragma omp parallel for schedule(static)
  for (std::size_t k = 0; k < clusters_.size(); ++k) {
    const Members& m = clusters_[k];
    const HydrogenShake cluster = hydrogen_cluster(plan_.clusters[k], m, p, inverse_mass_by_type);
    Vec3<double> now[5], then[5], r[5];
    relative(m, now, then);
    for (int q = 0; q < m.count; ++q) r[q] = now[q];
    results[k] = shake_positions(cluster, then, r, tolerance_, kMaxShakeSweeps);
    for (int q = 0; q < m.count; ++q) move(m.index[q], r[q] - now[q]);
  }
  for (std::size_t k = 0; k < results.size(); ++k) {
    if (results[k].converged) continue;
    throw core::RunError(fmt::format(
        "constraints: SHAKE did not converge in {} sweeps for the hydrogens of particle {} (id): "
        "a length is off by {:.3g} of itself, the tolerance is {:.3g} (a time step too long, or "
        "forces too large)",
        results[k].sweeps, plan_.clusters[k].central, results[k].worst, tolerance_));
  }
}

template <class Solve>
void HostConstraints::for_each_group(const core::ParticleData& p,
                                     const std::vector<double>& inverse_mass_by_type,
                                     Solve&& solve) const {
#pragma omp parallel for schedule(static)
  for (std::size_t k = 0; k < waters_.size(); ++k) {
    const Members& m = waters_[k];
    solve(k, m,
          water_cluster(plan_.waters[k].geometry,
                        inverse_mass_by_type[std::size_t(p.type[m.index[0]])],
                        inverse_mass_by_type[std::size_t(p.type[m.index[1]])]));
  }
#pragma omp parallel for schedule(static)
  for (std::size_t k = 0; k < clusters_.size(); ++k) {
    const Members& m = clusters_[k];
    solve(waters_.size() + k, m, hydrogen_cluster(plan_.clusters[k], m, p, inverse_mass_by_type));
  }
}

void HostConstraints::constrain_velocities(core::ParticleData& p, const core::BoxView<double>& box,
                                           const std::vector<double>& inverse_mass_by_type,
                                           double* heat) {
  for_each_group(
      p, inverse_mass_by_type,
      [&]<int P, int C>(std::size_t, const Members& m, const ConstraintCluster<P, C>& cluster) {
        Vec3<double> r[P], v[P], before[P];
        const Vec3<double> ref = p.position.get(m.index[0]);
        for (int k = 0; k < m.count; ++k) {
          r[k] = box.minimum_image(p.position.get(m.index[k]) - ref);
          v[k] = before[k] = p.velocity.get(m.index[k]);
        }
        rattle_velocities(cluster, r, v);
        for (int k = 0; k < m.count; ++k) {
          p.velocity.set(m.index[k], v[k]);
          if (heat)
            heat[m.index[k]] += 0.5 / cluster.inverse_mass[k] *
                                (core::dot(v[k], v[k]) - core::dot(before[k], before[k]));
        }
      });
}

core::SymmetricTensor<double> HostConstraints::virial(
    const core::ParticleData& p, const core::BoxView<double>& box,
    const std::vector<double>& inverse_mass_by_type) const {
  std::vector<core::SymmetricTensor<double>> of_group(waters_.size() + clusters_.size());
  for_each_group(
      p, inverse_mass_by_type,
      [&]<int P, int C>(std::size_t g, const Members& m, const ConstraintCluster<P, C>& cluster) {
        Vec3<double> r[P], v[P], f[P], force[P];
        const Vec3<double> ref = p.position.get(m.index[0]);
        for (int k = 0; k < m.count; ++k) {
          r[k] = box.minimum_image(p.position.get(m.index[k]) - ref);
          v[k] = p.velocity.get(m.index[k]);
          f[k] = p.force.get(m.index[k]);
        }
        if (!constraint_forces(cluster, r, v, f, force)) return;
        for (int k = 0; k < m.count; ++k)
          of_group[g].add_symmetrized_outer(r[k].x, r[k].y, r[k].z, force[k].x, force[k].y,
                                            force[k].z);
      });
  core::SymmetricTensor<double> total;
  for (const auto& w : of_group)
    for (int c = 0; c < core::kTensorComponents; ++c) total.c[c] += w.c[c];
  return total;
}

void HostConstraints::after_drift(core::ParticleData& p, const std::vector<Vec3<double>>& before,
                                  double dt, const core::BoxView<double>& box,
                                  const std::vector<double>& inverse_mass_by_type) {
  positions(p, before, dt, box, inverse_mass_by_type, true);
  constrain_velocities(p, box, inverse_mass_by_type);
}

void HostConstraints::constrain_state(core::ParticleData& p, const core::BoxView<double>& box,
                                      const std::vector<double>& inverse_mass_by_type) {
  std::vector<Vec3<double>> now(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) now[i] = p.position.get(i);
  positions(p, now, 1.0, box, inverse_mass_by_type, false);
  constrain_velocities(p, box, inverse_mass_by_type);
}

}  // namespace novamd::constraints
