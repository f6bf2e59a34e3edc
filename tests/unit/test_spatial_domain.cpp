// The spatial decomposition without MPI: the bricks' geometry (owners, periodic distances, the
// least-halo grid), and each rank's partition and halo plan computed apart for every rank of a
// grid (SpatialDomain::layout), as the ranks of a run compute them: every rank orders the
// particles alike, owns the particles in its brick, receives from each rank exactly what that
// rank sends it, and holds as owned or ghost every particle within the halo of an owned one (all
// a Verlet list of that reach can need).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>
#include <random>
#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/core/error.hpp"
#include "novamd/parallel/brick_grid.hpp"
#include "novamd/parallel/spatial_domain.hpp"

namespace {

using novamd::core::Box;
using novamd::core::Vec3;
using novamd::core::Vec3Array;
using novamd::parallel::BrickGrid;
using novamd::parallel::SpatialDomain;

TEST(BrickGrid, OwnerIsTheBrickHoldingThePositionInAnyImage) {
  const BrickGrid grid{{2, 3, 1}};
  const Vec3<double> length{10.0, 9.0, 4.0};
  EXPECT_EQ(grid.owner_of({1.0, 1.0, 1.0}, length), 0);
  EXPECT_EQ(grid.owner_of({6.0, 1.0, 1.0}, length), 1);
  EXPECT_EQ(grid.owner_of({1.0, 4.0, 3.9}, length), 2);    // brick (0, 1, 0)
  EXPECT_EQ(grid.owner_of({9.9, 8.9, 0.0}, length), 5);    // brick (1, 2, 0)
  EXPECT_EQ(grid.owner_of({-0.5, -0.5, 1.0}, length), 5);  // the image at (9.5, 8.5)
  EXPECT_EQ(grid.owner_of({10.5, 9.5, 1.0}, length), 0);   // the image at (0.5, 0.5)
  for (int r = 0; r < grid.ranks(); ++r) EXPECT_EQ(grid.rank_of(grid.coordinates(r)), r);
}

TEST(BrickGrid, DistanceToTheNearestImageOfABrick) {
  const BrickGrid grid{{4, 1, 1}};
  const Vec3<double> length{8.0, 5.0, 5.0};
  // Brick 1 is [2, 4) along x and spans y and z.
  EXPECT_EQ(grid.squared_distance({3.0, 4.9, 0.1}, 1, length), 0.0);
  EXPECT_DOUBLE_EQ(grid.squared_distance({1.5, 0.0, 0.0}, 1, length), 0.25);
  EXPECT_DOUBLE_EQ(grid.squared_distance({5.0, 0.0, 0.0}, 1, length), 1.0);
  // Brick 0 is [0, 2): x = 7.5 lies 0.5 from its image across the boundary, not 5.5.
  EXPECT_DOUBLE_EQ(grid.squared_distance({7.5, 0.0, 0.0}, 0, length), 0.25);
  const BrickGrid cube{{2, 2, 2}};
  const Vec3<double> edge{4.0, 4.0, 4.0};
  // Brick 0 is [0, 2)^3: from (3, 3, 3) one unit along each axis.
  EXPECT_DOUBLE_EQ(cube.squared_distance({3.0, 3.0, 3.0}, 0, edge), 3.0);
}

TEST(BrickGrid, LeastHaloGridFavoursSlabsInSmallBoxesAndCubesInLargeOnes) {
  // 8 ranks, halo 2.8 (an LJ list reach). In a box of edge 10 a brick of 2 x 2 x 2 would read
  // (5 + 5.6)^3 - 125 = 1066 outside itself, a slab (1.25 + 5.6) x 100 - 125 = 560.
  EXPECT_EQ(novamd::parallel::least_halo_grid(8, {10.0, 10.0, 10.0}, 2.8).dims,
            (std::array<int, 3>{1, 1, 8}));
  // In a box of edge 200: 2 x 2 x 2 reads 105.6^3 - 1e6 = 177,584; 8 slabs 25 + 5.6 of
  // 200 x 200 less 1e6: 224,000; 1 x 2 x 4 (50 + 5.6)(100 + 5.6)(200) - 1e6 = 174,336.
  EXPECT_EQ(novamd::parallel::least_halo_grid(8, {200.0, 200.0, 200.0}, 2.8).dims,
            (std::array<int, 3>{1, 2, 4}));
  // A long box is cut across its long axis.
  EXPECT_EQ(novamd::parallel::least_halo_grid(4, {10.0, 10.0, 80.0}, 2.8).dims,
            (std::array<int, 3>{1, 1, 4}));
  EXPECT_EQ(novamd::parallel::least_halo_grid(1, {10.0, 10.0, 10.0}, 2.8).dims,
            (std::array<int, 3>{1, 1, 1}));
}

TEST(BrickGrid, AConfiguredGridMustHoldTheRanks) {
  EXPECT_EQ(novamd::parallel::choose_brick_grid(6, {1, 1, 1}, 0.1, std::array<int, 3>{1, 2, 3},
                                                "parallel.grid")
                .dims,
            (std::array<int, 3>{1, 2, 3}));
  try {
    novamd::parallel::choose_brick_grid(4, {1, 1, 1}, 0.1, std::array<int, 3>{2, 2, 2},
                                        "run.yaml:3: parallel.grid");
    FAIL() << "a grid of 8 bricks on 4 ranks was taken";
  } catch (const novamd::core::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("run.yaml:3: parallel.grid: [2, 2, 2] has 8 bricks, but "
                                         "the run has 4 ranks"),
              std::string::npos)
        << e.what();
  }
}

