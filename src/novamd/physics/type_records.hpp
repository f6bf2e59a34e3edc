#pragma once
/// @file type_records.hpp
/// A pair table rebuilt from one record per type, where the table allows it: Lennard-Jones
/// parameters that follow the Lorentz-Berthelot rules
///
///     sigma_ij = (sigma_i + sigma_j) / 2,   epsilon_ij = (epsilon_i epsilon_j)^(1/2)
///
/// (H. A. Lorentz, Ann. Phys. 248, 127 (1881); D. Berthelot, C. R. Acad. Sci. 126, 1703
/// (1898)), and everything else (the cutoff, the real-space Coulomb parameters per unit charge
/// product) the same for every pair. Each type keeps (sigma_i / 2, 2 epsilon_i^(1/2)), so that
/// a pair's
///
///     sigma_ij = sigma_i / 2 + sigma_j / 2,   4 epsilon_ij = 2 epsilon_i^(1/2) 2 epsilon_j^(1/2)
///
/// take an addition and a multiplication (OpenMM's per-particle form), and C6 = 4 epsilon_ij
/// sigma_ij^6, C12 = C6 sigma_ij^6 and the cutoff's shifts follow in a few more. A kernel that
/// reads a record per type in place of an entry per type pair holds num_types entries, not
/// num_types^2: a protein force field's 30 to 60 types then cost a GPU block no more shared
/// memory than water's two.
///
/// Rebuilt entries differ from the table's by rounding in T (the table's are rounded from
/// double), so `from_table` accepts a table only where every rebuilt entry is within kTolerance
/// of its own; a table with pair-specific overrides (NBFIX) or another mixing rule is refused and
/// read as a table. CHARMM switching (switched.hpp) has no records.

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "novamd/core/host_device.hpp"
#include "novamd/core/math.hpp"
#include "novamd/physics/ewald.hpp"
#include "novamd/physics/lennard_jones.hpp"
#include "novamd/physics/pair_sum.hpp"
#include "novamd/physics/pair_table.hpp"
#include "novamd/physics/truncated.hpp"

namespace novamd::physics {

/// Whether Evaluator's table may be held as records per type: only for the evaluators
/// specialised below (the others have empty record types, never filled).
template <class Evaluator>
struct TypeRecords {
  static constexpr bool kAvailable = false;
  struct Record {};
  struct Common {};
};

/// Lennard-Jones (cut, energy-shifted or force-shifted) with a second potential whose
/// parameters are the same for every pair (the real-space Coulomb of an Ewald split).
template <class T, bool ForceShift, class Second>
struct TypeRecords<PairSum<Truncated<LennardJones<T>, ForceShift>, Second>> {
  static constexpr bool kAvailable = true;
  using Sum = PairSum<Truncated<LennardJones<T>, ForceShift>, Second>;
  using First = Truncated<LennardJones<T>, ForceShift>;
  using Params = typename Sum::Params;

  /// A type's Lennard-Jones parameters in the form a pair combines in two operations.
  struct alignas(2 * sizeof(T)) Record {
    T half_sigma;  ///< sigma_i / 2
    T root_eps4;   ///< 2 epsilon_i^(1/2)
  };

  /// What every pair has in common.
  struct Common {
    typename Second::Params second;
    T cutoff_squared, cutoff;
    Truncation mode;
  };

  /// How far a rebuilt C12, C6 or shift may lie from the table's, relative: 64 roundings of T.
  /// In units u of one rounding, C12 = (4 eps) sigma^6 sigma^6 carries the records' own (0.5 u
  /// each, and 3.5 u from deriving sigma and epsilon from the table's rounded C12 and C6: sigma^12
  /// multiplies sigma's error by 12), sigma's sum (0.5 u), sigma^2 and sigma^6 (2.5 u and
  /// 8.5 u with their products), the products with 4 epsilon (1.5 u) and the table's own
  /// rounding: some 24 u; C6 some 14 u; a shift adds the few roundings of V(r_c) or F(r_c), whose
  /// two terms at r_c differ by orders of magnitude (no cancellation). 64 u leaves a margin.
  static constexpr double kTolerance = 64 * 0.5 * std::numeric_limits<T>::epsilon();

  /// The pair of types a and b: its Lennard-Jones parameters from the two records, truncated
  /// at the common cutoff, and the common second potential.
  NOVAMD_HD static Params combine(const Record& a, const Record& b, const Common& common) {
    const T sigma = a.half_sigma + b.half_sigma;
    const T eps4 = a.root_eps4 * b.root_eps4;
    const T sigma2 = sigma * sigma;
    const T sigma6 = sigma2 * sigma2 * sigma2;
    const typename LennardJones<T>::Params lj{eps4 * sigma6 * sigma6, eps4 * sigma6};
    return {First::at_cutoff(lj, common.cutoff_squared, common.cutoff, common.mode), common.second};
  }

