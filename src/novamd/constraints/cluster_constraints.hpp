#pragma once
/// @file cluster_constraints.hpp
/// Distance constraints of one small cluster (a heavy atom and its hydrogens, or a water), as
/// SHAKE and RATTLE treat them, written once for host and device, in double.
///
/// Positions (SHAKE: J.-P. Ryckaert, G. Ciccotti and H. J. C. Berendsen, J. Comput. Phys. 23,
/// 327 (1977)): after a drift the particles sit at r (unconstrained); the constrained positions
/// are r_p + w_p sum_k g_k sigma_kp s0_k, with s0_k = r_i - r_j of constraint k before the drift,
/// w_p = 1 / m_p and sigma_kp = +1 for p = i, -1 for p = j. Each iteration solves all the
/// constraints at once to first order in the g_l (Newton's method; the matrix form of SHAKE,
/// M-SHAKE: V. Kräutler, W. F. van Gunsteren and P. H. Hünenberger, J. Comput. Chem. 22, 501
/// (2001)),
///
///     sum_l (s_k . s0_l) (w_i sigma_li - w_j sigma_lj) g_l = (d_k^2 - |s_k|^2) / 2,   k = (i, j),
///
/// until every |s_k|^2 is within 2 tolerance d_k^2 of d_k^2 (each length within `tolerance`
/// of its own, relatively). For one constraint this is SHAKE's own step; for a cluster it
/// converges quadratically, in two or three iterations where SHAKE's sweep of one constraint at
/// a time takes four or five (a heavy atom with three hydrogens at 2 fs), each a chain of
/// divisions in a GPU thread.
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

/// How SHAKE (or CCMA) ended: iterations made, whether every constraint met the
/// tolerance, and the largest relative deviation |s^2 - d^2| / (2 d^2) left.
struct ShakeResult {
  int iterations = 0;
  bool converged = false;
  double worst = 0.0;
};

// Loops run over the compile-time capacity (P particles, C constraints) and skip what the cluster
// does not use, and a particle named by a constraint is picked from its array by comparison
// (element, add_to_element), so that on the GPU every array stays in registers (an index known
// only at run time would put the array in local memory).

/// a[i] for a run-time i < N.
template <class T, int N>
NOVAMD_HD T element(const T (&a)[N], int i) {
  T out = a[0];
#pragma unroll
  for (int p = 1; p < N; ++p)
    if (p == i) out = a[p];
  return out;
}

/// a[i] += x for a run-time i < N.
template <class T, int N>
NOVAMD_HD void add_to_element(T (&a)[N], int i, const T& x) {
#pragma unroll
  for (int p = 0; p < N; ++p)
    if (p == i) a[p] += x;
}

/// x_p += w_p sum_k l_k sigma_kp t_k: multipliers `l` along directions `t`, weighted by the
/// particles' inverse masses w_p (sigma_kp = 1 for the constraint's first particle, -1 for its
/// second).
template <int P, int C>
NOVAMD_HD void add_along_constraints(const ConstraintCluster<P, C>& cluster, const double (&l)[C],
                                     const core::Vec3<double> (&t)[C], core::Vec3<double> (&x)[P]) {
#pragma unroll
  for (int k = 0; k < C; ++k) {
    if (k >= cluster.constraints) break;
    const auto& c = cluster.constraint[k];
    add_to_element(x, c.i, (l[k] * element(cluster.inverse_mass, c.i)) * t[k]);
    add_to_element(x, c.j, (-l[k] * element(cluster.inverse_mass, c.j)) * t[k]);
  }
}

/// The multipliers l_l of the cluster's constraints, from separations s_k (the rows) and t_l
/// (the directions the multipliers move along),
///
///     sum_l (s_k . t_l) (w_i sigma_li - w_j sigma_lj) l_l = rhs_k,   k = (i, j),
///
/// with t = s a matrix B W B^T (B_kp = sigma_kp s_k, W the inverse masses): symmetric and
/// positive definite where the constraints are independent, so Gaussian elimination needs no
/// pivoting; SHAKE's t (the separations before a drift) is close to s. Returns false where a
/// pivot vanishes (the constraints are linearly dependent).
template <int P, int C>
NOVAMD_HD bool constraint_multipliers(const ConstraintCluster<P, C>& cluster,
                                      const core::Vec3<double> (&s)[C],
                                      const core::Vec3<double> (&t)[C], const double (&rhs)[C],
                                      double (&lambda)[C]) {
  const int n = cluster.constraints;
  double a[C][C], b[C];
#pragma unroll
  for (int k = 0; k < C; ++k) {
    const auto& ck = cluster.constraint[k];
    b[k] = rhs[k];
#pragma unroll
    for (int l = 0; l < C; ++l) {
      const auto& cl = cluster.constraint[l];
      const auto sigma = [&](int p) { return p == cl.i ? 1.0 : (p == cl.j ? -1.0 : 0.0); };
      a[k][l] = k < n && l < n
                    ? core::dot(s[k], t[l]) * (element(cluster.inverse_mass, ck.i) * sigma(ck.i) -
                                               element(cluster.inverse_mass, ck.j) * sigma(ck.j))
                    : (k == l ? 1.0 : 0.0);  // unused: the identity
    }
  }
  // One division per pivot: on the GPU a double division is a long chain of its own, and the
  // back substitution would otherwise wait for C of them in turn.
  double inverse_pivot[C];
#pragma unroll
  for (int col = 0; col < C; ++col) {
    if (a[col][col] == 0.0) return false;
    inverse_pivot[col] = 1.0 / a[col][col];
#pragma unroll
    for (int k = col + 1; k < C; ++k) {
      const double factor = a[k][col] * inverse_pivot[col];
#pragma unroll
      for (int m = col; m < C; ++m) a[k][m] -= factor * a[col][m];
      b[k] -= factor * b[col];
    }
  }
#pragma unroll
  for (int k = C - 1; k >= 0; --k) {
    double sum = b[k];
#pragma unroll
    for (int m = k + 1; m < C; ++m) sum -= a[k][m] * lambda[m];
    lambda[k] = sum * inverse_pivot[k];
  }
  return true;
}