/// `n` positions uniform in `box`, some of them outside it (images), from `seed`; with
/// `clustered`, four in five of them in a slab of a fifth of the box along each axis (far from
/// uniform, for balanced bricks).
Vec3Array random_positions(std::size_t n, const Box& box, unsigned seed, bool clustered = false) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-0.2, 1.2), slab(0.3, 0.5), pick(0.0, 1.0);
  const auto coordinate = [&] { return clustered && pick(rng) < 0.8 ? slab(rng) : u(rng); };
  Vec3Array a;
  a.resize(n);
  for (std::size_t i = 0; i < n; ++i)
    a.set(i, {coordinate() * box.length().x, coordinate() * box.length().y,
              coordinate() * box.length().z});
  return a;
}

/// Per axis, how many of `x` each slab of `grid` holds.
std::array<std::vector<std::size_t>, 3> slab_counts(const BrickGrid& grid, const Vec3Array& x,
                                                    const Vec3<double>& length) {
  std::array<std::vector<std::size_t>, 3> counts;
  for (int a = 0; a < 3; ++a) counts[a].assign(static_cast<std::size_t>(grid.dims[a]), 0);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const auto c = grid.coordinates(grid.owner_of(x.get(i), length));
    for (int a = 0; a < 3; ++a) ++counts[a][static_cast<std::size_t>(c[a])];
  }
  return counts;
}

TEST(BrickGrid, BalancedPlanesGiveEverySlabAnEqualShareOfTheParticles) {
  BrickGrid grid{{2, 3, 4}};
  const Box box(10.0, 12.0, 14.0);
  const std::size_t n = 1000;
  const Vec3Array x = random_positions(n, box, 77u, /*clustered=*/true);
  const auto before = slab_counts(grid, x, box.length());
  novamd::parallel::balance_by_count(
      grid, n, [&](std::size_t i) { return x.get(i); }, box.length());
  const auto after = slab_counts(grid, x, box.length());
  for (int a = 0; a < 3; ++a) {
    const auto d = static_cast<std::size_t>(grid.dims[a]);
    ASSERT_EQ(grid.planes[a].size(), d - 1);
    for (std::size_t k = 0; k < d; ++k) {
      // Slab k holds the particles ranked (k n / d) to ((k + 1) n / d) - 1 along the axis:
      // continuous coordinates never tie, so the share is exact.
      EXPECT_EQ(after[a][k], (k + 1) * n / d - k * n / d) << "axis " << a << " slab " << k;
      EXPECT_LE(grid.lower(a, static_cast<int>(k)), grid.upper(a, static_cast<int>(k)));
    }
  }
  // The equal bricks were far from it: the clustered slab lies in one or two slabs per axis.
  EXPECT_GT(*std::max_element(before[2].begin(), before[2].end()), n / 2);
}

