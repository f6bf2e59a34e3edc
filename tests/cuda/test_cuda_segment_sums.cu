// Segment sums (backend/segment_sums.cuh) against the host: every segment's seven sums within
// the bound any order of summation keeps, (n - 1) u sum |x| (u = 2^-53), an empty segment
// exactly zero, and the same bits from a second launch. The sizes cover a segment of one item,
// an empty one, one of a few blocks and one past kMaxBlocks blocks of kItemsPerBlock (its
// blocks then take more items each).

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "novamd/backend/cuda_device.hpp"
#include "novamd/backend/particle_terms.hpp"
#include "novamd/backend/segment_sums.cuh"
#include "novamd/core/device_buffer.cuh"

namespace {

using novamd::backend::AddScalarAndTensor;
using novamd::backend::ScalarAndTensor;
using novamd::backend::SegmentGrid;

/// Item i of segment s: values[first[s] + i].
struct StoredShares {
  const ScalarAndTensor* values;
  int first[SegmentGrid::kMaxSegments];
  __device__ ScalarAndTensor operator()(int s, int i) const { return values[first[s] + i]; }
};

std::vector<ScalarAndTensor> sums_on_device(const StoredShares& shares, const SegmentGrid& grid) {
  novamd::core::DeviceBuffer<ScalarAndTensor> partials(static_cast<std::size_t>(grid.blocks()));
  novamd::backend::queue_segment_partials<ScalarAndTensor, AddScalarAndTensor>(
      shares, grid, partials.data(), nullptr);
  std::vector<ScalarAndTensor> host(partials.size());
  partials.copy_to_host(host, nullptr);
  EXPECT_EQ(cudaStreamSynchronize(nullptr), cudaSuccess);
  std::vector<ScalarAndTensor> out;
  for (int s = 0; s < grid.segments; ++s)
    out.push_back(
        novamd::backend::segment_sum<ScalarAndTensor, AddScalarAndTensor>(host.data(), grid, s));
  return out;
}

TEST(CudaSegmentSums, EachSegmentsSumsMatchTheHostAndRepeatBitwise) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  const std::vector<std::size_t> counts{
      70001, 0, 1, SegmentGrid::kMaxBlocks * SegmentGrid::kItemsPerBlock + 7777};
  const SegmentGrid grid = SegmentGrid::of(counts);
  ASSERT_EQ(grid.first_block[4] - grid.first_block[3], SegmentGrid::kMaxBlocks);
  ASSERT_GT(grid.per_block[3], SegmentGrid::kItemsPerBlock);

  std::mt19937_64 random(20261128);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<ScalarAndTensor> host;
  StoredShares shares{nullptr, {}};
  for (std::size_t s = 0; s < counts.size(); ++s) {
    shares.first[s] = static_cast<int>(host.size());
    for (std::size_t i = 0; i < counts[s]; ++i) {
      ScalarAndTensor v;
      // Magnitudes over six decades, so that the order of summation shows in the low bits.
      for (double& x : v.v) x = uniform(random) * std::pow(10.0, 3.0 * uniform(random));
      host.push_back(v);
    }
  }
  novamd::core::DeviceBuffer<ScalarAndTensor> values(host.size());
  values.copy_from_host(host, nullptr);
  shares.values = values.data();

  const auto first = sums_on_device(shares, grid);
  const auto second = sums_on_device(shares, grid);
  ASSERT_EQ(first.size(), counts.size());
  for (std::size_t s = 0; s < counts.size(); ++s) {
    for (int k = 0; k < ScalarAndTensor::kEntries; ++k) {
      long double exact = 0.0L;
      double magnitude = 0.0;
      for (std::size_t i = 0; i < counts[s]; ++i) {
        const double x = host[static_cast<std::size_t>(shares.first[s]) + i].v[k];
        exact += x;
        magnitude += std::fabs(x);
      }
      // Any order of summation in double errs by at most (n - 1) u sum |x|.
      const double bound =
          static_cast<double>(counts[s] > 0 ? counts[s] - 1 : 0) * 0x1p-53 * magnitude;
      EXPECT_LE(std::fabs(first[s].v[k] - static_cast<double>(exact)), bound)
          << "segment " << s << " entry " << k;
      if (counts[s] == 0) EXPECT_EQ(first[s].v[k], 0.0);
    }
    EXPECT_EQ(std::memcmp(&first[s], &second[s], sizeof(ScalarAndTensor)), 0) << "segment " << s;
  }
}

}  // namespace
