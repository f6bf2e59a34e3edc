// Counter-based random numbers (core/random.hpp): known answers, reproducibility, independence
// of streams, and the first two moments of the uniform and normal conversions.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <set>
#include <tuple>
#include <vector>

#include "novamd/core/random.hpp"

namespace {

using novamd::core::RandomPurpose;
using novamd::core::RandomStream;
using novamd::core::RandomWords;

constexpr int kDraws = 100000;

std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t> as_tuple(RandomWords r) {
  return {r.w[0], r.w[1], r.w[2], r.w[3]};
}

// Known-answer vectors of Philox4x32-10 from Random123's kat_vectors: they pin the
// algorithm and our packing of (seed, purpose, id, index) into key and counter.
TEST(RandomPhilox, MatchesRandom123KnownAnswers) {
  const RandomStream zero(0, static_cast<RandomPurpose>(0));
  EXPECT_EQ(as_tuple(zero.bits(0, 0)),
            std::make_tuple(0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u));
  // counter {id, index_lo, index_hi, purpose} all ones, key {seed_lo, seed_hi} all ones
  const RandomStream ones(~std::uint64_t{0}, static_cast<RandomPurpose>(0xffffffffu));
  EXPECT_EQ(as_tuple(ones.bits(0xffffffffu, ~std::uint64_t{0})),
            std::make_tuple(0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu));
  // counter 243f6a88 85a308d3 13198a2e 03707344, key a4093822 299f31d0 (digits of pi)
  const RandomStream pi(0x299f31d0a4093822ull, static_cast<RandomPurpose>(0x03707344u));
  EXPECT_EQ(as_tuple(pi.bits(0x243f6a88u, 0x13198a2e85a308d3ull)),
            std::make_tuple(0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u));
}

TEST(RandomPhilox, ReproducibleFromSeedPurposeIdIndex) {
  const RandomStream a(2026, RandomPurpose::InitialVelocity);
  const RandomStream b(2026, RandomPurpose::InitialVelocity);
  for (std::uint32_t id = 0; id < 100; ++id) {
    EXPECT_EQ(as_tuple(a.bits(id, 7)), as_tuple(b.bits(id, 7)));
    EXPECT_EQ(a.uniform(id, 3).first, b.uniform(id, 3).first);
    EXPECT_EQ(a.normal(id, 5).second, b.normal(id, 5).second);
  }
}

TEST(RandomPhilox, DifferentPurposesIdsIndicesAndSeedsDiffer) {
  std::set<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t>> seen;
  int draws = 0;
  for (auto purpose : {RandomPurpose::InitialVelocity, RandomPurpose::RandomPosition,
                       RandomPurpose::LatticeShuffle, RandomPurpose::Langevin}) {
    for (std::uint64_t seed : {1ull, 2ull, 1ull << 32}) {
      const RandomStream stream(seed, purpose);
      for (std::uint32_t id = 0; id < 20; ++id) {
        for (std::uint64_t index : {0ull, 1ull, 1ull << 32}) {
          seen.insert(as_tuple(stream.bits(id, index)));
          ++draws;
        }
      }
    }
  }
  // 720 different counters/keys: a collision of 128-bit outputs would mean a packing bug.
  EXPECT_EQ(static_cast<int>(seen.size()), draws);
}

TEST(RandomUniform, OpenIntervalEndpoints) {
  using novamd::core::uniform_open01;
  EXPECT_EQ(uniform_open01(0, 0), std::ldexp(1.0, -53));
  EXPECT_EQ(uniform_open01(0xffffffffu, 0xffffffffu), 1.0 - std::ldexp(1.0, -53));
  EXPECT_EQ(uniform_open01(0x80000000u, 0), 0.5 + std::ldexp(1.0, -53));
  // the lowest 12 bits do not matter; bit 12 of the low word is the least significant used
  EXPECT_EQ(uniform_open01(0, 0xfff), uniform_open01(0, 0));
  EXPECT_EQ(uniform_open01(0, 0x1000), 3.0 * std::ldexp(1.0, -53));
}

// Mean and variance of 1e5 uniforms: sd of the mean sqrt(1/12/n) = 9.1e-4; sd of the sample
// variance sqrt((1/80 - 1/144)/n) = 2.4e-4. Bounds are 5 sd.
TEST(RandomUniform, MeanAndVarianceWithinFiveSigma) {
  const RandomStream stream(12345, RandomPurpose::RandomPosition);
  double sum = 0.0, sum2 = 0.0;
  for (int i = 0; i < kDraws / 2; ++i) {
    const auto u = stream.uniform(static_cast<std::uint32_t>(i % 1000), i / 1000);
    for (double x : {u.first, u.second}) {
      ASSERT_GT(x, 0.0);
      ASSERT_LT(x, 1.0);
      sum += x;
      sum2 += x * x;
    }
  }
  const double mean = sum / kDraws;
  const double variance = sum2 / kDraws - mean * mean;
  EXPECT_NEAR(mean, 0.5, 5.0 * std::sqrt(1.0 / 12.0 / kDraws));
  EXPECT_NEAR(variance, 1.0 / 12.0, 5.0 * std::sqrt((1.0 / 80.0 - 1.0 / 144.0) / kDraws));
}

// Normals: sd of the mean 1/sqrt(n) = 3.2e-3; sd of the sample variance sqrt(2/n) = 4.5e-3;
// the fourth moment (3) has sd sqrt((105 - 9)/n) = 0.031. Bounds are 5 sd.
TEST(RandomNormal, MomentsWithinFiveSigma) {
  const RandomStream stream(777, RandomPurpose::InitialVelocity);
  double sum = 0.0, sum2 = 0.0, sum4 = 0.0, cross = 0.0;
  for (int i = 0; i < kDraws / 2; ++i) {
    const auto z = stream.normal(static_cast<std::uint32_t>(i), 0);
    cross += z.first * z.second;
    for (double x : {z.first, z.second}) {
      sum += x;
      sum2 += x * x;
      sum4 += x * x * x * x;
    }
  }
  const double n = kDraws;
  EXPECT_NEAR(sum / n, 0.0, 5.0 / std::sqrt(n));
  EXPECT_NEAR(sum2 / n, 1.0, 5.0 * std::sqrt(2.0 / n));
  EXPECT_NEAR(sum4 / n, 3.0, 5.0 * std::sqrt(96.0 / n));
  // the two normals of a pair are uncorrelated: sd of the mean product 1/sqrt(n/2)
  EXPECT_NEAR(cross / (n / 2), 0.0, 5.0 / std::sqrt(n / 2));
}

// Uniform integers in [0, 6): each of the 6 bins holds n/6 with sd sqrt(n p (1-p)); 5 sd bounds.
TEST(RandomUniform, BelowIsInRangeAndEvenlySpread) {
  const RandomStream stream(99, RandomPurpose::LatticeShuffle);
  std::vector<int> bins(6, 0);
  for (int i = 0; i < kDraws; ++i) {
    const RandomWords r = stream.bits(static_cast<std::uint32_t>(i), 0);
    const auto k = novamd::core::uniform_below(r.w[0], r.w[1], 6);
    ASSERT_LT(k, 6u);
    ++bins[k];
  }
  const double p = 1.0 / 6.0;
  for (int count : bins) EXPECT_NEAR(count, kDraws * p, 5.0 * std::sqrt(kDraws * p * (1.0 - p)));
}

}  // namespace
