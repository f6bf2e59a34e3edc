#pragma once
/// @file math.hpp
/// Math functions for evaluators, overloaded on float and double, for host and device. On the
/// device they map to CUDA's fast paths (rsqrt; for float, exp through the hardware's exp2);
/// on the host to the standard library in the argument's own precision. Evaluators call these,
/// never unqualified sqrt/exp (which would silently use double functions for float arguments).
///
/// Accuracy (device): rsqrtf 2 ulp; rsqrt (double) 1 ulp; __expf 2 + 1.2 |x| ulp; the float
/// reciprocal __fdividef(1, x) 2 ulp for 2^-126 <= |x| <= 2^126 (CUDA C Programming Guide,
/// "Mathematical Functions"); exp (double) 1 ulp; the double reciprocal correctly rounded.

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

/// 1/x. On the device in float the hardware's reciprocal (one instruction) instead of IEEE
/// division (a Newton step, a range test and a slow path: some ten instructions per pair).
NOVAMD_HD float reciprocal_hd(float x) {
#ifdef __CUDA_ARCH__
  return __fdividef(1.0f, x);
#else
  return 1.0f / x;
#endif
}

NOVAMD_HD double reciprocal_hd(double x) {
  return 1.0 / x;
}

NOVAMD_HD float exp_hd(float x) {
#ifdef __CUDA_ARCH__
  return __expf(x);
#else
  return std::exp(x);
#endif
}

NOVAMD_HD double exp_hd(double x) {
#ifdef __CUDA_ARCH__
  return ::exp(x);
#else
  return std::exp(x);
#endif
}

/// The complementary error function (the Ewald real-space pair). Device: erfcf 4 ulp, erfc
/// 5 ulp (CUDA C Programming Guide, "Mathematical Functions").
NOVAMD_HD float erfc_hd(float x) {
#ifdef __CUDA_ARCH__
  return ::erfcf(x);
#else
  return std::erfc(x);
#endif
}

NOVAMD_HD double erfc_hd(double x) {
#ifdef __CUDA_ARCH__
  return ::erfc(x);
#else
  return std::erfc(x);
#endif
}

/// 2^x in float: the hardware's exp2 on the device (ex2.approx, 2 ulp), the library's on the
/// host.
NOVAMD_HD float exp2_hd(float x) {
#ifdef __CUDA_ARCH__
  return ::exp2f(x);
#else
  return std::exp2(x);
#endif
}

/// x y, x + y and x y + z each rounded once as written: the compiler neither fuses a product
/// into a later addition nor splits a fused one. A pair evaluated by two kernels (a force pass
/// and an energy pass) then rounds alike in both, whatever else each computes beside it.
NOVAMD_HD float mul_rn(float x, float y) {
#ifdef __CUDA_ARCH__
  return __fmul_rn(x, y);
#else
  return x * y;
#endif
}

NOVAMD_HD float add_rn(float x, float y) {
#ifdef __CUDA_ARCH__
  return __fadd_rn(x, y);
#else
  return x + y;
#endif
}

NOVAMD_HD float fma_rn(float x, float y, float z) {
#ifdef __CUDA_ARCH__
  return __fmaf_rn(x, y, z);
#else
  return std::fma(x, y, z);
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

/// A quiet NaN of the argument's type (the argument is not read), on the host and the device.
NOVAMD_HD float quiet_nan(float) {
  return __builtin_nanf("");
}
NOVAMD_HD double quiet_nan(double) {
  return __builtin_nan("");
}

}  // namespace novamd::core
