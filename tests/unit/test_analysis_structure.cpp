// g(r) and S(q) on the host against independent formulas: an ideal gas has g = 1 within its
// counting noise, two particles give one count of known normalisation, the species pairs add up
// to the total, a bcc crystal has its Bragg peaks where the reciprocal lattice puts them, and
// the mode sums of a random mixture equal the direct pair sums.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

#include "novamd/analysis/radial_distribution.hpp"
#include "novamd/analysis/structure_factor.hpp"
#include "support/analysis_systems.hpp"

namespace {

using novamd::analysis::DistanceBins;
using novamd::analysis::RadialDistribution;
using novamd::analysis::StructureFactor;
using novamd::core::Box;
using novamd::core::view_of;
constexpr double kPi = std::numbers::pi;
constexpr double kEps = std::numeric_limits<double>::epsilon();

RadialDistribution sampled_rdf(const std::vector<novamd::core::ParticleData>& samples,
                               const Box& box, DistanceBins bins, int species) {
  RadialDistribution rdf(bins, novamd::test::species_counts(samples[0], species), box.volume(),
                         {"A", "B", "C"});
  std::vector<std::uint64_t> counts;
  for (const auto& p : samples) {
    novamd::analysis::count_pairs(view_of(p), box, bins, species, counts);
    rdf.add_sample(counts);
  }
  return rdf;
}

// Uniform independent positions: for r_max <= L/2 the nearest image of particle j seen from i
// is uniform in the box, so a pair falls in shell b with probability p_b = shell_b / V, and the
// events of two pairs are independent even when they share a particle (p_b does not depend on
// where i is). The count of the P = N(N-1)/2 pairs in a shell is then binomial with mean P p_b
// and variance P p_b (1 - p_b); over M independent samples g_b = count / (M P p_b) has mean 1
// and sigma_b = ((1 - p_b) / (M P p_b))^(1/2). Each bin must lie within 5 sigma (two-sided
// probability 6e-7 per bin), and the mean of ((g_b - 1)/sigma_b)^2 over the 50 bins, whose
// expectation is 1 and whose standard deviation is (2/50)^(1/2) = 0.2, within 1 +- 0.6 (3 sd).
TEST(AnalysisRdf, IdealGasIsOneWithinPoissonNoise) {
  const Box box(10.0, 11.0, 12.0);
  const std::size_t n = 600;
  const int samples_count = 12;
  const DistanceBins bins{5.0, 50};
  std::mt19937_64 rng(20260101);
  std::vector<novamd::core::ParticleData> samples;
  for (int s = 0; s < samples_count; ++s)
    samples.push_back(novamd::test::uniform_particles(n, box, {1.0}, rng));
  const auto rdf = sampled_rdf(samples, box, bins, 1);
  ASSERT_EQ(rdf.samples(), samples_count);
  const double pairs = 0.5 * n * (n - 1.0);
  double chi2 = 0.0;
  for (int b = 0; b < bins.bins; ++b) {
    const double inner = b * bins.width(), outer = (b + 1) * bins.width();
    const double p = 4.0 / 3.0 * kPi * (std::pow(outer, 3) - std::pow(inner, 3)) / box.volume();
    const double sigma = std::sqrt((1.0 - p) / (samples_count * pairs * p));
    EXPECT_NEAR(rdf.g_total(b), 1.0, 5.0 * sigma) << "bin " << b;
    EXPECT_DOUBLE_EQ(rdf.g(0, 0, b), rdf.g_total(b));  // one species: g_AA is the total
    chi2 += std::pow((rdf.g_total(b) - 1.0) / sigma, 2);
  }
  EXPECT_NEAR(chi2 / bins.bins, 1.0, 0.6);
}

// Two particles A and B 1.234 apart across the periodic boundary in x: one pair, in bin
// floor(1.234 / 0.1) = 12, where g_AB = V / (N_A N_B shell_12) with shell_12 = 4/3 pi
// (1.3^3 - 1.2^3); every other bin and the like pairs (no pair of their kind: NaN) hold nothing.
TEST(AnalysisRdf, OnePairAcrossTheBoundaryHasTheIdealGasNormalisation) {
  const Box box(8.0, 9.0, 10.0);
  novamd::core::ParticleData p;
  p.resize(2);
  p.position.set(0, {0.1, 4.0, 5.0});
  p.position.set(1, {8.0 - 1.134, 4.0, 5.0});
  p.type = {0, 1};
  p.id = {1, 0};
  const auto rdf = sampled_rdf({p}, box, DistanceBins{4.0, 40}, 2);
  const double shell = 4.0 / 3.0 * kPi * (std::pow(1.3, 3) - std::pow(1.2, 3));
  for (int b = 0; b < 40; ++b) {
    // Round-off: the bin edges and the shell volume carry a few ulps.
    const double expected = b == 12 ? box.volume() / shell : 0.0;
    EXPECT_NEAR(rdf.g(0, 1, b), expected, 1e-13 * expected) << "bin " << b;
    EXPECT_NEAR(rdf.g_total(b), b == 12 ? box.volume() / shell : 0.0, 1e-13 * expected);
    EXPECT_TRUE(std::isnan(rdf.g(0, 0, b)));
    EXPECT_TRUE(std::isnan(rdf.g(1, 1, b)));
  }
}

// With P_aa = N_a (N_a - 1)/2 and P_ab = N_a N_b the pairs of each kind, and P = N (N - 1)/2,
// every pair is of exactly one kind, so P g(r) = sum_{a <= b} P_ab g_ab(r) in every bin. The two
// sides are sums of the same integers, divided in different orders: equal to round-off (1e-13
// relative covers a few ulps per term of a three-species sum).
TEST(AnalysisRdf, SpeciesPairsAddUpToTheTotal) {
  const Box box(9.0, 9.5, 10.0);
  std::mt19937_64 rng(7);
  std::vector<novamd::core::ParticleData> samples;
  for (int s = 0; s < 3; ++s)
    samples.push_back(novamd::test::uniform_particles(300, box, {0.5, 0.3, 0.2}, rng));
  const DistanceBins bins{4.5, 45};
  const auto rdf = sampled_rdf(samples, box, bins, 3);
  const auto n = novamd::test::species_counts(samples[0], 3);
  const double total = n[0] + n[1] + n[2];
  for (int b = 0; b < bins.bins; ++b) {
    double weighted = 0.0;
    for (int a = 0; a < 3; ++a)
      for (int c = a; c < 3; ++c)
        weighted += (a == c ? 0.5 * n[a] * (n[a] - 1.0) : double(n[a]) * n[c]) * rdf.g(a, c, b);
    const double expected = 0.5 * total * (total - 1.0) * rdf.g_total(b);
    EXPECT_NEAR(weighted, expected, 1e-13 * std::abs(expected) + 1e-300) << "bin " << b;
  }
  // And the file: a header naming every pair, one row per bin.
  const std::string csv = rdf.csv();
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "r,g,g_A_A,g_A_B,g_A_C,g_B_B,g_B_C,g_C_C");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), bins.bins + 1);
}

