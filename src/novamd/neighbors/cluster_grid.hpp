#pragma once
/// @file cluster_grid.hpp
/// The geometry of the GPU's cluster pair lists (cluster_pairs_cuda.cuh), on the host and the
/// device: the box divided into columns along x and y, each about as wide as a cube holding one
/// cluster of kClusterSize particles at the mean density; a column's particles sorted along z and
/// cut into clusters of kClusterSize consecutive ones (the last padded with empty slots), as
/// GROMACS's nbnxm grid does (Pall and Hess, Comput. Phys. Commun. 184, 2641 (2013)). A cluster
/// then lies inside its column's footprint and spans about one column width along z, whatever
/// the storage order of the particles.

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "novamd/core/box.hpp"
#include "novamd/core/host_device.hpp"

namespace novamd::neighbors {

/// Particles per cluster: one per lane of a warp.
inline constexpr int kClusterSize = 32;

/// Columns along x and y, and how many columns on either side of a particle's own can hold a
/// particle within `range` of it.
struct ClusterColumns {
  int nx = 1, ny = 1;
  int reach_x = 0, reach_y = 0;

  NOVAMD_HD int count() const { return nx * ny; }
  /// Column offsets visited along an axis of `columns` columns with reach `reach`: -reach ..
  /// reach, or every column once (offsets 0 .. columns - 1) where those would repeat a column.
  NOVAMD_HD static int first_offset(int columns, int reach) {
    return 2 * reach + 1 >= columns ? 0 : -reach;
  }
  NOVAMD_HD static int last_offset(int columns, int reach) {
    return 2 * reach + 1 >= columns ? columns - 1 : reach;
  }
};

/// The columns for n particles in `box` and a list range (cutoff + skin) `range`: side
/// (kClusterSize / density)^(1/3), at least one column per axis. A particle lies inside its
/// column's footprint, so a column whose footprint is `range` or further away along x or y
/// holds no partner: reach = floor(range / width) + 1 columns suffice; the range is taken
/// 1e-4 longer, so that a coordinate rounded (in FP32) into the next column still counts.
inline ClusterColumns cluster_columns(const core::Box& box, std::size_t n, double range) {
  const auto& L = box.length();
  const double density = n > 0 ? double(n) / box.volume() : 1.0 / box.volume();
  const double side = std::cbrt(double(kClusterSize) / density);
  ClusterColumns c;
  c.nx = std::max(1, int(L.x / side));
  c.ny = std::max(1, int(L.y / side));
  c.reach_x = int(1.0001 * range / (L.x / c.nx)) + 1;
  c.reach_y = int(1.0001 * range / (L.y / c.ny)) + 1;
  return c;
}

/// Coordinate x as a fraction of the axis, wrapped into [0, 1] (1 only by rounding).
template <class T>
NOVAMD_HD T wrapped_fraction(T x, T inverse_length) {
  const T u = x * inverse_length;
  return u - floor(u);
}

/// Which of `bins` equal parts of an axis holds coordinate x (0 .. bins - 1), the coordinate
/// wrapped into the box first: a column along x or y, a level along z.
template <class T>
NOVAMD_HD int column_of(T x, T inverse_length, int bins) {
  const int c = int(wrapped_fraction(x, inverse_length) * T(bins));
  return c < 0 ? 0 : (c >= bins ? bins - 1 : c);
}

/// Axis-aligned bounds of a cluster at the last build: centre and half-widths, the particles
/// taken under the minimum image from the cluster's first one (so a cluster across a periodic
/// face stays small).
template <class T>
struct ClusterBounds {
  T cx, cy, cz, hx, hy, hz;
};

/// The bounds of a cluster whose particles lie at first + d, with lo <= d <= hi per axis (d the
/// minimum image of the separation from the first particle).
template <class T>
NOVAMD_HD ClusterBounds<T> bounds_around(const core::Vec3<T>& first, const core::Vec3<T>& lo,
                                         const core::Vec3<T>& hi) {
  return {first.x + T(0.5) * (lo.x + hi.x), first.y + T(0.5) * (lo.y + hi.y),
          first.z + T(0.5) * (lo.z + hi.z), T(0.5) * (hi.x - lo.x),
          T(0.5) * (hi.y - lo.y),           T(0.5) * (hi.z - lo.z)};
}

/// a * b + c rounded after each operation, never fused: the list build's two passes (count,
/// then fill) must reach the same decisions bit for bit, whatever the compiler contracts.
template <class T>
NOVAMD_HD T unfused_multiply_add(T a, T b, T c) {
#ifdef __CUDA_ARCH__
  if constexpr (sizeof(T) == 4) {
    return __fadd_rn(__fmul_rn(a, b), c);
  } else {
    return __dadd_rn(__dmul_rn(a, b), c);
  }
#else
  const volatile T product = a * b;  // no contraction on the host either
  return product + c;
#endif
}

/// A lower bound on the squared distance, under the minimum image of an orthorhombic box,
/// between any particle of cluster a and any of cluster b: per axis, the minimum image of the
/// centres' separation less both half-widths (the triangle inequality for every periodic
/// image).
template <class T>
NOVAMD_HD T bounds_gap_squared(const ClusterBounds<T>& a, const ClusterBounds<T>& b,
                               const core::BoxView<T>& box) {
  const auto d = box.minimum_image({a.cx - b.cx, a.cy - b.cy, a.cz - b.cz});
  const auto gap = [](T separation, T half_widths) {
    const T g = (separation < T(0) ? -separation : separation) - half_widths;
    return g > T(0) ? g : T(0);
  };
  const T gx = gap(d.x, a.hx + b.hx), gy = gap(d.y, a.hy + b.hy), gz = gap(d.z, a.hz + b.hz);
  return unfused_multiply_add(gz, gz,
                              unfused_multiply_add(gy, gy, unfused_multiply_add(gx, gx, T(0))));
}

/// A lower bound on the squared distance, under the minimum image, between the point p and any
/// particle of the cluster with bounds a (bounds_gap_squared with a cluster of one point).
template <class T>
NOVAMD_HD T point_gap_squared(const ClusterBounds<T>& a, const core::Vec3<T>& p,
                              const core::BoxView<T>& box) {
  return bounds_gap_squared(a, ClusterBounds<T>{p.x, p.y, p.z, T(0), T(0), T(0)}, box);
}

/// Whether the periodic image of a partner nearest the cluster's centre is the minimum image for
/// every pair within the cutoff as long as the list holds. Such a pair's particles lie within
/// the skin's half of where they were at the build, the cluster's particle within the half
/// widths of the centre then: the partner lies within reach (cutoff plus skin) plus the half
/// width of the centre along each axis. Where that stays below half the box edge (less 1e-4
/// of it, for the rounding of the centre and the image choice in float), the image nearest the
/// centre is the only one so near: OpenMM's single periodic copy of a block.
template <class T>
NOVAMD_HD bool single_image_fits(const ClusterBounds<T>& b, T reach, const core::BoxView<T>& box) {
  const auto fits = [reach](T half_width, T length) {
    return double(reach) + double(half_width) < 0.4999 * double(length);
  };
  return fits(b.hx, box.length.x) && fits(b.hy, box.length.y) && fits(b.hz, box.length.z);
}

/// Where the search for a cluster's partners looks: the columns, each column's first slot
/// (column c holds slots column_slot[c] .. column_slot[c + 1], whole clusters), each cluster's
/// column and bounds.
template <class T>
struct ClusterSearchView {
  ClusterColumns columns;
  const int* column_slot;
  const int* cluster_column;
  const ClusterBounds<T>* bounds;
  core::BoxView<T> box;
  T limit_squared;  ///< (cutoff + skin)^2, with a little to spare for rounding
};

/// The columns near cluster i's that may hold its partners, in a fixed order (y then x
/// offsets): how many, and the k-th's index.
struct PartnerColumns {
  int cx, cy, nx, ny, x0, y0, width, count;

