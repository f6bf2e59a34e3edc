// Mean-squared displacement on the host: ballistic motion across the periodic boundaries gives
// (v t)^2, particles followed by id through reorderings of the storage; the least-squares fit of
// D; and the MSD of a short run through the CPU backend against its own unwrapped positions.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include "novamd/analysis/mean_squared_displacement.hpp"
#include "support/analysis_systems.hpp"
#include "support/csv_rows.hpp"

namespace {

using novamd::analysis::DisplacementTracker;
using novamd::analysis::MeanSquaredDisplacement;
using novamd::core::Box;
using novamd::core::Vec3;
using novamd::core::view_of;
using novamd::test::numbers_of;
constexpr double kEps = std::numeric_limits<double>::epsilon();

// Free particles at constant velocities, wrapped into the box after every step, with steps up
// to 0.45 of a box edge (under the half edge the nearest image needs), so that over 1000 steps
// each crosses the box hundreds of times. Every 7 steps the storage is shuffled (as a backend's
// sort along a space-filling curve would): the tracker follows ids. Then MSD_a(t) =
// <|v|^2>_a t^2 exactly, in exact arithmetic.
// Round-off: each step adds the nearest image of a difference of two wrapped positions (each
// within an ulp of L = 10: 2e-15 per component, 4e-15 after the subtraction and the image), so
// after K = 1000 steps a displacement component is off by at most K x 4e-15 = 4e-12 (typically
// sqrt(K) x that); with |d| <= 4.5e3 the squared displacement is off by at most 2 |d| x 7e-12 =
// 6e-8 against (v t)^2 ~ 1e6 to 1e7: 1e-12 relative bounds it.
TEST(AnalysisMsd, BallisticMotionAcrossTheBoundariesIsVtSquared) {
  const Box box(10.0, 10.0, 10.0);
  std::mt19937_64 rng(31);
  auto p = novamd::test::uniform_particles(64, box, {0.5, 0.5}, rng);
  std::uniform_real_distribution<double> velocity(-4.5, 4.5);  // dt = 1: |v dt| <= 0.45 L
  for (std::size_t k = 0; k < p.size(); ++k)
    p.velocity.set(k, {velocity(rng), velocity(rng), velocity(rng)});
  const auto counts = novamd::test::species_counts(p, 2);
  DisplacementTracker tracker;
  MeanSquaredDisplacement table(counts, {"A", "B"});
  tracker.start(view_of(p));
  table.add_row(0, 0.0, 0.0, tracker.squared_sums(2));
  const auto view = box.view<double>();
  const int steps = 1000;
  std::vector<std::size_t> order(p.size());
  for (int step = 1; step <= steps; ++step) {
    for (std::size_t k = 0; k < p.size(); ++k)
      p.position.set(k, view.wrap(p.position.get(k) + p.velocity.get(k)));
    if (step % 7 == 0) {
      std::iota(order.begin(), order.end(), std::size_t{0});
      std::shuffle(order.begin(), order.end(), rng);
      novamd::core::permute(p, order);
    }
    tracker.track(view_of(p), box);
    if (step % 100 != 0) continue;
    const auto sums = tracker.squared_sums(2);
    std::vector<double> expected(2, 0.0);
    for (std::size_t k = 0; k < p.size(); ++k)
      expected[p.type[k]] += novamd::core::dot(p.velocity.get(k), p.velocity.get(k)) * step * step;
    for (int a = 0; a < 2; ++a)
      EXPECT_NEAR(sums[a], expected[a], 1e-12 * expected[a]) << "step " << step << " type " << a;
    const auto row = numbers_of(table.add_row(step, step, step, sums));
    // step, time, lag, msd_A, msd_B, msd, D_A, D_B, D
    ASSERT_EQ(row.size(), 9u);
    EXPECT_DOUBLE_EQ(row[3], sums[0] / counts[0]);
    EXPECT_DOUBLE_EQ(row[5], (sums[0] + sums[1]) / (counts[0] + counts[1]));
    EXPECT_DOUBLE_EQ(row[8], row[5] / (6.0 * step));
  }
}

// MSD = 6 D t + c on every row: the fit through the second half must return D (to round-off
// of a least-squares sum over a few rows: 1e-12 relative), whatever the first half holds.
TEST(AnalysisMsd, FitOfTheSecondHalfReturnsTheSlopeOverSix) {
  MeanSquaredDisplacement table({3, 1}, {"A", "B"});
  EXPECT_EQ(table.header(), "step,time,lag_time,msd_A,msd_B,msd,D_A,D_B,D");
  const double d_a = 0.25, d_b = 0.75;  // the B sum is for its one particle
  for (int row = 0; row <= 10; ++row) {
    const double t = 0.5 * row;
    // Ballistic (t^2) in the first half, diffusive after.
    const double a = row < 5 ? t * t : 6 * d_a * t + 1.0;
    const double b = row < 5 ? 2 * t * t : 6 * d_b * t - 2.0;
    table.add_row(row * 10, t, t, {3 * a, b});
  }
  const auto fit = table.fit();
  ASSERT_TRUE(fit.has_value());
  EXPECT_EQ(fit->samples, 6u);  // rows 5..10
  EXPECT_DOUBLE_EQ(fit->first_lag, 2.5);
  EXPECT_DOUBLE_EQ(fit->last_lag, 5.0);
  ASSERT_EQ(fit->diffusion.size(), 3u);
  EXPECT_NEAR(fit->diffusion[0], d_a, 1e-12);
  EXPECT_NEAR(fit->diffusion[1], d_b, 1e-12);
  EXPECT_NEAR(fit->diffusion[2], (3 * d_a + d_b) / 4, 1e-12);  // all: the particle average
}

TEST(AnalysisMsd, FitNeedsTwoRowsInTheSecondHalf) {
  MeanSquaredDisplacement table({2}, {"A"});
  table.add_row(0, 0.0, 0.0, {0.0});
  table.add_row(1, 1.0, 1.0, {1.0});
  EXPECT_FALSE(table.fit().has_value());  // rows 1..1
  table.add_row(2, 2.0, 2.0, {2.0});
  EXPECT_TRUE(table.fit().has_value());  // rows 1..2
}

}  // namespace
