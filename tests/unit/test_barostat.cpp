// Barostats (integrate/barostat.hpp): the `barostat` config section and pressures with units;
// stochastic cell rescaling's moves against the equation of Bernetti and Bussi, J. Chem. Phys.
// 153, 114107 (2020), over many draws (drift and variance of ln V), its couplings, and the
// energy its moves put in.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "novamd/core/error.hpp"
#include "novamd/integrate/barostat.hpp"
#include "novamd/io/config.hpp"
#include "support/cli_runner.hpp"
#include "support/example_systems.hpp"
#include "support/expect_has.hpp"

namespace {

using novamd::core::Box;
using novamd::core::Vec3;
using novamd::integrate::BarostatSettings;
using novamd::integrate::PressureCoupling;
using novamd::integrate::PressureSample;

constexpr double kAtmPerInternal = novamd::core::kAtmPerKcalPerMolPerA3;

/// An LJ liquid (or, with `real`, argon in real units) with a Langevin thermostat and
/// `barostat` (a YAML map, or empty for none).
std::string config_with(const std::string& barostat, bool real = false,
                        const std::string& integrator =
                            "{type: langevin, timestep: 0.005, temperature: 1.5, friction: 1.0}") {
  const std::string units = real ? "real" : "lj";
  return "units: " + units + R"(
system:
  density: 0.7
  species: [{name: A, mass: 1.0}]
  structure: {generate: {lattice: fcc, cells: 4, fractions: {A: 1.0}}}
forces:
  - lennard_jones: {pairs: [{types: [A, A], epsilon: 1.0, sigma: 1.0}], cutoff: 2.5}
integrator: )" +
         integrator + "\nrun: {steps: 10}\n" +
         (barostat.empty() ? "" : "barostat: " + barostat + "\n");
}

