#pragma once
/// @file particles.hpp
/// The particle store: a structure of arrays whose fields are declared once, here.
///
/// `ParticleFields<Array>` lists every per-particle field (position, velocity, force, type, id,
/// and the optional charge, mass, molecule, image counts, orientation, angular momentum, torque
/// and body), each as one array per component. `ParticleData` is the host store (std::vector);
/// the CUDA backend keeps the same fields in device buffers (backend/device_particles.cuh).
/// Everything that touches every field (resizing, permutation along the space-filling curve,
/// upload and download, checkpoints, trajectory output) iterates `for_each_field_array`, so a
/// field added to the list is carried by all of them.
///
/// Required fields hold one value per particle. An optional field is present when its arrays
/// hold one value per particle and absent when they are empty; a system turns one on with
/// `enable` (a molecular system its charges, an unwrapped trajectory its image counts).
/// `id` is a particle's permanent number (its order in the input); the storage order may change
/// (spatial sorting), output is always in id order.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "novamd/core/quaternion.hpp"
#include "novamd/core/vec3.hpp"

namespace novamd::core {

/// Three component arrays, x, y and z, of one value per particle each. `Array` is a
/// std::vector or a core::DeviceBuffer (both name their `value_type`); the element access and
/// sizing members work on host arrays only.
template <class Array>
struct Vec3Of {
  Array x, y, z;

  std::array<Array*, 3> components() { return {&x, &y, &z}; }
  std::array<const Array*, 3> components() const { return {&x, &y, &z}; }

  // Host arrays only (std::vector).
  std::size_t size() const { return x.size(); }
  void resize(std::size_t n) {
    x.resize(n);
    y.resize(n);
    z.resize(n);
  }
  using Value = typename Array::value_type;
  Vec3<Value> get(std::size_t i) const { return {x[i], y[i], z[i]}; }
  void set(std::size_t i, const Vec3<Value>& v) {
    x[i] = v.x;
    y[i] = v.y;
    z[i] = v.z;
  }
  void fill_zero() {
    for (Array* a : components()) std::fill(a->begin(), a->end(), Value{});
  }
};

/// Four component arrays: a unit quaternion (w, x, y, z) per particle.
template <class Array>
struct QuaternionOf {
  Array w, x, y, z;
  std::array<Array*, 4> components() { return {&w, &x, &y, &z}; }
  std::array<const Array*, 4> components() const { return {&w, &x, &y, &z}; }

