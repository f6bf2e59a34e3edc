// The force-matrix decomposition without MPI: the choice of the P x Q grid, the blocks of
// particles with remainders, the `parallel` config key, and the block traversal: the forces of
// the P x Q blocks, summed over each block row, are the whole matrix's.

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <string>

#include "novamd/core/error.hpp"
#include "novamd/io/config.hpp"
#include "novamd/neighbors/all_pairs_cpu.hpp"
#include "novamd/neighbors/force_buffers.hpp"
#include "novamd/parallel/force_matrix.hpp"
#include "novamd/parallel/process_grid.hpp"
#include "novamd/physics/yukawa.hpp"
#include "support/systems.hpp"

namespace {

using novamd::parallel::block_range;
using novamd::parallel::choose_grid;
using novamd::parallel::GridShape;
using novamd::parallel::IndexRange;
using novamd::parallel::near_square_grid;
using novamd::parallel::ParallelSettings;

#define EXPECT_HAS(message, part)                    \
  EXPECT_NE((message).find(part), std::string::npos) \
      << "missing: " << (part) << "\nin: " << (message)

TEST(ProcessGrid, AutoIsTheMostNearlySquareGridWithMoreRows) {
  EXPECT_EQ(near_square_grid(1), (GridShape{1, 1}));
  EXPECT_EQ(near_square_grid(2), (GridShape{2, 1}));
  EXPECT_EQ(near_square_grid(4), (GridShape{2, 2}));
  EXPECT_EQ(near_square_grid(6), (GridShape{3, 2}));
  EXPECT_EQ(near_square_grid(8), (GridShape{4, 2}));
  EXPECT_EQ(near_square_grid(12), (GridShape{4, 3}));
  EXPECT_EQ(near_square_grid(7), (GridShape{7, 1}));  // a prime: one block column
  EXPECT_EQ(near_square_grid(36), (GridShape{6, 6}));
}

TEST(ProcessGrid, ConfiguredGridIsKeptWhenItFits) {
  ParallelSettings settings;
  settings.grid = {{1, 4}};
  EXPECT_EQ(choose_grid(4, 1001, settings), (GridShape{1, 4}));
  EXPECT_EQ(choose_grid(4, 1001, {}), (GridShape{2, 2}));
}

TEST(ProcessGrid, GridThatDoesNotHoldTheRanksIsAnInputError) {
  ParallelSettings settings;
  settings.grid = {{2, 3}};
  settings.grid_origin = "run.yaml:12: parallel.grid";
  try {
    choose_grid(4, 1001, settings);
    FAIL() << "no InputError";
  } catch (const novamd::core::InputError& e) {
    const std::string message = e.what();
    EXPECT_HAS(message, "run.yaml:12: parallel.grid: [2, 3] has 6 ranks, but the run has 4");
    EXPECT_HAS(message, "expected P x Q = 4");
  }
}

TEST(ProcessGrid, MoreBlocksThanParticlesIsAnInputError) {
  ParallelSettings settings;
  settings.grid = {{1, 8}};
  EXPECT_THROW(choose_grid(8, 7, settings), novamd::core::InputError);
  EXPECT_NO_THROW(choose_grid(8, 8, settings));
}

TEST(ProcessGrid, BlocksPartitionTheParticlesWithSizesDifferingByOne) {
  for (std::size_t n : {1u, 7u, 1000u, 1001u, 1003u}) {
    for (int parts : {1, 2, 3, 4, 7}) {
      if (static_cast<std::size_t>(parts) > n) continue;
      std::size_t expected_begin = 0, smallest = n, largest = 0;
      for (int k = 0; k < parts; ++k) {
        const IndexRange r = block_range(n, parts, k);
        EXPECT_EQ(r.begin, expected_begin) << n << " in " << parts;  // contiguous, in order
        expected_begin = r.end;
        smallest = std::min(smallest, r.size());
        largest = std::max(largest, r.size());
      }
      EXPECT_EQ(expected_begin, n);
      EXPECT_LE(largest - smallest, 1u) << n << " in " << parts;
    }
  }
  // 1001 = 4 x 250 + 1: the first block takes the extra particle.
  EXPECT_EQ(block_range(1001, 4, 0), (IndexRange{0, 251}));
  EXPECT_EQ(block_range(1001, 4, 3), (IndexRange{751, 1001}));
}

TEST(ProcessGrid, BlocksOfWholeUnitsWithAGranularity) {
  // 1001 particles in units of 128 (8 units, the last of 105): 3 blocks of 3, 3 and 2 units.
  EXPECT_EQ(block_range(1001, 3, 0, 128), (IndexRange{0, 384}));
  EXPECT_EQ(block_range(1001, 3, 1, 128), (IndexRange{384, 768}));
  EXPECT_EQ(block_range(1001, 3, 2, 128), (IndexRange{768, 1001}));
}

TEST(ProcessGrid, OwnedSourcesAreTheTargetsInTheSourceBlock) {
  novamd::parallel::ForceMatrix m = novamd::parallel::ForceMatrix::whole(10);
  m.targets = {0, 5};
  m.sources = {3, 7};
  EXPECT_EQ(m.owned_sources(), (IndexRange{3, 5}));
  m.sources = {5, 10};
  EXPECT_EQ(m.owned_sources().size(), 0u);
}

// --- the config key ----------------------------------------------------------------------------

const std::string kConfig = R"(units: lj
system:
  density: 0.8
  species: [{name: A, mass: 1}]
  structure: {generate: {counts: {A: 100}}}
forces:
  - yukawa: {screening_length: 2.0}
integrator: {timestep: 0.005}
run: {steps: 10}
)";

