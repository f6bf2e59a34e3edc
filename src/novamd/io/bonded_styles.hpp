#pragma once
/// @file bonded_styles.hpp
/// From the coefficients a topology file states (io::StyleCoefficients: LAMMPS's styles, their
/// numbers in LAMMPS's order and units, angles in degrees) to the bonded family that evaluates
/// them (forces::BondedSettings, with angles in radians). The one place where file coefficients
/// become evaluator parameters; it lives in io/ because forces/ sits below io/ in the room order
/// (docs/architecture.md).
///
/// | kind | style | family | parameters |
/// | --- | --- | --- | --- |
/// | bond | harmonic | harmonic_bond | K, r0 |
/// | angle | harmonic | harmonic_angle | K, theta0 (radians) |
/// | angle | charmm | charmm_angle | K, theta0 (radians), K_ub, r_ub |
/// | dihedral | charmm, charmmfsw | periodic_dihedral | one term K, n, d (radians); w is checked (0
/// to 1) and left to the 1-4 pair term | | dihedral | fourier | periodic_dihedral | m terms (1 to
/// 6) K_i, n_i, d_i (radians) | | dihedral | periodic | periodic_dihedral | one term K, n, d
/// (radians) | | dihedral | opls | opls_dihedral | K1, K2, K3, K4 | | improper | harmonic |
/// harmonic_improper | K, chi0 (radians) | | improper | cvff | periodic_improper | one term K, n, d
/// = 0 (d = +1) or pi (d = -1) | | improper | periodic | periodic_improper | one term K, n, d
/// (radians) |
///
/// Checks, as LAMMPS's documentation of each style states them: n an integer >= 0 (cvff: 0 to
/// 6), charmm's d an integer number of degrees, cvff's d -1 or +1, fourier's m an integer >= 1,
/// every number finite.

#include "novamd/forces/bonded_settings.hpp"
#include "novamd/io/topology_file.hpp"

namespace novamd::io {

/// The family and parameters of every type of `coefficients` (a style `coefficient_count` knows
/// for `kind`). Throws core::InputError naming the kind, the style and the type (numbered from 1,
/// as the files number them) for an unknown style, a line of the wrong length or a bad value.
forces::BondedSettings bonded_settings_from(TermKind kind, const StyleCoefficients& coefficients);

}  // namespace novamd::io