StructureFactor sampled_sq(const novamd::core::ParticleData& p, const Box& box, double q_max,
                           int bins, const std::vector<double>& weights, int species) {
  StructureFactor sq(novamd::analysis::reciprocal_modes(box, q_max, bins),
                     novamd::test::species_counts(p, species), weights, {"A", "B"});
  std::vector<double> re, im, sums;
  novamd::analysis::density_modes(view_of(p), box, sq.modes().vectors, species, re, im);
  novamd::analysis::bin_mode_sums(sq.modes(), re, im, species, weights, sums);
  sq.add_sample(sums);
  return sq;
}

// A bcc crystal of n^3 cubic cells of edge a in a box of edge L = n a. q = 2 pi m / L with m
// integer; the lattice sum over the cells vanishes unless m = n h (h integer), where it is n^3,
// and the two-site basis multiplies it by 1 + exp(i pi (h + k + l)): 2 for h + k + l even, 0
// for odd. So rho(q) = N at the bcc reflections and 0 elsewhere, S = |rho|^2 / N is N or 0, and
// a bin holds the fraction of its vectors that are reflections, times N. The first reflection
// is (110), at q = 2 pi sqrt(2) / a, with 12 vectors; then (200) at 4 pi / a and (211) at
// 2 pi sqrt(6) / a. Bins 0.02 wide separate |m|^2 = 32 from 31 and 33 (0.14 apart in q here).
// Round-off: the phases t = m . r / L are exact here (r and 1/L are multiples of 1/8), so each
// term carries only the sine and cosine's error, a few ulps: |rho error| <= 4 N eps, hence
// S = N within 8 N eps relative at a reflection and S <= 16 N eps^2 elsewhere. The bounds
// below are 1e3 x those.
TEST(AnalysisStructureFactor, BccCrystalHasItsBraggPeaksAndNothingElse) {
  const int cells = 4;
  const double a = 1.0;
  const auto p = novamd::test::bcc_crystal(cells, a);
  const double n = static_cast<double>(p.size());
  const Box box(cells * a, cells * a, cells * a);
  const double q110 = 2.0 * kPi * std::sqrt(2.0) / a;
  const auto sq = sampled_sq(p, box, 16.0, 800, {1.0}, 1);
  const auto& modes = sq.modes();
  int bragg_bins = 0;
  for (int b = 0; b < modes.bins; ++b) {
    int vectors = 0, reflections = 0;
    for (auto k = modes.bin_begin[b]; k < modes.bin_begin[b + 1]; ++k, ++vectors) {
      const auto& m = modes.vectors[k];
      const bool lattice = m.nx % cells == 0 && m.ny % cells == 0 && m.nz % cells == 0;
      reflections += lattice && (m.nx + m.ny + m.nz) / cells % 2 == 0;
    }
    if (vectors == 0) continue;
    const double expected = n * reflections / vectors;
    EXPECT_NEAR(sq.value(0, b), expected, expected > 0 ? 8e3 * n * kEps : 16e3 * n * kEps * kEps)
        << "bin " << b << " at q = " << modes.mean_q[b];
    if (reflections > 0) ++bragg_bins;
    if (reflections > 0 && bragg_bins == 1) {  // the first peak: (110)
      EXPECT_NEAR(modes.mean_q[b], q110, 1e-12 * q110);
      EXPECT_EQ(2 * vectors, 12);
      EXPECT_NEAR(sq.value(0, b), n, 8e3 * n * kEps);
    }
  }
  EXPECT_EQ(bragg_bins, 3);  // (110), (200) and (211) below q = 16; (220) is at 17.8
  // One species of unit weight: the weighted and the A-A columns are the total.
  const int peak = static_cast<int>(q110 / 0.02);
  EXPECT_DOUBLE_EQ(sq.value(1, peak), sq.value(0, peak));
  EXPECT_DOUBLE_EQ(sq.value(2, peak), sq.value(0, peak));
}

