// Verlet lists against the all-pairs reference in a box too small for the cell stencil (every
// particle a candidate), after moving particles by just under half the skin without a rebuild
// and after removing particles, and in a dilute gas whose cell grid is capped (cell lists too);
// rebuild triggers; bitwise independence of the thread count; the lists themselves against a
// double loop, the same for any thread count. Lists built on the stencil, against all pairs in
// every force term and precision: ForceTerms (test_force_terms.cpp).

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "novamd/forces/force_settings.hpp"
#include "novamd/neighbors/all_pairs_cpu.hpp"
#include "novamd/neighbors/cell_list_cpu.hpp"
#include "novamd/neighbors/neighbor_list_cpu.hpp"
#include "support/systems.hpp"

namespace {

using novamd::backend::BackendSetup;
using novamd::core::ParticleData;
using novamd::neighbors::ForceBuffers;
using novamd::neighbors::VerletList;
using Evaluator = novamd::physics::Truncated<novamd::physics::LennardJones<double>, false>;
constexpr double kCutoff = 2.5, kSkin = 0.3;

/// A three-species LJ mixture at density 0.7, no two particles closer than 0.85.
BackendSetup lj_system(std::size_t n, double min_edge, std::uint64_t seed) {
  const double edge = std::max(std::cbrt(n / 0.7 / (0.9 * 1.1)), min_edge);
  return novamd::test::random_mixture(n, edge, seed, 1.0, 0.85);
}

novamd::physics::PairTable<Evaluator::Params> lj_table(const BackendSetup& s) {
  novamd::forces::LennardJonesSettings lj;
  lj.pairs = {{"A", "A", 1.0, 1.0}, {"B", "B", 0.7, 0.95}, {"C", "C", 1.3, 1.05}};
  lj.cutoff = kCutoff;
  lj.truncation = novamd::forces::Truncation::ShiftEnergy;
  return novamd::physics::with_cutoff<novamd::physics::LennardJones<double>, false>(
      lj.potential_table<double>(s.species, s.units), kCutoff, lj.truncation);
}

ForceBuffers all_pairs(const ParticleData& p, const novamd::core::Box& box,
                       const novamd::physics::PairTable<Evaluator::Params>& table) {
  ForceBuffers out;
  out.reset(p.size());
  novamd::neighbors::all_pairs_cpu<Evaluator, double, true>(p, box.view<double>(), table.view(),
                                                            out);
  return out;
}

ForceBuffers with_list(const ParticleData& p, const novamd::core::Box& box,
                       const novamd::physics::PairTable<Evaluator::Params>& table,
                       const VerletList& list) {
  ForceBuffers out;
  out.reset(p.size());
  novamd::neighbors::neighbor_list_cpu<Evaluator, double, true>(p, box.view<double>(), table.view(),
                                                                list, out);
  return out;
}

/// Same forces, energy and virial up to the summation order: 4 N eps of the largest force.
void expect_same(const ForceBuffers& a, const ForceBuffers& b, const char* what) {
  double f_max = 0;
  for (std::size_t i = 0; i < a.force.size(); ++i) f_max = std::max(f_max, std::abs(a.force.x[i]));
  const double tol = 4.0 * a.force.size() * std::numeric_limits<double>::epsilon() * f_max;
  for (std::size_t i = 0; i < a.force.size(); ++i) {
    ASSERT_NEAR(a.force.x[i], b.force.x[i], tol) << what << ", particle " << i;
    ASSERT_NEAR(a.force.y[i], b.force.y[i], tol) << what << ", particle " << i;
    ASSERT_NEAR(a.force.z[i], b.force.z[i], tol) << what << ", particle " << i;
  }
  const double e = a.total_energy();
  EXPECT_NEAR(b.total_energy(), e, 4.0 * a.force.size() * 1e-16 * std::abs(e)) << what;
  for (int q = 0; q < novamd::core::kTensorComponents; ++q) {
    const double w = a.total_virial().c[q];
    EXPECT_NEAR(b.total_virial().c[q], w, 1e-12 * std::abs(a.total_virial().trace())) << what;
  }
}

/// Moves every particle by `distance` in a random direction, wrapped into the box.
void displace(ParticleData& p, const novamd::core::Box& box, double distance, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  const auto view = box.view<double>();
  for (std::size_t i = 0; i < p.size(); ++i) {
    novamd::core::Vec3<double> u{normal(rng), normal(rng), normal(rng)};
    u *= distance / std::sqrt(novamd::core::dot(u, u));
    p.position.set(i, view.wrap(p.position.get(i) + u));
  }
}

class NeighborListVsAllPairs : public testing::TestWithParam<double> {};

TEST_P(NeighborListVsAllPairs, SameForcesBeforeAndAfterMovesAndRemovals) {
  // Box edge parameter: 6.0 gives fewer than 3 cells of rc + skin per axis (double-loop build;
  // a box with a cell grid is ForceTerms's).
  auto s = lj_system(GetParam() > 10 ? 1200 : 150, GetParam(), 7);
  const auto table = lj_table(s);
  VerletList list(kCutoff, kSkin);
  EXPECT_TRUE(list.update(s.particles, s.box));
  expect_same(all_pairs(s.particles, s.box, table), with_list(s.particles, s.box, table, list),
              "fresh list");

  // Just under half the skin: the list stays, and no pair within rc is missed.
  displace(s.particles, s.box, 0.49 * kSkin, 11);
  EXPECT_FALSE(list.update(s.particles, s.box));
  expect_same(all_pairs(s.particles, s.box, table), with_list(s.particles, s.box, table, list),
              "moved by 0.49 skin");

  // One particle further than half the skin: rebuilt.
  auto moved = s.particles;
  moved.position.x[3] =
      s.box.view<double>()
          .wrap(moved.position.get(3) + novamd::core::Vec3<double>{0.51 * kSkin, 0, 0})
          .x;
  EXPECT_TRUE(list.update(moved, s.box));
  EXPECT_EQ(list.builds(), 2);

  // Every third particle removed: the count changed, so the list is rebuilt.
  ParticleData fewer;
  for (std::size_t i = 0; i < moved.size(); ++i) {
    if (i % 3 == 0) continue;
    const std::size_t k = fewer.size();
    fewer.resize(k + 1);
    fewer.position.set(k, moved.position.get(i));
    fewer.type[k] = moved.type[i];
    fewer.id[k] = moved.id[i];
  }
  EXPECT_TRUE(list.update(fewer, s.box));
  expect_same(all_pairs(fewer, s.box, table), with_list(fewer, s.box, table, list), "removed");
}

INSTANTIATE_TEST_SUITE_P(Boxes, NeighborListVsAllPairs, testing::Values(6.0));

/// The positions and the box scaled by (mx, my, mz), as a barostat's move scales them.
void scale_box(ParticleData& p, novamd::core::Box& box, double mx, double my, double mz) {
  for (std::size_t i = 0; i < p.size(); ++i) {
    p.position.x[i] *= mx;
    p.position.y[i] *= my;
    p.position.z[i] *= mz;
  }
  const auto& L = box.length();
  box = novamd::core::Box(L.x * mx, L.y * my, L.z * mz);
}

// A list follows the box's moves (VerletList::follow_box): with the box shrunk by 1% and every
// particle moved by less than the reach left, (0.99 x 2.8 - 2.5) / 2 = 0.136, it is not built
// again and gives the forces of all pairs; a move beyond the reach, and a shrink that leaves
// none, build it again.
TEST(NeighborList, FollowsTheBoxWhileItsReachLasts) {
  auto s = lj_system(1200, 0.0, 11);
  const auto table = lj_table(s);
  ParticleData p = s.particles;
  novamd::core::Box box = s.box;
  VerletList list(kCutoff, kSkin);
  list.update(p, box);
  const auto follow = [&](double mx, double my, double mz) {
    scale_box(p, box, mx, my, mz);
    list.follow_box(box);
    EXPECT_TRUE(list.check_due());
  };
  follow(0.99, 0.995, 1.0);
  displace(p, box, 0.12, 3);
  EXPECT_FALSE(list.update(p, box)) << "built again within its reach";
  expect_same(all_pairs(p, box, table), with_list(p, box, table, list), "after a shrink");
  follow(1.01, 1.01, 1.01);  // the reach grows back: (0.9999 x 2.8 - 2.5) / 2 = 0.1499
  EXPECT_FALSE(list.update(p, box)) << "built again after a growth";
  expect_same(all_pairs(p, box, table), with_list(p, box, table, list), "after a growth");
  EXPECT_EQ(list.builds(), 1);
  follow(0.9, 1.0, 1.0);  // reach 0.0099, less than the particles' moves since the build
  EXPECT_TRUE(list.update(p, box)) << "not built again beyond its reach";
  expect_same(all_pairs(p, box, table), with_list(p, box, table, list), "after a rebuild");
  follow(0.85, 1.0, 1.0);  // no reach left (0.85 x 2.8 < 2.5): built again whatever the moves
  EXPECT_TRUE(list.update(p, box)) << "not built again without reach";
  EXPECT_EQ(list.builds(), 3);
  expect_same(all_pairs(p, box, table), with_list(p, box, table, list), "after a deep shrink");
}

TEST(NeighborList, BitwiseIndependentOfThreadCount) {
  const auto s = lj_system(5000, 12.0, 3);  // above kMinParallelListTargets: threads used
  const auto table = lj_table(s);
  const int saved = omp_get_max_threads();
  std::vector<ForceBuffers> results;
  for (int threads : {1, 2, 3}) {
    omp_set_num_threads(threads);
    VerletList list(kCutoff, kSkin);
    list.update(s.particles, s.box);
    results.push_back(with_list(s.particles, s.box, table, list));
  }
  omp_set_num_threads(saved);
  for (std::size_t k = 1; k < results.size(); ++k) {
    EXPECT_EQ(results[k].force.x, results[0].force.x);
    EXPECT_EQ(results[k].energy, results[0].energy);
  }
}

/// The neighbours of each particle within the list range, by a plain double loop.
std::vector<std::vector<int>> brute_force_lists(const ParticleData& p, const novamd::core::Box& box,
                                                double range) {
  const auto view = box.view<double>();
  std::vector<std::vector<int>> lists(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) {
    for (std::size_t j = 0; j < p.size(); ++j) {
      const auto d = view.minimum_image(p.position.get(i) - p.position.get(j));
      if (j != i && novamd::core::dot(d, d) < range * range)
        lists[i].push_back(static_cast<int>(j));
    }
  }
  return lists;
}

class NeighborListBuild : public testing::TestWithParam<std::pair<std::size_t, double>> {};

TEST_P(NeighborListBuild, CompleteAndIndependentOfThreadCount) {
  // (particles, box edge parameter): 5000 in a box of 12 to 15 cells of half the range per axis
  // (threads used); 400 in about 8.3 x 7.5 x 9.1, 5 or 6 cells per axis (the stencil wraps on both
  // sides); 150 in a box under 2.5 ranges (every particle a candidate).
  const auto [n, edge] = GetParam();
  const auto s = lj_system(n, edge, 5);
  const auto expected = brute_force_lists(s.particles, s.box, kCutoff + kSkin);
  const int saved = omp_get_max_threads();
  std::vector<VerletList> lists;
  for (int threads : {1, 2, 3}) {
    omp_set_num_threads(threads);
    lists.emplace_back(kCutoff, kSkin);
    lists.back().update(s.particles, s.box);
  }
  omp_set_num_threads(saved);
  for (std::size_t k = 1; k < lists.size(); ++k) {
    EXPECT_EQ(lists[k].start(), lists[0].start()) << k + 1 << " threads";
    EXPECT_EQ(lists[k].neighbors(), lists[0].neighbors()) << k + 1 << " threads";
  }
  const auto& list = lists[0];
  for (std::size_t i = 0; i < s.particles.size(); ++i) {
    std::vector<int> got(list.neighbors().begin() + list.start()[i],
                         list.neighbors().begin() + list.start()[i + 1]);
    std::sort(got.begin(), got.end());
    ASSERT_EQ(got, expected[i]) << "particle " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Boxes, NeighborListBuild,
                         testing::Values(std::pair<std::size_t, double>{5000, 12.0},
                                         std::pair<std::size_t, double>{400, 8.0},
                                         std::pair<std::size_t, double>{150, 6.0}));

/// A cluster of `n` particles (the dense mixture of lj_system) in a box 10^4 times wider, part of
/// it across the box's corner: a dilute gas whose pairs within the cutoff are many.
BackendSetup dilute_cluster(std::size_t n, novamd::core::Box box) {
  auto s = lj_system(n, 8.0, 9);
  const auto view = box.view<double>();
  for (std::size_t i = 0; i < n; ++i)
    s.particles.position.set(
        i, view.wrap(s.particles.position.get(i) - novamd::core::Vec3<double>{4.0, 3.0, 0.5}));
  s.box = box;
  return s;
}

// Cells of half the list range in a box of 8e4 x 7e4 x 9e4 would number 4e14: the grid is capped
// at a few cells per particle, and the lists and cell lists still find every pair.
TEST(NeighborList, DiluteGasInAHugeBoxMatchesAllPairs) {
  const auto s = dilute_cluster(300, novamd::core::Box(8e4, 7e4, 9e4));
  const auto table = lj_table(s);
  VerletList list(kCutoff, kSkin);
  list.update(s.particles, s.box);
  const auto reference = all_pairs(s.particles, s.box, table);
  ASSERT_GT(std::abs(reference.total_energy()), 100.0);  // many pairs within the cutoff
  expect_same(reference, with_list(s.particles, s.box, table, list), "Verlet list");
  novamd::neighbors::CellGrid grid;
  grid.build(s.particles, s.box, kCutoff);
  EXPECT_LE(static_cast<double>(grid.dims()[0]) * grid.dims()[1] * grid.dims()[2], 4.0 * 300);
  ForceBuffers cells;
  cells.reset(s.particles.size());
  novamd::neighbors::cell_list_cpu<Evaluator, double, true>(s.particles, s.box.view<double>(),
                                                            table.view(), grid, cells);
  expect_same(reference, cells, "cell list");
}

// A long, thin box whose capped grid has fewer than 3 cells across: both traversals fall back to
// every particle as a candidate.
TEST(NeighborList, CappedGridOfFewCellsAcrossMatchesAllPairs) {
  const auto s = dilute_cluster(40, novamd::core::Box(1e7, 20.0, 20.0));
  const auto table = lj_table(s);
  novamd::neighbors::CellGrid grid;
  grid.build(s.particles, s.box, kCutoff);
  EXPECT_FALSE(grid.has_distinct_neighbours());
  EXPECT_LE(grid.cell_count(), 160);
  ForceBuffers cells;
  cells.reset(s.particles.size());
  novamd::neighbors::cell_list_cpu<Evaluator, double, true>(s.particles, s.box.view<double>(),
                                                            table.view(), grid, cells);
  const auto reference = all_pairs(s.particles, s.box, table);
  expect_same(reference, cells, "cell list");
  VerletList list(kCutoff, kSkin);
  list.update(s.particles, s.box);
  expect_same(reference, with_list(s.particles, s.box, table, list), "Verlet list");
}

}  // namespace
