#pragma once
// A valid checkpoint with every field set to awkward values, for the checkpoint tests.

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "novamd/io/checkpoint.hpp"

namespace novamd::test {

/// Finite doubles of every kind: random bit patterns (all exponents, both signs), plus negative
/// zero, denormals and the extremes at a fixed rate so that every sample holds them.
inline double random_double(std::mt19937_64& gen) {
  switch (gen() % 16) {
    case 0:
      return -0.0;
    case 1:
      return std::numeric_limits<double>::denorm_min() * static_cast<double>(gen() % 4096 + 1);
    case 2:
      return -std::numeric_limits<double>::denorm_min() * 3.0;
    case 3:
      return std::numeric_limits<double>::lowest();
    default: {
      std::uint64_t bits = gen();
      constexpr std::uint64_t kExponent = 0x7ffull << 52;
      if ((bits & kExponent) == kExponent) bits &= ~(1ull << 60);  // no inf or NaN
      return std::bit_cast<double>(bits);
    }
  }
}

inline std::vector<double> random_doubles(std::size_t n, std::mt19937_64& gen) {
  std::vector<double> v(n);
  for (double& x : v) x = random_double(gen);
  return v;
}

inline core::Vec3Array random_vec3(std::size_t n, std::mt19937_64& gen) {
  core::Vec3Array a;
  a.x = random_doubles(n, gen);
  a.y = random_doubles(n, gen);
  a.z = random_doubles(n, gen);
  return a;
}

/// A valid checkpoint of `n` particles with every field set, two force terms (the second without
/// a neighbour list), strings holding newlines, UTF-8 and a NUL character, and the extremes of
/// valid content: denormal, huge and negative-zero values, the largest counters.
inline io::CheckpointData sample_checkpoint(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  io::CheckpointData data;
  data.novamd_version = "novamd 0.1.0 (commit 0123abcd)";
  data.config_yaml = "units: lj\nseed: 7\n# Kob–Andersen\n";
  data.config_yaml += std::string(1, '\0') + "after a NUL";
  data.backend = "cuda";
  data.precision = "mixed";
  data.device = "NVIDIA H100 80GB HBM3 (sm_90)";
  data.step = 123456789012345;
  data.box = {std::numeric_limits<double>::denorm_min() * 7, 17.25, 1.0e300};  // positive, finite
  auto& p = data.state.particles;
  p.position = random_vec3(n, gen);
  p.velocity = random_vec3(n, gen);
  p.force = random_vec3(n, gen);
  p.type.resize(n);
  for (auto& t : p.type) t = static_cast<std::int32_t>(gen());
  p.id.resize(n);
  std::iota(p.id.begin(), p.id.end(), 0);
  std::shuffle(p.id.begin(), p.id.end(), gen);
  data.state.thermostat_heat = random_doubles(n, gen);
  data.state.force_evaluations = 987654321987;
  data.state.reorders = std::numeric_limits<std::int64_t>::max();
  data.state.terms = {{41, 7, random_vec3(n, gen), core::Box(10.25, 11.5, 12.75)},
                      {std::numeric_limits<std::int64_t>::max(), 0, {}, core::Box(9.5, 8.5, 7.5)}};
  data.integrator = {"langevin", random_doubles(5, gen)};
  data.barostat = {"c_rescale", random_doubles(9, gen)};
  data.time_axis = {123456789012, 61728.5, 0.002};  // a stage's timestep from that step on
  return data;
}

}  // namespace novamd::test
