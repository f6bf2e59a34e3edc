// Tabulated pair potentials (pair_table): the splines, the evaluators, tables sampled from
// Lennard-Jones and Yukawa against the built-in terms within the interpolation error, and
// LAMMPS's own `pair_style table` on the same input.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "novamd/backend/cpu_backend.hpp"
#include "novamd/forces/tabulation.hpp"
#include "novamd/io/pair_table_file.hpp"
#include "support/cli_runner.hpp"
#include "support/lammps_reference.hpp"
#include "support/pair_tables.hpp"
#include "support/two_species_pairs.hpp"

namespace {

using novamd::backend::BackendSetup;
using novamd::backend::CpuBackend;
using novamd::forces::TableInterpolation;
using novamd::test::AnalyticPair;
using novamd::test::TempDir;
constexpr double kEps = std::numeric_limits<double>::epsilon();

TEST(TableSplines, ACubicWithItsEndSlopesIsReproduced) {
  const auto cubic = [](double x) { return 0.5 - 2 * x + 0.75 * x * x - 0.125 * x * x * x; };
  const auto slope = [](double x) { return -2 + 1.5 * x - 0.375 * x * x; };
  std::vector<double> x, y;
  for (int i = 0; i < 12; ++i) {
    x.push_back(0.3 + i * 0.37 + 0.05 * (i % 3));  // uneven spacing
    y.push_back(cubic(x.back()));
  }
  const auto y2 =
      novamd::forces::spline_second_derivatives(x, y, slope(x.front()), slope(x.back()));
  for (double t = x.front(); t <= x.back(); t += 0.0137) {
    // A clamped cubic spline is exact on cubics: what is left is the rounding of the sweep and
    // the evaluation, a few dozen operations on numbers of order 1.
    EXPECT_NEAR(novamd::forces::spline_at(x, y, y2, t), cubic(t), 64 * kEps) << "x = " << t;
  }
}

/// Knots of g on [1, 2] in s, and a table view over them, for the evaluator tests.
struct OneTable {
  novamd::forces::Tabulation t;
  novamd::physics::TableParams<double> p;
};

OneTable one_table(TableInterpolation interpolation, int points) {
  novamd::forces::TableSection s;
  s.spacing = novamd::forces::TableSpacing::Rsq;
  s.r_lo = 1.0;
  s.r_hi = 2.0;
  const auto lj = novamd::test::lj_pair(1.0, 1.0);
  for (int i = 0; i < points; ++i) {
    const double r = std::sqrt(1.0 + 3.0 * i / (points - 1));
    s.r.push_back(r);
    s.energy.push_back(lj.energy(r));
    s.force.push_back(lj.force(r));
  }
  s.fprime = std::array<double, 2>{lj.force_slope(1.0), lj.force_slope(2.0)};
  OneTable o{novamd::forces::tabulate(s, interpolation, points, 2.0), {}};
  o.p = {o.t.knots.data(),   1.0,   1.0 / o.t.delta, o.t.delta * o.t.delta / 6, 4.0,
         double(points - 2), points};
  return o;
}

TEST(Tabulated, KnotsAreExactZeroBeyondTheCutoffAndNotFiniteInsideTheTable) {
  for (const auto style : {TableInterpolation::Linear, TableInterpolation::Spline}) {
    const OneTable o = one_table(style, 101);
    const auto evaluate = [&](double r2) {
      return style == TableInterpolation::Linear
                 ? novamd::physics::TabulatedLinear<double>::evaluate(r2, o.p)
                 : novamd::physics::TabulatedSpline<double>::evaluate(r2, o.p);
    };
    const auto lj = novamd::test::lj_pair(1.0, 1.0);
    for (int i = 0; i < 100; i += 7) {  // at a knot b = 0: the knot's own values
      const double s = 1.0 + i * o.t.delta, r = std::sqrt(s);
      // The knot's s rounds (1 + i delta); b is then a few eps, times the interval's change.
      EXPECT_NEAR(evaluate(s).energy, lj.energy(r), 1e-12) << "knot " << i;
      EXPECT_NEAR(evaluate(s).force_over_r, lj.force(r) / r, 1e-11) << "knot " << i;
    }
    EXPECT_EQ(evaluate(4.0).energy, 0.0);
    EXPECT_EQ(evaluate(4.5).force_over_r, 0.0);
    EXPECT_TRUE(std::isnan(evaluate(0.99).energy));
    EXPECT_TRUE(std::isnan(evaluate(0.0).force_over_r));  // r2 = 0 reads inside the table
  }
}

// ---------------------------------------------------------------------------------------------
// Tables sampled from the built-in potentials

using Results = novamd::test::PairTermResults;

BackendSetup two_species(std::size_t n, std::uint64_t seed) {
  return novamd::test::two_species_pairs(n, seed);
}

Results evaluate(BackendSetup setup, const novamd::forces::ForceSettings& term) {
  return novamd::test::evaluate_term(std::move(setup), term);
}

/// The species pairs' potentials (A A, A B, B B) and the tables' shared range.
struct SampledPairs {
  AnalyticPair pair[3];
  double r_lo, cutoff;
  int points;
};

/// Bounds of the table's error against the potential on `setup`'s pairs: the chord bound of
/// each pair's energy and F/r (chord_error_bound, knots as the table's), and the rounding of the
/// sums (64 eps of the sums of magnitudes).
struct Bounds {
  double energy = 0;
  std::vector<double> force;
  double virial = 0;
  double energy_magnitude = 0;  ///< sum of |E| over the pairs
  double virial_magnitude = 0;  ///< sum of r^2 |F/r| over the pairs
};

Bounds table_bounds(const BackendSetup& setup, const SampledPairs& sp) {
  const std::size_t n = setup.particles.size();
  Bounds b;
  b.force.assign(n, 0.0);
  const double s0 = sp.r_lo * sp.r_lo;
  const double delta = (sp.cutoff * sp.cutoff - s0) / (sp.points - 1);
  const auto view = setup.box.view<double>();
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      const auto d =
          view.minimum_image(setup.particles.position.get(i) - setup.particles.position.get(j));
      const double s = novamd::core::dot(d, d);
      if (s >= sp.cutoff * sp.cutoff) continue;
      const auto& p = sp.pair[setup.particles.type[i] + setup.particles.type[j]];
      const double s_lo = s0 + std::floor((s - s0) / delta) * delta;
      const double r = std::sqrt(s);
      const double de = novamd::test::chord_error_bound(
                            [&](double x) { return p.energy(std::sqrt(x)); }, s_lo, delta) +
                        64 * kEps * std::abs(p.energy(r));
      const double df =
          novamd::test::chord_error_bound(
              [&](double x) { return p.force(std::sqrt(x)) / std::sqrt(x); }, s_lo, delta) +
          64 * kEps * std::abs(p.force(r) / r);
      b.energy += de;
      b.force[i] += r * df;
      b.force[j] += r * df;
      b.virial += s * df;  // |d_a d_b| <= r^2 for every component
      b.energy_magnitude += std::abs(p.energy(r));
      b.virial_magnitude += std::abs(p.force(r) * r);
    }
  }
  return b;
}

