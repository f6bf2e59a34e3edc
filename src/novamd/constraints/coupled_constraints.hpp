#pragma once
/// @file coupled_constraints.hpp
/// Distance constraints coupled through shared particles (every bond of a molecule, rings), each
/// molecule's set solved together, written once for host and device in double: the CPU backend
/// runs the updates below in an OpenMP loop over the sets, the CUDA backend with one thread per
/// set, each reading and writing its own set's particles and scratch only.
///
/// Positions: CCMA (P. Eastman and V. S. Pande, J. Chem. Theory Comput. 6, 434 (2010)). After a
/// drift the particles sit at r; the constrained positions are r_p + w_p sum_k l_k sigma_kp s0_k
/// (s0_k = r_i - r_j of constraint k before the drift, w_p = 1 / m_p, sigma_kp = +1 for p = i, -1
/// for p = j), the l_k the root of |s_k(l)|^2 = d_k^2. Each iteration takes SHAKE's step of every
/// constraint alone, g_k = (d_k^2 - |s_k|^2) / (2 (s_k . s0_k) (w_i + w_j)), and couples them
/// through a fixed approximate inverse of the Newton matrix, l = K^-1 g, with
///
///     K_kl = w_x cos(theta_kl) d_l / ((w_i + w_j) d_k)   (k != l sharing particle x),  K_kk = 1,
///
/// theta_kl the equilibrium angle between the two bonds at x (the angle term's theta0; 90 degrees,
/// no coupling, where the topology has none), inverted once at setup and entries below 0.02 in
/// magnitude dropped (coupled_plan.cpp). It stops when every |s_k|^2 is within 2 tolerance d_k^2
/// of d_k^2, as SHAKE does (cluster_constraints.hpp), to which its result agrees within the
/// tolerance: both solve the same equations.
///
/// Velocities and the instantaneous constraint forces: the linear systems of RATTLE
/// (cluster_constraints.hpp), sum_l (s_k . s_l)(w_i sigma_li - w_j sigma_lj) l_l = rhs_k, a
/// symmetric positive definite matrix B W B^T, solved by conjugate gradients with the diagonal
/// as preconditioner to a residual of 1e-13 of the right-hand side: the velocity condition to
/// round-off.

#include <climits>
#include <cmath>
#include <cstdint>
#include <vector>

#include "novamd/constraints/cluster_constraints.hpp"
#include "novamd/constraints/constraint_groups.hpp"
#include "novamd/constraints/coupled_set.hpp"
#include "novamd/core/box.hpp"
#include "novamd/core/host_device.hpp"
#include "novamd/core/tensor.hpp"
#include "novamd/core/vec3.hpp"
#include "novamd/core/vec3_pointers.hpp"

namespace novamd::constraints {

/// How many CCMA iterations a set may take before the run stops (an all-bond protein converges
/// to 1e-8 in some 10 to 30).
inline constexpr int kMaxCcmaIterations = 1000;

/// K^-1 entries of smaller magnitude are dropped (OpenMM's choice for CCMA).
inline constexpr double kCcmaDropBelow = 0.02;

/// The layout as the updates read it (host or device memory), with scratch per particle of a
/// set (r, y) and per constraint (s, the CG vectors).
struct CoupledView {
  const std::int32_t* particle_offset;
  const std::int32_t* id;
  std::int32_t* index;  ///< storage index of each of the sets' particles (LocateCoupled)
  const std::int32_t* constraint_offset;
  const DistanceConstraint* constraint;
  const std::int32_t* row_offset;
  const std::int32_t* column;
  const double* value;
  core::Vec3<double>* r;  ///< each particle's correction so far
  core::Vec3<double>* y;  ///< w_p sum_k x_k sigma_kp s_k (matrix products)
  core::Vec3<double>* s;  ///< separations (before a drift, or now)
  core::Vec3<double>* t;  ///< separations after a drift, before its correction
  double *g, *lambda, *residual, *direction, *product;
};

/// The sets' arrays in one kind of storage, `Array<T>` (std::vector on the host, DeviceBuffer on
/// the device): the layout, the storage indices, the scratch, the failure marks (per set:
/// INT32_MAX where none) and the per-set virial shares.
template <template <class> class Array>
struct CoupledArrays {
  Array<std::int32_t> particle_offset, id, index, constraint_offset, row_offset, column, failed;
  Array<DistanceConstraint> constraint;
  Array<double> value, deviation;
  Array<core::Vec3<double>> r, y, s, t;
  Array<double> scratch[5];
  Array<double> virial[core::kTensorComponents];

