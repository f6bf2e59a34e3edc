#pragma once
/// @file particles.hpp
/// Structure-of-arrays particle storage on the host. The CUDA backend mirrors the same arrays
/// in device buffers; the host copy is refreshed only for output, checkpoints and analysis.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "novamd/core/vec3.hpp"

namespace novamd::core {

/// Three coordinate arrays, x, y and z, each of one value per particle.
struct Vec3Array {
  std::vector<double> x, y, z;

  std::size_t size() const { return x.size(); }
  void resize(std::size_t n) {
    x.resize(n);
    y.resize(n);
    z.resize(n);
  }
  Vec3<double> get(std::size_t i) const { return {x[i], y[i], z[i]}; }
  void set(std::size_t i, const Vec3<double>& v) {
    x[i] = v.x;
    y[i] = v.y;
    z[i] = v.z;
  }
  void fill_zero() {
    std::fill(x.begin(), x.end(), 0.0);
    std::fill(y.begin(), y.end(), 0.0);
    std::fill(z.begin(), z.end(), 0.0);
  }
};

/// Per-particle state. `id` is a particle's permanent number (its order in the input); the
/// storage order may change later (spatial sorting), output is always in id order.
struct ParticleData {
  Vec3Array position;
  Vec3Array velocity;
  Vec3Array force;
  std::vector<std::int32_t> type;
  std::vector<std::int32_t> id;

  std::size_t size() const { return type.size(); }
  void resize(std::size_t n) {
    position.resize(n);
    velocity.resize(n);
    force.resize(n);
    type.resize(n);
    id.resize(n);
  }
};

}  // namespace novamd::core
