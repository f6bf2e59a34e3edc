// Cells per axis of the CPU and GPU cell grids (neighbors/cell_dimensions.hpp): floor(L / min)
// per axis where that is few enough; otherwise at most max(27, 4 N) cells (never above 2^28),
// enlarged uniformly and never narrower than asked, without overflow for any box or cutoff.

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "novamd/core/box.hpp"
#include "novamd/neighbors/cell_dimensions.hpp"

namespace {

using novamd::core::Box;
using novamd::neighbors::cell_dimensions;
using novamd::neighbors::kMaxCells;
using novamd::neighbors::max_cells_for;
using Dims = std::array<int, 3>;

double total(const Dims& d) {
  return static_cast<double>(d[0]) * d[1] * d[2];
}

/// Every cell at least `min_size` wide, at least one cell per axis, at most the cap in all.
void expect_valid(const Dims& d, const Box& box, double min_size, std::size_t n) {
  const double lengths[3] = {box.length().x, box.length().y, box.length().z};
  for (int a = 0; a < 3; ++a) {
    EXPECT_GE(d[a], 1) << a;
    if (d[a] > 1) EXPECT_GE(lengths[a] / d[a], min_size * (1 - 1e-15)) << a;  // up to rounding
  }
  EXPECT_LE(total(d), static_cast<double>(max_cells_for(n)));
}

TEST(CellDimensions, CapFollowsTheParticleCount) {
  EXPECT_EQ(max_cells_for(0), 27);
  EXPECT_EQ(max_cells_for(6), 27);
  EXPECT_EQ(max_cells_for(100), 400);
  EXPECT_EQ(max_cells_for(std::size_t{1} << 40), kMaxCells);
  EXPECT_LT(kMaxCells, std::numeric_limits<std::int32_t>::max() / 4);
}

// Dense systems keep floor(L / min) per axis: no change to the grids of liquids and plasmas.
TEST(CellDimensions, DenseSystemsKeepFloorOfLOverMin) {
  // An LJ liquid of 32,000 atoms (edge 33.6): Verlet cells of 1.4, cell lists of 2.5.
  const Box liquid(33.6, 33.6, 33.6);
  EXPECT_EQ(cell_dimensions(liquid, 1.4, 32000), (Dims{24, 24, 24}));
  EXPECT_EQ(cell_dimensions(liquid, 2.5, 32000), (Dims{13, 13, 13}));
  EXPECT_EQ(cell_dimensions(Box(10.0, 9.0, 11.0), 1.4, 800), (Dims{7, 6, 7}));
  // A box shorter than one cell has one cell along that axis.
  EXPECT_EQ(cell_dimensions(Box(2.0, 0.5, 30.0), 1.0, 1000), (Dims{2, 1, 30}));
}

// The dilute LJ gas of the reliability issue: 100 atoms at 7.2e-9 and 1e-8 per sigma^3 asked for
// 5e12 and 3.6e9 cells of half the Verlet range (2.8 / 2).
TEST(CellDimensions, DiluteGasIsCappedAndStaysCubic) {
  for (const double density : {7.2e-9, 1e-8}) {
    const double edge = std::cbrt(100 / density);
    const Box box(edge, edge, edge);
    const Dims d = cell_dimensions(box, 1.4, 100);
    expect_valid(d, box, 1.4, 100);
    EXPECT_EQ(d, (Dims{7, 7, 7})) << density;  // 343 <= 400 cells
  }
}

TEST(CellDimensions, ExtremeBoxesAndCutoffsDoNotOverflow) {
  const double big = 1e300, tiny = 1e-300;
  const struct {
    Box box;
    double min_size;
    std::size_t n;
  } cases[] = {
      {Box(big, big, big), tiny, 100},
      {Box(big, big, big), 1.0, std::size_t{1} << 31},
      {Box(1e6, 10.0, 10.0), 2.5, 2},  // long and thin
      {Box(3e4, 3e4, 1.0), 1e-3, 1},   // flat
      {Box(1e5, 1e5, 1e5), 0.0, 50},   // no minimum
      {Box(10.0, 10.0, 10.0), std::numeric_limits<double>::quiet_NaN(), 50},
      {Box(10.0, 10.0, 10.0), std::numeric_limits<double>::infinity(), 50},
  };
  for (const auto& c : cases) {
    const Dims d = cell_dimensions(c.box, c.min_size, c.n);
    expect_valid(d, c.box, c.min_size > 0 ? c.min_size : 0.0, c.n);
  }
  const Dims thin = cell_dimensions(Box(1e6, 10.0, 10.0), 2.5, 2);  // (4e5, 4, 4) wanted
  EXPECT_GE(thin[0], 26);  // the long axis keeps (nearly) all 27 cells
  EXPECT_EQ(thin[1], 1);
  EXPECT_EQ(thin[2], 1);
  EXPECT_EQ(cell_dimensions(Box(10.0, 10.0, 10.0), std::numeric_limits<double>::quiet_NaN(), 50),
            (Dims{1, 1, 1}));
  const Dims most = cell_dimensions(Box(big, big, big), 1.0, std::size_t{1} << 31);
  EXPECT_EQ(most, (Dims{645, 645, 645}));  // 645^3 is just under 2^28
}

TEST(CellDimensions, RandomBoxesAreValidAndUncappedWhereTheyFit) {
  std::mt19937_64 gen(5);
  std::uniform_real_distribution<double> exponent(-2.0, 7.0);
  for (int trial = 0; trial < 2000; ++trial) {
    const Box box(std::pow(10.0, exponent(gen)), std::pow(10.0, exponent(gen)),
                  std::pow(10.0, exponent(gen)));
    const double min_size = std::pow(10.0, exponent(gen) - 3.0);
    const auto n = static_cast<std::size_t>(std::pow(10.0, exponent(gen) - 1.0));
    const Dims d = cell_dimensions(box, min_size, n);
    expect_valid(d, box, min_size, n);
    const double lengths[3] = {box.length().x, box.length().y, box.length().z};
    double wanted = 1.0;
    for (int a = 0; a < 3; ++a) {
      const double fit = std::max(1.0, std::floor(lengths[a] / min_size));
      EXPECT_LE(d[a], fit) << a;  // never more cells than floor(L / min)
      wanted *= fit;
    }
    if (wanted <= static_cast<double>(max_cells_for(n))) {  // the cap does not bite: unchanged
      for (int a = 0; a < 3; ++a)
        EXPECT_EQ(d[a], std::max(1.0, std::floor(lengths[a] / min_size))) << a;
    }
  }
}

}  // namespace
