// Thermostats on the CPU backend: the canonical kinetic-energy distribution (mean and
// variance) for Langevin, Nose-Hoover chains and stochastic velocity rescaling; the conserved
// quantity of every integrator; the random variates the rescaling draws.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "novamd/backend/cpu_backend.hpp"
#include "novamd/integrate/integrator.hpp"
#include "novamd/integrate/nose_hoover_chain.hpp"
#include "novamd/integrate/stochastic_rescale.hpp"
#include "novamd/io/config.hpp"
#include "novamd/io/initial_system.hpp"
#include "support/two_pass_operations.hpp"

namespace {

using novamd::backend::EnergyRequest;

/// 108 LJ atoms (fcc, 3 x 3 x 3 cells) at density 0.8, started at T = 1.0, with the given
/// integrator (target T = 1.5 for the thermostats); shifted-force LJ so that energy is smooth.
std::string liquid_config(const std::string& integrator) {
  return R"(units: lj
seed: 5
system:
  density: 0.8
  species: [{name: A, mass: 1.0}]
  structure: {generate: {lattice: fcc, cells: 3, fractions: {A: 1.0}}}
  velocities: {temperature: 1.0}
forces:
  - lennard_jones: {pairs: [{types: [A, A], epsilon: 1.0, sigma: 1.0}], cutoff: 2.5, truncation: force_shift}
integrator: )" + integrator + R"(
run: {steps: 1}
)";
}

struct Trace {
  std::vector<double> kinetic;  ///< sampled after equilibration
  double dof = 0.0;
  double kT = 0.0;
  std::vector<double> force_squares;  ///< sum_i |F_i|^2 / m_i at each sample
  double max_conserved_change = 0.0;  ///< over the sampled part, |H - H(first sample)|
  double max_total_change = 0.0;      ///< the same for the total energy K + U
  double first_total = 0.0;
  double n = 0.0;
};

/// Runs `equilibrate` steps, then `samples` x `every` steps, sampling the kinetic energy and
/// the conserved quantity.
Trace trace(const std::string& integrator_yaml, int equilibrate, int samples, int every) {
  const auto config = novamd::io::parse_config(liquid_config(integrator_yaml), "thermostat.yaml");
  auto initial = novamd::io::build_initial_system(config);
  novamd::backend::CpuBackend backend({config.units, config.system.species, initial.box,
                                       std::move(initial.particles), config.forces,
                                       config.precision, config.neighbors});
  auto integrator = novamd::integrate::make_integrator(config.integrator, config.units,
                                                       config.seed, {backend.size()});
  backend.compute_forces(EnergyRequest::Compute);
  integrator->start(backend);
  Trace t;
  t.n = static_cast<double>(backend.size());
  t.dof = integrator->degrees_of_freedom();
  t.kT = config.integrator.temperature.value_or(0.0);
  double h0 = 0.0;
  std::int64_t step = 0;
  for (; step < equilibrate; ++step) integrator->step(backend, step + 1, EnergyRequest::Skip);
  for (int s = 0; s < samples; ++s) {
    for (int k = 0; k < every; ++k, ++step)
      integrator->step(backend, step + 1, k + 1 == every ? EnergyRequest::Compute : EnergyRequest::Skip);
    const auto obs = backend.observables();
    const double kinetic = integrator->reported_kinetic_energy(obs.kinetic_energy);
    const double h = kinetic + obs.potential_energy + integrator->thermostat_energy(backend);
    const double e = kinetic + obs.potential_energy;
    if (s == 0) {
      h0 = h;
      t.first_total = e;
    }
    t.max_conserved_change = std::max(t.max_conserved_change, std::abs(h - h0));
    t.max_total_change = std::max(t.max_total_change, std::abs(e - t.first_total));
    t.kinetic.push_back(kinetic);
    const auto& p = backend.particles_on_host();
    double f2 = 0.0;
    for (std::size_t i = 0; i < p.size(); ++i)
      f2 += novamd::core::dot(p.force.get(i), p.force.get(i)) / config.system.species[p.type[i]].mass;
    t.force_squares.push_back(f2);
  }
  return t;
}

