// The kernels of a decomposed (force-matrix) CUDA run, on one GPU: the all-pairs kernel on a
// block of targets x sources against the CPU traversal of the same block, on fresh random
// input, in double and mixed precision, with and without a cutoff; entries outside the block's
// targets untouched; bitwise repeatable. The each-pair-once block kernel for every rank of
// several grids, with the column and row sums done here, against the CPU's whole matrix. And
// the column exchange's pack and unpack kernels against the same operation done on the host.
// Skipped where no CUDA device exists.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "novamd/backend/cuda_device.hpp"
#include "novamd/core/device_buffer.cuh"
#include "novamd/forces/cuda_force_term.cuh"
#include "novamd/neighbors/all_pairs_cpu.hpp"
#include "novamd/neighbors/force_arrays_cuda.cuh"
#include "novamd/parallel/process_grid.hpp"
#include "novamd/parallel/source_exchange_cuda.cuh"
#include "support/force_scale.hpp"
#include "support/systems.hpp"

namespace {

using novamd::backend::BackendSetup;
using novamd::core::Precision;
using novamd::neighbors::PairBlock;

constexpr double kSentinel = 12345.0;  ///< written before the kernel: non-targets keep it

/// Forces on every particle from one CUDA force term over `block` (x, y, z one after another);
/// entries outside the block's targets hold kSentinel.
template <Precision P>
std::vector<double> gpu_block_forces(const BackendSetup& setup, const PairBlock& block,
                                     int block_range = 0, std::vector<double>* energies = nullptr) {
  using PairT = typename novamd::core::PrecisionTypes<P>::PairT;
  const auto& p = setup.particles;
  const int n = static_cast<int>(p.size());
  std::vector<novamd::neighbors::PairPosition<PairT>> packed(n);
  for (int i = 0; i < n; ++i)
    packed[i] = {PairT(p.position.x[i]), PairT(p.position.y[i]), PairT(p.position.z[i]),
                 p.type[i]};
  novamd::core::CudaStream stream;
  novamd::core::DeviceBuffer<novamd::neighbors::PairPosition<PairT>> positions;
  positions.copy_from_host(packed, stream.get());
  const std::vector<double> sentinel(n, kSentinel);
  novamd::neighbors::DeviceForceArrays<double> out;  // every array filled with the sentinel
  for (auto* b : {&out.fx, &out.fy, &out.fz, &out.energy})
    b->copy_from_host(sentinel, stream.get());
  for (auto& b : out.virial) b.copy_from_host(sentinel, stream.get());
  auto term = novamd::forces::make_cuda_force_term<P>(setup.forces[0], setup.species,
                                                      setup.units, setup.neighbors, setup.box);
  const novamd::forces::CudaForceInput<PairT> input{
      positions.data(), n, setup.box.view<PairT>(), setup.box, 132, 2048 * 132, block,
      block_range};
  term->add_to(input, out.view(), {false, true}, stream.get());
  std::vector<double> x, y, z;
  out.fx.copy_to_host(x, stream.get());
  out.fy.copy_to_host(y, stream.get());
  out.fz.copy_to_host(z, stream.get());
  if (energies) out.energy.copy_to_host(*energies, stream.get());
  stream.synchronize();
  x.insert(x.end(), y.begin(), y.end());
  x.insert(x.end(), z.begin(), z.end());
  return x;
}

/// The CPU traversal of the same block, in double.
std::vector<double> cpu_block_forces(const BackendSetup& setup, const PairBlock& block) {
  std::vector<double> out;
  novamd::forces::with_evaluator<double>(
      setup.forces[0], setup.species, setup.units, [&]<class Evaluator>(const auto& table) {
        novamd::neighbors::ForceBuffers buffers;
        buffers.reset(setup.particles.size());
        novamd::neighbors::all_pairs_cpu<Evaluator, double, true>(
            setup.particles, setup.box.view<double>(), table.view(), buffers, block);
        out = buffers.force.x;
        out.insert(out.end(), buffers.force.y.begin(), buffers.force.y.end());
        out.insert(out.end(), buffers.force.z.begin(), buffers.force.z.end());
        return 0;
      });
  return out;
}

template <Precision P>
void check_block(const BackendSetup& setup, const PairBlock& block, double bound) {
  const auto gpu = gpu_block_forces<P>(setup, block);
  const auto cpu = cpu_block_forces(setup, block);
  const auto scale = novamd::test::force_magnitude_sums(setup);
  const auto n = static_cast<std::ptrdiff_t>(setup.particles.size());
  double worst = 0;
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    for (int c = 0; c < 3; ++c) {
      const double g = gpu[c * n + i];
      if (i < block.target_begin || i >= block.target_end) {
        ASSERT_EQ(g, kSentinel) << "particle " << i << " is no target of the block";
        continue;
      }
      worst = std::max(worst, std::abs(g - cpu[c * n + i]) / scale[i]);
    }
  }
  EXPECT_LE(worst, bound) << "targets [" << block.target_begin << ", " << block.target_end
                          << "), sources [" << block.source_begin << ", " << block.source_end
                          << ")";
  EXPECT_EQ(gpu_block_forces<P>(setup, block), gpu) << "not bitwise repeatable";
}