std::string error_of(const std::string& text) {
  try {
    novamd::io::parse_config(text, "par.yaml");
  } catch (const novamd::core::InputError& error) {
    return error.what();
  }
  ADD_FAILURE() << "no InputError for:\n" << text;
  return "";
}

TEST(ParallelConfig, GridIsAutoByDefaultOrTwoIntegers) {
  EXPECT_FALSE(novamd::io::parse_config(kConfig, "par.yaml").parallel.grid);
  EXPECT_FALSE(
      novamd::io::parse_config(kConfig + "parallel: {grid: auto}\n", "par.yaml").parallel.grid);
  const auto config = novamd::io::parse_config(kConfig + "parallel: {grid: [3, 2]}\n", "par.yaml");
  ASSERT_TRUE(config.parallel.grid);
  EXPECT_EQ((*config.parallel.grid)[0], 3);
  EXPECT_EQ((*config.parallel.grid)[1], 2);
  EXPECT_EQ(config.parallel.grid_origin, "par.yaml:10: parallel.grid");
}

TEST(ParallelConfig, PairsFullMatrixReachesTheGrid) {
  EXPECT_FALSE(novamd::io::parse_config(kConfig, "par.yaml").parallel.full_matrix);
  const auto config =
      novamd::io::parse_config(kConfig + "parallel: {pairs: full_matrix}\n", "par.yaml");
  EXPECT_TRUE(config.parallel.full_matrix);
  EXPECT_TRUE(novamd::parallel::choose_grid(4, 100, config.parallel).full_matrix);
  EXPECT_FALSE(novamd::parallel::choose_grid(4, 100, ParallelSettings{}).full_matrix);
  EXPECT_HAS(error_of(kConfig + "parallel: {pairs: once}\n"), "parallel.pairs");
}

TEST(ParallelConfig, ThreeIntegersAreSpatialBricks) {
  using novamd::parallel::Decomposition;
  EXPECT_EQ(novamd::io::parse_config(kConfig, "par.yaml").parallel.decomposition,
            Decomposition::Auto);
  const auto bricks =
      novamd::io::parse_config(kConfig + "parallel: {grid: [1, 2, 3]}\n", "par.yaml").parallel;
  EXPECT_EQ(bricks.decomposition, Decomposition::Spatial);
  ASSERT_TRUE(bricks.bricks);
  EXPECT_EQ(*bricks.bricks, (std::array<int, 3>{1, 2, 3}));
  EXPECT_FALSE(bricks.grid);
  const auto two =
      novamd::io::parse_config(kConfig + "parallel: {grid: [2, 1]}\n", "par.yaml").parallel;
  EXPECT_EQ(two.decomposition, Decomposition::ForceMatrix);
  const auto named =
      novamd::io::parse_config(kConfig + "parallel: {decomposition: spatial}\n", "par.yaml")
          .parallel;
  EXPECT_EQ(named.decomposition, Decomposition::Spatial);
  EXPECT_FALSE(named.bricks);  // auto
  EXPECT_EQ(
      novamd::io::parse_config(kConfig + "parallel: {decomposition: force_matrix}\n", "par.yaml")
          .parallel.decomposition,
      Decomposition::ForceMatrix);
}

TEST(ParallelConfig, BadGridsNameTheKeyAndWhatIsExpected) {
  const std::string four = error_of(kConfig + "parallel: {grid: [1, 2, 3, 4]}\n");
  EXPECT_HAS(four, "par.yaml:10: parallel.grid: found a list of 4 numbers");
  EXPECT_HAS(four, "expected auto, [P, Q] (a force matrix");
  EXPECT_HAS(four, "or [a, b, c] (spatial bricks");
  // The count must suit a decomposition that is named.
  EXPECT_HAS(error_of(kConfig + "parallel: {decomposition: spatial, grid: [2, 2]}\n"),
             "expected auto or [a, b, c], three integers >= 1");
  EXPECT_HAS(error_of(kConfig + "parallel: {decomposition: force_matrix, grid: [2, 2, 1]}\n"),
             "expected auto or [P, Q], two integers >= 1");
  EXPECT_HAS(error_of(kConfig + "parallel: {decomposition: bricks}\n"), "parallel.decomposition");
  EXPECT_HAS(error_of(kConfig + "parallel: {grid: [0, 2]}\n"), "parallel.grid[0]");
  EXPECT_HAS(error_of(kConfig + "parallel: {grid: [1, 0, 2]}\n"), "parallel.grid[1]");
  EXPECT_HAS(error_of(kConfig + "parallel: {grid: square}\n"), "expected auto, [P, Q]");
  EXPECT_HAS(error_of(kConfig + "parallel: {grids: auto}\n"), "grid");  // nearest key
}

