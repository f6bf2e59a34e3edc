#include "support/force_term_cases.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>

#include "support/pasta.hpp"
#include "support/systems.hpp"

namespace novamd::test {
namespace {

using backend::BackendSetup;
using forces::Truncation;
constexpr double kEpsDouble = std::numeric_limits<double>::epsilon();
constexpr double kEpsFloat = std::numeric_limits<float>::epsilon();

// --- the systems -------------------------------------------------------------------------------
//
// Box edges L, 0.9 L, 1.1 L (systems.hpp). Every term with a cutoff fits 3 cells of cutoff + skin
// along the shortest edge, so that cell lists and Verlet lists really run (the engine falls back
// to all pairs otherwise; force_term_check.hpp asserts it).

/// Charges 1, 6 and 8 (reduced units), 400 ions in an 11.5 box (10.35 >= 3 x (3 + 0.4)), no two
/// closer than 0.6.
BackendSetup yukawa(std::uint64_t seed, forces::YukawaSettings yukawa) {
  auto s = random_mixture(400, 11.5, seed, yukawa.screening_length, 0.6);
  s.forces = {yukawa};
  s.neighbors.skin = 0.4;
  return s;
}

/// Lennard-Jones parameters of the three species of random_mixture, and the unlike pair A-B's
/// corrections to Lorentz-Berthelot mixing.
struct LjSpecies {
  double epsilon, sigma;
};
constexpr LjSpecies kLj[3] = {{1.0, 1.0}, {0.8, 0.9}, {1.2, 1.1}};
constexpr double kXiAB = 0.95, kEtaAB = 1.05, kLjCutoff = 2.5;

/// 400 atoms in a 9.5 box (8.55 >= 3 x (2.5 + 0.3)), density 0.47, no two closer than 0.8.
BackendSetup lennard_jones(std::uint64_t seed, Truncation truncation, bool tail) {
  auto s = random_mixture(400, 9.5, seed, 1.0, 0.8);
  forces::LennardJonesSettings lj;
  lj.pairs = {{"A", "A", kLj[0].epsilon, kLj[0].sigma},
              {"B", "B", kLj[1].epsilon, kLj[1].sigma},
              {"C", "C", kLj[2].epsilon, kLj[2].sigma},
              {"A", "B", {}, {}, kXiAB, kEtaAB}};
  lj.cutoff = kLjCutoff;
  lj.truncation = truncation;
  lj.tail_correction = tail;
  s.forces = {lj};
  s.neighbors.skin = 0.3;
  return s;
}

/// The mixture's tail correction written out: NIST's U_LRC = (8/3) pi N rho eps s^3
/// [(s/rc)^9 / 3 - (s/rc)^3] and W_LRC = 3 V P_LRC = (16/3) pi N rho eps s^3 [2 (s/rc)^9 -
/// 3 (s/rc)^3] for one species, summed over ordered species pairs with N rho -> N_a N_b / V,
/// eps_ab = xi sqrt(eps_a eps_b) and s_ab = eta (s_a + s_b) / 2 (xi = eta = 1 but for A-B).
forces::TailCorrection lennard_jones_tail(const BackendSetup& s, const core::ParticleData& p) {
  double count[3] = {0, 0, 0};
  for (const auto t : p.type) count[t] += 1;
  forces::TailCorrection tail;
  for (int a = 0; a < 3; ++a) {
    for (int b = 0; b < 3; ++b) {
      const bool ab = (a == 0 && b == 1) || (a == 1 && b == 0);
      const double eps = (ab ? kXiAB : 1.0) * std::sqrt(kLj[a].epsilon * kLj[b].epsilon);
      const double sigma = (ab ? kEtaAB : 1.0) * 0.5 * (kLj[a].sigma + kLj[b].sigma);
      const double x3 = std::pow(sigma / kLjCutoff, 3), x9 = x3 * x3 * x3;
      const double nn = count[a] * count[b] / s.box.volume() * eps * sigma * sigma * sigma;
      tail.energy += 8.0 / 3.0 * std::numbers::pi * nn * (x9 / 3.0 - x3);
      tail.virial += 16.0 / 3.0 * std::numbers::pi * nn * (2.0 * x9 - 3.0 * x3);
    }
  }
  return tail;
}

/// 660 nucleons (about a third protons) at 0.0145 fm^-3, box 35.8 fm (32.3 >= 3 x (10 + 0.6)),
/// no two closer than 0.5 fm: the nuclear term with Horowitz's parameters (default cutoff
/// 10 fm unless `cutoff` says otherwise) and, if given, screened Coulomb between protons
/// (lambda = 10 fm).
BackendSetup pasta(std::uint64_t seed, double cutoff, Truncation nuclear_truncation,
                   std::optional<forces::YukawaSettings> coulomb) {
  auto s = random_pasta(660, 0.0145, seed, 0.5, cutoff, 10.0);
  auto& nuclear = std::get<forces::NuclearSettings>(s.forces[0]);
  nuclear.truncation = nuclear_truncation;
  if (coulomb) {
    s.forces[1] = *coulomb;
  } else {
    s.forces.pop_back();
  }
  s.neighbors.skin = 0.6;
  return s;
}

/// The Lennard-Jones mixture of lennard_jones() as tables: each species pair's mixed potential
/// sampled on 3000 rows evenly spaced in r^2 from 0.35 (under half of the closest approach, 0.8,
/// which the moves keep) to the cutoff, with FPRIME; linear on those rows as knots, or splined.
BackendSetup lennard_jones_table(std::uint64_t seed, forces::TableInterpolation style) {
  auto s = lennard_jones(seed, Truncation::Cut, false);
  const auto mixed = std::get<forces::LennardJonesSettings>(s.forces[0]).mixed(s.species);
  forces::PairTableSettings table;
  table.interpolation = style;
  table.cutoff = kLjCutoff;
  constexpr int kRows = 3000;
  constexpr double kInner = 0.35;
  for (int a = 0; a < 3; ++a) {
    for (int b = a; b < 3; ++b) {
      const double eps = mixed.epsilon[a * 3 + b], sigma = mixed.sigma[a * 3 + b];
      const double c12 = 4 * eps * std::pow(sigma, 12), c6 = 4 * eps * std::pow(sigma, 6);
      auto section = std::make_shared<forces::TableSection>();
      section->keyword = s.species[a].name + s.species[b].name;
      section->spacing = forces::TableSpacing::Rsq;
      section->r_lo = kInner;
      section->r_hi = kLjCutoff;
      const auto slope = [&](double r) {
        return -156 * c12 / std::pow(r, 14) + 42 * c6 / std::pow(r, 8);
      };
      section->fprime = std::array<double, 2>{slope(kInner), slope(kLjCutoff)};
      for (int i = 0; i < kRows; ++i) {
        const double r = std::sqrt(kInner * kInner +
                                   (kLjCutoff * kLjCutoff - kInner * kInner) * i / (kRows - 1));
        section->r.push_back(r);
        section->energy.push_back(c12 / std::pow(r, 12) - c6 / std::pow(r, 6));
        section->force.push_back(12 * c12 / std::pow(r, 13) - 6 * c6 / std::pow(r, 7));
      }
      table.pairs.push_back({s.species[a].name, s.species[b].name, section, kLjCutoff});
    }
  }
  s.forces = {table};
  return s;
}

/// The formulas of the custom_pair cases: Lennard-Jones and Yukawa as a user writes them.
constexpr const char* kCustomLennardJones = "4*eps*((sigma/r)^12 - (sigma/r)^6)";
constexpr const char* kCustomYukawa = "k*exp(-r/lambda)/r";

/// The Lennard-Jones mixture of lennard_jones() as a custom_pair formula: each species pair's
/// mixed epsilon and sigma as its parameters.
BackendSetup custom_lennard_jones(std::uint64_t seed, Truncation truncation) {
  auto s = lennard_jones(seed, truncation, false);
  const auto mixed = std::get<forces::LennardJonesSettings>(s.forces[0]).mixed(s.species);
  forces::CustomPairSettings c;
  c.formula = std::make_shared<const physics::CustomFormula>(
      kCustomLennardJones, std::vector<std::string>{"eps", "sigma"});
  c.defaults = {mixed.epsilon[0], mixed.sigma[0]};
  for (int a = 0; a < 3; ++a)
    for (int b = a; b < 3; ++b)
      c.pairs.push_back({s.species[a].name,
                         s.species[b].name,
                         {{0, mixed.epsilon[a * 3 + b]}, {1, mixed.sigma[a * 3 + b]}}});
  c.cutoff = kLjCutoff;
  c.truncation = truncation;
  s.forces = {c};
  return s;
}

/// The Yukawa mixture of yukawa() without a cutoff as a custom_pair formula: k = k_e q_a q_b per
/// species pair, lambda 1.5.
BackendSetup custom_yukawa(std::uint64_t seed) {
  auto s = yukawa(seed, forces::YukawaSettings{1.5, forces::kNoCutoff});
  forces::CustomPairSettings c;
  c.formula = std::make_shared<const physics::CustomFormula>(
      kCustomYukawa, std::vector<std::string>{"k", "lambda"});
  c.defaults = {0.0, 1.5};
  for (int a = 0; a < 3; ++a)
    for (int b = a; b < 3; ++b)
      c.pairs.push_back({s.species[a].name,
                         s.species[b].name,
                         {{0, s.units.coulomb * s.species[a].charge * s.species[b].charge}}});
  c.cutoff = forces::kNoCutoff;
  s.forces = {c};
  return s;
}

std::vector<ForceTermCase> make_cases() {
  constexpr double inf = forces::kNoCutoff;
  using Y = forces::YukawaSettings;
  std::vector<ForceTermCase> cases = {
      {"yukawa_cutoff_none",
       0,
       [](auto seed) {
         return yukawa(seed, Y{1.5, inf});
       },
       0.6,
       {}},
      {"yukawa_cut",
       0,
       [](auto seed) {
         return yukawa(seed, Y{1.0, 3.0, Truncation::Cut});
       },
       0.6,
       {}},
      {"yukawa_shift_energy",
       0,
       [](auto seed) {
         return yukawa(seed, Y{1.0, 3.0, Truncation::ShiftEnergy});
       },
       0.6,
       {}},
      {"yukawa_shift_force",
       0,
       [](auto seed) {
         return yukawa(seed, Y{1.0, 3.0, Truncation::ShiftForce});
       },
       0.6,
       {}},
      {"lennard_jones_cut",
       0,
       [](auto seed) { return lennard_jones(seed, Truncation::Cut, false); },
       0.8,
       {}},
      {"lennard_jones_shift_energy",
       0,
       [](auto seed) { return lennard_jones(seed, Truncation::ShiftEnergy, false); },
       0.8,
       {}},
      {"lennard_jones_shift_force",
       0,
       [](auto seed) { return lennard_jones(seed, Truncation::ShiftForce, false); },
       0.8,
       {}},
      {"lennard_jones_cut_tail", 0,
       [](auto seed) { return lennard_jones(seed, Truncation::Cut, true); }, 0.8,
       lennard_jones_tail},
      {"nuclear_cutoff_default",
       0,
       [](auto seed) { return pasta(seed, 10.0, Truncation::Cut, std::nullopt); },
       0.5,
       {}},
      {"nuclear_yukawa_shift_force",
       0,
       [](auto seed) {
         return pasta(seed, 10.0, Truncation::Cut, Y{10.0, 10.0, Truncation::ShiftForce});
       },
       0.5,
       {}},
      {"nuclear_shift_energy_yukawa_cut",
       0,
       [](auto seed) {
         return pasta(seed, 10.0, Truncation::ShiftEnergy, Y{10.0, 10.0, Truncation::Cut});
       },
       0.5,
       {}},
      {"nuclear_shift_force_yukawa_shift_energy",
       0,
       [](auto seed) {
         return pasta(seed, 10.0, Truncation::ShiftForce, Y{10.0, 10.0, Truncation::ShiftEnergy});
       },
       0.5,
       {}},
      {"nuclear_cutoff_none_yukawa_shift_force",
       0,
       [](auto seed) {
         return pasta(seed, inf, Truncation::Cut, Y{10.0, 10.0, Truncation::ShiftForce});
       },
       0.5,
       {}},
      {"pair_table_linear",
       0,
       [](auto seed) { return lennard_jones_table(seed, forces::TableInterpolation::Linear); },
       0.8,
       {}},
      {"pair_table_spline",
       0,
       [](auto seed) { return lennard_jones_table(seed, forces::TableInterpolation::Spline); },
       0.8,
       {}},
      {"custom_pair_lennard_jones_cut",
       0,
       [](auto seed) { return custom_lennard_jones(seed, Truncation::Cut); },
       0.8,
       {}},
      {"custom_pair_lennard_jones_shift_force",
       0,
       [](auto seed) { return custom_lennard_jones(seed, Truncation::ShiftForce); },
       0.8,
       {}},
      {"custom_pair_yukawa_cutoff_none", 0, [](auto seed) { return custom_yukawa(seed); }, 0.6, {}},
  };
  for (std::size_t k = 0; k < cases.size(); ++k) cases[k].seed = 1001 + 7 * k;
  return cases;
}

// --- the bare potentials' pair terms -------------------------------------------------------------
//
// Roundings in eps (a correctly rounded operation: eps/2 of its result). R: ulps of 1/sqrt;
// E0 + E1 x: ulps of exp(-x).

/// V = k e^-y / r, F = V (1/r + 1/lambda), y = r / lambda (physics/yukawa.hpp).
/// Sensitivity: F/r = k e^-y (r^-3 + r^-2 / lambda), so |d(F/r)/dr| r^2 = k e^-y (y^2 + 3y + 3) /
/// r^2. Rounding: 1/r: R; r = r^2 (1/r): R + 1/2; the exponent -r/lambda (1/lambda rounded, a
/// product): R + 3/2 relative, y (R + 3/2) absolute; exp: + E0 + E1 y; V = k e (1/r): k rounded,
/// two products, 1/r: + R + 3/2. F/r = V (1/r + 1/lambda) (1/r): the sum R + 1, 1/r R, two
/// products: + 2R + 3/2.
TermModel::Bare bare_terms(const physics::Yukawa<double>::Params& p, double r,
                           const Arithmetic& a) {
  TermModel::Bare b;
  if (p.coupling == 0) return b;
  const double y = r * p.inverse_screening_length, e = std::exp(-y);
  const double v = p.coupling * e / r, f = v * (1 / r + p.inverse_screening_length);
  b.force = f;
  b.energy = v;
  b.force_scale = std::abs(f);
  b.energy_scale = std::abs(v);
  b.sensitivity = std::abs(p.coupling) * e * (y * y + 3 * y + 3) / (r * r);
  const double R = a.rsqrt_ulps;
  const double rounding_v = y * (R + 1.5 + a.exp_ulps_per_x) + a.exp_ulps + R + 1.5;
  b.energy_rounding = rounding_v * b.energy_scale;
  b.force_rounding = (rounding_v + 2 * R + 1.5) * b.force_scale;
  if (e < a.underflow || b.energy_scale < a.underflow || b.force_scale / r < a.underflow) {
    b.lost_force = b.force_scale;
    b.lost_energy = b.energy_scale;
  }
  return b;
}

/// V = C12 r^-12 - C6 r^-6 = v12 - v6, F = f12 - f6 with f12 = 12 v12 / r, f6 = 6 v6 / r
/// (physics/lennard_jones.hpp). Sensitivity: F/r = (12 C12 r^-14 - 6 C6 r^-8), so
/// |d(F/r)/dr| r^2 <= 14 f12 + 8 f6 (the "14" of the r^-13 wall).
/// Rounding: 1/r^2 D (the reciprocal's ulps); its cube 3D + 1; C12 r^-6: C12 rounded, a
/// product: 3D + 2; F/r = r^-6 (12 C12 r^-6 - 6 C6) r^-2: 7D + 5 on the f12 term, 4D + 3.5 on
/// f6; V = r^-6 (C12 r^-6 - C6): 6D + 4 on v12, 3D + 2.5 on v6 (with a correctly rounded
/// division, D = 1/2: 8.5, 5.5, 7 and 4).
TermModel::Bare bare_terms(const physics::LennardJones<double>::Params& p, double r,
                           const Arithmetic& a) {
  TermModel::Bare b;
  const double r6 = std::pow(r, 6);
  const double v12 = p.c12 / (r6 * r6), v6 = p.c6 / r6;
  const double f12 = 12 * v12 / r, f6 = 6 * v6 / r;
  b.force = f12 - f6;
  b.energy = v12 - v6;
  b.force_scale = std::abs(f12) + std::abs(f6);
  b.energy_scale = std::abs(v12) + std::abs(v6);
  b.sensitivity = 14 * std::abs(f12) + 8 * std::abs(f6);
  const double D = a.reciprocal_ulps;
  b.force_rounding = (7 * D + 5) * std::abs(f12) + (4 * D + 3.5) * std::abs(f6);
  b.energy_rounding = (6 * D + 4) * std::abs(v12) + (3 * D + 2.5) * std::abs(v6);
  if (b.force_scale > 0 && b.force_scale / r < a.underflow) {
    b.lost_force = b.force_scale;
    b.lost_energy = b.energy_scale;
  }
  return b;
}

/// Per unit charge product: V = k (1/r + k_rf r^2 - c_rf), F = k (1/r^2 - 2 k_rf r)
/// (physics/coulomb.hpp). Sensitivity: F/r = k (r^-3 - 2 k_rf), |d(F/r)/dr| r^2 = 3 k / r^2.
/// Rounding: 1/r: R; its cube: 3R + 1; less 2 k_rf, times k: + 1.5 on the r^-3 term, 1 on the
/// k_rf term; V: 1/r R, k_rf r^2 a product, two sums and the product by k: R + 2.5 on each term.
TermModel::Bare bare_terms(const physics::Coulomb<double>::Params& p, double r,
                           const Arithmetic& a) {
  TermModel::Bare b;
  const double f3 = p.k / (r * r), frf = 2 * p.k * p.k_rf * r;
  const double v1 = p.k / r, v2 = p.k * p.k_rf * r * r, v3 = p.k * p.c_rf;
  b.force = f3 - frf;
  b.energy = v1 + v2 - v3;
  b.force_scale = std::abs(f3) + std::abs(frf);
  b.energy_scale = std::abs(v1) + std::abs(v2) + std::abs(v3);
  b.sensitivity = 3 * std::abs(p.k) / (r * r);
  const double R = a.rsqrt_ulps;
  b.force_rounding = (3 * R + 2.5) * std::abs(f3) + std::abs(frf);
  b.energy_rounding = (R + 2.5) * b.energy_scale;
  return b;
}

/// V = a e1 + b' e2, F = r (2a e1 + b' e2) / Lambda = f1 + f2, e2 = exp(-x), x = r^2 / (2 Lambda),
/// e1 = e2^2 (physics/nuclear.hpp). Sensitivity: d e1/dr = -(2r/Lambda) e1, d e2/dr =
/// -(r/Lambda) e2, so |d(F/r)/dr| r^2 = 4x |f1| + 2x |f2|.
/// Rounding: the exponent r^2 (-1/(2 Lambda)) (constant rounded, a product): x absolute; exp:
/// + E0 + E1 x; e1 = e2^2: twice that + 1/2; each term's constant and product: + 1; the sum
/// 1/2: 2x (1 + E1) + 2 E0 + 2 on the e1 terms, x (1 + E1) + E0 + 3/2 on the e2 terms. In FP32
/// e2 underflows beyond r = 10.5 fm and e1 beyond 7.4 fm: those terms are lost whole.
TermModel::Bare bare_terms(const physics::Nuclear<double>::Params& p, double r,
                           const Arithmetic& a) {
  TermModel::Bare b;
  const double x = -r * r * p.minus_half_inv_lambda;
  const double e2 = std::exp(-x), e1 = e2 * e2;
  const double f1 = r * p.two_a_over_lambda * e1, f2 = r * p.b_pair_over_lambda * e2;
  const double v1 = p.a * e1, v2 = p.b_pair * e2;
  b.force = f1 + f2;
  b.energy = v1 + v2;
  b.force_scale = std::abs(f1) + std::abs(f2);
  b.energy_scale = std::abs(v1) + std::abs(v2);
  b.sensitivity = 4 * x * std::abs(f1) + 2 * x * std::abs(f2);
  const double c1 = 2 * x * (1 + a.exp_ulps_per_x) + 2 * a.exp_ulps + 2;
  const double c2 = x * (1 + a.exp_ulps_per_x) + a.exp_ulps + 1.5;
  b.force_rounding = c1 * std::abs(f1) + c2 * std::abs(f2);
  b.energy_rounding = c1 * std::abs(v1) + c2 * std::abs(v2);
  if (e2 < a.underflow) {
    b.lost_force = b.force_scale;
    b.lost_energy = b.energy_scale;
  } else if (e1 < a.underflow) {
    b.lost_force = std::abs(f1);
    b.lost_energy = std::abs(v1);
  }
  return b;
}

/// A tabulated pair (physics/tabulated.hpp) between knots i and i+1 at s = r^2: magnitudes
/// from the two knots' E and F/r (linear and spline tables alike: the spline's correction
/// terms are of order delta^2 f'' and round with the rest). Sensitivity: the chord's slope in s,
/// |d(F/r)/dr| r^2 = 2 r^3 |(F/r)_i+1 - (F/r)_i| / delta, the largest of this interval and its
/// neighbours (a rounded separation may land in them), doubled for the spline, whose slope
/// within an interval departs from the chord's by a fraction of the change between intervals.
/// Rounding: each knot rounded to the pair type (1/2 each) and the interpolation's products and
/// sums (2): 3 on each knot's magnitude; b = (s - s_i) / delta is off by about 2 eps s / delta,
/// which moves F/r by eps G / r^2 and E by 2 eps s |E_i+1 - E_i| / delta: 2 G and twice that.
TermModel::Bare bare_terms(const physics::TableParams<double>& p, double r, const Arithmetic& a) {
  TermModel::Bare b;
  const double s = r * r, delta = 1 / p.inverse_delta;
  const auto interval = [&](double x) {
    return static_cast<int>(std::clamp(std::floor(x), 0.0, p.last_interval));
  };
  const int i = interval((s - p.inner_squared) * p.inverse_delta);
  const double* k = p.knots + physics::kKnotValues * i;
  const double* next = k + physics::kKnotValues;
  const double t = (s - k[0]) * p.inverse_delta;
  b.force = ((1 - t) * k[2] + t * next[2]) * r;
  b.energy = (1 - t) * k[1] + t * next[1];
  double slope = 0;
  for (int j = std::max(0, i - 1); j <= std::min(static_cast<int>(p.last_interval), i + 1); ++j) {
    const double* kj = p.knots + physics::kKnotValues * j;
    slope = std::max(slope, std::abs(kj[physics::kKnotValues + 2] - kj[2]) / delta);
  }
  const double energy_slope = 2 * r * std::abs(next[1] - k[1]) / delta;  // |dE/dr| of the chord
  b.force_scale = std::max((std::abs(k[2]) + std::abs(next[2])) * r, energy_slope);
  b.energy_scale = std::abs(k[1]) + std::abs(next[1]);
  b.sensitivity = 2 * 2 * r * s * slope;
  b.force_rounding = 3 * (std::abs(k[2]) + std::abs(next[2])) * r + 2 * b.sensitivity;
  b.energy_rounding = 3 * b.energy_scale + 2 * r * energy_slope;
  if (b.force_scale > 0 && b.force_scale / r < a.underflow) {
    b.lost_force = b.force_scale;
    b.lost_energy = b.energy_scale;
  }
  return b;
}

/// A custom_pair formula (physics/custom_pair.hpp), by which of the cases' formulas it is: the
/// magnitudes and sensitivity of the potential it writes out (Lennard-Jones or Yukawa above), and
/// the roundings of the formula as written. Rounding (counted as above; exp up to 2 ulps, CUDA's
/// expf): r = sqrt(r^2) 1/2, x = sigma/r 1 more; x^n (products by squaring, integer_power: at
/// most 2 log2 n of them, 1/2 each) n x's error plus 4; V: the difference and two products, +2:
/// 18 on the r^-12 term, 12 on r^-6. dV/dr =
/// 4 eps (12 x^11 - 6 x^5) (-sigma / (r r)), then -slope / r: the power's n - 1 + 4, sigma/(r r)
/// 2.5, three products and the quotient 2.5: 24 and 16. Yukawa: y = r/lambda (y absolute), exp
/// 2, k e / r 2: 2y + 5 on V; the quotient rule's terms (a' r and a, each V-sized) and the
/// final quotients: 2y + 8 on F.
TermModel::Bare bare_terms(const physics::CustomPair<double>::Params& p, double r,
                           const Arithmetic& a) {
  const std::string& text = p.formula->text;
  TermModel::Bare b;
  if (text == kCustomLennardJones) {
    const double c6 = 4 * p.p[0] * std::pow(p.p[1], 6);
    b = bare_terms(physics::LennardJones<double>::Params{c6 * std::pow(p.p[1], 6), c6}, r, a);
    const double r6 = std::pow(r, 6), v6 = c6 / r6, v12 = v6 * std::pow(p.p[1], 6) / r6;
    b.energy_rounding = 18 * std::abs(v12) + 12 * std::abs(v6);
    b.force_rounding = 24 * 12 * std::abs(v12) / r + 16 * 6 * std::abs(v6) / r;
    return b;
  }
  if (text == kCustomYukawa) {
    b = bare_terms(physics::Yukawa<double>::Params{p.p[0], 1 / p.p[1]}, r, a);
    const double y = r / p.p[1];
    b.energy_rounding = (2 * y + 5) * b.energy_scale;
    b.force_rounding = (2 * y + 8) * b.force_scale;
    return b;
  }
  throw std::logic_error("no error model for the custom_pair formula " + text);
}

}  // namespace

const std::vector<ForceTermCase>& force_term_cases() {
  static const std::vector<ForceTermCase> cases = make_cases();
  return cases;
}

// --- the backends' arithmetic ------------------------------------------------------------------

Arithmetic cpu_arithmetic(core::Precision p) {
  const bool fp64 = p == core::Precision::Double;
  Arithmetic a;
  a.name = "cpu " + std::string(core::to_string(p));
  a.eps = fp64 ? kEpsDouble : kEpsFloat;
  a.rsqrt_ulps = 1;         // 1 / std::sqrt: two correctly rounded operations
  a.reciprocal_ulps = 0.5;  // correctly rounded division
  a.exp_ulps = 1;           // glibc's exp and expf: under one ulp
  a.exp_ulps_per_x = 0;
  a.fp32 = !fp64;
  a.rounds_positions = false;  // the minimum image in double (target_sums.hpp), then rounded
  a.underflow = fp64 ? std::numeric_limits<double>::min() : std::numeric_limits<float>::min();
  a.sum_eps = p == core::Precision::Single ? kEpsFloat : kEpsDouble;  // AccT
  // Each run of sources starts at lane 0 and a source goes to lane k mod 8 (target_sums.hpp): a
  // lane's chain over all of a target's runs (at most 28: 27 cells, the own cell split around
  // the target) is at most (n - 1) / 8 + 28 long, and at most the nonzero terms; then 7
  // additions of the lanes.
  a.sum_depth = [](double nonzero, double n) {
    return std::min(nonzero, std::ceil((n - 1) / 8) + 28) + 7;
  };
  a.double_depth = [](double) { return 4.0; };  // each term's total added to the buffers
  return a;
}

Arithmetic cuda_arithmetic(core::Precision p) {
  const bool fp64 = p == core::Precision::Double;
  Arithmetic a;
  a.name = "cuda " + std::string(core::to_string(p));
  a.eps = fp64 ? kEpsDouble : kEpsFloat;
  // rsqrt 1 ulp, rsqrtf 2 ulp, exp 1 ulp, __expf 2 + 1.173 |x| ulp (CUDA C Programming Guide),
  // plus half an ulp for the reference they were measured against (test_device_math.cu).
  a.rsqrt_ulps = fp64 ? 1.5 : 2.5;
  a.reciprocal_ulps = fp64 ? 0.5 : 2.5;  // 1.0 / x; __fdividef(1, x) 2 ulp
  a.exp_ulps = fp64 ? 1.5 : 2.5;
  a.exp_ulps_per_x = fp64 ? 0.0 : 1.2;
  a.fp32 = !fp64;
  a.rounds_positions = true;  // PairPosition<PairT>, box.minimum_image in PairT
  a.underflow = fp64 ? std::numeric_limits<double>::min() : std::numeric_limits<float>::min();
  // Sums over a target in the pair type (lanes of a list or cell kernel, tiles of 128 sources,
  // ranges of the each-pair-once kernel), in mixed too: a tree over the nonzero terms, plus the
  // lanes' butterfly.
  a.sum_eps = a.eps;
  a.sum_depth = [](double nonzero, double) { return nonzero + 3; };
  // Tiles (AccT), chunks and slots (double), and each term's total.
  a.double_depth = [](double n) { return n / 32 + 8; };
  a.cells_over_lists = [](const forces::ForceSettings& f) {
    return std::holds_alternative<forces::CustomPairSettings>(f);  // forces/cuda_custom_pair.cu
  };
  return a;
}

Arithmetic cuda_cluster_arithmetic(core::Precision p) {
  Arithmetic a = cuda_arithmetic(p);
  a.name = "cuda clusters " + std::string(core::to_string(p));
  a.shifts_images = true;  // where the box allows, each partner moved once to its image
  // A lane's sums over the pairs of a run of tiles (its own particle) or of one tile (the
  // reaction on a partner) take at most the nonzero terms' roundings, as above; each is then
  // rounded once to the fixed-point quantum 2^-32 (at most 2^-33 off). A particle is a partner
  // in at most one tile of each cluster: at most C additions, C <= ceil(n / 32) + columns (each
  // column pads one cluster at most); and its cluster's T <= 1 + ceil(n / 32) tiles come in
  // runs of at least two per warp: at most ceil(T / 2) + 1 additions of its own sums.
  a.fixed_error = [](double n, double columns) {
    const double tiles = 1 + std::ceil(n / 32);
    return (std::ceil(n / 32) + columns + std::ceil(tiles / 2) + 1) * 0x1p-33;
  };
  return a;
}

namespace {

/// The separation of r_i and r_j as the pair type T has it, the image shift k (per component)
/// taken from the reference's minimum image d.
template <class T>
core::Vec3<double> separation_in(const core::Vec3<double>& ri, const core::Vec3<double>& rj,
                                 const core::Vec3<double>& d, const core::Box& box,
                                 bool rounds_positions) {
  if (!rounds_positions) return {double(T(d.x)), double(T(d.y)), double(T(d.z))};
  const auto& L = box.length();
  const auto one = [](double xi, double xj, double dk, double length) {
    const T raw = T(xi) - T(xj);                             // positions rounded, one rounding
    const T shift = T(std::round((xi - xj - dk) / length));  // -1, 0 or 1: exact
    return double(raw - T(length) * shift);                  // l k exact: one rounding
  };
  return {one(ri.x, rj.x, d.x, L.x), one(ri.y, rj.y, d.y, L.y), one(ri.z, rj.z, d.z, L.z)};
}

/// The largest error of a separation component as T has it from positions each first moved to
/// a periodic image, xi - k_i L and xj - k_j L (one rounding each; k_j - k_i the reference's
/// image shift, either k in -1, 0, 1), then subtracted.
template <class T>
double shifted_separation_error(const core::Vec3<double>& ri, const core::Vec3<double>& rj,
                                const core::Vec3<double>& d, const core::Box& box) {
  const auto& L = box.length();
  const auto one = [](double xi, double xj, double dk, double length) {
    const long shift = std::lround((xi - xj - dk) / length);  // xi - xj - dk = shift L
    double worst = 0;
    for (long ki = -1; ki <= 1; ++ki) {
      const long kj = ki - shift;  // (xi - ki L) - (xj - kj L) = dk
      if (kj < -1 || kj > 1) continue;
      const T moved_i = T(xi) - T(length) * T(ki), moved_j = T(xj) - T(length) * T(kj);
      worst = std::max(worst, std::abs(double(T(moved_i - moved_j)) - dk));
    }
    return worst;
  };
  return std::max(
      {one(ri.x, rj.x, d.x, L.x), one(ri.y, rj.y, d.y, L.y), one(ri.z, rj.z, d.z, L.z)});
}

}  // namespace

SeparationError separation_error(const core::Vec3<double>& ri, const core::Vec3<double>& rj,
                                 const core::Vec3<double>& d, double r, const core::Box& box,
                                 const Arithmetic& arith) {
  const auto seen = arith.fp32 ? separation_in<float>(ri, rj, d, box, arith.rounds_positions)
                               : separation_in<double>(ri, rj, d, box, arith.rounds_positions);
  const double shown[3] = {seen.x, seen.y, seen.z}, exact[3] = {d.x, d.y, d.z};
  const auto& L = box.length();
  const double length[3] = {L.x, L.y, L.z};
  SeparationError s;
  for (int k = 0; k < 3; ++k) {
    s.component = std::max(s.component, std::abs(shown[k] - exact[k]));
    // The pair type's image choice (d/L rounded, or an FMA) can differ from double's only
    // within a few of its ulps of L/2.
    if (arith.rounds_positions &&
        std::abs(std::abs(exact[k]) - 0.5 * length[k]) <= 4 * arith.eps * length[k])
      s.image_may_flip = true;
  }
  const double r_seen = std::sqrt(core::dot(seen, seen));
  double r_off = std::abs(r_seen - r);
  if (arith.shifts_images) {  // or the separation from positions moved to images first
    const double shifted = arith.fp32 ? shifted_separation_error<float>(ri, rj, d, box)
                                      : shifted_separation_error<double>(ri, rj, d, box);
    s.component = std::max(s.component, shifted);
    r_off = std::max(r_off, std::sqrt(3.0) * shifted);
  }
  // r^2 from the components: 2.5 eps relative, 1.25 eps in r; r_seen itself within 2 eps_d.
  s.r = r_off + 1.25 * arith.eps * r_seen + 2 * kEpsDouble * r;
  return s;
}

// --- a term's error model ----------------------------------------------------------------------

TermModel::TermModel(const forces::ForceSettings& settings, const core::SpeciesTable& species,
                     const core::UnitSystem& units, const Arithmetic& arith)
    : tables_(std::visit(
          [&](const auto& s) -> Tables {
            if constexpr (requires { s.template knot_table<double>(species); }) {
              return s.template knot_table<double>(species);
            } else {
              return s.template potential_table<double>(species, units);
            }
          },
          settings)),
      arith_(arith),
      cutoff_(forces::cutoff_of(settings)),
      truncation_(std::visit(
          [](const auto& s) {
            if constexpr (requires { s.truncation; }) {
              return s.truncation;
            } else {
              return Truncation::Cut;  // a table: each pair cut at its cutoff
            }
          },
          settings)),
      types_(species.size()) {
  if (!std::isfinite(cutoff_)) return;
  // The shifts are computed in the pair type from r_c^2 rounded to it (r_c off by eps/4 r_c),
  // by the evaluator: F(r_c) = (F/r) r_c adds r_c's rounding and a product.
  const double eps = arith_.eps, rc = cutoff_;
  shifts_.resize(static_cast<std::size_t>(types_) * types_);
  for (int a = 0; a < types_; ++a) {
    for (int b = 0; b < types_; ++b) {
      const Bare at = bare(a, b, rc);
      Shift& s = shifts_[a * types_ + b];
      s.force = at.force;
      s.energy = at.energy;
      s.force_error =
          0.25 * eps * at.sensitivity + eps * (at.force_rounding + at.force_scale) + at.lost_force;
      s.energy_error = 0.25 * eps * rc * at.force_scale + eps * at.energy_rounding + at.lost_energy;
      // V(r_c) + r_c F(r_c): r_c rounded, a product and a sum.
      s.shift_error = s.energy_error + rc * s.force_error +
                      eps * (1.5 * rc * std::abs(at.force) + 0.5 * std::abs(at.energy));
    }
  }
}

TermModel::Bare TermModel::bare(int a, int b, double r) const {
  return std::visit([&](const auto& table) { return bare_terms(table.view()(a, b), r, arith_); },
                    tables_);
}

/// The truncated pair term (physics/truncated.hpp) and its error bounds. With |d(F/r)/dr| r^2
/// <= G (the force shift adds |F(r_c)|) and the separation off by s.component per component and
/// s.r in length:
///   F/r is off by (G s.r / r + eps rounding) / r, so each force component (F/r) d_k by
///     G s.r / r + eps rounding + |F| (s.component / r + eps/2)    (|d_k| <= r; the product);
///   V by |F| s.r + eps rounding (and the shifts' own errors);
///   r . f = (F/r) r^2 by r (G s.r / r + eps rounding) + |F| (2 s.r + eps/2 r).
/// A pair within round-off of the cutoff may be in one backend's sums and not in the other's:
/// its whole magnitude is then the error; so is twice the force where the image may flip.
PairError TermModel::pair(int a, int b, double r, const SeparationError& s) const {
  PairError e;
  const double eps = arith_.eps, rc = cutoff_;
  const bool finite = std::isfinite(rc);
  bool uncertain = false;
  if (finite) {
    const double window = s.r + 0.25 * eps * rc;  // r^2 < r_c^2, both rounded
    if (r > rc + window) return e;
    uncertain = std::abs(r - rc) <= window;
    if (!uncertain && r >= rc) return e;
  }
  const Bare t = bare(a, b, r);
  const Shift none{};
  const Shift& c = finite ? shifts_[a * types_ + b] : none;
  const bool shift_energy = finite && truncation_ == Truncation::ShiftEnergy;
  const bool shift_force = finite && truncation_ == Truncation::ShiftForce;
  const double fc = shift_force ? std::abs(c.force) : 0.0;
  const double vc = shift_energy || shift_force ? std::abs(c.energy) : 0.0;
  e.force_scale = t.force_scale + fc;
  e.energy_scale = t.energy_scale + vc + (shift_force ? (r + rc) * fc : 0.0);
  const double sensitivity = t.sensitivity + fc;  // d(F_c / r)/dr r^2 = F_c
  // F_c / r: 1/r, the product and the difference.
  const double rounding = t.force_rounding + (arith_.rsqrt_ulps + 1.5) * fc;
  const double over_r = sensitivity * s.r / r + eps * rounding + t.lost_force +
                        (shift_force ? c.force_error : 0.0);  // |error of F/r| r
  e.force = over_r + e.force_scale * (s.component / r + 0.5 * eps);
  e.energy = e.force_scale * s.r + eps * (t.energy_rounding + 0.5 * e.energy_scale) +
             t.lost_energy + (shift_energy ? c.energy_error : 0.0);
  if (shift_force) {  // + r F_c (r = r^2 / r: 1/r, two products, the sum), - (V_c + r_c F_c)
    e.energy += c.shift_error + r * c.force_error + (arith_.rsqrt_ulps + 1.5) * eps * r * fc;
  }
  e.virial = r * (over_r + e.force_scale * (2 * s.r / r + 0.5 * eps));
  if (uncertain) {
    e.force += e.force_scale;
    e.energy += e.energy_scale;
    e.virial += r * e.force_scale;
  }
  if (s.image_may_flip) e.force += 2 * e.force_scale;
  e.counted = e.force_scale > 0 || e.energy_scale > 0;
  return e;
}

}  // namespace novamd::test
