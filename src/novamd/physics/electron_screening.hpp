#pragma once
/// @file electron_screening.hpp
/// The Thomas-Fermi screening length of a degenerate, relativistic electron gas: the length
/// over which the electrons that neutralise a stellar plasma screen the ions' Coulomb field,
/// the lambda of the Yukawa potential (physics/yukawa.hpp).
///
///     k_F = hbar c (3 pi^2 n_e)^(1/3)                                   (Fermi momentum, MeV)
///     1/lambda = (2 / (hbar c)) (alpha / pi)^(1/2) (k_F (k_F^2 + m_e^2)^(1/2))^(1/2)
///
/// (k_F and m_e as energies, c = 1.) Source: Horowitz, Berry and Brown, Phys. Rev. E 75, 066101
/// (2007), eq. (2); the same form in seed 000 (Berry et al., IUMD). Nuclear units only: n_e in
/// fm^-3, lambda in fm.

#include <cmath>
#include <numbers>

#include "novamd/core/physical_scales.hpp"

namespace novamd::physics {

/// Fermi momentum (MeV) of electrons at number density n_e (fm^-3).
inline double fermi_momentum(double electron_density) {
  return core::kHbarCMeVFm * std::cbrt(3.0 * std::numbers::pi * std::numbers::pi * electron_density);
}

/// Thomas-Fermi screening length (fm) of electrons at number density n_e (fm^-3).
inline double thomas_fermi_screening_length(double electron_density) {
  const double k_f = fermi_momentum(electron_density);
  const double m_e = core::kElectronMassMeV;
  const double inverse_length_mev = 2.0 * std::sqrt(core::kFineStructure / std::numbers::pi) *
                                    std::sqrt(k_f * std::sqrt(k_f * k_f + m_e * m_e));
  return core::kHbarCMeVFm / inverse_length_mev;
}

}  // namespace novamd::physics
