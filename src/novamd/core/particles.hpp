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

/// `a` rearranged so that entry k is the old entry order[k].
template <class T, class Index>
std::vector<T> gathered(const std::vector<T>& a, const std::vector<Index>& order) {
  std::vector<T> out(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) out[k] = a[order[k]];
  return out;
}

/// Every per-particle array rearranged so that particle k is the old particle order[k].
template <class Index>
void permute(ParticleData& p, const std::vector<Index>& order) {
  for (auto* a : {&p.position, &p.velocity, &p.force}) {
    a->x = gathered(a->x, order);
    a->y = gathered(a->y, order);
    a->z = gathered(a->z, order);
  }
  p.type = gathered(p.type, order);
  p.id = gathered(p.id, order);
}

/// Particles of each of `types` types.
inline std::vector<std::int64_t> count_by_type(const ParticleData& p, int types) {
  std::vector<std::int64_t> count(types, 0);
  for (auto t : p.type) ++count[t];
  return count;
}

/// The storage order that lists the particles by increasing id.
inline std::vector<std::size_t> id_order(const ParticleData& p) {
  std::vector<std::size_t> order(p.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return p.id[a] < p.id[b]; });
  return order;
}

}  // namespace novamd::core