TEST(BrickGrid, BalancedPlanesSurviveTiesAndFewerParticlesThanSlabs) {
  BrickGrid grid{{4, 1, 1}};
  const Box box(8.0, 8.0, 8.0);
  Vec3Array lattice;  // 2 planes of x only: a slab of the 4 must stay empty
  lattice.resize(6);
  for (std::size_t i = 0; i < 6; ++i) lattice.set(i, {i % 2 ? 6.0 : 2.0, 1.0 * i, 0.5});
  novamd::parallel::balance_by_count(
      grid, lattice.size(), [&](std::size_t i) { return lattice.get(i); }, box.length());
  // Sorted fractions 0.25 x 3, 0.75 x 3: planes halfway between ranks 0|1, 2|3 and 3|4.
  EXPECT_EQ(grid.planes[0], (std::vector<double>{0.25, 0.5, 0.75}));
  const auto counts = slab_counts(grid, lattice, box.length());
  EXPECT_EQ(counts[0], (std::vector<std::size_t>{0, 3, 0, 3}));  // ties go to the upper slab
  for (int r = 0; r < 4; ++r)  // a particle lies at distance 0 from its owner's brick only
    for (std::size_t i = 0; i < lattice.size(); ++i)
      if (grid.owner_of(lattice.get(i), box.length()) == r)
        EXPECT_EQ(grid.squared_distance(lattice.get(i), r, box.length()), 0.0);
  BrickGrid few{{1, 1, 3}};
  Vec3Array one;
  one.resize(1);
  one.set(0, {1.0, 1.0, 4.0});
  novamd::parallel::balance_by_count(
      few, 1, [&](std::size_t i) { return one.get(i); }, box.length());
  // One particle at z = 4 (u = 0.5): both planes halfway below it, at 0.25; it owns slab 2.
  EXPECT_EQ(few.planes[2], (std::vector<double>{0.25, 0.25}));
  EXPECT_EQ(few.owner_of(one.get(0), box.length()), 2);
  EXPECT_EQ(few.squared_distance(one.get(0), few.owner_of(one.get(0), box.length()), box.length()),
            0.0);
}

struct Case {
  std::array<int, 3> dims;
  Vec3<double> length;
  double halo;
  bool balanced = false;  ///< planes placed by the particles (clustered positions)
};

class SpatialPartition : public ::testing::TestWithParam<Case> {};

