#pragma once
/// @file particle_view.hpp
/// Read-only pointers to the particle arrays that analysis needs (positions, types, ids), in
/// whatever memory and order they are stored: host or device, storage or id order. A view is
/// valid until the owner changes its arrays (a step may reorder them): take a fresh one each time.

#include <cstddef>
#include <cstdint>

#include "novamd/core/particles.hpp"

namespace novamd::core {

struct ParticleView {
  const double* x = nullptr;
  const double* y = nullptr;
  const double* z = nullptr;
  const std::int32_t* type = nullptr;
  const std::int32_t* id = nullptr;  ///< the permanent number of the particle stored at k
  std::size_t size = 0;
};

/// A view of host particle storage, in its own order.
inline ParticleView view_of(const ParticleData& p) {
  return {p.position.x.data(), p.position.y.data(), p.position.z.data(),
          p.type.data(),       p.id.data(),         p.size()};
}

}  // namespace novamd::core
