#include "novamd/forces/bonded_settings.hpp"

#include <fmt/format.h>

#include "novamd/core/error.hpp"

namespace novamd::forces {

void check_term_types(const BondedSettings& settings, const core::Topology& topology) {
  std::visit(
      [&](const auto& s) {
        const auto& terms = s.terms_of(topology);
        const auto known = static_cast<std::int32_t>(s.types.size());
        for (std::size_t t = 0; t < terms.size(); ++t) {
          if (terms.type[t] >= known) {
            throw core::InputError(
                fmt::format("{}: term {} has type {}, but coefficients are given for types 0 to {}",
                            s.kName, t, terms.type[t], known - 1));
          }
        }
      },
      settings);
}

}  // namespace novamd::forces
