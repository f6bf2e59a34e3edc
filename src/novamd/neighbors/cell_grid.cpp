#include "novamd/neighbors/cell_grid.hpp"

#include <algorithm>

namespace novamd::neighbors {

void CellGrid::build(const core::ParticleData& particles, const core::Box& box,
                     double min_cell_size) {
  const auto& L = box.length();
  dims_ = cell_dimensions(box, min_cell_size, particles.size());
  inverse_cell_size_ = {dims_[0] / L.x, dims_[1] / L.y, dims_[2] / L.z};
  const auto n = particles.size();
  cell_.resize(n);
  start_.assign(cell_count() + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {  // assign and count
    cell_[i] = cell_of(particles.position.get(i));
    ++start_[cell_[i] + 1];
  }
  for (int c = 0; c < cell_count(); ++c) start_[c + 1] += start_[c];  // scan
  order_.resize(n);
  std::vector<int> fill(start_.begin(), start_.end() - 1);
  for (std::size_t i = 0; i < n; ++i) order_[fill[cell_[i]]++] = static_cast<int>(i);  // gather
}

int CellGrid::cell_of(const core::Vec3<double>& r) const {
  const auto axis = [](double x, double inverse_size, int dim) {
    return std::clamp(static_cast<int>(x * inverse_size), 0, dim - 1);  // x == L lands in the last
  };
  return wrap_cell(axis(r.x, inverse_cell_size_.x, dims_[0]),
                   axis(r.y, inverse_cell_size_.y, dims_[1]),
                   axis(r.z, inverse_cell_size_.z, dims_[2]));
}

int CellGrid::wrap_cell(int x, int y, int z) const {
  const auto wrap = [](int c, int dim) { return ((c % dim) + dim) % dim; };
  return (wrap(z, dims_[2]) * dims_[1] + wrap(y, dims_[1])) * dims_[0] + wrap(x, dims_[0]);
}

std::array<int, 3> CellGrid::coordinates(int cell) const {
  return {cell % dims_[0], (cell / dims_[0]) % dims_[1], cell / (dims_[0] * dims_[1])};
}

}  // namespace novamd::neighbors
