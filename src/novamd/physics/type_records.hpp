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
  struct Record {
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
