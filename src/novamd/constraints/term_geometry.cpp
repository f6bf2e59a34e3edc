#include "novamd/constraints/term_geometry.hpp"

#include <limits>
#include <type_traits>

namespace novamd::constraints {

TermGeometry term_geometry(const core::Topology& topology,
                           const std::vector<forces::BondedSettings>& bonded) {
  constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  TermGeometry g{std::vector<double>(topology.bonds().size(), kNone),
                 std::vector<double>(topology.angles().size(), kNone)};
  for (const auto& family : bonded) {
    std::visit(
        [&](const auto& s) {
          using S = std::decay_t<decltype(s)>;
          if constexpr (std::is_same_v<S, forces::HarmonicBondSettings>) {
            for (std::size_t b = 0; b < g.bond_length.size(); ++b)
              g.bond_length[b] = s.types.at(topology.bonds().type[b]).r0;
          } else if constexpr (std::is_same_v<S, forces::HarmonicAngleSettings> ||
                               std::is_same_v<S, forces::CharmmAngleSettings>) {
            for (std::size_t a = 0; a < g.angle_theta0.size(); ++a)
              g.angle_theta0[a] = s.types.at(topology.angles().type[a]).theta0;
          }
        },
        family);
  }
  return g;
}

}  // namespace novamd::constraints
