#pragma once
// Nuclear pasta for the tests: random protons and neutrons under the nuclear potential and
// screened Coulomb between protons, and both pair formulas written out again in long double,
// independently of the evaluators (physics/nuclear.hpp, physics/yukawa.hpp).

#include <cmath>
#include <cstdint>

#include "novamd/backend/backend.hpp"
#include "novamd/core/units.hpp"
#include "support/systems.hpp"

namespace novamd::test {

/// Horowitz et al., Phys. Rev. C 69, 045804 (2004): MeV, MeV, MeV, fm^2; lambda = 10 fm.
inline constexpr long double kA = 110, kB = -26, kC = 24, kLambda = 1.25L, kScreening = 10;
/// e^2 = hbar c alpha = 197.3269804 MeV fm x 7.2973525693e-3 = 1.43996454741 MeV fm (CODATA
/// 2018), to the 11 digits of docs/units.md.
inline constexpr long double kE2 = 1.4399645474L;

/// A pair term written out: V, F = -dV/dr, and the magnitudes that bound their round-off
/// (the terms of V and of F summed in absolute value).
struct PairFormula {
  long double v = 0, f = 0;
  long double v_scale = 0, f_scale = 0;
};

/// V = a exp(-r^2/Lambda) + (b + c tau_i tau_j) exp(-r^2/(2 Lambda)), from r^2.
inline PairFormula nuclear_formula(long double r2, int tau_i, int tau_j) {
  const long double r = std::sqrt(r2);
  const long double e1 = std::exp(-r2 / kLambda), e2 = std::exp(-r2 / (2 * kLambda));
  const long double b_pair = kB + kC * tau_i * tau_j;
  // dV/dr = -(2 r / Lambda) a e1 - (r / Lambda) b' e2
  return {kA * e1 + b_pair * e2, r * (2 * kA * e1 + b_pair * e2) / kLambda,
          kA * e1 + std::abs(b_pair) * e2, r * (2 * kA * e1 + std::abs(b_pair) * e2) / kLambda};
}

/// V = e^2 Z_i Z_j exp(-r/lambda) / r, F = V (1/r + 1/lambda).
inline PairFormula coulomb_formula(long double r2, double z_i, double z_j) {
  const long double r = std::sqrt(r2);
  const long double v = kE2 * z_i * z_j * std::exp(-r / kScreening) / r;
  const long double f = v * (1 / r + 1 / kScreening);
  return {v, f, std::abs(v), std::abs(f)};
}

/// Protons (type 0, charge 1, isospin +1) and neutrons (type 1, isospin -1), 939 MeV each.
inline core::SpeciesTable nucleons() {
  return core::SpeciesTable({{"p", 1.0, 939.0, 1}, {"n", 0.0, 939.0, -1}});
}

/// `n` nucleons at random at number density `density` (fm^-3) in a box of edges 0.9 L, L and
/// 1.1 L, no two closer than `min_distance`; about one third protons. Forces: the nuclear term
/// (Horowitz's parameters, cutoff `nuclear_cutoff`) and screened Coulomb (lambda = 10 fm,
/// cutoff `coulomb_cutoff`, force-shifted so that no pair jumps at the cutoff).
inline backend::BackendSetup random_pasta(std::size_t n, double density, std::uint64_t seed,
                                          double min_distance, double nuclear_cutoff,
                                          double coulomb_cutoff) {
  const double edge = std::cbrt(static_cast<double>(n) / density / (0.9 * 1.1));
  auto s = random_mixture(n, edge, seed, 10.0, min_distance);
  s.units = core::nuclear_units();
  s.species = nucleons();
  for (auto& t : s.particles.type) t = t == 0 ? 0 : 1;  // random_mixture draws three types evenly
  forces::NuclearSettings nuclear;
  nuclear.cutoff = nuclear_cutoff;
  forces::YukawaSettings coulomb{10.0, coulomb_cutoff, forces::Truncation::ShiftForce};
  s.forces = {nuclear, coulomb};
  return s;
}

}  // namespace novamd::test
