#include "novamd/parallel/domain.hpp"

#include <type_traits>
#include <vector>

namespace novamd::parallel {

void Domain::gather(core::Vec3Array& values) {
  for (auto* a : {&values.x, &values.y, &values.z}) gather(*a);
}

void Domain::gather_evolving(core::ParticleData& particles) {
  if (!decomposed()) return;  // every particle is current on its one rank
  core::for_each_field_array(
      [&](const core::FieldInfo& info, int, auto& a) {
        if (!info.evolves || a.empty()) return;
        using Value = typename std::decay_t<decltype(a)>::value_type;
        if constexpr (std::is_same_v<Value, double>) {
          gather(a);
        } else {  // integers (image counts): exact in doubles up to 2^53
          std::vector<double> values(a.begin(), a.end());
          gather(values);
          for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<Value>(values[i]);
        }
      },
      particles);
}

}  // namespace novamd::parallel