double mean(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

double variance(const std::vector<double>& v) {
  const double m = mean(v);
  double s = 0.0;
  for (double x : v) s += (x - m) * (x - m);
  return s / static_cast<double>(v.size() - 1);
}

/// A statistic over blocks of the samples: its value per block, then the mean over blocks and
/// the standard error of that mean (blocks much longer than the correlation time of K are
/// independent, so the spread of block values measures the statistical error).
struct BlockEstimate {
  double value = 0.0;
  double error = 0.0;
};

template <class Statistic>
BlockEstimate blocked(const std::vector<double>& samples, int blocks, Statistic statistic) {
  const std::size_t length = samples.size() / blocks;
  std::vector<double> values;
  for (int b = 0; b < blocks; ++b) {
    values.push_back(statistic(std::vector<double>(samples.begin() + b * length,
                                                   samples.begin() + (b + 1) * length)));
  }
  return {mean(values), std::sqrt(variance(values) / blocks)};
}

class CanonicalKineticEnergy : public ::testing::TestWithParam<std::string> {};

// In the canonical ensemble the kinetic energy of f quadratic degrees of freedom is Gamma
// distributed: <K> = f kT / 2 and Var K = f (kT)^2 / 2. 4,000 samples 10 steps (0.04 tau)
// apart, in 20 blocks of 8 tau each. Bounds: 4 standard errors of the block estimate, plus an
// allowance for the time-step bias of the kinetic temperature (O(dt^2); below 0.1% at
// dt = 0.004 for these schemes): 0.5% for the mean, 2% for the variance.
TEST_P(CanonicalKineticEnergy, MeanAndVarianceMatchTheTarget) {
  const Trace t = trace(GetParam(), 5000, 4000, 10);
  const double mean_expected = 0.5 * t.dof * t.kT;
  const double variance_expected = 0.5 * t.dof * t.kT * t.kT;
  const auto m = blocked(t.kinetic, 20, mean);
  // Each block's mean square deviation from the mean of all samples: deviations from the
  // block's own mean would miss the slow part of K's fluctuation (biased low by about twice
  // the correlation time over the block length, 10% for Langevin with friction 1).
  const double overall = mean(t.kinetic);
  const auto v = blocked(t.kinetic, 20, [&](const std::vector<double>& block) {
    double s = 0.0;
    for (double k : block) s += (k - overall) * (k - overall);
    return s / static_cast<double>(block.size());
  });
  EXPECT_NEAR(m.value / mean_expected, 1.0, 4 * m.error / mean_expected + 0.005)
      << "mean temperature " << 2 * m.value / t.dof << " +- " << 2 * m.error / t.dof;
  EXPECT_NEAR(v.value / variance_expected, 1.0, 4 * v.error / variance_expected + 0.02)
      << "Var K / (f (kT)^2 / 2) = " << v.value / variance_expected << " +- "
      << v.error / variance_expected;
  // The thermostat's bookkeeping: total energy + the energy it took out stays constant up to
  // the integration error accumulated over 160 tau, small against the fluctuation of the total
  // energy itself (which a wrong sign or a missing term would leave in the conserved quantity).
  EXPECT_LT(t.max_conserved_change, 0.05 * std::sqrt(variance_expected));
  EXPECT_GT(t.max_total_change, 10 * 0.05 * std::sqrt(variance_expected));
  std::printf("<K>/target %.5f +- %.5f, Var K/canonical %.4f +- %.4f, |dH| %.3g, |dE| %.3g\n",
              m.value / mean_expected, m.error / mean_expected, v.value / variance_expected,
              v.error / variance_expected, t.max_conserved_change, t.max_total_change);
}

INSTANTIATE_TEST_SUITE_P(
    Thermostats, CanonicalKineticEnergy,
    ::testing::Values("{type: langevin, timestep: 0.004, temperature: 1.5, friction: 1.0}",
                      "{type: nose_hoover, timestep: 0.004, temperature: 1.5, tau: 0.25}",
                      "{type: bussi, timestep: 0.004, temperature: 1.5, tau: 0.25}"),
    [](const auto& info) {
      const std::string& s = info.param;
      return s.substr(7, s.find(',') - 7);
    });

// NVE: the conserved quantity is the total energy. Velocity Verlet's and leapfrog's stay within
// their O(dt^2) fluctuation over 20 tau from the melting lattice: 5e-4 of |E| (measured 9e-5
// and 3e-4; leapfrog's mean-of-half-steps kinetic energy fluctuates by dt^2/8 sum F^2/m more).
TEST(NveIntegrators, TotalEnergyIsConserved) {
  for (const char* integrator : {"{type: velocity_verlet, timestep: 0.004}",
                                 "{type: leapfrog, timestep: 0.004}"}) {
    const Trace t = trace(integrator, 0, 500, 10);
    EXPECT_LT(t.max_conserved_change, 5e-4 * std::abs(t.first_total)) << integrator;
    EXPECT_GT(t.max_conserved_change, 0.0) << integrator;  // measured, not identically zero
  }
}

// Leapfrog and velocity Verlet give the same positions in exact arithmetic; leapfrog's kinetic
// energy, the mean of K(v - a dt/2) and K(v + a dt/2), exceeds velocity Verlet's K(v) by exactly
// dt^2/8 sum_i |F_i|^2 / m_i. Over 500 steps the two trajectories part only by round-off grown
// chaotically (< 1e-10 relative), so the identity holds to 1e-8 of K.
TEST(NveIntegrators, LeapfrogKineticEnergyIsTheMeanOfTheHalfSteps) {
  const double dt = 0.004;
  const Trace vv = trace("{type: velocity_verlet, timestep: 0.004}", 0, 50, 10);
  const Trace lf = trace("{type: leapfrog, timestep: 0.004}", 0, 50, 10);
  for (std::size_t s = 0; s < vv.kinetic.size(); ++s) {
    const double expected = vv.kinetic[s] + dt * dt / 8 * vv.force_squares[s];
    EXPECT_NEAR(lf.kinetic[s], expected, 1e-8 * vv.kinetic[s]) << "sample " << s;
  }
}

// Gamma(a, 1) has mean a and variance a. 20,000 variates per shape (one per step index);
// bounds 5 standard errors: sqrt(a / n) for the mean, sqrt((E[(x-a)^4] - a^2) / n) =
// sqrt((3a^2 + 6a - a^2) / n) for the variance.
TEST(StochasticRescale, GammaVariatesHaveTheRightMoments) {
  const novamd::core::RandomStream stream(2026, novamd::core::RandomPurpose::StochasticRescale);
  const int n = 20000;
  for (double a : {0.5, 1.0, 3.7, 160.5}) {
    std::vector<double> x;
    for (int i = 0; i < n; ++i) x.push_back(novamd::integrate::gamma_variate(stream, a, i));
    EXPECT_NEAR(mean(x), a, 5 * std::sqrt(a / n)) << "shape " << a;
    EXPECT_NEAR(variance(x), a, 5 * std::sqrt((2 * a * a + 6 * a) / n)) << "shape " << a;
  }
}

// With c = 0 (tau << dt) the rescaled K' is a fresh canonical draw: K_t chi^2_f / f, of mean
// K_t and variance 2 K_t^2 / f, whatever K was.
TEST(StochasticRescale, FullRelaxationDrawsTheCanonicalDistribution) {
  const novamd::core::RandomStream stream(7, novamd::core::RandomPurpose::StochasticRescale);
  const double dof = 99.0, target = 3.0;
  const int n = 20000;
  std::vector<double> k;
  for (int i = 0; i < n; ++i)
    k.push_back(novamd::integrate::rescaled_kinetic_energy(10.0, target, dof, 0.0, stream, i));
  const double var = 2 * target * target / dof;
  EXPECT_NEAR(mean(k), target, 5 * std::sqrt(var / n));
  EXPECT_NEAR(variance(k), var, 5 * var * std::sqrt(2.0 / n + 12.0 / (dof * n)));
}

// The chain at equilibrium (2K = f kT, all v = 0) leaves velocities alone; hot systems are
// cooled (scale < 1), cold ones heated, and the chain's energy accounts for the change.
TEST(NoseHooverChain, HalfStepScalesTowardTheTarget) {
  const double kT = 2.0, dof = 30.0, dt = 0.01;
  novamd::integrate::NoseHooverChainState balanced(3, kT, 0.5, dof);
  EXPECT_DOUBLE_EQ(balanced.half_step(0.5 * dof * kT, dt), 1.0);
  novamd::integrate::NoseHooverChainState hot(3, kT, 0.5, dof), cold(3, kT, 0.5, dof);
  EXPECT_LT(hot.half_step(dof * kT, dt), 1.0);
  EXPECT_GT(cold.half_step(0.1 * dof * kT, dt), 1.0);
  EXPECT_GT(hot.energy(), 0.0);
}

}  // namespace

