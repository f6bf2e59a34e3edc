#include "novamd/parallel/domain.hpp"

#include <fmt/format.h>

#include <type_traits>

#include "novamd/core/error.hpp"

namespace novamd::parallel {

void Domain::gather(core::Vec3Array& values) {
  for (auto* a : {&values.x, &values.y, &values.z}) gather(*a);
}

void Domain::gather_evolving(core::ParticleData& particles) {
  if (!decomposed()) return;  // every particle is current on its one rank
  core::for_each_field_array(
      [&](const core::FieldInfo& info, int, auto& a) {
        if (!info.evolves || a.empty()) return;
        if constexpr (std::is_same_v<typename std::decay_t<decltype(a)>::value_type, double>) {
          gather(a);
        } else {
          throw core::RunError(fmt::format(
              "{} cannot yet be gathered over the ranks of a decomposed run", info.description));
        }
      },
      particles);
}

}  // namespace novamd::parallel