// --- the block traversal -----------------------------------------------------------------------

/// The forces of every block (p, q) of a P x Q grid, added over q for each target, against the
/// whole matrix in one traversal: the same pair terms, summed in another order (each target's
/// sources split at the block edges, then Q partial forces added), so equal within round-off:
/// |difference| <= 2 (N/8 + 8 + Q + 1) u sum_j |f_ij| (recursive summation, Higham eq. 4.4).
TEST(BlockTraversal, BlocksSummedOverEachRowAreTheWholeMatrix) {
  using Evaluator = novamd::physics::Yukawa<double>;
  const auto setup = novamd::test::random_mixture(203, 10.0, 11, 1.5, 0.5);
  const auto& particles = setup.particles;
  const auto box = setup.box.view<double>();
  novamd::physics::PairTable<Evaluator::Params> table(setup.species.size());
  for (int a = 0; a < setup.species.size(); ++a)
    for (int b = 0; b < setup.species.size(); ++b)
      table.at(a, b) =
          Evaluator::make_params(1.0, setup.species[a].charge, setup.species[b].charge, 1.5);
  const auto n = static_cast<std::ptrdiff_t>(particles.size());
  novamd::neighbors::ForceBuffers whole;
  whole.reset(particles.size());
  novamd::neighbors::all_pairs_cpu<Evaluator, double, true>(particles, box, table.view(), whole);

  // sum_j |f_ij| per component: the scale of each force's round-off.
  std::vector<double> magnitude(3 * particles.size(), 0.0);
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    for (std::ptrdiff_t j = 0; j < n; ++j) {
      if (i == j) continue;
      const auto d = box.minimum_image(particles.position.get(i) - particles.position.get(j));
      const double r2 = novamd::core::dot(d, d);
      const auto pair = Evaluator::evaluate(r2, table.at(particles.type[i], particles.type[j]));
      magnitude[3 * i] += std::abs(pair.force_over_r * d.x);
      magnitude[3 * i + 1] += std::abs(pair.force_over_r * d.y);
      magnitude[3 * i + 2] += std::abs(pair.force_over_r * d.z);
    }
  }
  const double u = std::numeric_limits<double>::epsilon() / 2;
  for (const GridShape grid : {GridShape{1, 3}, GridShape{3, 1}, GridShape{2, 3}}) {
    novamd::neighbors::ForceBuffers blocks;
    blocks.reset(particles.size());
    for (int p = 0; p < grid.rows; ++p) {
      for (int q = 0; q < grid.columns; ++q) {
        const IndexRange t = block_range(particles.size(), grid.rows, p);
        const IndexRange s = block_range(particles.size(), grid.columns, q);
        novamd::neighbors::ForceBuffers block;
        block.reset(particles.size());
        novamd::neighbors::all_pairs_cpu<Evaluator, double, true>(
            particles, box, table.view(), block,
            {static_cast<std::ptrdiff_t>(t.begin), static_cast<std::ptrdiff_t>(t.end),
             static_cast<std::ptrdiff_t>(s.begin), static_cast<std::ptrdiff_t>(s.end)});
        for (std::size_t i = 0; i < particles.size(); ++i) {
          if (!t.contains(i)) {  // a block writes only its own targets
            EXPECT_EQ(block.force.x[i], 0.0);
            EXPECT_EQ(block.energy[i], 0.0);
            continue;
          }
          blocks.force.x[i] += block.force.x[i];
          blocks.force.y[i] += block.force.y[i];
          blocks.force.z[i] += block.force.z[i];
          blocks.energy[i] += block.energy[i];
        }
      }
    }
    const double depth = static_cast<double>(n) / 8 + 8 + grid.columns + 1;
    for (std::ptrdiff_t i = 0; i < n; ++i) {
      EXPECT_NEAR(blocks.force.x[i], whole.force.x[i], 2 * depth * u * magnitude[3 * i]);
      EXPECT_NEAR(blocks.force.y[i], whole.force.y[i], 2 * depth * u * magnitude[3 * i + 1]);
      EXPECT_NEAR(blocks.force.z[i], whole.force.z[i], 2 * depth * u * magnitude[3 * i + 2]);
      // Yukawa energies are positive: the bound is relative to the energy itself.
      EXPECT_NEAR(blocks.energy[i], whole.energy[i], 2 * depth * u * whole.energy[i]);
    }
  }
}

}  // namespace
