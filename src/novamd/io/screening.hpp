#pragma once
/// @file screening.hpp
/// Settles `screening_length: thomas_fermi` of the Yukawa terms once the particles and the box
/// are known: lambda from the electron density n_e = sum_j Z_j N_j / V
/// (physics/electron_screening.hpp).

#include <cstdint>
#include <vector>

#include "novamd/core/species.hpp"
#include "novamd/forces/force_settings.hpp"

namespace novamd::io {

/// Sets the screening length of every Yukawa term that asks for Thomas-Fermi screening, for
/// `count[t]` ions of each type in `volume` (fm^3). Throws core::InputError when the ions carry
/// no charge.
void settle_thomas_fermi(std::vector<forces::ForceSettings>& forces,
                         const core::SpeciesTable& species, const std::vector<std::int64_t>& count,
                         double volume);

}  // namespace novamd::io