/// The species pairs' sections in one file, each sampled on `rows` rows.
std::string table_file(const SampledPairs& sp, int rows, const std::string& spacing) {
  const char* names[] = {"PAIR_AA", "PAIR_AB", "PAIR_BB"};
  std::string text = "# sampled from the analytic potentials\n\n";
  for (int k = 0; k < 3; ++k)
    text += novamd::test::table_section(names[k], sp.pair[k], sp.r_lo, sp.cutoff, rows, spacing);
  return text;
}

novamd::forces::PairTableSettings table_term(const std::filesystem::path& file,
                                             TableInterpolation style, int points, double cutoff) {
  novamd::forces::PairTableSettings t;
  t.interpolation = style;
  t.points = points;
  const char* names[] = {"PAIR_AA", "PAIR_AB", "PAIR_BB"};
  const char* a[] = {"A", "A", "B"};
  const char* b[] = {"A", "B", "B"};
  for (int k = 0; k < 3; ++k) {
    auto section = std::make_shared<const novamd::forces::TableSection>(
        novamd::io::read_pair_table_section(file, names[k]));
    t.pairs.push_back({a[k], b[k], section, cutoff});
  }
  t.cutoff = cutoff;
  return t;
}

/// The table's results within `bounds` of the built-in term's; returns the energy error.
double expect_within(const Results& table, const Results& exact, const Bounds& bounds) {
  EXPECT_NEAR(table.energy, exact.energy, bounds.energy);
  for (std::size_t i = 0; i < exact.fx.size(); ++i) {
    EXPECT_NEAR(table.fx[i], exact.fx[i], bounds.force[i]) << "particle " << i;
    EXPECT_NEAR(table.fy[i], exact.fy[i], bounds.force[i]) << "particle " << i;
    EXPECT_NEAR(table.fz[i], exact.fz[i], bounds.force[i]) << "particle " << i;
  }
  for (int k = 0; k < 6; ++k) EXPECT_NEAR(table.virial.c[k], exact.virial.c[k], bounds.virial);
  return std::abs(table.energy - exact.energy);
}

SampledPairs lj_pairs() {
  return {{novamd::test::lj_pair(1.0, 1.0), novamd::test::lj_pair(0.75, 0.9),
           novamd::test::lj_pair(0.5, 0.8)},
          0.8,
          2.5,
          2000};
}

