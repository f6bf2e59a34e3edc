#pragma once
/// @file tabulation.hpp
/// From a section of a LAMMPS pair table file to the knots a tabulated evaluator reads
/// (physics/tabulated.hpp), as LAMMPS's `pair_style table` builds them (src/pair_table.cpp,
/// spline_table and compute_table): the file's energy and force are splined in r (natural
/// cubic splines with end slopes -F and, for the force, FPRIME or the end secants), and the
/// splines are sampled at N knots evenly spaced in r^2 from the table's inner distance to the
/// pair's cutoff. Where the file's rows are those knots already (RSQ spacing, N rows, the cutoff
/// at its last distance), linear interpolation takes them as they are. The spline style then
/// splines E and F/r in r^2 through the knots, with end slopes from F (and FPRIME, or secants).

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace novamd::forces {

/// How a table file's section places its distances (its parameter line).
enum class TableSpacing {
  AsListed,  ///< the r of each row
  R,         ///< `R rlo rhi`: evenly spaced in r
  Rsq,       ///< `RSQ rlo rhi`: evenly spaced in r^2
};

/// One section of a LAMMPS pair table file, as read (io/pair_table_file.hpp).
struct TableSection {
  std::string file;     ///< the file, for messages
  std::string keyword;  ///< the section's name
  int line = 0;         ///< the line of the keyword
  TableSpacing spacing = TableSpacing::AsListed;
  double r_lo = 0.0, r_hi = 0.0;                ///< R or RSQ
  std::optional<std::array<double, 2>> fprime;  ///< `FPRIME`: dF/dr at the first and last row
  /// One entry per row; r as the spacing gives it (R, RSQ) or as listed. F = -dE/dr.
  std::vector<double> r, energy, force;

  double first_distance() const { return spacing == TableSpacing::AsListed ? r.front() : r_lo; }
  double last_distance() const { return spacing == TableSpacing::AsListed ? r.back() : r_hi; }
};

enum class TableInterpolation { Linear, Spline };

/// A pair's knots: physics::kKnotValues numbers each (s = r^2, E, F/r, and E, F/r's
/// differences to the next knot (linear) or second derivatives in s (spline)).
struct Tabulation {
  std::vector<double> knots;
  double inner_squared = 0.0;  ///< s of the first knot
  double delta = 0.0;          ///< spacing in s
  double cutoff = 0.0;         ///< r of the last knot
  int count = 0;               ///< knots
};

/// The knots of `section` for `interpolation` on `points` knots up to `cutoff` (within the
/// table: the caller checked first_distance() < cutoff <= last_distance(), points >= 2).
Tabulation tabulate(const TableSection& section, TableInterpolation interpolation, int points,
                    double cutoff);

/// The second derivatives of the cubic spline through (x_i, y_i) with end slopes `slope_first`
/// and `slope_last` (x increasing): Numerical Recipes' tridiagonal sweep, as LAMMPS's spline().
std::vector<double> spline_second_derivatives(const std::vector<double>& x,
                                              const std::vector<double>& y, double slope_first,
                                              double slope_last);

/// The cubic spline of (x, y, y2) at x0 (bisection for its interval), as LAMMPS's splint().
double spline_at(const std::vector<double>& x, const std::vector<double>& y,
                 const std::vector<double>& y2, double x0);

}  // namespace novamd::forces