  template <class T>
  NOVAMD_HD static PartnerColumns around(int i, const ClusterSearchView<T>& s) {
    const int column = s.cluster_column[i];
    const int nx = s.columns.nx, ny = s.columns.ny;
    const int y0 = ClusterColumns::first_offset(ny, s.columns.reach_y);
    const int y1 = ClusterColumns::last_offset(ny, s.columns.reach_y);
    const int x0 = ClusterColumns::first_offset(nx, s.columns.reach_x);
    const int x1 = ClusterColumns::last_offset(nx, s.columns.reach_x);
    const int width = x1 - x0 + 1;
    return {column % nx, column / nx, nx, ny, x0, y0, width, width * (y1 - y0 + 1)};
  }
  NOVAMD_HD int column(int k) const {
    const int y = ((cy + y0 + k / width) % ny + ny) % ny;
    return y * nx + ((cx + x0 + k % width) % nx + nx) % nx;
  }
};

/// Calls visit_range(first, last) for the clusters first .. last - 1 of each column near cluster
/// i's that may hold its partners (those of index above i), columns in PartnerColumns' order.
template <class T, class VisitRange>
NOVAMD_HD void for_each_partner_column(int i, const ClusterSearchView<T>& s,
                                       VisitRange&& visit_range) {
  const PartnerColumns near = PartnerColumns::around(i, s);
  for (int k = 0; k < near.count; ++k) {
    const int c = near.column(k);
    const int last = s.column_slot[c + 1] / kClusterSize;
    const int first = s.column_slot[c] / kClusterSize;
    visit_range(first > i ? first : i + 1, last);
  }
}

/// Calls visit(j) for the clusters j > i whose bounds come within the search's range of cluster
/// i's, columns in a fixed order (for_each_partner_column), clusters by index within each. The
/// same sequence for every lane of a warp that calls it for the same i.
template <class T, class Visit>
NOVAMD_HD void for_each_cluster_partner(int i, const ClusterSearchView<T>& s, Visit&& visit) {
  const ClusterBounds<T> own = s.bounds[i];
  for_each_partner_column(i, s, [&](int first, int last) {
    for (int j = first; j < last; ++j)
      if (bounds_gap_squared(own, s.bounds[j], s.box) < s.limit_squared) visit(j);
  });
}

}  // namespace novamd::neighbors
