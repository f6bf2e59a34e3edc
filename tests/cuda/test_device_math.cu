// The device math of core/math.hpp against the host's libm, in ulp of the exact-rounded value.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "novamd/backend/cuda_device.hpp"
#include "novamd/core/device_buffer.cuh"
#include "novamd/core/math.hpp"

namespace {

__global__ void evaluate_kernel(const double* x, int n, double* exp_d, double* rsqrt_d,
                                float* exp_f, float* rsqrt_f, float* reciprocal_f) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  exp_d[i] = novamd::core::exp_hd(x[i]);
  rsqrt_d[i] = novamd::core::rsqrt_hd(std::abs(x[i]) + 1e-3);
  const float xf = static_cast<float>(x[i] / 16.0);  // [-45, 0] for float exp
  exp_f[i] = novamd::core::exp_hd(xf);
  rsqrt_f[i] = novamd::core::rsqrt_hd(static_cast<float>(std::abs(x[i]) + 1e-3));
  reciprocal_f[i] = novamd::core::reciprocal_hd(static_cast<float>(std::abs(x[i]) + 1e-3));
}

/// |a - b| in units of the spacing of doubles (floats) at b.
double ulps(double a, double b) {
  return std::abs(a - b) / (std::nextafter(b, INFINITY) - b);
}
double ulps(float a, float b) {
  return std::abs(double(a) - double(b)) / (double(std::nextafter(b, INFINITY)) - double(b));
}

TEST(CudaDeviceMath, ExpRsqrtAndReciprocalWithinTheirStatedUlps) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  const int n = 200001;
  std::vector<double> x(n);
  for (int i = 0; i < n; ++i) x[i] = -720.0 + 720.0 * i / (n - 1) + 1e-7 * (i % 7);  // [-720, 0]
  for (int i = 0; i < n; i += 2) x[i] = -x[i] * 0.98;  // half of them positive, up to ~705
  novamd::core::DeviceBuffer<double> dx, exp_d, rsqrt_d;
  novamd::core::DeviceBuffer<float> exp_f, rsqrt_f, reciprocal_f;
  dx.copy_from_host(x, nullptr);
  for (auto* b : {&exp_d, &rsqrt_d}) b->resize(n);
  for (auto* b : {&exp_f, &rsqrt_f, &reciprocal_f}) b->resize(n);
  evaluate_kernel<<<(n + 255) / 256, 256>>>(dx.data(), n, exp_d.data(), rsqrt_d.data(),
                                            exp_f.data(), rsqrt_f.data(), reciprocal_f.data());
  NOVAMD_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<double> ed, rd;
  std::vector<float> ef, rf, qf;
  exp_d.copy_to_host(ed, nullptr);
  rsqrt_d.copy_to_host(rd, nullptr);
  exp_f.copy_to_host(ef, nullptr);
  rsqrt_f.copy_to_host(rf, nullptr);
  reciprocal_f.copy_to_host(qf, nullptr);
  NOVAMD_CUDA_CHECK(cudaDeviceSynchronize());
  double worst_exp = 0, worst_rsqrt = 0, worst_exp_f = 0, worst_rsqrt_f = 0, worst_reciprocal_f = 0;
  for (int i = 0; i < n; ++i) {
    // References in long double, rounded once to double: within 0.5 ulp of the exact value.
    const double exp_ref = static_cast<double>(std::exp(static_cast<long double>(x[i])));
    if (exp_ref > 0x1p-1022) worst_exp = std::max(worst_exp, ulps(ed[i], exp_ref));  // normal
    const long double y = static_cast<long double>(std::abs(x[i]) + 1e-3);
    worst_rsqrt = std::max(worst_rsqrt, ulps(rd[i], static_cast<double>(1.0L / std::sqrt(y))));
    const float xf = static_cast<float>(x[i] / 16.0);
    if (xf <= 0) {
      // __expf: 2 + 1.2 |x| ulp (CUDA C Programming Guide), taken as a relative error of that
      // many 2^-23 (an ulp relative to the value at the top of its binade), plus the rounding
      // of the reference.
      const double exact = std::exp(double(xf));
      const double relative = std::abs(ef[i] - exact) / exact;
      EXPECT_LE(relative, (2.5 + 1.2 * std::abs(xf)) * 0x1p-23) << xf;
      worst_exp_f = std::max(worst_exp_f, relative / 0x1p-23);
    }
    worst_rsqrt_f = std::max(
        worst_rsqrt_f,
        ulps(rf[i], static_cast<float>(
                        1.0 / std::sqrt(double(static_cast<float>(std::abs(x[i]) + 1e-3))))));
    worst_reciprocal_f = std::max(
        worst_reciprocal_f,
        ulps(qf[i], static_cast<float>(1.0 / double(static_cast<float>(std::abs(x[i]) + 1e-3)))));
  }
  std::printf(
      "worst ulps: exp(double) %.2f, rsqrt(double) %.2f, exp(float) %.2f (x 2^-23 relative), "
      "rsqrt(float) %.2f, reciprocal(float) %.2f\n",
      worst_exp, worst_rsqrt, worst_exp_f, worst_rsqrt_f, worst_reciprocal_f);
  EXPECT_LE(worst_exp, 1.5);           // CUDA exp (double): 1 ulp, plus the reference's rounding
  EXPECT_LE(worst_rsqrt, 1.5);         // CUDA rsqrt (double): 1 ulp, plus the reference's rounding
  EXPECT_LE(worst_rsqrt_f, 2.5);       // rsqrtf: 2 ulp, plus the rounding of the reference
  EXPECT_LE(worst_reciprocal_f, 2.5);  // __fdividef(1, x): 2 ulp, plus the reference's rounding
}

}  // namespace
