// The geometry of the GPU's cluster pair lists (neighbors/cluster_grid.hpp), on the host: the
// columns hold every partner within reach, the column offsets visit each column once, positions
// outside the box land in the column of their periodic image, and a cluster's bounds give a
// lower bound on the distance of any of its particles to any of another's, and to any point,
// under the minimum image (the tests that decide which partners a tile holds), tight for single
// particles; and the search for a cluster's partners, run on the host over clusters made as
// the GPU's build makes them, finds the cluster of every pair within range exactly once.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/neighbors/cluster_grid.hpp"

namespace {

using novamd::core::Box;
using novamd::core::Vec3;
using novamd::neighbors::bounds_around;
using novamd::neighbors::bounds_gap_squared;
using novamd::neighbors::cluster_columns;
using novamd::neighbors::ClusterBounds;
using novamd::neighbors::ClusterColumns;
using novamd::neighbors::ClusterSearchView;
using novamd::neighbors::column_of;
using novamd::neighbors::kClusterSize;

/// The columns a particle at x falls in along an axis of n columns, minus those of y, taken
/// the short way round: the offset the search must reach.
int column_offset(double x, double y, double length, int n) {
  int d = column_of(x, 1.0 / length, n) - column_of(y, 1.0 / length, n);
  if (d > n / 2) d -= n;
  if (d < -n / 2) d += n;
  return std::abs(d);
}

TEST(ClusterGrid, ColumnsHoldAboutOneClusterPerCubeAndReachEveryPartner) {
  // 8,000 waters at 1 g/cm^3 (24,000 atoms, 62.1 A), lists to 11.2 A.
  const Box box(62.1, 62.1, 62.1);
  const double range = 11.2;
  const auto c = cluster_columns(box, 24000, range);
  EXPECT_EQ(c.nx, 9);  // (32 / 0.1002)^(1/3) = 6.83 A: 9 columns of 6.9 A
  EXPECT_EQ(c.ny, 9);
  EXPECT_EQ(c.reach_x, 2);
  EXPECT_EQ(c.reach_y, 2);
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const auto view = box.view<double>();
  int within = 0;
  for (int k = 0; k < 200000; ++k) {
    const Vec3<double> a{62.1 * unit(rng), 62.1 * unit(rng), 62.1 * unit(rng)};
    const Vec3<double> b{62.1 * unit(rng), 62.1 * unit(rng), 62.1 * unit(rng)};
    const auto d = view.minimum_image(a - b);
    if (std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z) >= range) continue;
    ++within;
    ASSERT_LE(column_offset(a.x, b.x, 62.1, c.nx), c.reach_x);
    ASSERT_LE(column_offset(a.y, b.y, 62.1, c.ny), c.reach_y);
  }
  EXPECT_GT(within, 1000);
  // A dilute or small system: still at least one column per axis.
  const auto one = cluster_columns(Box(10.0, 10.0, 10.0), 3, 4.0);
  EXPECT_EQ(one.count(), 1);
}

TEST(ClusterGrid, OffsetsVisitEachColumnOnce) {
  for (int columns = 1; columns <= 12; ++columns) {
    for (int reach = 1; reach <= 4; ++reach) {
      for (int own = 0; own < columns; ++own) {
        std::multiset<int> seen;
        for (int d = ClusterColumns::first_offset(columns, reach);
             d <= ClusterColumns::last_offset(columns, reach); ++d)
          seen.insert(((own + d) % columns + columns) % columns);
        const int expected = std::min(columns, 2 * reach + 1);
        ASSERT_EQ(int(seen.size()), expected) << columns << " columns, reach " << reach;
        for (int c : seen) ASSERT_EQ(seen.count(c), 1u) << columns << " columns, reach " << reach;
        for (int d = -reach; d <= reach; ++d)  // every column within reach is among them
          ASSERT_EQ(seen.count(((own + d) % columns + columns) % columns), 1u);
      }
    }
  }
}