TEST(PairTable, LennardJonesTablesMatchTheBuiltInWithinTheInterpolationError) {
  const SampledPairs sp = lj_pairs();
  const auto setup = two_species(400, 11);
  novamd::forces::LennardJonesSettings lj;
  lj.pairs = {{"A", "A", 1.0, 1.0}, {"A", "B", 0.75, 0.9}, {"B", "B", 0.5, 0.8}};
  lj.cutoff = sp.cutoff;
  const Results exact = evaluate(setup, lj);
  TempDir dir;
  const auto file = dir.write("lj.table", table_file(sp, sp.points, "RSQ"));
  const Bounds bounds = table_bounds(setup, sp);
  // Linear on the file's own rows (RSQ, N rows, cut at the last: LAMMPS takes them as knots).
  const double linear = expect_within(
      evaluate(setup, table_term(file, TableInterpolation::Linear, sp.points, sp.cutoff)), exact,
      bounds);
  // Splines through the same knots: held to the chord's bound, and closer than the chord.
  const double spline = expect_within(
      evaluate(setup, table_term(file, TableInterpolation::Spline, sp.points, sp.cutoff)), exact,
      bounds);
  EXPECT_LT(spline, linear);
  EXPECT_GT(linear, 0.0);  // the tables are not the potential itself
}

TEST(PairTable, YukawaTablesResampledFromEvenlySpacedRowsMatchTheBuiltIn) {
  // Rows evenly spaced in r and fewer than the knots: the rows are splined in r and the spline
  // sampled at the knots (LAMMPS's path for any other table). That spline's error is of order
  // h^4 f'''' / 384 with h = 1.7e-3 (1e-12 of these values), far under the chord bound.
  SampledPairs sp{{novamd::test::yukawa_pair(1.0, 1.5), novamd::test::yukawa_pair(-1.0, 1.5),
                   novamd::test::yukawa_pair(1.0, 1.5)},
                  0.8,
                  3.0,
                  2000};
  const auto setup = two_species(300, 12);
  const Results exact = evaluate(setup, novamd::forces::YukawaSettings{1.5, sp.cutoff});
  TempDir dir;
  const auto file = dir.write("yukawa.table", table_file(sp, 1300, "R"));
  expect_within(evaluate(setup, table_term(file, TableInterpolation::Linear, sp.points, sp.cutoff)),
                exact, table_bounds(setup, sp));
}

// ---------------------------------------------------------------------------------------------
// LAMMPS's pair_style table on the same input

using novamd::test::kLammps;

/// pe and the virial's pressure components from LAMMPS with pair_style table (`style` 1500),
/// the A B pair cut at `cut_ab`.
std::vector<double> lammps_values(const TempDir& dir, const std::string& style, double cut_ab) {
  return novamd::test::lammps_energy_and_pressure(
      dir, fmt::format("pair_style table {} 1500\npair_coeff 1 1 pair.table PAIR_AA\n"
                       "pair_coeff 1 2 pair.table PAIR_AB {:.17g}\n"
                       "pair_coeff 2 2 pair.table PAIR_BB\n",
                       style, cut_ab));
}

TEST(PairTableLammpsReference, EnergyAndPressureAgreeWithLammpsPairStyleTable) {
  ASSERT_TRUE(std::filesystem::exists(kLammps))
      << kLammps << " is absent: install LAMMPS (Debian package lammps; scripts/setup.sh --tests)";
  SampledPairs sp = lj_pairs();
  const auto setup = two_species(300, 13);
  TempDir dir;
  // Rows evenly spaced in r, 700 of them, resampled on 1500 knots; A B cut at 2.3 inside its
  // table: every step of LAMMPS's construction (splines in r, knots in r^2, per-pair cutoff).
  dir.write("pair.table", table_file(sp, 700, "R"));
  dir.write("state.data", novamd::test::lammps_data(setup, "sampled by test_pair_table.cpp"));
  const double volume = 512.0;
  for (const auto style : {TableInterpolation::Linear, TableInterpolation::Spline}) {
    const bool linear = style == TableInterpolation::Linear;
    auto term = table_term(dir.path() / "pair.table", style, 1500, sp.cutoff);
    term.pairs[1].cutoff = 2.3;
    const Results ours = evaluate(setup, term);
    const auto lammps = lammps_values(dir, linear ? "linear" : "spline", 2.3);
    ASSERT_EQ(lammps.size(), 7u);
    // The same arithmetic on the same knots, summed in other orders over some 5,000 pairs (their
    // rounding under N eps ~ 1e-12 of the sum of magnitudes), and separations taken through
    // ghost atoms there, the minimum image here (an eps L difference, ~1e-14 relative): 1e-11 of
    // the sum of magnitudes. A different knot, interval or spline would differ by the
    // interpolation error itself, 1e-7 of the pair energies and more.
    const Bounds m = table_bounds(setup, sp);
    EXPECT_NEAR(ours.energy, lammps[0], 1e-11 * m.energy_magnitude)
        << (linear ? "linear" : "spline");
    // LAMMPS's pressure P_ab = W_ab / V at zero velocities (its order xx yy zz xy xz yz).
    for (int k = 0; k < 6; ++k)
      EXPECT_NEAR(ours.virial.c[k] / volume, lammps[k + 1], 1e-11 * m.virial_magnitude / volume)
          << (linear ? "linear" : "spline") << " component " << k;
    EXPECT_NE(lammps[0], 0.0);
  }
}

}  // namespace
