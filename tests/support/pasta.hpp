#pragma once
// Nuclear pasta for the tests: random protons and neutrons under the nuclear potential and
// screened Coulomb between protons, and both pair formulas written out again in long double,
// independently of the evaluators (physics/nuclear.hpp, physics/yukawa.hpp).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

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

/// What bounds a backend's round-off (the GPU's, or the CPU's in `mixed`) against the CPU's
/// double result, per particle (forces) and in total (energy, virial), in units of the
/// precision's epsilon (multiply by eps_d or eps_f).
///
/// A pair term t = F or V with magnitude |t| differs between the two backends by
///   (a) the separation: positions rounded to the pair type (mixed: FP32) and the minimum image
///       taken in it move r by up to 3 eps L (L the longest box edge), changing F by
///       |dF/dr| 3 eps L and V by |F| 3 eps L;
///   (b) the arithmetic: for the nuclear term with x = r^2 / (2 Lambda), the exponent carries
///       1.5 eps x of error, CUDA's exp 2 + 1.2 x ulp at most (__expf; exp in double 1 ulp),
///       so e2 = exp(-x) is within (2 + 2.7 x) eps and e1 = e2^2 within twice that plus a
///       rounding: with the products, (3 + 3x) eps for the b' e2 term and (6 + 6x) eps for the
///       a e1 term; for Coulomb with y = r / lambda, rsqrt (2 ulp), the exponent and __expf give
///       (6 + 5y) eps;
///   (c) the sums: m nonzero terms summed in the pair type (FP32 in mixed, per target or per
///       tile) lose at most (m - 1) eps of their summed magnitudes; then FP64.
/// |dF/dr| <= |F1| (1/r + 2r/Lambda) + |F2| (1/r + r/Lambda) for the two Gaussian terms, and
/// |F_C| (2/r + 1/lambda) for Coulomb (differentiate F = V (1/r + 1/lambda)).
struct Bounds {
  std::vector<double> force;      ///< per particle, in eps
  double energy = 0, virial = 0;  ///< in eps
};

/// The bounds for `s`, whose nuclear term is cut at 10 fm; nuclear terms beyond 10 fm (nonzero
/// when the term has no cutoff) are below 2e-15 MeV/fm and add at most their own size.
inline Bounds round_off_bounds(const backend::BackendSetup& s) {
  const double rc = std::get<forces::YukawaSettings>(s.forces[1]).cutoff;
  const double f_at_rc = static_cast<double>(coulomb_formula(rc * rc, 1, 1).f);
  const auto& p = s.particles;
  const auto box = s.box.view<double>();
  const auto L = s.box.length();
  const double delta_r = 3.0 * std::max({L.x, L.y, L.z});  // (a), in eps
  const double lambda = 1.25, a = 110.0;
  Bounds b;
  b.force.assign(p.size(), 0.0);
  double energy = 0, virial = 0;
#pragma omp parallel for schedule(dynamic, 16) reduction(+ : energy, virial)
  for (std::size_t i = 0; i < p.size(); ++i) {
    double f_sum = 0, f_arith = 0, f_deriv = 0, f_tail = 0, v_sum = 0, v_arith = 0;
    int terms = 0;
    for (std::size_t j = 0; j < p.size(); ++j) {
      if (j == i) continue;
      const auto d = box.minimum_image(p.position.get(i) - p.position.get(j));
      const double r2 = core::dot(d, d), r = std::sqrt(r2);
      const double x = r2 / (2 * lambda);
      const int tau_i = p.type[i] == 0 ? 1 : -1, tau_j = p.type[j] == 0 ? 1 : -1;
      const double b_pair = std::abs(-26.0 + 24.0 * tau_i * tau_j);
      const double e2 = std::exp(-x), e1 = e2 * e2;
      const double f1 = r * 2 * a * e1 / lambda, f2 = r * b_pair * e2 / lambda;
      if (r2 < 100.0) {
        f_sum += f1 + f2;
        f_arith += f1 * (6 + 6 * x) + f2 * (3 + 3 * x);
        f_deriv += f1 * (1 / r + 2 * r / lambda) + f2 * (1 / r + r / lambda);
        v_sum += a * e1 + b_pair * e2;
        v_arith += a * e1 * (6 + 6 * x) + b_pair * e2 * (3 + 3 * x);
        ++terms;
      } else {
        f_tail += f1 + f2;
      }
      if (tau_i == 1 && tau_j == 1 && r < rc) {
        const auto c = coulomb_formula(r2, 1, 1);
        const double fc = static_cast<double>(c.f), vc = static_cast<double>(c.v);
        const double y = r / 10.0;
        f_sum += fc + f_at_rc;
        f_arith += (fc + f_at_rc) * (6 + 5 * y);
        f_deriv += fc * (2 / r + 0.1);
        v_sum += vc + rc * f_at_rc;
        v_arith += vc * (6 + 5 * y);
        ++terms;
      }
    }
    const double sums = terms + 16.0;  // (c), with room for the final FP64 additions
    // The tail beyond 10 fm enters at its own size: divided by eps_d here, so that the bound,
    // multiplied by eps_d or the larger eps_f, holds it whole.
    const double eps_d = std::numeric_limits<double>::epsilon();
    b.force[i] = sums * f_sum + f_arith + delta_r * f_deriv + f_tail / eps_d;
    // Each pair's energy is shared by its two particles.
    energy += 0.5 * (sums * v_sum + v_arith + delta_r * f_sum + f_tail * rc / eps_d);
    // r . f per pair: r (<= the longer cutoff) times the force bound, plus |F| times r's error.
    virial += 0.5 * (std::max(10.0, rc) * b.force[i] + delta_r * f_sum);
  }
  b.energy = energy;
  b.virial = virial;
  return b;
}

}  // namespace novamd::test
