#pragma once
/// @file random.hpp
/// Counter-based random numbers (DESIGN principle 5): Philox4x32-10 from Random123
/// (Salmon, Moraes, Dror and Shaw, "Parallel random numbers: as easy as 1, 2, 3", SC11).
///
/// A RandomStream is keyed by the run's seed and a RandomPurpose; a draw is addressed by a
/// particle id and a draw index (a step, or a try number). The same (seed, purpose, id, index)
/// gives the same 128 random bits on every platform, thread count and storage order, on the
/// host and on the device, with no state to carry: each draw is one call of the Philox bijection
///
///     bits = philox4x32_10(counter = {id, index_lo, index_hi, purpose}, key = {seed_lo, seed_hi})
///
/// The purpose sits in the counter, not the key, because the 64-bit Philox key is taken whole by
/// the 64-bit seed: streams of different purposes can then never collide, whatever the seed.
///
/// Conversions are written out here (no std:: distributions, whose output differs between
/// standard libraries): uniform doubles take 52 bits from two 32-bit words and return
/// (2k + 1) / 2^53, Random123's open-open 53-bit scheme, so 0 and 1 never occur and the values
/// are symmetric about 1/2; normals use the Box-Muller transform. The integer and uniform paths
/// are bitwise identical everywhere; normals go through log, sqrt, sin and cos, which may differ
/// by an ulp between the host's libm and CUDA's.

#include <Random123/philox.h>

#include <cmath>
#include <cstdint>

#include "novamd/core/host_device.hpp"
#include "novamd/core/vec3.hpp"

namespace novamd::core {

/// What a stream of random numbers is for. Values are part of the reproducibility contract
/// (a restart must draw the same numbers): never renumber, only append.
enum class RandomPurpose : std::uint32_t {
  InitialVelocity = 1,         ///< Maxwell-Boltzmann velocities at start
  RandomPosition = 2,          ///< `lattice: random` positions, index = try number
  LatticeShuffle = 3,          ///< species over lattice sites (Fisher-Yates)
  Langevin = 4,                ///< Langevin thermostat noise, index = step
  StochasticRescale = 5,       ///< Bussi stochastic velocity rescaling, index = step
  BenchmarkSetup = 6,          ///< orientations of the molecules a benchmark generates
  Barostat = 7,                ///< stochastic cell rescaling's noise, id = axis, index = step
  Orientation = 8,             ///< rigid molecules' initial orientations
  InitialAngularMomentum = 9,  ///< rigid molecules' Maxwell-Boltzmann angular momenta at start
  LangevinRotation = 10,       ///< Langevin noise on rigid molecules' rotation, index = step
};

/// Four 32-bit random words: one Philox draw.
struct RandomWords {
  std::uint32_t w[4];
};

/// Two numbers from one draw (both uniform or both normal).
struct RandomPair {
  double first;
  double second;
};

/// Uniform double in (0, 1) from two 32-bit words: k = the top 52 of their 64 bits,
/// u = (2k + 1) * 2^-53. Exact in double; smallest 2^-53, largest 1 - 2^-53; mean exactly 1/2.
NOVAMD_HD double uniform_open01(std::uint32_t high, std::uint32_t low) {
  const std::uint64_t bits = (static_cast<std::uint64_t>(high) << 32) | low;
  const std::uint64_t k = bits >> 12;
  return static_cast<double>(2 * k + 1) * 0x1.0p-53;
}

/// Two independent standard normals from two uniforms in (0, 1) (Box-Muller):
/// r = sqrt(-2 ln u1), z1 = r cos(2 pi u2), z2 = r sin(2 pi u2).
NOVAMD_HD RandomPair box_muller(double u1, double u2) {
  constexpr double kTwoPi = 6.283185307179586476925286766559;
  const double r = sqrt(-2.0 * log(u1));
  const double theta = kTwoPi * u2;
  return {r * cos(theta), r * sin(theta)};
}

/// Uniform integer in [0, n) from two 32-bit words by 64-bit modulo; n > 0. The bias is below
/// n / 2^64 (under 1e-10 for any n below 2^31), far below anything a test could see.
NOVAMD_HD std::uint64_t uniform_below(std::uint32_t high, std::uint32_t low, std::uint64_t n) {
  const std::uint64_t bits = (static_cast<std::uint64_t>(high) << 32) | low;
  return bits % n;
}

/// A stream of counter-based random numbers keyed by (seed, purpose). Cheap to copy and pass
/// to kernels by value; every member is a pure function of its arguments.
class RandomStream {
 public:
  NOVAMD_HD RandomStream(std::uint64_t seed, RandomPurpose purpose)
      : seed_low_(static_cast<std::uint32_t>(seed)),
        seed_high_(static_cast<std::uint32_t>(seed >> 32)),
        purpose_(static_cast<std::uint32_t>(purpose)) {}

  /// The 128 random bits of draw `index` for particle `id` (Philox4x32 with 10 rounds).
  NOVAMD_HD RandomWords bits(std::uint32_t id, std::uint64_t index) const {
    philox4x32_ctr_t counter = {
        {id, static_cast<std::uint32_t>(index), static_cast<std::uint32_t>(index >> 32), purpose_}};
    philox4x32_key_t key = {{seed_low_, seed_high_}};
    const philox4x32_ctr_t out = philox4x32_R(10, counter, key);
    return {{out.v[0], out.v[1], out.v[2], out.v[3]}};
  }

  /// Two uniform doubles in (0, 1) from draw `index` of particle `id`.
  NOVAMD_HD RandomPair uniform(std::uint32_t id, std::uint64_t index) const {
    const RandomWords r = bits(id, index);
    return {uniform_open01(r.w[0], r.w[1]), uniform_open01(r.w[2], r.w[3])};
  }

  /// Two independent standard normal doubles (mean 0, variance 1) from draw `index` of `id`.
  NOVAMD_HD RandomPair normal(std::uint32_t id, std::uint64_t index) const {
    const RandomPair u = uniform(id, index);
    return box_muller(u.first, u.second);
  }

  /// Three independent standard normals for step `index` of particle `id`: the normals of
  /// draws 2 index and 2 index + 1 (the fourth is not used).
  NOVAMD_HD Vec3<double> normal_vector(std::uint32_t id, std::uint64_t index) const {
    const RandomPair a = normal(id, 2 * index);
    const RandomPair b = normal(id, 2 * index + 1);
    return {a.first, a.second, b.first};
  }

 private:
  std::uint32_t seed_low_;
  std::uint32_t seed_high_;
  std::uint32_t purpose_;
};

}  // namespace novamd::core