  /// Whether `evaluate_direct` serves Evaluator (the sum, or one of its energy passes): where
  /// the second potential is the Ewald sum's real-space pair, in single precision (its erfc is
  /// EwaldReal's FP32 form), and Lennard-Jones is cut or energy-shifted (a force shift changes
  /// the force: such pairs take the rebuilt entry).
  template <class Evaluator>
  static constexpr bool kDirect =
      !ForceShift && std::is_same_v<T, float> &&
      std::is_same_v<Second, Truncated<EwaldReal<T>, false>> &&
      (std::is_same_v<Evaluator, Sum> || std::is_same_v<Evaluator, PairSumEnergyPass<Sum, 0>> ||
       std::is_same_v<Evaluator, PairSumEnergyPass<Sum, 1>>);

  /// What a pair evaluated from the records directly needs besides them, derived once from the
  /// common part.
  struct Direct {
    T cutoff_squared;  ///< r_c^2, of both potentials (from_table insists)
    T inverse_cutoff_squared;
    T k;                  ///< k_e / eps
    T erfc_scale;         ///< A&S's p alpha: t = 1 / (1 + p alpha r)
    T gaussian_exponent;  ///< -alpha^2 log2(e): exp(-alpha^2 r^2) = 2^(that r^2)
    T gaussian;           ///< 2 alpha / sqrt(pi)
    T coulomb_shift;      ///< the real-space pair's energy shift per unit charge product
    bool lj_shift;        ///< Lennard-Jones energy-shifted at r_c
    /// Two constants of the arithmetic, held in registers rather than set again at every pair
    /// (an FFMA takes one immediate operand, and these meet another).
    T erfc_a5 = EwaldReal<T>::kErfcA5, twelve = T(12);
  };
  NOVAMD_HD static Direct direct_of(const Common& c) {
    if constexpr (!kDirect<Sum>) {
      return {};
    } else {
      const auto& ewald = c.second.potential;
      return {c.cutoff_squared,
              T(1) / c.cutoff_squared,
              ewald.k,
              EwaldReal<T>::kErfcP * ewald.alpha,
              -ewald.alpha * ewald.alpha * T(1.4426950408889634),
              ewald.two_alpha_over_pi,
              c.second.energy_shift,
              c.mode == Truncation::ShiftEnergy};
    }
  }

  /// The pair of records a and b at squared distance r2 (> 0 where `met`) with charges qi and
  /// qj, evaluated from the records directly rather than through a rebuilt entry: the same
  /// potentials as Sum::evaluate (to within rounding), with one reciprocal square root for both,
  /// Lennard-Jones in OpenMM's per-particle form and both cut by one test,
  ///
  ///     r F/r = 4 eps s6 (12 s6 - 6) + qq k [erfc(alpha r)/r + (2 alpha/sqrt(pi)) e^(-alpha^2
  ///     r^2)] s6 = (sigma^2 / r^2)^3,  F/r = (r F/r) / r^2,
  ///
  /// erfc by Abramowitz and Stegun's 7.1.26 as EwaldReal's FP32 form. Zero unless `met` and
  /// r < r_c. Every operation is rounded as written (core::mul_rn), so that the force pass and
  /// the energy passes give a pair the same force bitwise. Evaluator picks the energy: the sum's,
  /// Lennard-Jones' (energy pass 0, with the force) or Coulomb's (pass 1, no force).
  template <class Evaluator>
  NOVAMD_HD static PairResult<T> evaluate_direct(T r2, const Record& a, const Record& b,
                                                 const Direct& c, T qi, T qj, bool met) {
    using core::add_rn, core::fma_rn, core::mul_rn;
    constexpr bool kForce = !std::is_same_v<Evaluator, PairSumEnergyPass<Sum, 1>>;
    constexpr bool kLjEnergy = !std::is_same_v<Evaluator, PairSumEnergyPass<Sum, 1>>;
    constexpr bool kCoulombEnergy = !std::is_same_v<Evaluator, PairSumEnergyPass<Sum, 0>>;
    // Outside (a pair off the mask may lie at r = 0) every term is computed at r_c and then
    // multiplied by 0: finite, and no branch around the arithmetic most lanes of a warp need.
    const bool inside = met && r2 < c.cutoff_squared;
    r2 = inside ? r2 : c.cutoff_squared;
    const T inv_r = core::rsqrt_hd(r2);
    const T inv_r2 = mul_rn(inv_r, inv_r);
    const T kept_inv_r2 = inside ? inv_r2 : T(0);
    const T sigma = add_rn(a.half_sigma, b.half_sigma);
    const T eps4 = mul_rn(a.root_eps4, b.root_eps4);
    const T sigma2 = mul_rn(sigma, sigma);
    const T s2 = mul_rn(sigma2, inv_r2);
    const T s6 = mul_rn(mul_rn(s2, s2), s2);
    const T lj6 = mul_rn(eps4, s6);  // 4 eps (sigma / r)^6
    const T r = mul_rn(r2, inv_r);
    const T t = core::reciprocal_hd(fma_rn(c.erfc_scale, r, T(1)));
    const T gauss = core::exp2_hd(mul_rn(c.gaussian_exponent, r2));
    using Erfc = EwaldReal<T>;  // its FP32 erfc's coefficients
    T poly = fma_rn(t, c.erfc_a5, Erfc::kErfcA4);
    poly = fma_rn(poly, t, Erfc::kErfcA3);
    poly = fma_rn(poly, t, Erfc::kErfcA2);
    poly = fma_rn(poly, t, Erfc::kErfcA1);
    const T erfc_over_r_gauss = mul_rn(mul_rn(t, poly), inv_r);  // erfc(alpha r) / r / gauss
    const T kqq = mul_rn(mul_rn(c.k, qi), qj);  // k qi: the same for every partner of a lane
    PairResult<T> result{T(0), T(0)};
    if constexpr (kForce) {
      const T coulomb = mul_rn(fma_rn(erfc_over_r_gauss, gauss, mul_rn(c.gaussian, gauss)), kqq);
      const T r_force = fma_rn(lj6, fma_rn(s6, c.twelve, T(-6)), coulomb);
      result.force_over_r = mul_rn(r_force, kept_inv_r2);
    }
    if constexpr (kLjEnergy) {
      T lj = mul_rn(lj6, add_rn(s6, T(-1)));
      if (c.lj_shift) {
        const T at_rc2 = mul_rn(sigma2, c.inverse_cutoff_squared);
        const T at_rc6 = mul_rn(mul_rn(at_rc2, at_rc2), at_rc2);
        lj = add_rn(lj, -mul_rn(mul_rn(eps4, at_rc6), add_rn(at_rc6, T(-1))));
      }
      result.energy = lj;
    }
    if constexpr (kCoulombEnergy) {
      const T coulomb = mul_rn(kqq, add_rn(mul_rn(erfc_over_r_gauss, gauss), -c.coulomb_shift));
      result.energy = add_rn(result.energy, coulomb);
    }
    result.energy = inside ? result.energy : T(0);
    return result;
  }

