#include "novamd/constraints/coupled_plan.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstddef>
#include <vector>

#include "novamd/constraints/coupled_constraints.hpp"
#include "novamd/core/error.hpp"

namespace novamd::constraints {
namespace {

/// K of coupled_constraints.hpp, dense, row-major, for the set's constraints.
std::vector<double> coupling_matrix(const CoupledSet& set, std::span<const double> mass_by_id,
                                    const CosineAtVertex& cosine) {
  const std::size_t n = set.constraints.size();
  std::vector<double> k(n * n, 0.0);
  std::vector<std::vector<std::size_t>> touching(set.ids.size());
  for (std::size_t c = 0; c < n; ++c) {
    touching[std::size_t(set.constraints[c].i)].push_back(c);
    touching[std::size_t(set.constraints[c].j)].push_back(c);
  }
  const auto w = [&](int p) { return 1.0 / mass_by_id[std::size_t(set.ids[std::size_t(p)])]; };
  for (std::size_t c = 0; c < n; ++c) k[c * n + c] = 1.0;
  for (std::size_t x = 0; x < touching.size(); ++x) {
    for (const std::size_t a : touching[x]) {
      for (const std::size_t b : touching[x]) {
        if (a == b) continue;
        const DistanceConstraint &ca = set.constraints[a], &cb = set.constraints[b];
        const int p = ca.i == int(x) ? ca.j : ca.i, q = cb.i == int(x) ? cb.j : cb.i;
        if (p == q)
          throw core::InputError(fmt::format(
              "constraints.bonds: all_bonds: particles {} and {} (ids) are bonded twice",
              set.ids[x], set.ids[std::size_t(p)]));
        const double c_theta = cosine(set.ids[std::size_t(p)], set.ids[x], set.ids[std::size_t(q)]);
        k[a * n + b] = w(int(x)) * c_theta * cb.length / ((w(ca.i) + w(ca.j)) * ca.length);
      }
    }
  }
  return k;
}

/// The inverse of the dense n x n matrix `a` (destroyed), by Gauss-Jordan elimination with
/// partial pivoting. @throws core::InputError where it is singular.
std::vector<double> inverse_of(std::vector<double> a, std::size_t n) {
  std::vector<double> inv(n * n, 0.0);
  for (std::size_t c = 0; c < n; ++c) inv[c * n + c] = 1.0;
  for (std::size_t col = 0; col < n; ++col) {
    std::size_t pivot = col;
    for (std::size_t r = col + 1; r < n; ++r)
      if (std::fabs(a[r * n + col]) > std::fabs(a[pivot * n + col])) pivot = r;
    if (std::fabs(a[pivot * n + col]) < 1e-12)
      throw core::InputError(
          "constraints.bonds: all_bonds: the molecule's bond constraints are not independent");
    if (pivot != col)
      for (std::size_t m = 0; m < n; ++m) {
        std::swap(a[pivot * n + m], a[col * n + m]);
        std::swap(inv[pivot * n + m], inv[col * n + m]);
      }
    const double scale = 1.0 / a[col * n + col];
    for (std::size_t m = 0; m < n; ++m) {
      a[col * n + m] *= scale;
      inv[col * n + m] *= scale;
    }
    const auto rows = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t rr = 0; rr < rows; ++rr) {
      const auto r = static_cast<std::size_t>(rr);
      const double factor = a[r * n + col];
      if (r == col || factor == 0.0) continue;
      for (std::size_t m = 0; m < n; ++m) {
        a[r * n + m] -= factor * a[col * n + m];
        inv[r * n + m] -= factor * inv[col * n + m];
      }
    }
  }
  return inv;
}

}  // namespace

void invert_coupling(CoupledSet& set, std::span<const double> mass_by_id,
                     const CosineAtVertex& cosine) {
  const std::size_t n = set.constraints.size();
  if (n > kMaxCoupledConstraints)
    throw core::InputError(fmt::format(
        "constraints.bonds: all_bonds: the molecule of particles {} to {} (ids) has {} bonds; "
        "the coupled solver takes at most {} per molecule (use h_bonds)",
        set.ids.front(), set.ids.back(), n, kMaxCoupledConstraints));
  const std::vector<double> inv = inverse_of(coupling_matrix(set, mass_by_id, cosine), n);
  set.inverse_offsets.assign(1, 0);
  set.inverse_column.clear();
  set.inverse_value.clear();
  for (std::size_t r = 0; r < n; ++r) {
    for (std::size_t c = 0; c < n; ++c) {
      const double value = inv[r * n + c];
      if (r != c && std::fabs(value) < kCcmaDropBelow) continue;
      set.inverse_column.push_back(static_cast<std::int32_t>(c));
      set.inverse_value.push_back(value);
    }
    set.inverse_offsets.push_back(static_cast<std::int32_t>(set.inverse_column.size()));
  }
}

CoupledLayout layout_of(const std::vector<CoupledSet>& sets) {
  CoupledLayout l;
  for (const auto& set : sets) {
    l.id.insert(l.id.end(), set.ids.begin(), set.ids.end());
    l.particle_offset.push_back(static_cast<std::int32_t>(l.id.size()));
    for (std::size_t c = 0; c < set.constraints.size(); ++c) {
      l.constraint.push_back(set.constraints[c]);
      for (auto e = set.inverse_offsets[c]; e < set.inverse_offsets[c + 1]; ++e) {
        l.column.push_back(set.inverse_column[std::size_t(e)]);
        l.value.push_back(set.inverse_value[std::size_t(e)]);
      }
      l.row_offset.push_back(static_cast<std::int32_t>(l.column.size()));
    }
    l.constraint_offset.push_back(static_cast<std::int32_t>(l.constraint.size()));
  }
  return l;
}

}  // namespace novamd::constraints
