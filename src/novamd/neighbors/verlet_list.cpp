#include "novamd/neighbors/verlet_list.hpp"

#include "novamd/neighbors/target_sums.hpp"

#include <cstddef>

namespace novamd::neighbors {
namespace {

/// The particles within `range` of particle i, in a fixed order (cell by cell, then storage).
void collect(int i, const core::ParticleData& p, const core::BoxView<double>& box,
             const CellGrid& grid, double range_squared, std::vector<int>& out) {
  const auto ri = p.position.get(i);
  const auto consider = [&](int j) {
    if (j == i) return;
    const auto d = box.minimum_image(ri - p.position.get(j));
    if (core::dot(d, d) < range_squared) out.push_back(j);
  };
  if (!grid.has_distinct_neighbours()) {
    for (std::size_t j = 0; j < p.size(); ++j) consider(static_cast<int>(j));
    return;
  }
  const auto c = grid.coordinates(grid.cell_of(ri));
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int cell = grid.wrap_cell(c[0] + dx, c[1] + dy, c[2] + dz);
        for (int k = grid.start()[cell]; k < grid.start()[cell + 1]; ++k) consider(grid.order()[k]);
      }
}

}  // namespace

bool VerletList::update(const core::ParticleData& particles, const core::Box& box) {
  if (!needs_rebuild(particles, box)) return false;
  build(particles, box);
  return true;
}

bool VerletList::needs_rebuild(const core::ParticleData& particles, const core::Box& box) const {
  if (builds_ == 0 || built_at_.size() != particles.size()) return true;
  const auto view = box.view<double>();
  const double limit = 0.25 * skin_ * skin_;  // (skin / 2)^2
  for (std::size_t i = 0; i < particles.size(); ++i) {
    const auto d = view.minimum_image(particles.position.get(i) - built_at_.get(i));
    if (core::dot(d, d) > limit) return true;
  }
  return false;
}

void VerletList::build(const core::ParticleData& particles, const core::Box& box) {
  const double range = cutoff_ + skin_;
  grid_.build(particles, box, range);
  const auto view = box.view<double>();
  const auto n = static_cast<std::ptrdiff_t>(particles.size());
  std::vector<std::vector<int>> lists(n);
#pragma omp parallel for schedule(static) if (n >= kMinParallelListTargets)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    collect(static_cast<int>(i), particles, view, grid_, range * range, lists[i]);
  }
  start_.assign(n + 1, 0);
  for (std::ptrdiff_t i = 0; i < n; ++i) start_[i + 1] = start_[i] + lists[i].size();
  neighbors_.resize(start_[n]);
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    std::copy(lists[i].begin(), lists[i].end(), neighbors_.begin() + start_[i]);
  }
  built_at_ = particles.position;
  ++builds_;
}

}  // namespace novamd::neighbors