  /// Fills the arrays from `layout`, `put(array, host vector)` copying a vector in.
  template <class Put>
  void fill(const CoupledLayout& layout, Put&& put) {
    put(particle_offset, layout.particle_offset);
    put(id, layout.id);
    put(constraint_offset, layout.constraint_offset);
    put(constraint, layout.constraint);
    put(row_offset, layout.row_offset);
    put(column, layout.column);
    put(value, layout.value);
    const auto sets = static_cast<std::size_t>(layout.sets());
    put(failed, std::vector<std::int32_t>(sets, INT32_MAX));
    put(deviation, std::vector<double>(sets, 0.0));
    for (auto* a : {&r, &y}) a->resize(layout.particles());
    for (auto* a : {&s, &t}) a->resize(layout.constraints());
    index.resize(layout.particles());
    for (auto& a : scratch) a.resize(layout.constraints());
    for (auto& a : virial) a.resize(sets);
  }

  CoupledView view() {
    return {particle_offset.data(),
            id.data(),
            index.data(),
            constraint_offset.data(),
            constraint.data(),
            row_offset.data(),
            column.data(),
            value.data(),
            r.data(),
            y.data(),
            s.data(),
            t.data(),
            scratch[0].data(),
            scratch[1].data(),
            scratch[2].data(),
            scratch[3].data(),
            scratch[4].data()};
  }
  ShakeFailures failures() { return {failed.data(), deviation.data()}; }