const PairBlock kBlocks[] = {{0, 1001, 0, 1001},    // the whole matrix, through the block path
                             {0, 501, 501, 1001},   // disjoint targets and sources
                             {250, 751, 0, 334},    // overlapping, uneven
                             {334, 668, 334, 668},  // a diagonal block
                             {1000, 1001, 0, 1001}};

TEST(CudaForceMatrix, BlockKernelMatchesTheCpuBlockTraversal) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  // Yukawa all pairs and with a cutoff (a truncated evaluator tests r < r_c in the block).
  auto all_pairs = novamd::test::random_mixture(1001, 12.0, 3, 1.5, 0.6);
  auto cut = all_pairs;
  cut.forces = {novamd::forces::YukawaSettings{1.5, 4.0}};
  for (const auto& setup : {all_pairs, cut}) {
    for (const auto& block : kBlocks) {
      // double: each pair within a few ulp, sums in another order: under 1e-12 of S_i.
      check_block<Precision::Double>(setup, block, 1e-12);
      // mixed: positions rounded to FP32 move a separation by up to sqrt(3) eps_f L (L <=
      // 13.2); a pair force k e^(-r/lambda) (1/r^2 + 1/(r lambda)) along d/r then changes by a
      // relative (3/r + 1/lambda) per unit of r, at most 3/0.6 + 1/1.5 for r >= 0.6; plus 32
      // eps_f for the FP32 pair arithmetic and the sums over one tile. Relative to S_i.
      const double mixed = (32.0 + std::sqrt(3.0) * 13.2 * (3.0 / 0.6 + 1.0 / 1.5)) *
                           std::numeric_limits<float>::epsilon();
      check_block<Precision::Mixed>(setup, block, mixed);
    }
  }
}

/// Every rank of a P x Q grid computes its block with each pair once (blocks of whole ranges
/// of R = 128); the reactions summed down each column (in place over S_q), then the forces
/// along each row (over T_p), as CudaBackend::complete_forces does with NCCL: every rank's
/// targets must hold the whole matrix's forces, and the energy shares of the ranges each rank
/// wrote (targets, and sources that are no targets) must add up to the total energy.
TEST(CudaForceMatrix, EachPairOnceOverTheGridGivesTheWholeMatrix) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  constexpr int kRange = 128;
  constexpr std::size_t kN = 1001;  // 8 ranges, the last of 105
  const auto setup = novamd::test::random_mixture(kN, 12.0, 9, 1.5, 0.6);
  const auto whole = cpu_block_forces(setup, PairBlock::whole(kN));
  const auto scale = novamd::test::force_magnitude_sums(setup);
  double total_energy = 0;
  novamd::forces::with_evaluator<double>(
      setup.forces[0], setup.species, setup.units, [&]<class Evaluator>(const auto& table) {
        novamd::neighbors::ForceBuffers buffers;
        buffers.reset(kN);
        novamd::neighbors::all_pairs_cpu<Evaluator, double, true>(
            setup.particles, setup.box.view<double>(), table.view(), buffers);
        total_energy = buffers.total_energy();
        return 0;
      });
  using novamd::parallel::block_range;
  for (const auto grid : {novamd::parallel::GridShape{2, 2}, novamd::parallel::GridShape{1, 3},
                          novamd::parallel::GridShape{3, 1}, novamd::parallel::GridShape{4, 2}}) {
    const int ranks = grid.ranks();
    std::vector<std::vector<double>> force(ranks), energy(ranks);
    std::vector<novamd::parallel::IndexRange> targets(ranks), sources(ranks);
    double energy_sum = 0;
    for (int r = 0; r < ranks; ++r) {
      const auto [p, q] = novamd::parallel::grid_coordinates(grid, r);
      targets[r] = block_range(kN, grid.rows, p, kRange);
      sources[r] = block_range(kN, grid.columns, q, kRange);
      const PairBlock block{static_cast<std::ptrdiff_t>(targets[r].begin),
                            static_cast<std::ptrdiff_t>(targets[r].end),
                            static_cast<std::ptrdiff_t>(sources[r].begin),
                            static_cast<std::ptrdiff_t>(sources[r].end)};
      force[r] = gpu_block_forces<Precision::Double>(setup, block, kRange, &energy[r]);
      for (std::size_t i = 0; i < kN; ++i)  // the targets, and the sources that are no targets
        if (targets[r].contains(i) || sources[r].contains(i)) energy_sum += energy[r][i];
    }
    // Column sums over S_q, in place, then row sums over T_p (each from the column result).
    auto summed = force;
    for (int r = 0; r < ranks; ++r)
      for (int o = 0; o < ranks; ++o)
        if (o != r && grid_coordinates(grid, o)[1] == grid_coordinates(grid, r)[1])
          for (std::size_t i = sources[r].begin; i < sources[r].end; ++i)
            for (int c = 0; c < 3; ++c) summed[r][c * kN + i] += force[o][c * kN + i];
    auto total = summed;
    for (int r = 0; r < ranks; ++r)
      for (int o = 0; o < ranks; ++o)
        if (o != r && grid_coordinates(grid, o)[0] == grid_coordinates(grid, r)[0])
          for (std::size_t i = targets[r].begin; i < targets[r].end; ++i)
            for (int c = 0; c < 3; ++c) total[r][c * kN + i] += summed[o][c * kN + i];
    // double: each pair within a few ulp, summed in another order through at most N + Q
    // additions (Higham eq. 4.4): 2 (N + Q) u S_i, under 1e-12 S_i.
    for (int r = 0; r < ranks; ++r) {
      double worst = 0;
      for (std::size_t i = targets[r].begin; i < targets[r].end; ++i)
        for (int c = 0; c < 3; ++c)
          worst = std::max(worst, std::abs(total[r][c * kN + i] - whole[c * kN + i]) / scale[i]);
      EXPECT_LE(worst, 1e-12) << grid.rows << " x " << grid.columns << ", rank " << r;
    }
    // The energy: positive pair terms, at most 2 N + K additions on any path.
    EXPECT_NEAR(energy_sum, total_energy, 2 * (2.0 * kN + ranks) * 1.2e-16 * total_energy)
        << grid.rows << " x " << grid.columns;
  }
}