TEST(ClusterGrid, PositionsOutsideTheBoxFallInTheirImagesColumn) {
  const double length = 30.0, inverse = 1.0 / length;
  EXPECT_EQ(column_of(-0.1, inverse, 5), 4);
  EXPECT_EQ(column_of(30.1, inverse, 5), 0);
  EXPECT_EQ(column_of(65.0, inverse, 5), 0);  // 5 A into the next image but one
  EXPECT_EQ(column_of(29.999999999, inverse, 5), 4);
  EXPECT_EQ(column_of(6.0, inverse, 5), 1);
  EXPECT_EQ(column_of(-1e-300, inverse, 5), 4);  // wraps to just below 30: never column 5
  EXPECT_EQ(column_of(-1e-20f, float(inverse), 5), 4);
}

/// Bounds of `points` as cluster_bounds_kernel takes them: offsets under the minimum image from
/// the first point.
ClusterBounds<double> bounds_of(const std::vector<Vec3<double>>& points, const Box& box) {
  const auto view = box.view<double>();
  Vec3<double> lo{0, 0, 0}, hi{0, 0, 0};
  for (const auto& p : points) {
    const auto d = view.minimum_image(p - points[0]);
    lo = {std::min(lo.x, d.x), std::min(lo.y, d.y), std::min(lo.z, d.z)};
    hi = {std::max(hi.x, d.x), std::max(hi.y, d.y), std::max(hi.z, d.z)};
  }
  return bounds_around(points[0], lo, hi);
}

TEST(ClusterGrid, BoundsGapIsALowerBoundOnEveryPairsDistance) {
  const Box box(30.0, 24.0, 36.0);
  const auto view = box.view<double>();
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  // Clusters of 32 points within 7 A of a random centre, wrapped into the box (some across a
  // periodic face).
  const auto cluster = [&] {
    const Vec3<double> centre{30.0 * unit(rng), 24.0 * unit(rng), 36.0 * unit(rng)};
    std::vector<Vec3<double>> points;
    for (int k = 0; k < 32; ++k) {
      Vec3<double> p{centre.x + 7.0 * (unit(rng) - 0.5), centre.y + 7.0 * (unit(rng) - 0.5),
                     centre.z + 7.0 * (unit(rng) - 0.5)};
      points.push_back(view.wrap(p));
    }
    return points;
  };
  int close = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const auto a = cluster(), b = cluster();
    const double gap2 = bounds_gap_squared(bounds_of(a, box), bounds_of(b, box), view);
    double nearest2 = 1e300;
    for (const auto& p : a)
      for (const auto& q : b) {
        const auto d = view.minimum_image(p - q);
        nearest2 = std::min(nearest2, d.x * d.x + d.y * d.y + d.z * d.z);
      }
    ASSERT_LE(gap2, nearest2 * (1 + 1e-12)) << "trial " << trial;
    if (gap2 > 0) ++close;
    for (const auto& q : b) {  // each particle of b against the bounds of a
      double nearest_to_q = 1e300;
      for (const auto& p : a) {
        const auto d = view.minimum_image(p - q);
        nearest_to_q = std::min(nearest_to_q, d.x * d.x + d.y * d.y + d.z * d.z);
      }
      ASSERT_LE(novamd::neighbors::point_gap_squared(bounds_of(a, box), q, view),
                nearest_to_q * (1 + 1e-12))
          << "trial " << trial;
    }
  }
  EXPECT_GT(close, 100);  // the bound is not trivially zero
  // One particle each: the bound is the distance itself.
  const Vec3<double> p{29.5, 1.0, 2.0}, q{0.5, 23.0, 35.0};
  const auto d = view.minimum_image(p - q);
  EXPECT_NEAR(bounds_gap_squared(bounds_of({p}, box), bounds_of({q}, box), view),
              d.x * d.x + d.y * d.y + d.z * d.z, 1e-12);
}

/// Clusters as cluster_pairs_cuda.cuh's build makes them: particles sorted by column, then z;
/// each column's run padded to whole clusters (-1 slots).
struct HostClusters {
  ClusterColumns columns;
  std::vector<int> slot_particle, column_slot, cluster_column;
  std::vector<ClusterBounds<double>> bounds;
};

