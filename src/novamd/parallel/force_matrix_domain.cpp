#include "novamd/parallel/force_matrix_domain.hpp"

#include <algorithm>
#include <utility>

namespace novamd::parallel {
namespace {

/// Copies a[range] for the three components into out, component-major.
void pack(const core::Vec3Array& a, IndexRange range, double* out) {
  const std::size_t n = range.size();
  std::copy_n(a.x.begin() + range.begin, n, out);
  std::copy_n(a.y.begin() + range.begin, n, out + n);
  std::copy_n(a.z.begin() + range.begin, n, out + 2 * n);
}

/// a[range] summed over `group`, through `scratch`.
void sum_range(const Communicator& comm, core::Vec3Array& a, IndexRange range, Group group,
               std::vector<double>& scratch) {
  if (comm.group_size(group) == 1) return;
  const std::size_t n = range.size();
  scratch.resize(3 * n);
  pack(a, range, scratch.data());
  comm.sum(scratch.data(), scratch.size(), group);
  std::copy_n(scratch.begin(), n, a.x.begin() + range.begin);
  std::copy_n(scratch.begin() + n, n, a.y.begin() + range.begin);
  std::copy_n(scratch.begin() + 2 * n, n, a.z.begin() + range.begin);
}

}  // namespace

ForceMatrixDomain::ForceMatrixDomain(ForceMatrix matrix, int block_range)
    : matrix_(std::move(matrix)), block_range_(matrix_.decomposed() ? block_range : 0) {}

ForceMatrixDomain::ForceMatrixDomain(std::shared_ptr<const Communicator> comm, std::size_t n,
                                     int block_range)
    : ForceMatrixDomain(
          ForceMatrix::of(std::move(comm), n,
                          block_range > 0 ? static_cast<std::size_t>(block_range) : 1),
          block_range) {}

ForceMatrixDomain ForceMatrixDomain::layout(const GridShape& grid, int row, int column,
                                            std::size_t n, int block_range) {
  const std::size_t granularity = block_range > 0 ? static_cast<std::size_t>(block_range) : 1;
  return {ForceMatrix::block(grid, row, column, n, granularity), block_range};
}

std::vector<IndexRange> ForceMatrixDomain::ghosts() const {
  const IndexRange t = matrix_.targets, s = matrix_.sources;
  std::vector<IndexRange> ranges;
  if (s.begin < t.begin) ranges.push_back({s.begin, std::min(s.end, t.begin)});
  if (s.end > t.end) ranges.push_back({std::max(s.begin, t.end), s.end});
  return ranges;
}

std::vector<IndexRange> ForceMatrixDomain::energy_ranges() const {
  std::vector<IndexRange> ranges{matrix_.targets};
  if (block_range_ == 0) return ranges;
  for (const IndexRange& g : ghosts()) ranges.push_back(g);
  return ranges;
}

std::optional<neighbors::PairBlock> ForceMatrixDomain::pair_block() const {
  if (!decomposed()) return std::nullopt;
  const IndexRange t = matrix_.targets, s = matrix_.sources;
  return neighbors::PairBlock{
      static_cast<std::ptrdiff_t>(t.begin), static_cast<std::ptrdiff_t>(t.end),
      static_cast<std::ptrdiff_t>(s.begin), static_cast<std::ptrdiff_t>(s.end)};
}

// Every particle is a target of one block row: a column owns each once.
void ForceMatrixDomain::sum_over_owners(double* values, std::size_t count) const {
  matrix_.comm->sum(values, count, Group::Column);
}

void ForceMatrixDomain::sum_over_ranks(double* values, std::size_t count) const {
  matrix_.comm->sum(values, count, Group::World);
}

std::int64_t ForceMatrixDomain::min_over_ranks(std::int64_t value) const {
  return matrix_.comm->min(value, Group::World);
}

void ForceMatrixDomain::refresh_ghosts(core::Vec3Array& position) {
  if (!decomposed() || matrix_.comm->group_size(Group::Column) == 1) return;
  const IndexRange s = matrix_.sources, own = matrix_.owned_sources();
  const std::size_t n = s.size();
  scratch_.assign(3 * n, 0.0);
  for (std::size_t i = own.begin; i < own.end; ++i) {
    scratch_[i - s.begin] = position.x[i];
    scratch_[n + i - s.begin] = position.y[i];
    scratch_[2 * n + i - s.begin] = position.z[i];
  }
  matrix_.comm->sum(scratch_.data(), scratch_.size(), Group::Column);
  for (std::size_t i = s.begin; i < s.end; ++i) {
    if (own.contains(i)) continue;  // x + 0 is x, but -0 + 0 is +0: leave owned bits alone
    position.x[i] = scratch_[i - s.begin];
    position.y[i] = scratch_[n + i - s.begin];
    position.z[i] = scratch_[2 * n + i - s.begin];
  }
}

void ForceMatrixDomain::complete_forces(core::Vec3Array& force) {
  if (!decomposed()) return;
  if (block_range_ > 0) sum_range(*matrix_.comm, force, matrix_.sources, Group::Column, scratch_);
  sum_range(*matrix_.comm, force, matrix_.targets, Group::Row, scratch_);
}

void ForceMatrixDomain::gather(std::vector<double>& values) {
  if (!decomposed()) return;
  matrix_.comm->gather_column_blocks(values.data(), matrix_.target_blocks);
}

}  // namespace novamd::parallel
