#pragma once
/// @file tabulated.hpp
/// A pair potential given as a table (LAMMPS's `pair_style table linear | spline`): energy E and
/// force over distance F/r known at N knots evenly spaced in s = r^2 from the table's inner
/// distance r_in to the pair's cutoff r_c, with delta = (r_c^2 - r_in^2) / (N - 1):
///
///     knot i:  s_i = r_in^2 + i delta,  E_i,  (F/r)_i
///     linear:  with b = (s - s_i) / delta for s_i <= s < s_i+1,
///              E(s) = E_i + b (E_i+1 - E_i)                  (F/r likewise)
///     spline:  with a = 1 - b,
///              E(s) = a E_i + b E_i+1 + ((a^3 - a) E''_i + (b^3 - b) E''_i+1) delta^2 / 6
///              (F/r likewise; E'' and (F/r)'' the second derivatives in s of the cubic spline
///              through the knots, forces/tabulation.hpp)
///
/// and 0 for r >= r_c. As LAMMPS, energy and force are interpolated apart, so the force is not
/// exactly -dE/dr between knots. A pair closer than r_in lies outside the table: the evaluator
/// returns NaN for it (LAMMPS stops with "Pair distance < table inner cutoff"), and the run stops
/// at the next check of the state with the step and the particle.
/// Source: LAMMPS `pair_style table` (src/pair_table.cpp, compute and compute_table).
/// Units: those of the table file (energy, length; F/r in energy / length^2).

#include "novamd/core/host_device.hpp"
#include "novamd/core/math.hpp"
#include "novamd/physics/pair_result.hpp"

namespace novamd::physics {

/// What a tabulated pair's evaluation reads: its knots (kKnotValues numbers each: s, E, F/r and,
/// for linear, the differences to the next knot, for the spline, the second derivatives).
template <class T>
struct TableParams {
  const T* knots;     ///< host or device memory, as the traversal runs
  T inner_squared;    ///< r_in^2 = s_0
  T inverse_delta;    ///< 1 / delta
  T delta_squared_6;  ///< delta^2 / 6 (spline)
  T cutoff_squared;   ///< r_c^2 = s_(N-1)
  T last_interval;    ///< N - 2, the index of the last interval
  int knot_count;     ///< N

  /// How many numbers the knots take (for copies to the device).
  int values() const { return knot_count * 5; }
};

inline constexpr int kKnotValues = 5;  ///< s, E, F/r, and two numbers that depend on the style

/// The interval holding s (clamped to the table: a pair outside it is selected away), and b.
template <class T>
NOVAMD_HD int table_interval(T r2, const TableParams<T>& p) {
  T x = (r2 - p.inner_squared) * p.inverse_delta;
  x = x > T(0) ? x : T(0);  // also NaN to 0: the index stays in the table
  x = x < p.last_interval ? x : p.last_interval;
  return static_cast<int>(x);
}

/// 0 beyond the cutoff, NaN inside the inner distance, else the interpolated value.
template <class T>
NOVAMD_HD PairResult<T> select_in_table(T r2, const TableParams<T>& p, PairResult<T> value) {
  if (r2 >= p.cutoff_squared) return {T(0), T(0)};
  if (r2 < p.inner_squared) {
    const T nan = core::quiet_nan(r2);
    return {nan, nan};
  }
  return value;
}

/// Knot values: s, E, F/r, E_i+1 - E_i, (F/r)_i+1 - (F/r)_i.
template <class T>
struct TabulatedLinear {
  using Real = T;
  using Params = TableParams<T>;

  NOVAMD_HD static PairResult<T> evaluate(T r2, const Params& p) {
    const T* k = p.knots + kKnotValues * table_interval(r2, p);
    const T b = (r2 - k[0]) * p.inverse_delta;
    return select_in_table(r2, p, {k[2] + b * k[4], k[1] + b * k[3]});
  }
};

/// Knot values: s, E, F/r, E'', (F/r)'' (second derivatives in s).
template <class T>
struct TabulatedSpline {
  using Real = T;
  using Params = TableParams<T>;

  NOVAMD_HD static PairResult<T> evaluate(T r2, const Params& p) {
    const T* k = p.knots + kKnotValues * table_interval(r2, p);
    const T* next = k + kKnotValues;
    const T b = (r2 - k[0]) * p.inverse_delta;
    const T a = T(1) - b;
    const T ca = a * a * a - a;
    const T cb = b * b * b - b;
    return select_in_table(
        r2, p,
        {a * k[2] + b * next[2] + (ca * k[4] + cb * next[4]) * p.delta_squared_6,
         a * k[1] + b * next[1] + (ca * k[3] + cb * next[3]) * p.delta_squared_6});
  }
};

}  // namespace novamd::physics
