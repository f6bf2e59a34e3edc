#pragma once
/// @file site_kind.hpp
/// The kinds of site a rigid molecule is made of (seed 001; core/components.hpp).

namespace novamd::core {

enum class SiteKind : int { LennardJones = 0, Charge = 1, Dipole = 2, Quadrupole = 3 };

}  // namespace novamd::core