HostClusters make_clusters(const std::vector<Vec3<double>>& pos, const Box& box, double range) {
  HostClusters h;
  const auto& L = box.length();
  h.columns = cluster_columns(box, pos.size(), range);
  const int columns = h.columns.count();
  std::vector<std::vector<std::pair<double, int>>> in_column(columns);
  for (int i = 0; i < int(pos.size()); ++i) {
    const int cx = column_of(pos[i].x, 1.0 / L.x, h.columns.nx);
    const int cy = column_of(pos[i].y, 1.0 / L.y, h.columns.ny);
    const double z = pos[i].z / L.z - std::floor(pos[i].z / L.z);
    in_column[cy * h.columns.nx + cx].push_back({z, i});
  }
  for (int c = 0; c < columns; ++c) {
    std::stable_sort(in_column[c].begin(), in_column[c].end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    h.column_slot.push_back(int(h.slot_particle.size()));
    for (const auto& [z, i] : in_column[c]) h.slot_particle.push_back(i);
    while (h.slot_particle.size() % kClusterSize != 0) h.slot_particle.push_back(-1);
    for (std::size_t q = h.column_slot.back() / kClusterSize;
         q < h.slot_particle.size() / kClusterSize; ++q)
      h.cluster_column.push_back(c);
  }
  h.column_slot.push_back(int(h.slot_particle.size()));
  for (std::size_t q = 0; q < h.cluster_column.size(); ++q) {
    std::vector<Vec3<double>> members;
    for (int l = 0; l < kClusterSize; ++l)
      if (const int a = h.slot_particle[q * kClusterSize + l]; a >= 0) members.push_back(pos[a]);
    h.bounds.push_back(bounds_of(members, box));
  }
  return h;
}

/// x moved to its periodic image nearest c along an axis of length l (the cluster kernel's
/// image_near, in double).
double image_near(double x, double c, double l) {
  return x - l * std::nearbyint((x - c) / l);
}

// Where single_image_fits holds, a cluster's particle and any partner within the cutoff, both
// moved by up to half the skin since the build and wrapped into the box, each moved to its
// image nearest the cluster's centre, are separated by their minimum image; in a box too small
// beside the cluster it does not hold.
TEST(ClusterGrid, OneImageNearTheCentreServesEveryPairWithinTheCutoff) {
  const double cutoff = 10.0, skin = 1.2, reach = cutoff + skin;
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const auto in_ball = [&](double radius) {
    Vec3<double> v;
    do v = {2 * unit(rng) - 1, 2 * unit(rng) - 1, 2 * unit(rng) - 1};
    while (dot(v, v) > 1);
    return radius * v;
  };
  int single = 0;
  for (const double edge : {31.0, 25.0, 40.0}) {
    const Box box(edge, 36.0, 30.0);
    const auto view = box.view<double>();
    for (int trial = 0; trial < 4000; ++trial) {
      const Vec3<double> centre{edge * unit(rng), 36.0 * unit(rng), 30.0 * unit(rng)};
      const ClusterBounds<double> b{centre.x,          centre.y,          centre.z,
                                    1 + 3 * unit(rng), 1 + 3 * unit(rng), 1 + 3 * unit(rng)};
      if (!novamd::neighbors::single_image_fits(b, reach, view)) continue;
      ++single;
      // A particle of the cluster at the build, then moved by up to skin/2; a partner within
      // the cutoff of where it is now.
      const Vec3<double> built{b.cx + b.hx * (2 * unit(rng) - 1), b.cy + b.hy * (2 * unit(rng) - 1),
                               b.cz + b.hz * (2 * unit(rng) - 1)};
      const Vec3<double> pi = built + in_ball(0.5 * skin);
      const Vec3<double> pj = pi + in_ball(cutoff);
      const Vec3<double> wi = view.wrap(pi), wj = view.wrap(pj);
      const Vec3<double> shown{image_near(wi.x, b.cx, edge) - image_near(wj.x, b.cx, edge),
                               image_near(wi.y, b.cy, 36.0) - image_near(wj.y, b.cy, 36.0),
                               image_near(wi.z, b.cz, 30.0) - image_near(wj.z, b.cz, 30.0)};
      const auto expected = view.minimum_image(wi - wj);
      ASSERT_NEAR(shown.x, expected.x, 1e-9) << edge << " " << trial;
      ASSERT_NEAR(shown.y, expected.y, 1e-9) << edge << " " << trial;
      ASSERT_NEAR(shown.z, expected.z, 1e-9) << edge << " " << trial;
    }
  }
  EXPECT_GT(single, 4000);  // the 31 and 40 A boxes hold most clusters, the 25 A box none
  const ClusterBounds<double> wide{0, 0, 0, 3.0, 3.0, 3.0};
  EXPECT_TRUE(
      novamd::neighbors::single_image_fits(wide, reach, Box(28.5, 28.5, 28.5).view<double>()));
  EXPECT_FALSE(
      novamd::neighbors::single_image_fits(wide, reach, Box(28.3, 28.5, 28.5).view<double>()));
}

TEST(ClusterGrid, SearchFindsTheClusterOfEveryPairWithinRangeOnce) {
  // 3,000 particles at water's atom density in a box of 31 x 33 x 30.5 A, lists to 10.08 A (the
  // smallest box that holds three list cells per axis is 30.2 A), and 20,000 in a larger box.
  for (const auto& [n, edges] : std::vector<std::pair<int, std::array<double, 3>>>{
           {3000, {31.0, 33.0, 30.5}}, {20000, {60.0, 58.0, 57.0}}}) {
    const Box box(edges[0], edges[1], edges[2]);
    const auto view = box.view<double>();
    const double range = 10.08;
    std::mt19937_64 rng(n);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<Vec3<double>> pos;
    for (int i = 0; i < n; ++i)
      pos.push_back({edges[0] * unit(rng), edges[1] * unit(rng), edges[2] * unit(rng)});
    const HostClusters h = make_clusters(pos, box, range);
    const ClusterSearchView<double> search{
        h.columns, h.column_slot.data(),  h.cluster_column.data(), h.bounds.data(),
        view,      range * range * 1.0001};
    const int clusters = int(h.cluster_column.size());
    std::vector<std::map<int, int>> visits(clusters);  // cluster -> partner cluster -> times
    for (int i = 0; i < clusters; ++i)
      novamd::neighbors::for_each_cluster_partner(i, search, [&](int j) {
        ASSERT_GT(j, i);
        ++visits[i][j];
      });
    for (const auto& v : visits)
      for (const auto& [j, times] : v) ASSERT_EQ(times, 1) << "cluster " << j << " visited twice";
    std::vector<int> cluster_of(n);
    for (std::size_t s = 0; s < h.slot_particle.size(); ++s)
      if (h.slot_particle[s] >= 0) cluster_of[h.slot_particle[s]] = int(s / kClusterSize);
    long long pairs = 0;
    for (int a = 0; a < n; ++a)
      for (int b = a + 1; b < n; ++b) {
        const auto d = view.minimum_image(pos[a] - pos[b]);
        if (d.x * d.x + d.y * d.y + d.z * d.z >= range * range) continue;
        ++pairs;
        const int ca = cluster_of[a], cb = cluster_of[b];
        if (ca == cb) continue;  // the cluster's own tile
        const int lo = std::min(ca, cb), hi = std::max(ca, cb);
        const int partner = lo == ca ? b : a;
        ASSERT_EQ(visits[lo].count(hi), 1u) << "particles " << a << ", " << b;
        ASSERT_LT(novamd::neighbors::point_gap_squared(h.bounds[lo], pos[partner], view),
                  search.limit_squared);
      }
    EXPECT_GT(pairs, 100 * n);  // about 430 partners each: the test ran on a dense system
  }
}

}  // namespace
