#pragma once
/// @file cluster_constraints.hpp
/// Distance constraints of one small cluster (a heavy atom and its hydrogens, or a water), as
/// SHAKE and RATTLE treat them, written once for host and device, in double.
///
/// Positions (SHAKE: J.-P. Ryckaert, G. Ciccotti and H. J. C. Berendsen, J. Comput. Phys. 23,
/// 327 (1977)): after a drift the particles sit at r (unconstrained); the constrained positions
/// are r_p + w_p sum_k g_k sigma_kp s0_k, with s0_k = r_i - r_j of constraint k before the drift,
/// w_p = 1 / m_p and sigma_kp = +1 for p = i, -1 for p = j. Each sweep takes the constraints in
/// order and solves constraint k alone to first order,
///
///     g_k = (d_k^2 - |s_k|^2) / (2 (s_k . s0_k) (w_i + w_j)),
///
/// until every |s_k|^2 is within 2 tolerance d_k^2 of d_k^2 (each length within `tolerance`
/// of its own, relatively).
///
/// Velocities (RATTLE: H. C. Andersen, J. Comput. Phys. 52, 24 (1983)): the velocities along the
/// constraints vanish after v_p += w_p sum_k l_k sigma_kp s_k (s_k at the constrained
/// positions), a linear system in the l_k,
///
///     sum_l (s_k . s_l) (w_i sigma_li - w_j sigma_lj) l_l = -s_k . (v_i - v_j),   k = (i, j),
///
/// solved here exactly (constraint_multipliers), as RATTLE's iteration would converge to. The
/// same system, with the accelerations' right-hand side, gives the instantaneous constraint
/// forces (constraint_forces), whose virial joins the pressure.

#include <cmath>

#include "novamd/core/host_device.hpp"
#include "novamd/core/vec3.hpp"