std::string input_error(const std::string& yaml) {
  try {
    novamd::io::parse_config(yaml, "npt.yaml");
  } catch (const novamd::core::InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an InputError";
  return {};
}

TEST(BarostatConfig, ReadsEveryKeyInTheRunsUnits) {
  const auto config = novamd::io::parse_config(
      config_with("{type: c_rescale, pressure: 2.0, period: 0.5, compressibility: 0.1, "
                  "coupling: anisotropic, every: 4}"),
      "npt.yaml");
  const BarostatSettings& b = config.barostat;
  EXPECT_EQ(b.type, "c_rescale");
  EXPECT_DOUBLE_EQ(b.pressure, 2.0);  // lj: epsilon / sigma^3 is the internal unit
  EXPECT_DOUBLE_EQ(b.period, 0.5);
  EXPECT_DOUBLE_EQ(b.compressibility, 0.1);
  EXPECT_EQ(b.coupling, PressureCoupling::Anisotropic);
  EXPECT_EQ(b.every, 4);
  EXPECT_TRUE(novamd::io::parse_config(config_with(""), "nvt.yaml").barostat.type.empty());
}

// In real units a bare pressure is in atm (the thermo output's unit); "1 bar" is 1e5 Pa, and
// one kcal/mol/A^3 is 4184 J / (N_A 1e-30 m^3) = 6.9477e9 Pa. The default compressibility is
// water's, 4.5e-5 per bar.
TEST(BarostatConfig, PressuresTakeUnitsInRealUnits) {
  const std::string thermostat = "{type: bussi, timestep: 2.0, temperature: 300, tau: 100}";
  const auto atm = novamd::io::parse_config(
      config_with("{type: c_rescale, pressure: 1.0, period: 1000}", true, thermostat), "a.yaml");
  EXPECT_NEAR(atm.barostat.pressure * kAtmPerInternal, 1.0, 1e-12);
  const double pascals_per_internal = 4184.0 / (6.02214076e23 * 1e-30);
  EXPECT_NEAR(atm.barostat.compressibility, 4.5e-5 / 1e5 * pascals_per_internal, 1e-12);
  const auto bar = novamd::io::parse_config(
      config_with("{type: c_rescale, pressure: \"1 bar\", period: 1000, compressibility: \"4.5e-5 "
                  "/bar\"}",
                  true, thermostat),
      "b.yaml");
  EXPECT_NEAR(bar.barostat.pressure * pascals_per_internal, 1e5, 1e-6);
  EXPECT_NEAR(bar.barostat.pressure * kAtmPerInternal, 1e5 / 101325.0, 1e-12);
  EXPECT_NEAR(bar.barostat.compressibility, atm.barostat.compressibility, 1e-15);
  const auto mpa = novamd::io::parse_config(
      config_with("{type: c_rescale, pressure: \"0.1 MPa\", period: 1000}", true, thermostat),
      "c.yaml");
  EXPECT_NEAR(mpa.barostat.pressure, bar.barostat.pressure, 1e-15);
}

// MTTK is the Nose-Hoover scheme at constant pressure: it needs integrator.type nose_hoover and
// a period; its outer operators act every step unless `every` says otherwise; isotropic or
// anisotropic.
TEST(BarostatConfig, MttkTakesNoseHooverAndItsKeys) {
  const std::string nose_hoover =
      "{type: nose_hoover, timestep: 0.005, temperature: 1.5, tau: 0.5}";
  const auto config =
      novamd::io::parse_config(config_with("{type: mttk, pressure: 2.0, period: 5.0, coupling: "
                                           "anisotropic}",
                                           false, nose_hoover),
                               "mttk.yaml");
  EXPECT_EQ(config.barostat.type, "mttk");
  EXPECT_DOUBLE_EQ(config.barostat.period, 5.0);
  EXPECT_EQ(config.barostat.coupling, PressureCoupling::Anisotropic);
  EXPECT_HAS(input_error(config_with("{type: mttk, pressure: 2.0, period: 5.0}")), "nose_hoover");
  EXPECT_HAS(input_error(config_with("{type: mttk, pressure: 2.0}", false, nose_hoover)), "period");
  EXPECT_EQ(config.barostat.every, 1);
  EXPECT_EQ(novamd::io::parse_config(config_with("{type: mttk, pressure: 2.0, period: 5.0, every: "
                                                 "10}",
                                                 false, nose_hoover),
                                     "mttk.yaml")
                .barostat.every,
            10);
  EXPECT_HAS(input_error(config_with("{type: mttk, pressure: 2.0, period: 5.0, every: 0}", false,
                                     nose_hoover)),
             "every");
  EXPECT_HAS(input_error(config_with("{type: mttk, pressure: 2.0, period: 5.0, coupling: "
                                     "semi_isotropic}",
                                     false, nose_hoover)),
             "semi_isotropic");
}

TEST(BarostatConfig, BadInputNamesTheKeyAndWhatIsExpected) {
  EXPECT_HAS(input_error(config_with("{type: c_rescale, pressure: 2.0, period: 0.5, "
                                     "compressibility: 0.1}",
                                     false, "{type: velocity_verlet, timestep: 0.005}")),
             "needs a thermostat");
  EXPECT_HAS(input_error(config_with("{type: c_rescale, pressure: 2.0, period: 0.5}")),
             "compressibility");
  EXPECT_HAS(input_error(config_with("{type: c_rescale, pressure: \"2 bar\", period: 0.5, "
                                     "compressibility: 0.1}")),
             "reduced units have no pascals");
  EXPECT_HAS(input_error(config_with("{type: berendsen, pressure: 2.0, period: 0.5}")),
             "barostat.type");
  EXPECT_HAS(input_error(config_with("{type: c_rescale, pressure: 2.0, period: 0.5, "
                                     "compressibility: 0.1, coupling: triclinic}")),
             "coupling");
  EXPECT_HAS(input_error(config_with("{type: c_rescale, pressure: 2.0, period: -1, "
                                     "compressibility: 0.1}")),
             "period");
  const std::string thermostat = "{type: bussi, timestep: 2.0, temperature: 300, tau: 100}";
  EXPECT_HAS(input_error(config_with("{type: c_rescale, pressure: \"1 psi\", period: 1000}", true,
                                     thermostat)),
             "unknown pressure unit 'psi'");
  EXPECT_HAS(input_error(config_with("{type: c_rescale, pressure: 1.0, period: 1000, "
                                     "compressibility: \"4.5e-5 bar\"}",
                                     true, thermostat)),
             "unknown compressibility unit 'bar'");
  EXPECT_HAS(input_error(config_with("{type: c_rescale, pressure: 1.0, period: 1000, "
                                     "compressibility: \"4.5e-5 /psi\"}",
                                     true, thermostat)),
             "unknown compressibility unit 'psi'");
}

// Every barostat takes held distances (their moves scale the molecules' centres), each with its
// own keys: MTTK with nose_hoover, the Monte Carlo barostat without c_rescale's period.
TEST(BarostatConfig, EveryBarostatTakesConstraints) {
  const std::string water = novamd::test::kWaterExampleSystem +
                            "forces:\n  - lennard_jones: {cutoff: 9.0}\n"
                            "constraints: {}\n"
                            "run: {steps: 10}\noutput: {thermo: {every: 1, file: thermo.csv}}\n";
  const std::string bussi =
      "integrator: {type: bussi, timestep: 2.0, temperature: 300, tau: 100}\n";
  const auto rescaled = novamd::io::parse_config(
      water + bussi + "barostat: {type: c_rescale, pressure: \"1 bar\", period: 1000}\n",
      "cr.yaml");
  EXPECT_EQ(rescaled.barostat.type, "c_rescale");
  EXPECT_TRUE(rescaled.constraints.has_value());
  const auto mttk = novamd::io::parse_config(
      water +
          "integrator: {type: nose_hoover, timestep: 2.0, temperature: 300, tau: 100}\n"
          "barostat: {type: mttk, pressure: \"1 bar\", period: 1000}\n",
      "mttk.yaml");
  EXPECT_EQ(mttk.barostat.type, "mttk");
  const auto config = novamd::io::parse_config(
      water + bussi + "barostat: {type: monte_carlo, pressure: \"1 bar\"}\n", "mc.yaml");
  EXPECT_EQ(config.barostat.type, "monte_carlo");
  EXPECT_EQ(config.barostat.every, 25);  // OpenMM's default
  EXPECT_HAS(
      input_error(water + bussi + "barostat: {type: monte_carlo, pressure: 1.0, period: 1000}\n"),
      "period");
}

/// Step operations that hold a box and record what a move does to it.
class BoxOperations final : public novamd::integrate::StepOperations {
 public:
  explicit BoxOperations(Box box) : box_(box) {}
  void compute_forces(novamd::integrate::EnergyRequest) override {}
  void kick(double) override {}
  void drift(double, novamd::integrate::VelocityCondition) override {}
  void scale_velocities(double) override {}
  void thermalize(const novamd::integrate::VelocityNoise&) override {}
  double langevin_heat() override { return 0.0; }
  double kinetic_energy() override { return 1.0; }
  const Box& box() const override { return box_; }
  void rescale_box(const Box& box) override { box_ = box; }
  void scale_velocities_by_axis(Vec3<double> factor) override { velocity_factor = factor; }
  /// K_xx, K_yy, K_zz unlike one another (and off-diagonal parts, which a move does not read).
  novamd::core::SymmetricTensor<double> moved_kinetic_tensor() override {
    novamd::core::SymmetricTensor<double> K;
    const double c[6] = {0.2, 0.3, 0.5, 0.05, -0.02, 0.01};
    for (int k = 0; k < 6; ++k) K.c[k] = c[k];
    return K;
  }
  /// What queue_pressure_parts queues (StepOperations keeps it in its slots).
  novamd::integrate::KineticAndVirial kinetic_and_virial() override { return parts; }
  Vec3<double> velocity_factor{};
  novamd::integrate::KineticAndVirial parts{};

 private:
  Box box_;
};

/// A pressure and a virial tensor to hand a barostat (queue_sample; sample() takes the virial).
struct TestSample {
  novamd::core::SymmetricTensor<double> pressure, virial;
  operator PressureSample() const { return {virial, 0.0}; }
};

/// Queues `s` after `step`: the parts whose pressure, (2 K + W) / V, is s.pressure, with the
/// virial s.virial.
void queue_sample(novamd::integrate::Barostat& barostat, BoxOperations& ops, const TestSample& s,
                  std::int64_t step) {
  const double volume = ops.box().volume();
  ops.parts.virial = s.virial;
  for (int k = 0; k < 6; ++k)
    ops.parts.kinetic.c[k] = 0.5 * (s.pressure.c[k] * volume - s.virial.c[k]);
  ASSERT_TRUE(barostat.queues_after(step)) << step;
  barostat.after_step(ops, step);
}

BarostatSettings settings(PressureCoupling coupling) {
  BarostatSettings s;
  s.type = "c_rescale";
  s.pressure = 2.0;
  s.period = 0.5;
  s.compressibility = 0.1;
  s.coupling = coupling;
  s.every = 5;
  return s;
}

struct Moves {
  std::vector<Vec3<double>> log_edges;  ///< ln(L'_a / L_a) of each move
  double energy = 0.0;                  ///< the barostat's energy after the last move
  Vec3<double> velocity_factor{};       ///< of the last move
};

/// `count` moves from the same box and pressure sample (a fresh barostat each, steps 5, 10, ...:
/// independent draws).
Moves moves(PressureCoupling coupling, const TestSample& sample, int count) {
  Moves out;
  const Box box(10.0, 11.0, 12.0);
  for (int k = 1; k <= count; ++k) {
    auto barostat = novamd::integrate::make_barostat(settings(coupling), 0.005, 1.5, 9);
    BoxOperations ops(box);
    queue_sample(*barostat, ops, sample, 5 * k - 1);
    barostat->move(ops, 5 * k);
    const auto& L = ops.box().length();
    out.log_edges.push_back({std::log(L.x / box.length().x), std::log(L.y / box.length().y),
                             std::log(L.z / box.length().z)});
    out.energy = barostat->energy();
    out.velocity_factor = ops.velocity_factor;
  }
  return out;
}

TestSample sample_of(double xx, double yy, double zz) {
  TestSample s;
  s.pressure.c[0] = xx;
  s.pressure.c[1] = yy;
  s.pressure.c[2] = zz;
  return s;
}

// d ln V = -(beta_T / tau_p)(P0 - P) dt + sqrt(2 kT beta_T dt / (V tau_p)) N(0, 1),
// dt = every x time step: over 40,000 independent moves the mean of d ln V matches the drift
// within 5 standard errors and its variance the noise's within 5 of its standard errors
// (sqrt(2 / n) relative, for a normal variate).
TEST(StochasticCellRescale, IsotropicMovesFollowThePapersEquation) {
  const int n = 40000;
  const double V = 1320.0, kT = 1.5, rate = 0.1 * 5 * 0.005 / 0.5;
  const double p = 2.6;  // above P0: the box grows on average
  const Moves m = moves(PressureCoupling::Isotropic, sample_of(p, p, p), n);
  double mean = 0.0, square = 0.0;
  for (const auto& e : m.log_edges) {
    // One factor for the three edges (ln of ratios of rounded edges: 1e-12 apart at most).
    EXPECT_NEAR(e.x, e.y, 1e-12);
    EXPECT_NEAR(e.x, e.z, 1e-12);
    const double d = e.x + e.y + e.z;
    mean += d;
    square += d * d;
  }
  mean /= n;
  const double variance = square / n - mean * mean;
  const double drift = -rate * (2.0 - p);
  const double noise = 2.0 * kT * rate / V;
  EXPECT_GT(drift, 0.0);
  EXPECT_NEAR(mean, drift, 5.0 * std::sqrt(noise / n));
  EXPECT_NEAR(variance, noise, 5.0 * std::sqrt(2.0 / n) * noise);
  // The velocities scale inversely to the edges.
  const auto& last = m.log_edges.back();
  EXPECT_NEAR(m.velocity_factor.x, std::exp(-last.x), 1e-15);
}

// Each edge on its own (anisotropic): ln L_a moves with the pressure along a, a third of the
// compressibility and of the noise's variance each; semi-isotropic: x and y together (their
// mean pressure, two thirds of the volume's freedom), z alone.
TEST(StochasticCellRescale, AnisotropicAndSemiIsotropicMovesTakeTheirAxesPressures) {
  const int n = 40000;
  const double V = 1320.0, kT = 1.5, rate = 0.1 * 5 * 0.005 / 0.5;
  const TestSample sample = sample_of(1.0, 2.0, 3.5);
  const Moves aniso = moves(PressureCoupling::Anisotropic, sample, n);
  const double p[3] = {1.0, 2.0, 3.5};
  for (int a = 0; a < 3; ++a) {
    double mean = 0.0, square = 0.0;
    for (const auto& e : aniso.log_edges) {
      const double d = a == 0 ? e.x : a == 1 ? e.y : e.z;
      mean += d;
      square += d * d;
    }
    mean /= n;
    const double variance = square / n - mean * mean;
    const double noise = 2.0 * kT * rate / (3.0 * V);
    EXPECT_NEAR(mean, -rate / 3.0 * (2.0 - p[a]), 5.0 * std::sqrt(noise / n)) << a;
    EXPECT_NEAR(variance, noise, 5.0 * std::sqrt(2.0 / n) * noise) << a;
  }
  const Moves semi = moves(PressureCoupling::SemiIsotropic, sample, n);
  double mean_xy = 0.0;
  for (const auto& e : semi.log_edges) {
    EXPECT_NEAR(e.x, e.y, 1e-12);
    mean_xy += e.x + e.y;
  }
  mean_xy /= n;
  const double noise_xy = 2.0 * kT * rate * (2.0 / 3.0) / V;
  EXPECT_NEAR(mean_xy, -rate * 2.0 / 3.0 * (2.0 - 1.5), 5.0 * std::sqrt(noise_xy / n));
}

// A move adds to the barostat's energy what it does to K + U + P0 V: K_aa (1 / mu_a^2 - 1) on each
// axis (the kinetic tensor of what the velocities' scaling moves), P0 (V' - V), and for U the
// trapezoid
// -(W_aa + W'_aa) / 2 ln mu_a of the virials before (the sample the move used) and after (the
// sample after the move's step).
TEST(StochasticCellRescale, MovesAccountTheirEnergy) {
  auto barostat =
      novamd::integrate::make_barostat(settings(PressureCoupling::Anisotropic), 0.005, 1.5, 9);
  BoxOperations ops(Box(10.0, 11.0, 12.0));
  TestSample before = sample_of(1.0, 2.0, 3.5), after = sample_of(0.0, 0.0, 0.0);
  const double w_before[3] = {100.0, -50.0, 20.0}, w_after[3] = {90.0, -40.0, 30.0};
  for (int a = 0; a < 3; ++a) {
    before.virial.c[a] = w_before[a];
    after.virial.c[a] = w_after[a];
  }
  // The pressure queued after every step (every / 10 steps apart, rounded up: 1 here); the
  // virial sampled after each move's step.
  for (std::int64_t step = 0; step <= 10; ++step) {
    EXPECT_TRUE(barostat->queues_after(step));
    EXPECT_EQ(barostat->samples_after(step), step > 0 && step % 5 == 0) << step;
  }
  EXPECT_TRUE(barostat->moves_at(5));
  EXPECT_FALSE(barostat->moves_at(0));
  queue_sample(*barostat, ops, before, 4);
  barostat->move(ops, 5);
  const auto& L = ops.box().length();
  const double mu[3] = {L.x / 10.0, L.y / 11.0, L.z / 12.0};
  double expected = 2.0 * (L.x * L.y * L.z - 1320.0);
  const double K[3] = {0.2, 0.3, 0.5};
  for (int a = 0; a < 3; ++a)
    expected += K[a] * (1.0 / (mu[a] * mu[a]) - 1.0) - 0.5 * w_before[a] * std::log(mu[a]);
  EXPECT_NEAR(barostat->energy(), expected, 1e-9 * std::abs(expected));
  barostat->sample(after);
  for (int a = 0; a < 3; ++a) expected -= 0.5 * w_after[a] * std::log(mu[a]);
  EXPECT_NEAR(barostat->energy(), expected, 1e-9 * std::abs(expected));
  barostat->sample(after);  // the trapezoid completed once only
  EXPECT_NEAR(barostat->energy(), expected, 1e-9 * std::abs(expected));
  // Each move uses the samples since the last: without one, nothing moves.
  const Box moved = ops.box();
  barostat->move(ops, 10);
  EXPECT_EQ(ops.box().length().x, moved.length().x);
}

// A move takes the mean pressure of the samples since the last move: queued every every / 10
// steps counted back from the step before the move, so that the pressure's fast fluctuations do
// not enter the Euler step as noise of their own. Two samples move the box as one sample of
// their mean does (the same draws).
TEST(StochasticCellRescale, MovesTakeTheMeanPressureOfTheInterval) {
  BarostatSettings s = settings(PressureCoupling::Anisotropic);
  s.every = 100;
  auto averaged = novamd::integrate::make_barostat(s, 0.005, 1.5, 9);
  auto single = novamd::integrate::make_barostat(s, 0.005, 1.5, 9);
  std::vector<std::int64_t> queued, sampled;
  for (std::int64_t step = 0; step <= 200; ++step) {
    if (averaged->queues_after(step)) queued.push_back(step);
    if (averaged->samples_after(step)) sampled.push_back(step);
  }
  const std::vector<std::int64_t> expected{9,   19,  29,  39,  49,  59,  69,  79,  89,  99,
                                           109, 119, 129, 139, 149, 159, 169, 179, 189, 199};
  EXPECT_EQ(queued, expected);
  EXPECT_EQ(sampled, (std::vector<std::int64_t>{100, 200}));  // the virial after each move
  BoxOperations a(Box(10.0, 11.0, 12.0)), b(Box(10.0, 11.0, 12.0));
  queue_sample(*averaged, a, sample_of(1.0, 2.0, 3.0), 9);
  queue_sample(*averaged, a, sample_of(3.0, 1.0, 2.0), 99);
  queue_sample(*single, b, sample_of(2.0, 1.5, 2.5), 99);
  averaged->move(a, 100);
  single->move(b, 100);
  EXPECT_NEAR(a.box().length().x, b.box().length().x, 1e-14 * 10.0);
  EXPECT_NEAR(a.box().length().y, b.box().length().y, 1e-14 * 11.0);
  EXPECT_NE(a.box().length().z, 12.0);
}

// For any interval, the samples fit the slots: at most kPressureSlots of them, in distinct slots
// rising with the step from 0, the last after the step before the move, evenly spaced.
TEST(StochasticCellRescale, SamplesOfAnyIntervalFitTheSlots) {
  for (const std::int64_t every : {1, 2, 5, 7, 10, 11, 15, 25, 40, 99, 100, 101, 1000}) {
    BarostatSettings s = settings(PressureCoupling::Isotropic);
    s.every = every;
    const novamd::integrate::StochasticCellRescale barostat(s, 0.005, 1.5, 9);
    std::vector<std::int64_t> steps;
    std::vector<int> slots;
    for (std::int64_t step = every; step < 2 * every; ++step) {  // the interval before 2 every
      const int slot = barostat.pressure_slot(step);
      EXPECT_EQ(barostat.queues_after(step), slot >= 0);
      if (slot < 0) continue;
      steps.push_back(step);
      slots.push_back(slot);
    }
    ASSERT_FALSE(slots.empty()) << every;
    EXPECT_LE(slots.size(), static_cast<std::size_t>(novamd::integrate::kPressureSlots)) << every;
    EXPECT_EQ(steps.back(), 2 * every - 1) << every;
    for (std::size_t k = 0; k < slots.size(); ++k) {
      EXPECT_EQ(slots[k], static_cast<int>(k)) << every;
      if (k > 0) EXPECT_EQ(steps[k] - steps[k - 1], barostat.sample_spacing()) << every;
    }
  }
}

TEST(StochasticCellRescale, StateRoundTripsAndRefusesAnotherBarostats) {
  auto barostat =
      novamd::integrate::make_barostat(settings(PressureCoupling::Isotropic), 0.005, 1.5, 9);
  BoxOperations ops(Box(10.0, 11.0, 12.0));
  queue_sample(*barostat, ops, sample_of(2.5, 2.5, 2.5), 4);
  barostat->move(ops, 5);
  barostat->sample(sample_of(1.5, 1.5, 1.5));
  queue_sample(*barostat, ops, sample_of(1.5, 1.5, 1.5), 7);
  barostat->prepare_checkpoint(ops);  // the queued samples into the barostat's variables
  const auto state = barostat->save();
  auto again =
      novamd::integrate::make_barostat(settings(PressureCoupling::Isotropic), 0.005, 1.5, 9);
  again->restore(state);
  EXPECT_EQ(again->save().values, state.values);
  EXPECT_THROW(again->restore({"mttk", state.values}), novamd::core::InputError);
  EXPECT_THROW(again->restore({"c_rescale", {1.0}}), novamd::core::InputError);
  // The restored barostat moves as the original does.
  BoxOperations a(Box(10.0, 11.0, 12.0)), b(Box(10.0, 11.0, 12.0));
  barostat->move(a, 10);
  again->move(b, 10);
  EXPECT_EQ(a.box().length().z, b.box().length().z);
  EXPECT_NE(a.box().length().z, 12.0);
}

}  // namespace
