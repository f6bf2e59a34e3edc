// The counter-based random numbers on the device against the host: the same (seed, purpose,
// id, index) must give the same bits and uniforms bit for bit, and the same normals to within
// the ulps that separate CUDA's log, sqrt, sin and cos from glibc's.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "novamd/backend/cuda_device.hpp"
#include "novamd/core/device_buffer.cuh"
#include "novamd/core/random.hpp"
#include "novamd/integrate/velocity_noise.hpp"

namespace {

using novamd::core::RandomPurpose;
using novamd::core::RandomStream;

struct Draw {
  std::uint32_t bits[4];
  double uniform[2];
  double normal[3];
  double thermalized[3];
};

/// Draw k addresses particle id = k * 7919 (ids spread over 32 bits) at index = 3 k + 2^33.
__host__ __device__ Draw draw(int k, std::uint64_t seed) {
  const RandomStream stream(seed, RandomPurpose::Langevin);
  const auto id = static_cast<std::uint32_t>(k) * 7919u;
  const std::uint64_t index = 3ull * k + (1ull << 33);
  Draw d;
  const auto bits = stream.bits(id, index);
  for (int w = 0; w < 4; ++w) d.bits[w] = bits.w[w];
  const auto u = stream.uniform(id, index);
  d.uniform[0] = u.first;
  d.uniform[1] = u.second;
  const auto g = stream.normal_vector(id, index);
  d.normal[0] = g.x;
  d.normal[1] = g.y;
  d.normal[2] = g.z;
  const novamd::integrate::VelocityNoise noise{0.9, 1.3, seed, index};
  const auto v = novamd::integrate::thermalized({0.5, -1.0, 2.0}, static_cast<std::int32_t>(id & 0x7fffffff), 0.25, noise);
  d.thermalized[0] = v.x;
  d.thermalized[1] = v.y;
  d.thermalized[2] = v.z;
  return d;
}

__global__ void draw_kernel(int n, std::uint64_t seed, Draw* out) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) out[k] = draw(k, seed);
}

TEST(CudaRandom, DeviceDrawsTheHostsNumbers) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  const int n = 1 << 18;
  const std::uint64_t seed = 0x9e3779b97f4a7c15ull;
  novamd::core::DeviceBuffer<Draw> device(n);
  draw_kernel<<<(n + 255) / 256, 256>>>(n, seed, device.data());
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  std::vector<Draw> got;
  device.copy_to_host(got, nullptr);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  double worst_normal = 0.0, worst_velocity = 0.0;
  for (int k = 0; k < n; ++k) {
    const Draw want = draw(k, seed);
    for (int w = 0; w < 4; ++w) ASSERT_EQ(got[k].bits[w], want.bits[w]) << "draw " << k;
    for (int w = 0; w < 2; ++w) ASSERT_EQ(got[k].uniform[w], want.uniform[w]) << "draw " << k;
    for (int w = 0; w < 3; ++w) {
      worst_normal = std::max(worst_normal, std::abs(got[k].normal[w] - want.normal[w]));
      worst_velocity =
          std::max(worst_velocity, std::abs(got[k].thermalized[w] - want.thermalized[w]));
    }
  }
  // Box-Muller: r = sqrt(-2 ln u1) <= 8.6 and cos/sin of 2 pi u2; CUDA's log, sqrt, sin and cos
  // are within 1-2 ulp of glibc's, so |z_dev - z_host| <= ~4 ulp of 8.6: 8.6 x 4 x 2.2e-16 =
  // 7.6e-15. The velocity adds one multiply by sigma = 0.25: the same bound holds.
  EXPECT_LT(worst_normal, 8e-15);
  EXPECT_LT(worst_velocity, 8e-15);
  std::printf("largest device-host difference: normals %.3g, O-step velocities %.3g\n",
              worst_normal, worst_velocity);
}

}  // namespace
