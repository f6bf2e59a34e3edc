#include "novamd/parallel/host_exchange.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <type_traits>

#include "novamd/core/error.hpp"

namespace novamd::parallel {
namespace {

/// Copies a[range] for the three components into out, component-major.
void pack(const core::Vec3Array& a, IndexRange range, double* out) {
  const std::size_t n = range.size();
  std::copy_n(a.x.begin() + range.begin, n, out);
  std::copy_n(a.y.begin() + range.begin, n, out + n);
  std::copy_n(a.z.begin() + range.begin, n, out + 2 * n);
}

}  // namespace

void exchange_source_positions(const ForceMatrix& m, core::Vec3Array& position,
                               std::vector<double>& scratch) {
  if (!m.decomposed() || m.comm->group_size(Group::Column) == 1) return;
  const IndexRange s = m.sources, own = m.owned_sources();
  const std::size_t n = s.size();
  scratch.assign(3 * n, 0.0);
  for (std::size_t i = own.begin; i < own.end; ++i) {
    scratch[i - s.begin] = position.x[i];
    scratch[n + i - s.begin] = position.y[i];
    scratch[2 * n + i - s.begin] = position.z[i];
  }
  m.comm->sum(scratch.data(), scratch.size(), Group::Column);
  for (std::size_t i = s.begin; i < s.end; ++i) {
    if (own.contains(i)) continue;  // x + 0 is x, but -0 + 0 is +0: leave owned bits alone
    position.x[i] = scratch[i - s.begin];
    position.y[i] = scratch[n + i - s.begin];
    position.z[i] = scratch[2 * n + i - s.begin];
  }
}

void sum_target_forces(const ForceMatrix& m, core::Vec3Array& force,
                       std::vector<double>& scratch) {
  if (!m.decomposed() || m.comm->group_size(Group::Row) == 1) return;
  const IndexRange t = m.targets;
  const std::size_t n = t.size();
  scratch.resize(3 * n);
  pack(force, t, scratch.data());
  m.comm->sum(scratch.data(), scratch.size(), Group::Row);
  std::copy_n(scratch.begin(), n, force.x.begin() + t.begin);
  std::copy_n(scratch.begin() + n, n, force.y.begin() + t.begin);
  std::copy_n(scratch.begin() + 2 * n, n, force.z.begin() + t.begin);
}

void gather_targets(const ForceMatrix& m, std::vector<double>& values) {
  if (!m.decomposed()) return;
  m.comm->gather_column_blocks(values.data(), m.target_blocks);
}

void gather_targets(const ForceMatrix& m, core::Vec3Array& values) {
  for (auto* a : {&values.x, &values.y, &values.z}) gather_targets(m, *a);
}

void gather_evolving_targets(const ForceMatrix& m, core::ParticleData& p) {
  core::for_each_field_array(
      [&](const core::FieldInfo& info, int, auto& a) {
        if (!info.evolves || a.empty()) return;
        if constexpr (std::is_same_v<typename std::decay_t<decltype(a)>::value_type, double>) {
          gather_targets(m, a);
        } else {
          throw core::RunError(fmt::format(
              "{} cannot yet be gathered over the ranks of a force-matrix decomposition",
              info.description));
        }
      },
      p);
}

}  // namespace novamd::parallel