/// The separations s_k = r_i - r_j of the cluster's constraints at positions `r`.
template <int P, int C>
NOVAMD_HD void constraint_separations(const ConstraintCluster<P, C>& cluster,
                                      const core::Vec3<double> (&r)[P],
                                      core::Vec3<double> (&s)[C]) {
#pragma unroll
  for (int k = 0; k < C; ++k)
    s[k] = k < cluster.constraints
               ? element(r, cluster.constraint[k].i) - element(r, cluster.constraint[k].j)
               : core::Vec3<double>{0.0, 0.0, 0.0};
}

/// The separations s_k at positions `r` and the multipliers l_k for the right-hand sides
/// rhs_of(constraint k, s_k) (constraint_multipliers). Returns false where the constraints are
/// linearly dependent.
template <int P, int C, class Rhs>
NOVAMD_HD bool multipliers_at(const ConstraintCluster<P, C>& cluster,
                              const core::Vec3<double> (&r)[P], const Rhs& rhs_of,
                              core::Vec3<double> (&s)[C], double (&lambda)[C]) {
  constraint_separations(cluster, r, s);
  double rhs[C] = {};
#pragma unroll
  for (int k = 0; k < C; ++k) {
    if (k >= cluster.constraints) break;
    rhs[k] = rhs_of(cluster.constraint[k], s[k]);
  }
  return constraint_multipliers(cluster, s, s, rhs, lambda);
}

/// SHAKE on the cluster's positions `r` (moved from `before`, which satisfies the constraints),
/// at most max_iterations iterations. Positions are relative to any origin near the cluster.
template <int P, int C>
NOVAMD_HD ShakeResult shake_positions(const ConstraintCluster<P, C>& cluster,
                                      const core::Vec3<double> (&before)[P],
                                      core::Vec3<double> (&r)[P], double tolerance,
                                      int max_iterations) {
  ShakeResult result;
  core::Vec3<double> s0[C];
  constraint_separations(cluster, before, s0);
  for (result.iterations = 0; result.iterations < max_iterations; ++result.iterations) {
    core::Vec3<double> s[C];
    constraint_separations(cluster, r, s);
    double half_deviation[C] = {};
    result.worst = 0.0;
#pragma unroll
    for (int k = 0; k < C; ++k) {
      if (k >= cluster.constraints) break;
      const double d2 = cluster.constraint[k].length * cluster.constraint[k].length;
      const double deviation = d2 - core::dot(s[k], s[k]);
      result.worst = std::fmax(result.worst, std::fabs(deviation) / (2.0 * d2));
      half_deviation[k] = 0.5 * deviation;
    }
    if (result.worst <= tolerance) {
      result.converged = true;
      return result;
    }
    double g[C] = {};
    if (!constraint_multipliers(cluster, s, s0, half_deviation, g)) return result;
    add_along_constraints(cluster, g, s0, r);
  }
  return result;
}

/// RATTLE's velocity condition on the cluster: velocities `v` corrected so that no particle pair
/// of a constraint moves along it, at constrained positions `r`: v_p += w_p sum_k l_k sigma_kp
/// s_k with the right-hand side -s_k . (v_i - v_j). Returns false (velocities unchanged) where
/// the constraints are linearly dependent.
template <int P, int C>
NOVAMD_HD bool rattle_velocities(const ConstraintCluster<P, C>& cluster,
                                 const core::Vec3<double> (&r)[P], core::Vec3<double> (&v)[P]) {
  core::Vec3<double> s[C];
  double lambda[C] = {};
  const auto rhs = [&](const DistanceConstraint& c, const core::Vec3<double>& sk) {
    return -core::dot(sk, element(v, c.i) - element(v, c.j));
  };
  if (!multipliers_at(cluster, r, rhs, s, lambda)) return false;
  add_along_constraints(cluster, lambda, s, v);
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
  double lambda[C] = {};
  const auto rhs = [&](const DistanceConstraint& c, const core::Vec3<double>& sk) {
    const core::Vec3<double> relative = element(v, c.i) - element(v, c.j);
    return -core::dot(sk, element(cluster.inverse_mass, c.i) * element(f, c.i) -
                              element(cluster.inverse_mass, c.j) * element(f, c.j)) -
           core::dot(relative, relative);
  };
  if (!multipliers_at(cluster, r, rhs, s, lambda)) return false;
#pragma unroll
  for (int p = 0; p < P; ++p) g[p] = {0.0, 0.0, 0.0};
#pragma unroll
  for (int k = 0; k < C; ++k) {
    if (k >= cluster.constraints) break;
    const auto& c = cluster.constraint[k];
    add_to_element(g, c.i, lambda[k] * s[k]);
    add_to_element(g, c.j, -lambda[k] * s[k]);
  }
  return true;
}

}  // namespace novamd::constraints
