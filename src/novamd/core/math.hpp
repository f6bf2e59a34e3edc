#pragma once
/// @file math.hpp
/// Math functions for evaluators, overloaded on float and double, for host and device. On the
/// device they map to CUDA's fast paths (rsqrt; for float, exp through the hardware's exp2);
/// on the host to the standard library in the argument's own precision. Evaluators call these,
/// never unqualified sqrt/exp (which would silently use double functions for float arguments).
///
/// Accuracy (device): rsqrtf 2 ulp; rsqrt (double) 1 ulp; __expf 2 + 1.2 |x| ulp (CUDA C
/// Programming Guide, "Mathematical Functions"); exp_device (double) 2 ulp (below).

#include <cmath>

#include "novamd/core/host_device.hpp"

namespace novamd::core {

NOVAMD_HD float rsqrt_hd(float x) {
#ifdef __CUDA_ARCH__
  return ::rsqrtf(x);
#else
  return 1.0f / std::sqrt(x);
#endif
}

NOVAMD_HD double rsqrt_hd(double x) {
#ifdef __CUDA_ARCH__
  return ::rsqrt(x);
#else
  return 1.0 / std::sqrt(x);
#endif
}

NOVAMD_HD float exp_hd(float x) {
#ifdef __CUDA_ARCH__
  return __expf(x);
#else
  return std::exp(x);
#endif
}

#ifdef __CUDACC__
namespace detail {
/// Taylor coefficients 1/n!, n = 0 .. 13, of exp(r) for |r| <= ln2 / 2 (truncation error below
/// 4e-18 relative). In constant memory, so that each fused multiply-add reads its coefficient
/// as an operand instead of rebuilding the 64-bit constant in registers for every call.
static __constant__ double kExpTaylor[14] = {1.0,
                                             1.0,
                                             0.5,
                                             0.16666666666666666,
                                             0.041666666666666664,
                                             0.008333333333333333,
                                             0.001388888888888889,
                                             0.0001984126984126984,
                                             2.48015873015873e-05,
                                             2.7557319223985893e-06,
                                             2.755731922398589e-07,
                                             2.505210838544172e-08,
                                             2.08767569878681e-09,
                                             1.6059043836821613e-10};
}  // namespace detail

/// exp(x) in FP64 on the device, within 2 ulp: x = k ln2 + r (Cody and Waite's two-part ln2,
/// fdlibm's constants), exp(r) by Horner's rule, then k added to the exponent bits. x is
/// clamped to [-708, 709], where the result stays a normal number: exp(x < -708) gives
/// 3.3e-308 instead of a smaller number or 0 (a pair term below 1e-300 of any force sum).
__device__ inline double exp_device(double x) {
  const double clamped = x < -708.0 ? -708.0 : (x > 709.0 ? 709.0 : x);  // NaN stays NaN
  constexpr double kMagic = 6755399441055744.0;  // 1.5 x 2^52: rounds to an integer
  const double shifted = fma(clamped, 1.4426950408889634, kMagic);
  const double k = shifted - kMagic;
  double r = fma(k, -6.93147180369123816490e-01, clamped);
  r = fma(k, -1.90821492927058770002e-10, r);
  double p = detail::kExpTaylor[13];
#pragma unroll
  for (int n = 12; n >= 0; --n) p = fma(p, r, detail::kExpTaylor[n]);
  const long long k_int = __double_as_longlong(shifted) - __double_as_longlong(kMagic);
  const double result = __longlong_as_double(__double_as_longlong(p) + (k_int << 52));
  return clamped == clamped ? result : clamped;
}
#endif

NOVAMD_HD double exp_hd(double x) {
#ifdef __CUDA_ARCH__
  return exp_device(x);
#else
  return std::exp(x);
#endif
}

/// Rounds to the nearest integer (ties to even) for |x| < 2^22 (float) or 2^51 (double), by
/// adding and subtracting 1.5 x 2^23 (2^52): two additions on the FMA pipes instead of a
/// conversion-unit instruction, and bitwise the same as rint in the default rounding mode.
NOVAMD_HD float round_nearest(float x) {
  constexpr float kMagic = 12582912.0f;  // 1.5 x 2^23
  return (x + kMagic) - kMagic;
}

NOVAMD_HD double round_nearest(double x) {
  constexpr double kMagic = 6755399441055744.0;  // 1.5 x 2^52
  return (x + kMagic) - kMagic;
}

}  // namespace novamd::core
