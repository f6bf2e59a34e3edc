#include "novamd/neighbors/verlet_list.hpp"

#include <omp.h>

#include <algorithm>
#include <cstddef>

#include "novamd/neighbors/list_reach.hpp"
#include "novamd/neighbors/target_sums.hpp"

namespace novamd::neighbors {
namespace {

/// Items [first, last) of `n` that thread `t` of `threads` owns: contiguous, in order.
std::pair<std::ptrdiff_t, std::ptrdiff_t> chunk(std::ptrdiff_t n, int t, int threads) {
  return {n * t / threads, n * (t + 1) / threads};
}

}  // namespace

bool VerletList::update(const core::ParticleData& particles, const core::Box& box) {
  check_due_ = false;
  if (!needs_rebuild(particles, box)) return false;
  build(particles, box);
  return true;
}

void VerletList::follow_box(const core::Box& box) {
  if (builds_ == 0) return;
  const auto& now = box.length();
  const auto& then = built_box_.length();
  scale_ = {now.x / then.x, now.y / then.y, now.z / then.z};
  stale_ = moved_limit() <= 0.0;
  check_due_ = true;
}

void VerletList::restore(const core::ParticleData& particles, const core::Vec3Array& built_at,
                         std::int64_t builds, const core::Box& built_box, const core::Box& box) {
  core::ParticleData then = particles;
  then.position = built_at;
  build(then, built_box.volume() > 0.0 ? built_box : box);
  builds_ = builds;
  follow_box(box);
  check_due_ = false;  // the run's own next check is the uninterrupted run's
}

double VerletList::moved_limit() const {
  return followed_list_reach(cutoff_, skin_, scale_);
}

bool VerletList::needs_rebuild(const core::ParticleData& particles, const core::Box& box) const {
  if (builds_ == 0 || stale_ || built_at_.size() != particles.size()) return true;
  const auto view = box.view<double>();
  const double limit = moved_limit() * moved_limit();  // (skin / 2)^2 in the box of the build
  for (std::size_t i = 0; i < particles.size(); ++i) {
    const auto b = built_at_.get(i);
    const core::Vec3<double> scaled{scale_.x * b.x, scale_.y * b.y, scale_.z * b.z};
    const auto d = view.minimum_image(particles.position.get(i) - scaled);
    if (core::dot(d, d) > limit) return true;
  }
  return false;
}

/// Copies into `c` the particles of the cells within kReach cells of cell `cell` along each
/// axis, as the periodic images nearest to that cell (rows by z then y, cells by x; particles
/// of a cell in storage order); every particle, unshifted, without a stencil.
void VerletList::gather_candidates(int cell, const core::Box& box, Candidates& c) const {
  const auto& start = grid_.start();
  const auto& order = grid_.order();
  struct Run {
    int first, last;
    double sx, sy, sz;  ///< shift to the image nearest to the target cell
  };
  Run runs[2 * (2 * kReach + 1) * (2 * kReach + 1)];  // rows split where they wrap
  int run_count = 0;
  if (!stencil_) {
    runs[run_count++] = {0, start.back(), 0, 0, 0};
  } else {
    const auto& dims = grid_.dims();
    const auto& L = box.length();
    const auto at = grid_.coordinates(cell);
    // A neighbouring cell's coordinate a wrapped into [0, n), and the shift of its image.
    const auto wrap = [](int a, int n, double length, double& shift) {
      shift = a < 0 ? -length : a >= n ? length : 0.0;
      return a < 0 ? a + n : a >= n ? a - n : a;
    };
    const int nx = dims[0];
    const int lo = at[0] - kReach, hi = at[0] + kReach;  // cells lo..hi of each row
    for (int dz = -kReach; dz <= kReach; ++dz) {
      double sz = 0, sy = 0;
      const int plane = wrap(at[2] + dz, dims[2], L.z, sz) * dims[1];
      for (int dy = -kReach; dy <= kReach; ++dy) {
        const int row = (plane + wrap(at[1] + dy, dims[1], L.y, sy)) * nx;  // cell x = 0
        if (lo < 0) runs[run_count++] = {start[row + nx + lo], start[row + nx], -L.x, sy, sz};
        runs[run_count++] = {start[row + std::max(lo, 0)], start[row + std::min(hi, nx - 1) + 1], 0,
                             sy, sz};
        if (hi >= nx) runs[run_count++] = {start[row], start[row + hi - nx + 1], L.x, sy, sz};
      }
    }
  }
  std::size_t total = 0;
  for (int r = 0; r < run_count; ++r) total += runs[r].last - runs[r].first;
  if (c.j.size() < total) {  // grown, never shrunk: no clearing between cells
    c.x.resize(total);
    c.y.resize(total);
    c.z.resize(total);
    c.j.resize(total);
  }
  c.count = static_cast<int>(total);
  int m = 0;
  for (int r = 0; r < run_count; ++r) {
    const Run& run = runs[r];
    const int length = run.last - run.first;
#pragma omp simd
    for (int k = 0; k < length; ++k) {
      c.x[m + k] = sorted_.x[run.first + k] + run.sx;
      c.y[m + k] = sorted_.y[run.first + k] + run.sy;
      c.z[m + k] = sorted_.z[run.first + k] + run.sz;
      c.j[m + k] = order[run.first + k];
    }
    m += length;
  }
}

/// Appends to `out` the candidates within range of particle i (at ri), in candidate order.
/// The distances run as one SIMD loop; the append is branch-free.
void VerletList::append_neighbours(int i, const core::Vec3<double>& ri, const Candidates& c,
                                   const core::BoxView<double>& box, Scratch& scratch) const {
  const double range_squared = (cutoff_ + skin_) * (cutoff_ + skin_);
  const int n = c.count;
  const double* x = c.x.data();
  const double* y = c.y.data();
  const double* z = c.z.data();
  const int* j = c.j.data();
  if (scratch.inside.size() < static_cast<std::size_t>(n)) scratch.inside.resize(n);
  int* inside = scratch.inside.data();
  if (!stencil_) {  // unshifted candidates: minimum image
#pragma omp simd
    for (int k = 0; k < n; ++k) {
      const auto d = box.minimum_image(core::Vec3<double>{ri.x - x[k], ri.y - y[k], ri.z - z[k]});
      inside[k] = (d.x * d.x + d.y * d.y + d.z * d.z < range_squared) & (j[k] != i);
    }
  } else {  // the candidates are already the nearest images
#pragma omp simd
    for (int k = 0; k < n; ++k) {
      const double dx = ri.x - x[k], dy = ri.y - y[k], dz = ri.z - z[k];
      inside[k] = (dx * dx + dy * dy + dz * dz < range_squared) & (j[k] != i);
    }
  }
  auto& out = scratch.list;
  if (out.size() < scratch.used + n) out.resize(2 * (scratch.used + n));  // never shrunk
  int* dst = out.data() + scratch.used;
  int kept = 0;
  if (!exclusions_.any()) {
    for (int k = 0; k < n; ++k) {  // write always, advance when inside
      dst[kept] = j[k];
      kept += inside[k];
    }
  } else {
    for (int k = 0; k < n; ++k) {
      dst[kept] = j[k];
      kept += inside[k] && !exclusions_.excludes(i, j[k]);
    }
  }
  scratch.used += kept;
}

void VerletList::build(const core::ParticleData& particles, const core::Box& box) {
  exclusions_.id = particles.id.data();
  // Cells of half the range, 5 x 5 x 5 around each target's cell: about 60% of the candidates
  // of 3 x 3 x 3 cells of the whole range. A box of fewer than 5 such cells per axis (shorter
  // than 2.5 ranges) has every particle as a candidate.
  grid_.build(particles, box, (cutoff_ + skin_) / kReach);
  stencil_ = grid_.holds_stencil(kReach);
  const auto& order = grid_.order();
  const auto& cell_start = grid_.start();
  const auto n = static_cast<std::ptrdiff_t>(particles.size());
  sorted_.resize(n);
  for (std::ptrdiff_t k = 0; k < n; ++k) sorted_.set(k, particles.position.get(order[k]));

  // Threads own contiguous ranges of cells (without a stencil, all particles form one "cell") and
  // list their cells' particles into their own buffers; the lists are then copied into target
  // order. A target's list depends only on its cell and position: not on the thread count.
  const int cells = stencil_ ? grid_.cell_count() : 1;
  const auto targets_of = [&](int cell) {
    return stencil_ ? std::pair<int, int>{cell_start[cell], cell_start[cell + 1]}
                    : std::pair<int, int>{0, static_cast<int>(n)};
  };
  const bool parallel = n >= kMinParallelListTargets;
  scratch_.resize(parallel ? omp_get_max_threads() : 1);
  start_.assign(n + 1, 0);
  offset_.resize(n);
  const auto view = box.view<double>();
#pragma omp parallel if (parallel)
  {
    const int t = omp_get_thread_num();
    const auto [first_cell, last_cell] = chunk(cells, t, omp_get_num_threads());
    auto& mine = scratch_[t];
    mine.used = 0;
    for (auto cell = static_cast<int>(first_cell); cell < last_cell; ++cell) {
      const auto [first, last] = targets_of(cell);
      bool any_target = false;
      for (int k = first; k < last && !any_target; ++k) any_target = is_target(order[k]);
      if (!any_target) {  // empty lists for every particle of the cell
        for (int k = first; k < last; ++k) offset_[order[k]] = mine.used;
        continue;
      }
      gather_candidates(cell, box, mine.candidates);
      for (int k = first; k < last; ++k) {
        const int i = order[k];
        offset_[i] = mine.used;
        if (!is_target(i)) continue;
        append_neighbours(i, sorted_.get(k), mine.candidates, view, mine);
        start_[i + 1] = static_cast<std::int64_t>(mine.used - offset_[i]);
      }
    }
#pragma omp barrier
#pragma omp single
    {
      for (std::ptrdiff_t i = 0; i < n; ++i) start_[i + 1] += start_[i];
      neighbors_.resize(start_[n]);
    }
    for (auto cell = static_cast<int>(first_cell); cell < last_cell; ++cell) {
      const auto [first, last] = targets_of(cell);
      for (int k = first; k < last; ++k) {
        const int i = order[k];
        std::copy_n(mine.list.begin() + offset_[i], start_[i + 1] - start_[i],
                    neighbors_.begin() + start_[i]);
      }
    }
  }
  built_at_ = particles.position;
  built_box_ = box;
  scale_ = {1.0, 1.0, 1.0};
  stale_ = false;
  ++builds_;
}

}  // namespace novamd::neighbors
