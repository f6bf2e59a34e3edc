// The Lennard-Jones evaluator, its truncations, Lorentz-Berthelot mixing, tail corrections, and
// the NIST SRSW reference energies and virials (external validation).

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <numbers>
#include <string>

#include "novamd/backend/cpu_backend.hpp"
#include "novamd/forces/force_settings.hpp"
#include "novamd/physics/lennard_jones.hpp"
#include "novamd/physics/truncated.hpp"

namespace {

using novamd::forces::LennardJonesSettings;
using novamd::physics::LennardJones;
using novamd::physics::Truncated;
using novamd::physics::Truncation;
constexpr double kEps = std::numeric_limits<double>::epsilon();

double v_lj(double eps, double sigma, double r) {
  const double x6 = std::pow(sigma / r, 6);
  return 4 * eps * (x6 * x6 - x6);
}
double f_lj(double eps, double sigma, double r) {  // -dV/dr
  const double x6 = std::pow(sigma / r, 6);
  return 24 * eps * (2 * x6 * x6 - x6) / r;
}

TEST(LennardJones, AnalyticValuesAndTheMinimum) {
  const double eps = 1.7, sigma = 3.4;
  const auto p = LennardJones<double>::make_params(eps, sigma);
  for (double r = 0.8 * sigma; r < 4 * sigma; r *= 1.07) {
    const auto res = LennardJones<double>::evaluate(r * r, p);
    // A few roundings each in sigma^12 (made once), r^-6 and the products: 32 ulp of the
    // larger of the two terms bounds the difference (the sum cancels near the minimum).
    const double scale = 4 * eps * std::pow(sigma / r, 6) * std::max(1.0, std::pow(sigma / r, 6));
    EXPECT_NEAR(res.energy, v_lj(eps, sigma, r), 32 * kEps * scale) << r;
    EXPECT_NEAR(res.force_over_r * r, f_lj(eps, sigma, r), 32 * kEps * 12 * scale / r) << r;
  }
  const double r_min = std::pow(2.0, 1.0 / 6.0) * sigma;  // V = -epsilon, F = 0 there
  const auto at_min = LennardJones<double>::evaluate(r_min * r_min, p);
  EXPECT_NEAR(at_min.energy, -eps, 8 * kEps * eps);
  EXPECT_NEAR(at_min.force_over_r, 0.0, 64 * kEps * eps / (sigma * sigma));
}

TEST(LennardJones, ForceIsMinusTheDerivativeOfTheEnergy) {
  const auto p = LennardJones<double>::make_params(1.0, 1.0);
  for (double r = 0.85; r < 3.0; r *= 1.05) {
    const double h = 1e-5 * r;
    const double vp = LennardJones<double>::evaluate((r + h) * (r + h), p).energy;
    const double vm = LennardJones<double>::evaluate((r - h) * (r - h), p).energy;
    const double numeric = -(vp - vm) / (2 * h);
    const double force = LennardJones<double>::evaluate(r * r, p).force_over_r * r;
    // Central difference: truncation h^2 |V'''| / 6 <= (1e-5 r)^2 x 2000 / r^3 / 6 ~ 4e-8 / r
    // for r >= 0.85; round-off eps |V| / h ~ 3e-11 / r. Bound 1e-7 (plus relative 1e-7).
    EXPECT_NEAR(numeric, force, 1e-7 + 1e-7 * std::abs(force)) << r;
  }
}

TEST(LennardJones, EachTruncationAtTheCutoff) {
  const double rc = 2.5;
  const auto p = LennardJones<double>::make_params(1.0, 1.0);
  using Cut = Truncated<LennardJones<double>, false>;
  using ForceShift = Truncated<LennardJones<double>, true>;
  const auto cut = Cut::make_params(p, rc, Truncation::Cut);
  const auto shift = Cut::make_params(p, rc, Truncation::ShiftEnergy);
  const auto fshift = ForceShift::make_params(p, rc, Truncation::ShiftForce);
  const double inside = rc * (1 - 1e-10), outside = rc * (1 + 1e-10);
  // cut: the energy jumps from V(rc) to 0; the force from F(rc) to 0.
  EXPECT_NEAR(Cut::evaluate(inside * inside, cut).energy, v_lj(1, 1, rc), 1e-9);
  EXPECT_EQ(Cut::evaluate(outside * outside, cut).energy, 0.0);
  EXPECT_EQ(Cut::evaluate(outside * outside, cut).force_over_r, 0.0);
  // shift: energy continuous (-> 0 at rc), force unchanged inside.
  EXPECT_NEAR(Cut::evaluate(inside * inside, shift).energy, 0.0, 1e-9);
  EXPECT_EQ(Cut::evaluate(1.2 * 1.2, shift).force_over_r,
            Cut::evaluate(1.2 * 1.2, cut).force_over_r);
  // force_shift: energy and force both -> 0 at rc; F = F(r) - F(rc) and
  // V = V(r) - V(rc) + (r - rc) F(rc) inside (NIST's u_LFS).
  const auto near = ForceShift::evaluate(inside * inside, fshift);
  EXPECT_NEAR(near.energy, 0.0, 1e-9);
  EXPECT_NEAR(near.force_over_r, 0.0, 1e-9);
  for (double r : {0.9, 1.2, 2.0}) {
    const auto res = ForceShift::evaluate(r * r, fshift);
    const double v = v_lj(1, 1, r) - v_lj(1, 1, rc) + (r - rc) * f_lj(1, 1, rc);
    EXPECT_NEAR(res.energy, v, 64 * kEps * std::abs(v_lj(1, 1, r)) + 1e-15) << r;
    EXPECT_NEAR(res.force_over_r * r, f_lj(1, 1, r) - f_lj(1, 1, rc),
                64 * kEps * std::abs(f_lj(1, 1, r)))
        << r;
  }
}

TEST(LennardJones, LorentzBerthelotMixingWithCorrections) {
  const novamd::core::SpeciesTable species({{"A", 0, 1, 0}, {"B", 0, 1, 0}, {"C", 0, 1, 0}});
  LennardJonesSettings s;
  s.pairs = {{"A", "A", 1.0, 1.0},
             {"B", "B", 4.0, 2.0},
             {"A", "B", {}, {}, 0.9, 1.1},
             {"C", "A", 0.3, 0.7}};
  const auto m = s.mixed(species);
  // A-B: eps = xi sqrt(1 x 4) = 1.8, sigma = eta (1 + 2) / 2 = 1.65; symmetric.
  EXPECT_DOUBLE_EQ(m.epsilon[0 * 3 + 1], 1.8);
  EXPECT_DOUBLE_EQ(m.sigma[1 * 3 + 0], 1.65);
  // An explicit unlike pair wins; C has no like pair, so C-B does not interact.
  EXPECT_DOUBLE_EQ(m.epsilon[2 * 3 + 0], 0.3);
  EXPECT_DOUBLE_EQ(m.sigma[0 * 3 + 2], 0.7);
  EXPECT_EQ(m.epsilon[2 * 3 + 1], 0.0);
  EXPECT_EQ(m.epsilon[2 * 3 + 2], 0.0);
}

/// A NIST SRSW configuration as a CPU-backend setup: one species, positions wrapped into [0, L).
novamd::backend::BackendSetup read_nist(int configuration) {
  const std::string file =
      std::string(NOVAMD_SOURCE_DIR "/tests/data/nist-lj/lj_sample_config_periodic") +
      std::to_string(configuration) + ".txt";
  std::ifstream in(file);
  double lx = 0, ly = 0, lz = 0;
  std::size_t n = 0;
  in >> lx >> ly >> lz >> n;
  novamd::backend::BackendSetup s;
  s.units = novamd::core::lj_units();
  s.species = novamd::core::SpeciesTable({{"LJ", 0.0, 1.0, 0}});
  s.box = novamd::core::Box(lx, ly, lz);
  s.particles.resize(n);
  const auto box = s.box.view<double>();
  for (std::size_t i = 0; i < n; ++i) {
    int id = 0;
    novamd::core::Vec3<double> r;
    in >> id >> r.x >> r.y >> r.z;
    s.particles.position.set(i, box.wrap(r));
    s.particles.id[i] = id - 1;
  }
  EXPECT_TRUE(in.good()) << file;
  return s;
}

struct NistRow {
  int configuration;
  double rc;
  Truncation truncation;
  double energy, virial;  // published, 5 significant digits
};

// NIST SRSW, "Lennard-Jones Fluid Reference Calculations: Cuboid Cell" (see tests/data/nist-lj):
// plain truncation at rc = 3 and 4, and the linear-force-shifted potential at rc = 3.
const NistRow kNist[] = {
    {1, 3.0, Truncation::Cut, -4.3515E+03, -5.6867E+02},
    {2, 3.0, Truncation::Cut, -6.9000E+02, -5.6846E+02},
    {3, 3.0, Truncation::Cut, -1.1467E+03, -1.1649E+03},
    {4, 3.0, Truncation::Cut, -1.6790E+01, -4.6249E+01},
    {1, 4.0, Truncation::Cut, -4.4675E+03, -1.2639E+03},
    {2, 4.0, Truncation::Cut, -7.0460E+02, -6.5599E+02},
    {3, 4.0, Truncation::Cut, -1.1754E+03, -1.3371E+03},
    {4, 4.0, Truncation::Cut, -1.7060E+01, -4.7869E+01},
    {1, 3.0, Truncation::ShiftForce, -3.8709E+03, 3.1754E+02},
    {2, 3.0, Truncation::ShiftForce, -6.2012E+02, -4.4533E+02},
    {3, 3.0, Truncation::ShiftForce, -1.0210E+03, -9.3578E+02},
    {4, 3.0, Truncation::ShiftForce, -1.5001E+01, -4.3096E+01},
};

TEST(LennardJonesNistReference, EnergiesAndVirialsMatchThePublishedValues) {
  for (const auto& row : kNist) {
    auto setup = read_nist(row.configuration);
    LennardJonesSettings lj;
    lj.pairs = {{"LJ", "LJ", 1.0, 1.0}};
    lj.cutoff = row.rc;
    lj.truncation = row.truncation;
    setup.forces = {lj};
    novamd::backend::CpuBackend b(setup);
    b.compute_forces(novamd::backend::EnergyRequest::Compute);
    const auto obs = b.observables();
    // Published to 5 significant digits: half a unit in the 5th digit is 5e-5 relative.
    EXPECT_NEAR(obs.potential_energy, row.energy, 5e-5 * std::abs(row.energy))
        << "configuration " << row.configuration << ", rc " << row.rc;
    EXPECT_NEAR(obs.virial.trace(), row.virial, 5e-5 * std::abs(row.virial))
        << "configuration " << row.configuration << ", rc " << row.rc;
  }
}

TEST(LennardJonesNistReference, TailCorrectionMatchesThePublishedValues) {
  // U_LRC = (8/3) pi N rho [rc^-9 / 3 - rc^-3] for (configuration, N, L): NIST's table.
  const struct {
    int n;
    double l, rc, published;
  } rows[] = {{800, 10, 3, -1.9849E+02}, {200, 8, 3, -2.4230E+01},  {400, 10, 3, -4.9622E+01},
              {30, 8, 3, -5.4517E-01},   {800, 10, 4, -8.3769E+01}, {200, 8, 4, -1.0226E+01},
              {400, 10, 4, -2.0942E+01}, {30, 8, 4, -2.3008E-01}};
  const novamd::core::SpeciesTable species({{"LJ", 0.0, 1.0, 0}});
  for (const auto& row : rows) {
    LennardJonesSettings lj;
    lj.pairs = {{"LJ", "LJ", 1.0, 1.0}};
    lj.cutoff = row.rc;
    lj.tail_correction = true;
    const auto tail =
        novamd::forces::tail_correction({lj}, species, {row.n}, row.l * row.l * row.l);
    EXPECT_NEAR(tail.energy, row.published, 5e-5 * std::abs(row.published)) << row.n;
    // Pressure tail (16/3) pi rho^2 [(2/3) rc^-9 - rc^-3] = W_tail / (3 V).
    const double rho = row.n / (row.l * row.l * row.l);
    const double p_tail = 16.0 / 3.0 * std::numbers::pi * rho * rho *
                          (2.0 / 3.0 * std::pow(row.rc, -9) - std::pow(row.rc, -3));
    EXPECT_NEAR(tail.virial / (3 * row.l * row.l * row.l), p_tail, 1e-12 * std::abs(p_tail));
  }
}

}  // namespace