// Langevin's O and A stages in one pass (StepOperations::thermalize_drift, the backend's fused
// update) give the two passes' trajectory bit for bit: positions, velocities and heat.
TEST(LangevinSteps, FusedThermalizeDriftIsBitwiseTheTwoPasses) {
  const auto config = novamd::io::parse_config(
      liquid_config("{type: langevin, timestep: 0.005, temperature: 1.5, friction: 1.0}"),
      "langevin.yaml");
  const auto run = [&](bool fused) {
    auto initial = novamd::io::build_initial_system(config);
    auto backend = std::make_unique<novamd::backend::CpuBackend>(novamd::backend::BackendSetup{
        config.units, config.system.species, initial.box, std::move(initial.particles),
        config.forces, config.precision, config.neighbors});
    auto integrator = novamd::integrate::make_integrator(config.integrator, config.units,
                                                         config.seed, {backend->size()});
    novamd::test::TwoPassOperations two_pass(*backend);
    novamd::integrate::StepOperations& ops =
        fused ? static_cast<novamd::integrate::StepOperations&>(*backend) : two_pass;
    backend->compute_forces(EnergyRequest::Compute);
    integrator->start(ops);
    for (std::int64_t step = 1; step <= 50; ++step)
      integrator->step(ops, step, EnergyRequest::Skip);
    return std::pair{backend->particles_on_host(), backend->langevin_heat()};
  };
  const auto [fused, fused_heat] = run(true);
  const auto [apart, apart_heat] = run(false);
  ASSERT_EQ(fused.size(), apart.size());
  double largest_move = 0.0;
  for (std::size_t i = 0; i < fused.size(); ++i) {
    ASSERT_EQ(fused.position.get(i).x, apart.position.get(i).x) << i;
    ASSERT_EQ(fused.position.get(i).y, apart.position.get(i).y) << i;
    ASSERT_EQ(fused.position.get(i).z, apart.position.get(i).z) << i;
    ASSERT_EQ(fused.velocity.get(i).x, apart.velocity.get(i).x) << i;
    ASSERT_EQ(fused.velocity.get(i).z, apart.velocity.get(i).z) << i;
    largest_move = std::max(largest_move, std::abs(fused.velocity.get(i).x));
  }
  EXPECT_GT(largest_move, 0.1);  // the particles moved: the comparison compared something
  EXPECT_EQ(fused_heat, apart_heat);
  EXPECT_NE(fused_heat, 0.0);
}