  /// f(array) for every array (memory accounting).
  template <class F>
  void for_each_array(F&& f) const {
    for (const auto* a :
         {&particle_offset, &id, &index, &constraint_offset, &row_offset, &column, &failed})
      f(*a);
    for (const auto* a : {&r, &y, &s, &t}) f(*a);
    f(constraint);
    f(value);
    f(deviation);
    for (const auto& a : scratch) f(a);
    for (const auto& a : virial) f(a);
  }
};

/// Host storage for CoupledArrays.
template <class T>
using HostArray = std::vector<T>;

/// Set k's particles and constraints: where they start in the flat arrays, and how many.
struct SetRange {
  int p0, particles, c0, constraints;
};

NOVAMD_HD SetRange range_of(const CoupledView& v, int k) {
  return {v.particle_offset[k], v.particle_offset[k + 1] - v.particle_offset[k],
          v.constraint_offset[k], v.constraint_offset[k + 1] - v.constraint_offset[k]};
}

/// Each set's storage indices from its ids (after the particles were reordered).
struct LocateCoupled {
  CoupledView v;
  const std::int32_t* index_of;
  NOVAMD_HD void operator()(int k) const {
    const SetRange s = range_of(v, k);
    for (int p = s.p0; p < s.p0 + s.particles; ++p) v.index[p] = index_of[v.id[p]];
  }
};

/// Inverse mass of particle p (flat position) of the sets.
NOVAMD_HD double inverse_mass_of(const CoupledView& v, const GroupArrays& a, int p) {
  return a.inverse_mass[a.type[v.index[p]]];
}

/// out[k] = r_i - r_j of each of the set's constraints at positions `at`, each under the minimum
/// image of its own pair (a molecule may span more than half the box; a bond may not).
NOVAMD_HD void load_separations(const CoupledView& v, const SetRange& s,
                                const core::Vec3Pointers& at, const core::BoxView<double>& box,
                                core::Vec3<double>* out) {
  for (int k = s.c0; k < s.c0 + s.constraints; ++k)
    out[k] = box.minimum_image(at.get(v.index[s.p0 + v.constraint[k].i]) -
                               at.get(v.index[s.p0 + v.constraint[k].j]));
}

/// CCMA after a drift: the corrections v.r of the set's particles (from zero), given the
/// separations v.s before the drift (where the constraints were met) and v.t after it.
NOVAMD_HD ShakeResult ccma_positions(const CoupledView& v, const GroupArrays& a, const SetRange& s,
                                     double tolerance) {
  ShakeResult result;
  for (int p = s.p0; p < s.p0 + s.particles; ++p) v.r[p] = {0.0, 0.0, 0.0};
  for (result.iterations = 0; result.iterations < kMaxCcmaIterations; ++result.iterations) {
    result.worst = 0.0;
    for (int k = s.c0; k < s.c0 + s.constraints; ++k) {
      const DistanceConstraint& c = v.constraint[k];
      const core::Vec3<double> now = v.t[k] + v.r[s.p0 + c.i] - v.r[s.p0 + c.j];
      const double d2 = c.length * c.length;
      const double deviation = d2 - core::dot(now, now);
      result.worst = std::fmax(result.worst, std::fabs(deviation) / (2.0 * d2));
      const double w = inverse_mass_of(v, a, s.p0 + c.i) + inverse_mass_of(v, a, s.p0 + c.j);
      v.g[k] = deviation / (2.0 * core::dot(now, v.s[k]) * w);
    }
    if (result.worst <= tolerance) {
      result.converged = true;
      return result;
    }
    for (int k = s.c0; k < s.c0 + s.constraints; ++k) {
      double l = 0.0;
      for (int e = v.row_offset[k]; e < v.row_offset[k + 1]; ++e)
        l += v.value[e] * v.g[s.c0 + v.column[e]];
      v.lambda[k] = l;
    }
    for (int k = s.c0; k < s.c0 + s.constraints; ++k) {
      const DistanceConstraint& c = v.constraint[k];
      v.r[s.p0 + c.i] += (v.lambda[k] * inverse_mass_of(v, a, s.p0 + c.i)) * v.s[k];
      v.r[s.p0 + c.j] += (-v.lambda[k] * inverse_mass_of(v, a, s.p0 + c.j)) * v.s[k];
    }
  }
  return result;
}

/// out_k = sum_l (s_k . s_l)(w_i sigma_li - w_j sigma_lj) x_l for the set's separations v.s.
NOVAMD_HD void multiply(const CoupledView& v, const GroupArrays& a, const SetRange& s,
                        const double* x, double* out) {
  for (int p = s.p0; p < s.p0 + s.particles; ++p) v.y[p] = {0.0, 0.0, 0.0};
  for (int k = s.c0; k < s.c0 + s.constraints; ++k) {
    v.y[s.p0 + v.constraint[k].i] += x[k] * v.s[k];
    v.y[s.p0 + v.constraint[k].j] += -x[k] * v.s[k];
  }
  for (int p = s.p0; p < s.p0 + s.particles; ++p) v.y[p] = inverse_mass_of(v, a, p) * v.y[p];
  for (int k = s.c0; k < s.c0 + s.constraints; ++k)
    out[k] = core::dot(v.s[k], v.y[s.p0 + v.constraint[k].i] - v.y[s.p0 + v.constraint[k].j]);
}

/// The multipliers v.lambda of the system above with right-hand side v.residual (overwritten),
/// by conjugate gradients preconditioned with the diagonal. Returns false where it did not
/// reach a residual of 1e-13 of the right-hand side in 4 (constraints + 10) iterations.
NOVAMD_HD bool solve_multipliers(const CoupledView& v, const GroupArrays& a, const SetRange& s) {
  const auto diagonal = [&](int k) {
    const DistanceConstraint& c = v.constraint[k];
    return (inverse_mass_of(v, a, s.p0 + c.i) + inverse_mass_of(v, a, s.p0 + c.j)) *
           core::dot(v.s[k], v.s[k]);
  };
  double scale = 0.0, rz = 0.0;
  for (int k = s.c0; k < s.c0 + s.constraints; ++k) {
    scale = std::fmax(scale, std::fabs(v.residual[k]));
    v.lambda[k] = 0.0;
    v.g[k] = v.residual[k] / diagonal(k);  // z = M^-1 r
    v.direction[k] = v.g[k];
    rz += v.residual[k] * v.g[k];
  }
  if (scale == 0.0) return true;
  const int limit = 4 * (s.constraints + 10);
  for (int iteration = 0; iteration < limit; ++iteration) {
    multiply(v, a, s, v.direction, v.product);
    double curvature = 0.0;
    for (int k = s.c0; k < s.c0 + s.constraints; ++k) curvature += v.direction[k] * v.product[k];
    const double step = rz / curvature;
    double largest = 0.0, rz_next = 0.0;
    for (int k = s.c0; k < s.c0 + s.constraints; ++k) {
      v.lambda[k] += step * v.direction[k];
      v.residual[k] -= step * v.product[k];
      largest = std::fmax(largest, std::fabs(v.residual[k]));
      v.g[k] = v.residual[k] / diagonal(k);
      rz_next += v.residual[k] * v.g[k];
    }
    if (largest <= 1e-13 * scale) return true;
    const double beta = rz_next / rz;
    rz = rz_next;
    for (int k = s.c0; k < s.c0 + s.constraints; ++k)
      v.direction[k] = v.g[k] + beta * v.direction[k];
  }
  return false;
}

/// RATTLE's velocity condition on set k at the particles' positions; with `heat`, each
/// particle's kinetic-energy change is added to heat[i]. Returns false (velocities unchanged)
/// where the solve did not converge.
NOVAMD_HD bool coupled_velocities(const CoupledView& v, const GroupArrays& a, int k, double* heat) {
  const SetRange s = range_of(v, k);
  load_separations(v, s, a.position, a.box, v.s);
  for (int c = s.c0; c < s.c0 + s.constraints; ++c)
    v.residual[c] = -core::dot(v.s[c], a.velocity.get(v.index[s.p0 + v.constraint[c].i]) -
                                           a.velocity.get(v.index[s.p0 + v.constraint[c].j]));
  if (!solve_multipliers(v, a, s)) return false;
  multiply(v, a, s, v.lambda, v.product);  // leaves w_p sum_k l_k sigma_kp s_k in v.y
  for (int p = s.p0; p < s.p0 + s.particles; ++p) {
    const int i = v.index[p];
    const core::Vec3<double> before = a.velocity.get(i), after = before + v.y[p];
    a.velocity.set(i, after);
    if (heat)
      heat[i] +=
          0.5 / inverse_mass_of(v, a, p) * (core::dot(after, after) - core::dot(before, before));
  }
  return true;
}

/// After a drift (`drift`): each set's positions constrained by CCMA, its velocities corrected
/// by the displacements over the drift's time (where asked), then the velocity condition (where
/// asked).
template <class OnMove = NoMoveHook>
struct CoupledDrift {
  GroupArrays a;
  CoupledView v;
  DriftCorrection<OnMove> drift;
  ShakeFailures failures;

