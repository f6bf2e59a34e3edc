#include "novamd/io/screening.hpp"

#include <fmt/format.h>

#include "novamd/core/error.hpp"
#include "novamd/physics/electron_screening.hpp"

namespace novamd::io {

void settle_thomas_fermi(std::vector<forces::ForceSettings>& forces,
                         const core::SpeciesTable& species, const std::vector<std::int64_t>& count,
                         double volume) {
  double electrons = 0.0;
  for (int t = 0; t < species.size(); ++t)
    electrons += species[t].charge * static_cast<double>(count[t]);
  for (std::size_t i = 0; i < forces.size(); ++i) {
    auto* yukawa = std::get_if<forces::YukawaSettings>(&forces[i]);
    if (!yukawa || !yukawa->thomas_fermi) continue;
    if (!(electrons > 0.0))
      throw core::InputError(fmt::format(
          "forces[{}].yukawa.screening_length: thomas_fermi, but the ions carry no positive "
          "charge (no electrons to screen them); expected charged species, or a number",
          i));
    yukawa->screening_length = physics::thomas_fermi_screening_length(electrons / volume);
  }
}

}  // namespace novamd::io