namespace novamd::constraints {

/// Constraint k: particles i and j of the cluster (indices 0 .. P - 1) at distance `length`.
struct DistanceConstraint {
  int i, j;
  double length;
};

/// A cluster of at most P particles and C constraints.
template <int P, int C>
struct ConstraintCluster {
  int particles = 0;
  int constraints = 0;
  double inverse_mass[P] = {};
  DistanceConstraint constraint[C] = {};
};

/// How SHAKE ended: sweeps made, whether every constraint met the tolerance, and the largest
/// relative deviation |s^2 - d^2| / (2 d^2) left.
struct ShakeResult {
  int sweeps = 0;
  bool converged = false;
  double worst = 0.0;
};

/// SHAKE on the cluster's positions `r` (moved from `before`, which satisfies the constraints),
/// at most max_sweeps sweeps. Positions are relative to any origin near the cluster.
template <int P, int C>
NOVAMD_HD ShakeResult shake_positions(const ConstraintCluster<P, C>& cluster,
                                      const core::Vec3<double> (&before)[P],
                                      core::Vec3<double> (&r)[P], double tolerance,
                                      int max_sweeps) {
  ShakeResult result;
  for (result.sweeps = 0; result.sweeps < max_sweeps; ++result.sweeps) {
    result.worst = 0.0;
    for (int k = 0; k < cluster.constraints; ++k) {
      const auto& c = cluster.constraint[k];
      const core::Vec3<double> s = r[c.i] - r[c.j];
      const double d2 = c.length * c.length;
      const double deviation = d2 - core::dot(s, s);
      result.worst = std::fmax(result.worst, std::fabs(deviation) / (2.0 * d2));
      if (std::fabs(deviation) <= 2.0 * tolerance * d2) continue;
      const core::Vec3<double> s0 = before[c.i] - before[c.j];
      const double wi = cluster.inverse_mass[c.i], wj = cluster.inverse_mass[c.j];
      const double g = deviation / (2.0 * core::dot(s, s0) * (wi + wj));
      r[c.i] += (g * wi) * s0;
      r[c.j] -= (g * wj) * s0;
    }
    if (result.worst <= tolerance) {
      result.converged = true;
      return result;
    }
  }
  return result;
}

/// The multipliers l_l of the cluster's constraints, s_k = r_i - r_j at positions `r`, from
///
///     sum_l (s_k . s_l) (w_i sigma_li - w_j sigma_lj) l_l = rhs_k,   k = (i, j),
///
/// (Gaussian elimination with partial pivoting: a cluster has at most a few constraints).
/// Returns false where the constraints are linearly dependent.
template <int P, int C>
NOVAMD_HD bool constraint_multipliers(const ConstraintCluster<P, C>& cluster,
                                      const core::Vec3<double> (&s)[C], const double (&rhs)[C],
                                      double (&lambda)[C]) {
  const int n = cluster.constraints;
  double a[C][C + 1];  // the system, right-hand side in column n
  for (int k = 0; k < n; ++k) {
    const auto& ck = cluster.constraint[k];
    for (int l = 0; l < n; ++l) {
      const auto& cl = cluster.constraint[l];
      const auto sigma = [&](int p) { return p == cl.i ? 1.0 : (p == cl.j ? -1.0 : 0.0); };
      a[k][l] = core::dot(s[k], s[l]) * (cluster.inverse_mass[ck.i] * sigma(ck.i) -
                                         cluster.inverse_mass[ck.j] * sigma(ck.j));
    }
    a[k][n] = rhs[k];
  }
  for (int col = 0; col < n; ++col) {
    int pivot = col;
    for (int k = col + 1; k < n; ++k)
      if (std::fabs(a[k][col]) > std::fabs(a[pivot][col])) pivot = k;
    if (a[pivot][col] == 0.0) return false;
    if (pivot != col)
      for (int m = 0; m <= n; ++m) {
        const double t = a[col][m];
        a[col][m] = a[pivot][m];
        a[pivot][m] = t;
      }
    for (int k = col + 1; k < n; ++k) {
      const double factor = a[k][col] / a[col][col];
      for (int m = col; m <= n; ++m) a[k][m] -= factor * a[col][m];
    }
  }
  for (int k = n - 1; k >= 0; --k) {
    double sum = a[k][n];
    for (int m = k + 1; m < n; ++m) sum -= a[k][m] * lambda[m];
    lambda[k] = sum / a[k][k];
  }
  return true;
}

/// The separations s_k = r_i - r_j of the cluster's constraints at positions `r`.
template <int P, int C>
NOVAMD_HD void constraint_separations(const ConstraintCluster<P, C>& cluster,
                                      const core::Vec3<double> (&r)[P],
                                      core::Vec3<double> (&s)[C]) {
  for (int k = 0; k < cluster.constraints; ++k)
    s[k] = r[cluster.constraint[k].i] - r[cluster.constraint[k].j];
}

/// RATTLE's velocity condition on the cluster: velocities `v` corrected so that no particle pair
/// of a constraint moves along it, at constrained positions `r`: v_p += w_p sum_k l_k sigma_kp
/// s_k with the right-hand side -s_k . (v_i - v_j). Returns false (velocities unchanged) where
/// the constraints are linearly dependent.
template <int P, int C>
NOVAMD_HD bool rattle_velocities(const ConstraintCluster<P, C>& cluster,
                                 const core::Vec3<double> (&r)[P], core::Vec3<double> (&v)[P]) {
  core::Vec3<double> s[C];
  constraint_separations(cluster, r, s);
  double rhs[C] = {}, lambda[C] = {};
  for (int k = 0; k < cluster.constraints; ++k) {
    const auto& c = cluster.constraint[k];
    rhs[k] = -core::dot(s[k], v[c.i] - v[c.j]);
  }
  if (!constraint_multipliers(cluster, s, rhs, lambda)) return false;
  for (int k = 0; k < cluster.constraints; ++k) {
    const auto& c = cluster.constraint[k];
    v[c.i] += (lambda[k] * cluster.inverse_mass[c.i]) * s[k];
    v[c.j] -= (lambda[k] * cluster.inverse_mass[c.j]) * s[k];
  }
  return true;
}

/// The constraint forces G_p = sum_k l_k sigma_kp s_k that keep the cluster's lengths fixed at
/// this instant, given positions `r` (constrained), velocities `v` (that satisfy the velocity
/// condition) and forces `f` (w_p f_p the acceleration): the second time derivative of
/// |s_k|^2 vanishes, s_k . (a_i - a_j) + |v_i - v_j|^2 = 0 with a = w (f + G), so the right-hand
/// side is -s_k . (w_i f_i - w_j f_j) - |v_i - v_j|^2 (the second term: the centripetal share).
/// Returns false (g unset) where the constraints are linearly dependent.
template <int P, int C>
NOVAMD_HD bool constraint_forces(const ConstraintCluster<P, C>& cluster,
                                 const core::Vec3<double> (&r)[P], const core::Vec3<double> (&v)[P],
                                 const core::Vec3<double> (&f)[P], core::Vec3<double> (&g)[P]) {
  core::Vec3<double> s[C];
  constraint_separations(cluster, r, s);
  double rhs[C] = {}, lambda[C] = {};
  for (int k = 0; k < cluster.constraints; ++k) {
    const auto& c = cluster.constraint[k];
    const core::Vec3<double> relative = v[c.i] - v[c.j];
    rhs[k] =
        -core::dot(s[k], cluster.inverse_mass[c.i] * f[c.i] - cluster.inverse_mass[c.j] * f[c.j]) -
        core::dot(relative, relative);
  }
  if (!constraint_multipliers(cluster, s, rhs, lambda)) return false;
  for (int p = 0; p < cluster.particles; ++p) g[p] = {0.0, 0.0, 0.0};
  for (int k = 0; k < cluster.constraints; ++k) {
    const auto& c = cluster.constraint[k];
    g[c.i] += lambda[k] * s[k];
    g[c.j] -= lambda[k] * s[k];
  }
  return true;
}

}  // namespace novamd::constraints