  NOVAMD_HD void operator()(int k) const {
    const SetRange s = range_of(v, k);
    load_separations(v, s, drift.before, a.box, v.s);  // the drift's start
    load_separations(v, s, a.position, a.box, v.t);
    const ShakeResult result = ccma_positions(v, a, s, drift.tolerance);
    if (!result.converged) failures.record(k, result.worst);
    for (int p = s.p0; p < s.p0 + s.particles; ++p) drift.move(a, v.index[p], v.r[p]);
    if (drift.velocity_condition && !coupled_velocities(v, a, k, nullptr))
      failures.record(k, result.worst);
  }
};

/// The velocity condition on each set (after a kick, or an O step with `heat`); a set whose
/// solve did not converge is recorded in `failures`.
struct CoupledVelocities {
  GroupArrays a;
  CoupledView v;
  double* heat = nullptr;
  ShakeFailures failures;
  NOVAMD_HD void operator()(int k) const {
    if (!coupled_velocities(v, a, k, heat)) failures.record(k, 0.0);
  }
};

/// A set's share of the constraint virial, sum_p r_p (x) G_p = sum_k s_k (x) l_k s_k (each bond's
/// pair of forces), into out[c][k] per tensor component (zero where the solve did not converge).
struct CoupledVirial {
  GroupArrays a;
  CoupledView v;
  double* out[core::kTensorComponents];

  NOVAMD_HD void operator()(int k) const {
    const SetRange s = range_of(v, k);
    load_separations(v, s, a.position, a.box, v.s);
    for (int c = s.c0; c < s.c0 + s.constraints; ++c) {
      const int i = v.index[s.p0 + v.constraint[c].i], j = v.index[s.p0 + v.constraint[c].j];
      const core::Vec3<double> relative = a.velocity.get(i) - a.velocity.get(j);
      v.residual[c] =
          -core::dot(v.s[c], inverse_mass_of(v, a, s.p0 + v.constraint[c].i) * a.force.get(i) -
                                 inverse_mass_of(v, a, s.p0 + v.constraint[c].j) * a.force.get(j)) -
          core::dot(relative, relative);
    }
    core::SymmetricTensor<double> w;
    if (solve_multipliers(v, a, s)) {
      for (int c = s.c0; c < s.c0 + s.constraints; ++c) {   // G_i = l s, G_j = -l s
        const core::Vec3<double> g = v.lambda[c] * v.s[c];  // r_i (x) G + r_j (x) (-G)
        w.add_symmetrized_outer(v.s[c].x, v.s[c].y, v.s[c].z, g.x, g.y, g.z);
      }
    }
    for (int c = 0; c < core::kTensorComponents; ++c) out[c][k] = w.c[c];
  }
};

}  // namespace novamd::constraints
