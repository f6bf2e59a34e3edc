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
/// double), so `from_table` accepts a table only where every rebuilt entry is within a few
/// roundings of T of its own; a table with pair-specific overrides (NBFIX) is refused and read as
/// a table.

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <vector>

#include "novamd/core/host_device.hpp"
#include "novamd/physics/lennard_jones.hpp"
#include "novamd/physics/pair_sum.hpp"
#include "novamd/physics/pair_table.hpp"
#include "novamd/physics/truncated.hpp"

namespace novamd::physics {

/// Whether Evaluator's table may be held as records per type: only for the evaluators
/// specialised below.
template <class Evaluator>
struct TypeRecords {
  static constexpr bool kAvailable = false;
};

/// Placeholders for the record types of an evaluator without records.
struct NoTypeRecords {
  struct Record {};
  struct Shared {};
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

  /// What every pair shares.
  struct Shared {
    typename Second::Params second;
    T cutoff_squared, cutoff;
    Truncation mode;
  };

  /// The pair of types a and b: its Lennard-Jones parameters from the two records, truncated
  /// at the shared cutoff, and the shared second potential.
  NOVAMD_HD static Params combine(const Record& a, const Record& b, const Shared& shared) {
    const T sigma = a.half_sigma + b.half_sigma;
    const T eps4 = a.root_eps4 * b.root_eps4;
    const T sigma2 = sigma * sigma;
    const T sigma6 = sigma2 * sigma2 * sigma2;
    const typename LennardJones<T>::Params lj{eps4 * sigma6 * sigma6, eps4 * sigma6};
    return {First::at_cutoff(lj, shared.cutoff_squared, shared.cutoff, shared.mode), shared.second};
  }

  /// The records and shared part of `table`, where every entry is rebuilt from them to within
  /// `tolerance` relative (C12, C6 and the shifts; the shared part bitwise); none otherwise.
  static std::optional<std::pair<std::vector<Record>, Shared>> from_table(
      const PairTable<Params>& table, double tolerance) {
    const int types = table.num_types();
    if (types == 0) return std::nullopt;
    const Params& first_entry = table.view()(0, 0);
    Shared shared{first_entry.second, first_entry.first.cutoff_squared,
                  static_cast<T>(std::sqrt(double(first_entry.first.cutoff_squared))),
                  ForceShift ? Truncation::ShiftForce : Truncation::Cut};
    if constexpr (!ForceShift) {
      for (int a = 0; a < types; ++a)
        if (table.view()(a, a).first.energy_shift != T(0)) shared.mode = Truncation::ShiftEnergy;
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
        const Params rebuilt = combine(records[a], records[b], shared);
        if (!same_bits(entry.second, shared.second) ||
            entry.first.cutoff_squared != shared.cutoff_squared ||
            !close(entry.first.potential.c12, rebuilt.first.potential.c12, tolerance) ||
            !close(entry.first.potential.c6, rebuilt.first.potential.c6, tolerance) ||
            !close(entry.first.energy_shift, rebuilt.first.energy_shift, tolerance) ||
            !close(entry.first.force_at_cutoff, rebuilt.first.force_at_cutoff, tolerance))
          return std::nullopt;
      }
    }
    return std::pair{std::move(records), shared};
  }

 private:
  static bool close(T x, T y, double tolerance) {
    return std::abs(double(x) - double(y)) <=
           tolerance * std::max(std::abs(double(x)), std::abs(double(y)));
  }
  template <class P>
  static bool same_bits(const P& x, const P& y) {
    return std::memcmp(&x, &y, sizeof(P)) == 0;
  }
};

}  // namespace novamd::physics