  // Host arrays only (std::vector).
  using Value = typename Array::value_type;
  Quaternion<Value> get(std::size_t i) const { return {w[i], x[i], y[i], z[i]}; }
  void set(std::size_t i, const Quaternion<Value>& q) {
    w[i] = q.w;
    x[i] = q.x;
    y[i] = q.y;
    z[i] = q.z;
  }
};

template <class T>
using HostArray = std::vector<T>;

using Vec3Array = Vec3Of<HostArray<double>>;

/// What the engine needs to know of a field, besides its arrays.
struct FieldInfo {
  std::string_view name;         ///< the key in checkpoints and trajectory files ("position")
  std::string_view description;  ///< in messages: "the particle positions"
  bool optional;                 ///< absent (empty arrays) unless a system enables it
  bool evolves;                  ///< changes during a run: brought back to the host for output
};

/// Every per-particle field, in one place. `Array<T>`: the array type of the memory the fields
/// live in (HostArray, or core::DeviceBuffer on the CUDA backend).
template <template <class> class Array>
struct ParticleFields {
  Vec3Of<Array<double>> position;
  Vec3Of<Array<double>> velocity;
  Vec3Of<Array<double>> force;
  Array<std::int32_t> type;
  Array<std::int32_t> id;
  Array<double> charge;                     ///< per-particle charge (optional)
  Array<double> mass;                       ///< per-particle mass (optional; else by type)
  Array<std::int32_t> molecule;             ///< molecule index (optional)
  Vec3Of<Array<std::int32_t>> image;        ///< periodic images crossed (optional)
  QuaternionOf<Array<double>> orientation;  ///< body orientation (optional)
  Vec3Of<Array<double>> angular_momentum;   ///< body-frame angular momentum (optional)
  Vec3Of<Array<double>> torque;             ///< torque (optional)
  Array<std::int32_t> body;                 ///< rigid body a site belongs to (optional)
};

namespace field {
inline constexpr FieldInfo kPosition{"position", "the particle positions", false, true};
inline constexpr FieldInfo kVelocity{"velocity", "the particle velocities", false, true};
inline constexpr FieldInfo kForce{"force", "the particle forces", false, true};
inline constexpr FieldInfo kType{"type", "the particle types", false, false};
inline constexpr FieldInfo kId{"id", "the particle ids", false, false};
inline constexpr FieldInfo kCharge{"charge", "the particle charges", true, false};
inline constexpr FieldInfo kMass{"mass", "the particle masses", true, false};
inline constexpr FieldInfo kMolecule{"molecule", "the molecule indices", true, false};
inline constexpr FieldInfo kImage{"image", "the image counts", true, true};
inline constexpr FieldInfo kOrientation{"orientation", "the orientations", true, true};
inline constexpr FieldInfo kAngularMomentum{"angular_momentum", "the angular momenta", true, true};
inline constexpr FieldInfo kTorque{"torque", "the torques", true, true};
inline constexpr FieldInfo kBody{"body", "the rigid-body indices", true, false};
}  // namespace field

/// Pointers to the component arrays of a field: three or four for vectors and quaternions (their
/// components()), one for a scalar array; const where the field is.
template <class Field>
auto components_of(Field& f) {
  if constexpr (requires { f.components(); }) {
    return f.components();
  } else {
    return std::array<Field*, 1>{&f};
  }
}

/// Calls f(info, field_a, field_b, ...) for every field, with the same field of each store
/// (stores of the same layout in different memories: host and device).
template <class F, class... Stores>
void for_each_field(F&& f, Stores&... s) {
  f(field::kPosition, s.position...);
  f(field::kVelocity, s.velocity...);
  f(field::kForce, s.force...);
  f(field::kType, s.type...);
  f(field::kId, s.id...);
  f(field::kCharge, s.charge...);
  f(field::kMass, s.mass...);
  f(field::kMolecule, s.molecule...);
  f(field::kImage, s.image...);
  f(field::kOrientation, s.orientation...);
  f(field::kAngularMomentum, s.angular_momentum...);
  f(field::kTorque, s.torque...);
  f(field::kBody, s.body...);
}

/// Calls f(info, component, array_a, array_b, ...) for every component array of every field.
template <class F, class... Stores>
void for_each_field_array(F&& f, Stores&... s) {
  for_each_field(
      [&](const FieldInfo& info, auto&... fields) {
        const auto arrays = std::make_tuple(components_of(fields)...);
        constexpr std::size_t k = std::tuple_size_v<std::tuple_element_t<0, decltype(arrays)>>;
        [&]<std::size_t... I>(std::index_sequence<I...>) {
          for (std::size_t c = 0; c < k; ++c)
            f(info, static_cast<int>(c), *std::get<I>(arrays)[c]...);
        }
        (std::index_sequence_for<decltype(fields)...>{});
      },
      s...);
}

/// Per-particle state on the host.
struct ParticleData : ParticleFields<HostArray> {
  std::size_t size() const { return type.size(); }

  /// n particles: every required field and every present optional field resized.
  void resize(std::size_t n) {
    for_each_field_array(
        [n](const FieldInfo& info, int, auto& a) {
          if (!info.optional || !a.empty()) a.resize(n);
        },
        *this);
  }

  /// Whether an optional field holds values (required fields always do).
  template <class Field>
  bool has(const Field& f) const {
    return !components_of(f)[0]->empty();
  }

  /// Turns an optional field on: one zero per particle in each of its arrays.
  template <class Field>
  void enable(Field& f) {
    for (auto* a : components_of(f)) a->assign(size(), {});
  }
};

/// `a` rearranged so that entry k is the old entry order[k].
template <class T, class Index>
std::vector<T> gathered(const std::vector<T>& a, const std::vector<Index>& order) {
  std::vector<T> out(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) out[k] = a[order[k]];
  return out;
}

/// Every per-particle array (each present field) rearranged so that particle k is the old
/// particle order[k].
template <class Index>
void permute(ParticleData& p, const std::vector<Index>& order) {
  for_each_field_array(
      [&](const FieldInfo&, int, auto& a) {
        if (!a.empty()) a = gathered(a, order);
      },
      p);
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
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return p.id[a] < p.id[b]; });
  return order;
}

}  // namespace novamd::core