// Every reciprocal vector q with 0 < |q| <= q_max, both signs, is enumerated here on its own,
// and each S column taken from the pair sums
//     S_ab(q) = (N_a N_b)^(-1/2) sum_{i in a, j in b} cos(q . (r_i - r_j)),
//     S_Z(q)  = sum_ij Z_i Z_j cos(q . (r_i - r_j)) / sum_j Z_j^2,   S = the same with Z = 1,
// then averaged per bin: equal to the mode sums of the half space up to round-off. Each term
// has |q . r| <= q_max L sqrt(3) ~ 40, where the cosines are good to ~40 eps; sums of N^2 = 1600
// such terms relative to S ~ 1 give the 1e-10 bound (with margin).
TEST(AnalysisStructureFactor, ModeSumsEqualTheDirectPairSums) {
  const Box box(5.0, 6.0, 7.0);
  std::mt19937_64 rng(99);
  const auto p = novamd::test::uniform_particles(40, box, {0.6, 0.4}, rng);
  const double q_max = 3.5;
  const int bins = 7;
  const std::vector<double> charges{1.0, 3.0};
  const auto sq = sampled_sq(p, box, q_max, bins, charges, 2);
  const auto counts = novamd::test::species_counts(p, 2);
  const auto& L = box.length();
  std::vector<std::vector<double>> sum(bins, std::vector<double>(5, 0.0));
  std::vector<int> modes(bins, 0);
  double charge_squares = 0.0;
  for (auto t : p.type) charge_squares += charges[t] * charges[t];
  for (int mx = -10; mx <= 10; ++mx)
    for (int my = -10; my <= 10; ++my)
      for (int mz = -10; mz <= 10; ++mz) {
        const double qx = 2 * kPi * mx / L.x, qy = 2 * kPi * my / L.y, qz = 2 * kPi * mz / L.z;
        const double q = std::sqrt(qx * qx + qy * qy + qz * qz);
        if (q == 0.0 || q > q_max) continue;
        const int b = std::min(static_cast<int>(q / (q_max / bins)), bins - 1);
        ++modes[b];
        for (std::size_t i = 0; i < p.size(); ++i)
          for (std::size_t j = 0; j < p.size(); ++j) {
            const double c = std::cos(qx * (p.position.x[i] - p.position.x[j]) +
                                      qy * (p.position.y[i] - p.position.y[j]) +
                                      qz * (p.position.z[i] - p.position.z[j]));
            const int ti = p.type[i], tj = p.type[j];
            sum[b][0] += c / p.size();
            sum[b][1] += charges[ti] * charges[tj] * c / charge_squares;
            const int column = ti == tj ? (ti == 0 ? 2 : 4) : 3;  // AA, AB, BB
            const double pair_scale = 1.0 / std::sqrt(double(counts[ti]) * counts[tj]);
            sum[b][column] += (ti == tj ? 1.0 : 0.5) * c * pair_scale;  // AB seen as ab and ba
          }
      }
  for (int b = 0; b < bins; ++b) {
    ASSERT_EQ(2 * (sq.modes().bin_begin[b + 1] - sq.modes().bin_begin[b]), modes[b]);
    if (modes[b] == 0) continue;
    for (int column = 0; column < 5; ++column)
      EXPECT_NEAR(sq.value(column, b), sum[b][column] / modes[b], 1e-10)
          << "bin " << b << " column " << column;
  }
  const std::string csv = sq.csv();
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "q,modes,S,S_Z,S_A_A,S_A_B,S_B_B");
}

