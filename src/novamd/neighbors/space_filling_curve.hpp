#pragma once
/// @file space_filling_curve.hpp
/// The Morton (Z-order) key of a position: the box divided into 1024 slabs per axis and the
/// three 10-bit slab numbers interleaved, z highest. Particles sorted by this key lie close in
/// memory when they are close in space, so the sources a target reads share cache lines
/// (Morton, IBM report 1966; as used for particle sorting by HOOMD-blue and LAMMPS).

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/core/host_device.hpp"
#include "novamd/core/particles.hpp"

namespace novamd::neighbors {

inline constexpr int kMortonBitsPerAxis = 10;

/// The low 10 bits of v spread out to every third bit (bit k moves to bit 3k).
NOVAMD_HD std::uint32_t spread_bits(std::uint32_t v) {
  v &= 0x3ffu;
  v = (v | (v << 16)) & 0x030000ffu;
  v = (v | (v << 8)) & 0x0300f00fu;
  v = (v | (v << 4)) & 0x030c30c3u;
  v = (v | (v << 2)) & 0x09249249u;
  return v;
}

/// The slab (0 .. 1023) of coordinate x in [0, length); out-of-range values are clamped.
NOVAMD_HD std::uint32_t morton_slab(double x, double length) {
  const double slab = x / length * double(1 << kMortonBitsPerAxis);
  const int s = static_cast<int>(slab);
  return static_cast<std::uint32_t>(s < 0 ? 0 : (s > 1023 ? 1023 : s));
}

/// The 30-bit Morton key of a position inside the box.
NOVAMD_HD std::uint32_t morton_key(const core::Vec3<double>& r, const core::Vec3<double>& L) {
  return spread_bits(morton_slab(r.x, L.x)) | (spread_bits(morton_slab(r.y, L.y)) << 1) |
         (spread_bits(morton_slab(r.z, L.z)) << 2);
}

/// The storage order along the curve: order[k] is the particle that goes to place k (ties keep
/// their order, as the GPU's stable radix sort does).
inline std::vector<std::uint32_t> morton_order(const core::ParticleData& p, const core::Box& box) {
  std::vector<std::uint32_t> key(p.size()), order(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) key[i] = morton_key(p.position.get(i), box.length());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return key[a] < key[b]; });
  return order;
}

}  // namespace novamd::neighbors
