// Particles sorted in memory along the Morton curve: the key, the order, and a CPU run that
// reorders every few steps against one that never does.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>

#include "novamd/backend/cpu_backend.hpp"
#include "novamd/integrate/velocity_verlet.hpp"
#include "novamd/neighbors/space_filling_curve.hpp"
#include "support/systems.hpp"

namespace {

using novamd::neighbors::morton_key;
using novamd::neighbors::spread_bits;

TEST(MortonKey, InterleavesTheBitsOfTheThreeSlabs) {
  EXPECT_EQ(spread_bits(0b1011u), 0b001000001001u);  // bit k to bit 3k
  EXPECT_EQ(spread_bits(0x3ffu), 0x09249249u);
  const novamd::core::Vec3<double> L{10.0, 20.0, 40.0};
  // slabs (1, 0, 0), (0, 1, 0), (0, 0, 1): keys 1, 2, 4
  EXPECT_EQ(morton_key({10.0 / 1024 * 1.5, 0.0, 0.0}, L), 1u);
  EXPECT_EQ(morton_key({0.0, 20.0 / 1024 * 1.5, 0.0}, L), 2u);
  EXPECT_EQ(morton_key({0.0, 0.0, 40.0 / 1024 * 1.5}, L), 4u);
  EXPECT_EQ(morton_key({9.9999, 19.9999, 39.9999}, L), (1u << 30) - 1);  // last slab on each axis
  EXPECT_EQ(morton_key({-1.0, 25.0, 0.0}, L), morton_key({0.0, 19.9999, 0.0}, L));  // clamped
}

TEST(MortonOrder, IsAPermutationWithNonDecreasingKeys) {
  const auto s = novamd::test::random_mixture(3000, 12.0, 4);
  const auto order = novamd::neighbors::morton_order(s.particles, s.box);
  ASSERT_EQ(order.size(), s.particles.size());
  EXPECT_EQ(std::set<std::uint32_t>(order.begin(), order.end()).size(), order.size());
  for (std::size_t k = 1; k < order.size(); ++k) {
    EXPECT_LE(morton_key(s.particles.position.get(order[k - 1]), s.box.length()),
              morton_key(s.particles.position.get(order[k]), s.box.length()));
  }
}

TEST(CpuReorder, SortingAlongTheCurveKeepsTheTrajectoryAndTheIdOrder) {
  auto setup = novamd::test::random_mixture(1500, 14.0, 11, 1.5, 0.7, 1.0);
  novamd::forces::LennardJonesSettings lj;
  lj.pairs = {{"A", "A", 1.0, 1.0}, {"B", "B", 1.0, 1.0}, {"C", "C", 1.0, 1.0}};
  lj.cutoff = 2.5;
  lj.truncation = novamd::physics::Truncation::ShiftForce;
  setup.forces = {lj};
  setup.neighbors.method = novamd::neighbors::NeighborMethod::NeighborList;
  auto plain_setup = setup;
  plain_setup.neighbors.reorder_every = 0;
  setup.neighbors.reorder_every = 5;
  novamd::backend::CpuBackend sorted(setup), plain(plain_setup);
  for (auto* b : {&sorted, &plain}) {
    b->compute_forces(novamd::backend::EnergyRequest::Compute);
    for (int step = 0; step < 100; ++step) novamd::integrate::velocity_verlet_step(*b, 0.001);
  }
  EXPECT_EQ(sorted.reorders(), 20);  // 101 evaluations, every fifth
  EXPECT_EQ(plain.reorders(), 0);
  EXPECT_GT(sorted.neighbor_list_builds(), 20);  // every reordering invalidates the lists
  const auto& a = sorted.particles_on_host();
  const auto& b = plain.particles_on_host();
  for (std::size_t i = 0; i < a.size(); ++i) ASSERT_EQ(a.id[i], static_cast<std::int32_t>(i));
  EXPECT_EQ(a.type, b.type);
  // Only the order of summation differs: round-off of 1e-16 relative per step grown over
  // 0.1 tau of chaotic motion stays far below 1e-9 of the box.
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto d = setup.box.view<double>().minimum_image(a.position.get(i) - b.position.get(i));
    worst = std::max({worst, std::abs(d.x), std::abs(d.y), std::abs(d.z)});
  }
  EXPECT_LE(worst, 1e-9 * setup.box.length().x);
  EXPECT_GT(worst, 0.0) << "the reordered run should sum in another order";
}

}  // namespace