// Half-space enumeration: the count of vectors with 0 < |q| <= q_max is odd-symmetric, so the
// stored half has exactly half of a full enumeration; and the estimate (half the sphere over a
// reciprocal cell) is within a few per cent of the count for a sphere of radius ~8 cells.
TEST(AnalysisStructureFactor, ReciprocalModesAreHalfOfTheSphere) {
  const Box box(10.0, 12.0, 14.0);
  const double q_max = 4.0;
  const auto modes = novamd::analysis::reciprocal_modes(box, q_max, 20);
  std::int64_t full = 0;
  const auto& L = box.length();
  for (int mx = -20; mx <= 20; ++mx)
    for (int my = -20; my <= 20; ++my)
      for (int mz = -20; mz <= 20; ++mz) {
        const double qx = 2 * kPi * mx / L.x, qy = 2 * kPi * my / L.y, qz = 2 * kPi * mz / L.z;
        const double q2 = qx * qx + qy * qy + qz * qz;
        full += q2 > 0.0 && std::sqrt(q2) <= q_max;
      }
  EXPECT_EQ(2 * static_cast<std::int64_t>(modes.vectors.size()), full);
  EXPECT_EQ(modes.bin_begin.back(), static_cast<std::int64_t>(modes.vectors.size()));
  EXPECT_NEAR(novamd::analysis::estimated_modes(box, q_max), 0.5 * full, 0.05 * full);
}

}  // namespace