TEST_P(SpatialPartition, EveryRankPlansTheSameExchangesAndHoldsEveryNeighbour) {
  const Case c = GetParam();
  BrickGrid planned{c.dims};
  planned.balanced = c.balanced;
  const Box box(c.length.x, c.length.y, c.length.z);
  const std::size_t n = 700;
  const Vec3Array x =
      random_positions(n, box, 1234u + static_cast<unsigned>(planned.ranks()), c.balanced);
  std::vector<std::size_t> preferred(n);
  std::iota(preferred.rbegin(), preferred.rend(), std::size_t{0});  // n - 1, ..., 0
  const int ranks = planned.ranks();
  std::vector<SpatialDomain> domains;
  std::vector<std::vector<std::size_t>> orders;
  for (int r = 0; r < planned.ranks(); ++r) {
    domains.push_back(SpatialDomain::layout(planned, r, c.halo, n));
    orders.push_back(domains.back().partition(x, box, preferred));
  }
  const BrickGrid& grid = domains[0].grid();  // with the planes the partition placed
  EXPECT_EQ(grid.planes[0].empty(), !c.balanced || c.dims[0] == 1);
  for (int r = 1; r < ranks; ++r) {
    ASSERT_EQ(orders[r], orders[0]) << "rank " << r;
    ASSERT_EQ(domains[static_cast<std::size_t>(r)].grid(), grid) << "rank " << r;
  }
  const auto& order = orders[0];
  Vec3Array y;  // the positions in the new storage order
  y.resize(n);
  for (std::size_t k = 0; k < n; ++k) y.set(k, x.get(order[k]));
  const auto& blocks = domains[0].blocks();
  std::size_t covered = 0;
  for (int r = 0; r < ranks; ++r) {
    const auto own = blocks[static_cast<std::size_t>(r)];
    EXPECT_EQ(own.begin, covered) << "the blocks are in rank order, back to back";
    covered = own.end;
    EXPECT_EQ(domains[static_cast<std::size_t>(r)].owned(), own);
    for (std::size_t k = own.begin; k < own.end; ++k) {
      EXPECT_EQ(grid.owner_of(y.get(k), box.length()), r);
      if (k > own.begin) EXPECT_GT(order[k - 1], order[k]) << "the preferred order within";
    }
  }
  EXPECT_EQ(covered, n);
  // What rank s sends at shift d is what rank s + d receives at shift d from s.
  for (int s = 0; s < ranks; ++s)
    for (int d = 1; d < ranks; ++d)
      EXPECT_EQ(domains[static_cast<std::size_t>(s)].sends()[static_cast<std::size_t>(d - 1)],
                domains[static_cast<std::size_t>((s + d) % ranks)]
                    .receives()[static_cast<std::size_t>(d - 1)])
          << "from rank " << s << " at shift " << d;
  // Every particle within the halo of an owned particle (minimum image) is owned or a ghost,
  // and every ghost lies within the halo of the brick.
  const auto view = box.view<double>();
  for (int r = 0; r < ranks; ++r) {
    const auto& domain = domains[static_cast<std::size_t>(r)];
    std::vector<char> held(n, 0);
    for (std::size_t k = domain.owned().begin; k < domain.owned().end; ++k) held[k] = 1;
    for (const auto& g : domain.ghosts())
      for (std::size_t k = g.begin; k < g.end; ++k) {
        EXPECT_FALSE(domain.owned().contains(k));
        EXPECT_LT(grid.squared_distance(y.get(k), r, box.length()), c.halo * c.halo);
        held[k] = 1;
      }
    for (std::size_t i = domain.owned().begin; i < domain.owned().end; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        const auto d = view.minimum_image(y.get(i) - y.get(j));
        if (novamd::core::dot(d, d) < c.halo * c.halo)
          ASSERT_TRUE(held[j]) << "rank " << r << ": particle " << j << " within the halo of " << i
                               << " is neither owned nor a ghost";
      }
    EXPECT_EQ(
        domain.ghost_count(),
        static_cast<std::size_t>(std::count(held.begin(), held.end(), 1)) - domain.owned().size());
  }
}

INSTANTIATE_TEST_SUITE_P(
    Grids, SpatialPartition,
    ::testing::Values(Case{{2, 1, 1}, {10.0, 10.0, 10.0}, 2.8},  // halo within a brick
                      Case{{1, 3, 1}, {10.0, 11.0, 10.0}, 2.8},  // uneven edge
                      Case{{2, 2, 2}, {10.0, 10.0, 10.0}, 2.8},
                      Case{{4, 1, 1}, {10.0, 10.0, 10.0}, 3.1},  // halo wider than a brick
                      Case{{1, 2, 4}, {12.0, 9.0, 15.0}, 1.5},
                      Case{{3, 1, 2}, {9.0, 9.0, 9.0}, 4.4},  // halo near half the box
                      // Balanced planes over clustered particles: narrow and wide bricks.
                      Case{{2, 1, 1}, {10.0, 10.0, 10.0}, 2.8, true},
                      Case{{2, 2, 2}, {10.0, 10.0, 10.0}, 2.8, true},
                      Case{{1, 2, 4}, {12.0, 9.0, 15.0}, 1.5, true}));

}  // namespace