  /// The records and common part of `table`, made with cutoff r_c, where every entry is rebuilt
  /// from them to within kTolerance relative (C12, C6 and the shifts; the common part bitwise);
  /// none otherwise.
  static std::optional<std::pair<std::vector<Record>, Common>> from_table(
      const PairTable<Params>& table, double cutoff) {
    static_assert(sizeof(typename First::Params) == 5 * sizeof(T),
                  "from_table compares C12, C6, r_c^2 and both shifts: compare any new field too");
    const int types = table.num_types();
    if (types == 0) return std::nullopt;
    const Params& first_entry = table.view()(0, 0);
    Common common{first_entry.second, first_entry.first.cutoff_squared, static_cast<T>(cutoff),
                  ForceShift ? Truncation::ShiftForce : Truncation::Cut};
    if constexpr (requires { common.second.cutoff_squared; }) {
      // evaluate_direct cuts both potentials by one test
      if (common.second.cutoff_squared != common.cutoff_squared) return std::nullopt;
    }
    if constexpr (!ForceShift) {
      for (int a = 0; a < types; ++a)
        if (table.view()(a, a).first.energy_shift != T(0)) common.mode = Truncation::ShiftEnergy;
    }
    std::vector<Record> records(types);
    for (int a = 0; a < types; ++a) {
      const auto& lj = table.view()(a, a).first.potential;
      if (lj.c12 == T(0) && lj.c6 == T(0)) continue;  // no Lennard-Jones: (0, 0)
      if (!(lj.c12 > T(0) && lj.c6 > T(0))) return std::nullopt;
      const double c12 = lj.c12, c6 = lj.c6;
      const double sigma = std::pow(c12 / c6, 1.0 / 6.0);
      const double epsilon = c6 * c6 / (4.0 * c12);
      records[a] = {static_cast<T>(0.5 * sigma), static_cast<T>(2.0 * std::sqrt(epsilon))};
    }
    for (int a = 0; a < types; ++a) {
      for (int b = 0; b < types; ++b) {
        const Params& entry = table.view()(a, b);
        const Params rebuilt = combine(records[a], records[b], common);
        if (!same_bits(entry.second, common.second) ||
            entry.first.cutoff_squared != common.cutoff_squared ||
            !close(entry.first.potential.c12, rebuilt.first.potential.c12) ||
            !close(entry.first.potential.c6, rebuilt.first.potential.c6) ||
            !close(entry.first.energy_shift, rebuilt.first.energy_shift) ||
            !close(entry.first.force_at_cutoff, rebuilt.first.force_at_cutoff))
          return std::nullopt;
      }
    }
    return std::pair{std::move(records), common};
  }

 private:
  static bool close(T x, T y) {
    return std::abs(double(x) - double(y)) <=
           kTolerance * std::max(std::abs(double(x)), std::abs(double(y)));
  }
  template <class P>
  static bool same_bits(const P& x, const P& y) {
    return std::memcmp(&x, &y, sizeof(P)) == 0;
  }
};

}  // namespace novamd::physics