TEST(CudaForceMatrix, SourceExchangeKernelsPackOwnedSourcesAndUnpackTheRest) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  const auto setup = novamd::test::random_mixture(1001, 12.0, 5);
  const auto& p = setup.particles;
  const int n = static_cast<int>(p.size());
  const int s0 = 300, s1 = 800, t0 = 500, t1 = 1001;  // sources [300, 800), owned [500, 1001)
  const int count = s1 - s0;
  novamd::core::CudaStream stream;
  novamd::core::DeviceBuffer<double> x, y, z, buffer;
  x.copy_from_host(p.position.x, stream.get());
  y.copy_from_host(p.position.y, stream.get());
  z.copy_from_host(p.position.z, stream.get());
  buffer.resize(3 * count);
  const novamd::integrate::Vec3Pointers position{x.data(), y.data(), z.data()};
  novamd::parallel::pack_owned_sources_kernel<<<(count + 127) / 128, 128, 0, stream.get()>>>(
      s0, count, t0, t1, position, buffer.data());
  std::vector<double> packed;
  buffer.copy_to_host(packed, stream.get());
  stream.synchronize();
  for (int k = 0; k < count; ++k) {
    const int i = s0 + k;
    const bool owned = i >= t0 && i < t1;
    ASSERT_EQ(packed[k], owned ? p.position.x[i] : 0.0) << i;
    ASSERT_EQ(packed[count + k], owned ? p.position.y[i] : 0.0) << i;
    ASSERT_EQ(packed[2 * count + k], owned ? p.position.z[i] : 0.0) << i;
  }

  // What the column's sum would bring: other values for the sources not owned here.
  std::vector<double> summed(3 * count);
  for (int k = 0; k < 3 * count; ++k) summed[k] = 1000.0 + k;
  buffer.copy_from_host(summed, stream.get());
  std::vector<novamd::neighbors::PairPosition<double>> before(n, {-1.0, -1.0, -1.0, -1});
  novamd::core::DeviceBuffer<novamd::neighbors::PairPosition<double>> pair_positions;
  pair_positions.copy_from_host(before, stream.get());
  novamd::core::DeviceBuffer<std::int32_t> type;
  type.copy_from_host(p.type, stream.get());
  novamd::parallel::unpack_sources_kernel<double><<<(count + 127) / 128, 128, 0, stream.get()>>>(
      s0, count, t0, t1, buffer.data(), type.data(), position, pair_positions.data());
  std::vector<double> hx;
  std::vector<novamd::neighbors::PairPosition<double>> after;
  x.copy_to_host(hx, stream.get());
  pair_positions.copy_to_host(after, stream.get());
  stream.synchronize();
  for (int i = 0; i < n; ++i) {
    const bool source_not_owned = i >= s0 && i < s1 && !(i >= t0 && i < t1);
    if (source_not_owned) {
      ASSERT_EQ(hx[i], 1000.0 + (i - s0)) << i;
      ASSERT_EQ(after[i].x, 1000.0 + (i - s0)) << i;
      ASSERT_EQ(after[i].z, 1000.0 + 2 * count + (i - s0)) << i;
      ASSERT_EQ(after[i].type, p.type[i]) << i;
    } else {  // owned, or no source: untouched
      ASSERT_EQ(hx[i], p.position.x[i]) << i;
      ASSERT_EQ(after[i].type, -1) << i;
    }
  }
}

}  // namespace
