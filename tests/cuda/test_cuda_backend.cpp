// The CUDA backend against the CPU backend (the oracle), on fresh random mixtures, in every
// precision; bitwise determinism; NVE energies; particles crossing the box many times. Each
// force term on each CUDA traversal against the CPU: CudaForceTerms
// (test_cuda_force_terms.cpp). Skipped, with a message, where no CUDA device exists.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>

#include "novamd/backend/cpu_backend.hpp"
#include "novamd/backend/cuda_device.hpp"
#include "novamd/backend/make_backend.hpp"
#include "novamd/core/error.hpp"
#include "novamd/forces/force_settings.hpp"
#include "novamd/integrate/velocity_verlet.hpp"
#include "support/force_scale.hpp"
#include "support/systems.hpp"

namespace {

using novamd::backend::BackendSetup;
using novamd::test::force_magnitude_sums;
using novamd::test::lj_mixture;
using novamd::core::Precision;
constexpr double kEpsDouble = std::numeric_limits<double>::epsilon();
constexpr double kEpsFloat = std::numeric_limits<float>::epsilon();

#define SKIP_WITHOUT_GPU() \
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped"

/// A random C/O-like mixture at number density 0.4 (box edges 0.9 L, L, 1.1 L), lambda = 1.5,
/// no two particles closer than 0.6.
BackendSetup mixture(std::size_t n, std::uint64_t seed, Precision precision, double v = 0.0) {
  const double edge = std::cbrt(static_cast<double>(n) / 0.4 / (0.9 * 1.1));
  auto setup = novamd::test::random_mixture(n, std::max(edge, 2.0), seed, 1.5, 0.6, v);
  setup.precision = precision;
  return setup;
}

/// Relative force error bound of a precision, per particle, relative to S_i = sum_j |f_ij|
/// (the scale that round-off in the sum over j is proportional to).
/// double: each term within a few ulp (CUDA's exp and sqrt are within 1-2 ulp of glibc's) and
///   the sums in another order: |err| <= (8 + log2 N) eps S_i for tiled sums; 1e-12 covers
///   N <= 27,648 with margin (measured values are printed).
/// mixed/single: positions rounded to FP32 move a separation r by up to eps_f L, a relative
///   change of eps_f L / r in the force, amplified by (2 + r/lambda) <= 4 for this system's
///   r_min / lambda; r >= r_min gives 4 eps_f L / r_min, plus 32 eps_f for rsqrt, exp and the
///   FP32 tile sums of 128 terms. single sums across tiles in FP32 too: + 4 sqrt(N) eps_f
///   (random-walk bound at 4 sigma).
double force_tolerance(Precision p, const BackendSetup& s, double r_min) {
  const double lmax = std::max({s.box.length().x, s.box.length().y, s.box.length().z});
  const double pair_fp32 = (32.0 + 4.0 * lmax / r_min) * kEpsFloat;
  switch (p) {
    case Precision::Double:
      return 1e-12;
    case Precision::Mixed:
      return pair_fp32;
    case Precision::Single:
      return pair_fp32 + 4.0 * std::sqrt(static_cast<double>(s.particles.size())) * kEpsFloat;
  }
  return 0;
}

struct Comparison {
  double max_force_error = 0;                 ///< max_i |F_gpu - F_cpu|_inf / S_i
  double energy_error = 0, virial_error = 0;  ///< relative (virial: worst component)
  double kinetic_error = 0;  ///< worst component of the kinetic tensor, relative to K
};

Comparison compare_with_cpu(const BackendSetup& setup) {
  novamd::backend::CpuBackend cpu([&] {
    auto s = setup;
    s.precision = Precision::Double;
    return s;
  }());
  auto gpu = novamd::backend::make_backend("cuda", setup);
  cpu.compute_forces(novamd::backend::EnergyRequest::Compute);
  gpu->compute_forces(novamd::backend::EnergyRequest::Compute);
  const auto& fc = cpu.particles_on_host().force;
  const auto& fg = gpu->particles_on_host().force;
  const auto scale = force_magnitude_sums(setup);
  Comparison c;
  for (std::size_t i = 0; i < setup.particles.size(); ++i) {
    const double err = std::max(
        {std::abs(fg.x[i] - fc.x[i]), std::abs(fg.y[i] - fc.y[i]), std::abs(fg.z[i] - fc.z[i])});
    c.max_force_error = std::max(c.max_force_error, err / scale[i]);
  }
  const auto oc = cpu.observables(), og = gpu->observables();
  const auto rel = [](double a, double b) {
    return b == 0 ? std::abs(a) : std::abs(a - b) / std::abs(b);
  };
  c.energy_error = rel(og.potential_energy, oc.potential_energy);
  // Diagonal components are sums of terms of one sign (repulsive pairs); the off-diagonal
  // ones cancel over the pairs and are measured against the trace.
  for (int k = 0; k < novamd::core::kTensorComponents; ++k) {
    const double error = k < 3 ? rel(og.virial.c[k], oc.virial.c[k])
                               : std::abs(og.virial.c[k] - oc.virial.c[k]) /
                                     std::max(std::abs(oc.virial.trace()), 1e-300);
    c.virial_error = std::max(c.virial_error, error);
    c.kinetic_error = std::max(c.kinetic_error, std::abs(og.kinetic.c[k] - oc.kinetic.c[k]) /
                                                    std::max(oc.kinetic_energy, 1e-300));
  }
  return c;
}

struct Case {
  std::size_t n;
  Precision precision;
};

class CudaVsCpu : public testing::TestWithParam<Case> {};

TEST_P(CudaVsCpu, ForcesEnergyAndVirialMatchTheOracle) {
  SKIP_WITHOUT_GPU();
  const auto [n, precision] = GetParam();
  const auto setup = mixture(n, 4242 + n, precision, /*v=*/1.0);
  const double tol = force_tolerance(precision, setup, 0.6);
  const auto c = compare_with_cpu(setup);
  std::printf(
      "N = %zu, %s: max force error %.3g (bound %.3g), energy %.3g, virial %.3g, kinetic %.3g\n", n,
      std::string(novamd::core::to_string(precision)).c_str(), c.max_force_error, tol,
      c.energy_error, c.virial_error, c.kinetic_error);
  // Kinetic tensors: the same double velocities summed in another order (CUB's tree against
  // the CPU's loop): a few N eps of K.
  EXPECT_LE(c.kinetic_error, 4.0 * n * 2.2e-16);
  EXPECT_LE(c.max_force_error, tol);
  // Totals are sums of positive terms (energy) or of terms of one sign per pair (virial, all
  // repulsive): their relative error is bounded by the per-term bound.
  if (n > 1) {
    EXPECT_LE(c.energy_error, tol);
    EXPECT_LE(c.virial_error, tol);
  }
}

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (auto p : {Precision::Double, Precision::Mixed, Precision::Single})
    for (std::size_t n : {1, 2, 31, 32, 33, 1000, 4097, 27648}) cases.push_back({n, p});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Sizes, CudaVsCpu, testing::ValuesIn(all_cases()),
                         [](const testing::TestParamInfo<Case>& info) {
                           return std::string(novamd::core::to_string(info.param.precision)) +
                                  "_N" + std::to_string(info.param.n);
                         });

/// max_i |F_gpu - F_cpu|_inf / S_i for the GPU's current state, the CPU evaluating all pairs.
double error_against_cpu(novamd::backend::Backend& gpu, const BackendSetup& setup) {
  auto at = setup;
  at.particles = gpu.particles_on_host();
  at.precision = Precision::Double;
  at.neighbors.method = novamd::neighbors::NeighborMethod::AllPairs;
  novamd::backend::CpuBackend cpu(at);
  cpu.compute_forces(novamd::backend::EnergyRequest::Compute);
  gpu.compute_forces(novamd::backend::EnergyRequest::Compute);
  const auto& fg = gpu.particles_on_host().force;
  const auto& fc = cpu.particles_on_host().force;
  const auto scale = force_magnitude_sums(at);
  double worst = 0;
  for (std::size_t i = 0; i < fc.size(); ++i) {
    const double err = std::max(
        {std::abs(fg.x[i] - fc.x[i]), std::abs(fg.y[i] - fc.y[i]), std::abs(fg.z[i] - fc.z[i])});
    worst = std::max(worst, err / scale[i]);
  }
  return worst;
}

TEST(CudaNeighborList, MatchesTheOracleThroughMovesAndRebuilds) {
  SKIP_WITHOUT_GPU();
  for (auto precision : {Precision::Double, Precision::Mixed}) {
    auto setup = lj_mixture(6000, precision, novamd::forces::Truncation::ShiftForce);
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> v(-1.0, 1.0);
    for (std::size_t i = 0; i < setup.particles.size(); ++i)
      setup.particles.velocity.set(i, {v(rng), v(rng), v(rng)});
    setup.neighbors.method = novamd::neighbors::NeighborMethod::NeighborList;
    setup.neighbors.skin = 0.3;
    auto gpu = novamd::backend::make_backend("cuda", setup);
    const double lmax =
        std::max({setup.box.length().x, setup.box.length().y, setup.box.length().z});
    // mixed: positions rounded to FP32 move r by about eps_f L, a relative force change of
    // 14 eps_f L / r_min (the r^-13 wall) for r >= r_min = 0.8, plus 32 eps_f for the pair
    // arithmetic and the FP32 sums (the worst case is derived in support/force_term_cases.hpp;
    // this estimate has held on the GPU).
    const double bound =
        precision == Precision::Double ? 1e-12 : (32.0 + 14.0 * lmax / 0.8) * kEpsFloat;
    EXPECT_LE(error_against_cpu(*gpu, setup), bound) << "fresh lists";
    EXPECT_EQ(gpu->neighbor_list_builds(), 1);
    // 20 steps of 0.0005: speeds below sqrt(3) carry a particle 0.017, and the largest forces of
    // this random start (pairs at 0.8 sigma, F ~ 170) another 0.5 F t^2 = 0.009: below skin/2,
    // so the lists are kept, and they must still hold every pair within the cutoff.
    for (int step = 0; step < 20; ++step) novamd::integrate::velocity_verlet_step(*gpu, 0.0005);
    EXPECT_EQ(gpu->neighbor_list_builds(), 1);
    EXPECT_LE(error_against_cpu(*gpu, setup), bound) << "moved, lists kept";
    for (int step = 0; step < 400; ++step) novamd::integrate::velocity_verlet_step(*gpu, 0.002);
    EXPECT_GT(gpu->neighbor_list_builds(), 1);  // moved further: rebuilt
    EXPECT_LE(error_against_cpu(*gpu, setup), bound) << "after rebuilds";
  }
}

TEST(CudaNeighborList, ListsGrowInsteadOfDroppingPairsAndAreDeterministic) {
  SKIP_WITHOUT_GPU();
  // Density 1.3 with cutoff + skin = 3.0: about 150 neighbours, beyond the initial capacity.
  const double edge = std::cbrt(4000 / 1.3 / (0.9 * 1.1));
  auto setup = novamd::test::random_mixture(4000, edge, 17, 1.0, 0.7);
  novamd::forces::LennardJonesSettings lj;
  lj.pairs = {{"A", "A", 1.0, 1.0}, {"B", "B", 1.0, 1.0}, {"C", "C", 1.0, 1.0}};
  lj.cutoff = 2.5;
  setup.forces = {lj};
  setup.neighbors.method = novamd::neighbors::NeighborMethod::NeighborList;
  setup.neighbors.skin = 0.5;
  auto first = novamd::backend::make_backend("cuda", setup);
  auto second = novamd::backend::make_backend("cuda", setup);
  EXPECT_LE(error_against_cpu(*first, setup), 1e-12);
  error_against_cpu(*second, setup);
  EXPECT_EQ(first->particles_on_host().force.x, second->particles_on_host().force.x);  // bitwise
}

/// Total energy every 100 steps of an NVE run.
std::vector<double> nve_energies(novamd::backend::Backend& b, int steps, double dt) {
  std::vector<double> e;
  b.compute_forces(novamd::backend::EnergyRequest::Compute);
  for (int s = 0; s <= steps; ++s) {
    if (s > 0) novamd::integrate::velocity_verlet_step(b, dt);
    if (s % 100 == 0) {
      const auto o = b.observables();
      e.push_back(o.kinetic_energy + o.potential_energy);
    }
  }
  return e;
}

class CudaNve : public testing::TestWithParam<Precision> {};

TEST_P(CudaNve, ThousandStepEnergiesAgreeWithTheCpu) {
  SKIP_WITHOUT_GPU();
  const Precision precision = GetParam();
  // As in the CPU NVE test: lambda = 0.4, short against the half box, so that velocity Verlet's
  // error is O(dt^2) and small: |E(t) - E(0)| / |E(0)| ~ 3e-7 on the CPU.
  auto setup = novamd::test::random_mixture(1000, 15.0, 99, 0.4, 0.5, 1.0);
  setup.precision = precision;
  novamd::backend::CpuBackend cpu([&] {
    auto s = setup;
    s.precision = Precision::Double;
    return s;
  }());
  auto gpu = novamd::backend::make_backend("cuda", setup);
  const auto ec = nve_energies(cpu, 1000, 5e-4);
  const auto eg = nve_energies(*gpu, 1000, 5e-4);
  // Both runs conserve energy to ~1e-6 of E(0) (integration error); the trajectories separate
  // (chaos), but each stays on its energy shell, so E_gpu(t) - E_cpu(t) is bounded by twice the
  // integration error plus the precision's error in E: 2e-6 + force bound.
  const double bound = 2e-6 + force_tolerance(precision, setup, 0.5);
  for (std::size_t k = 0; k < ec.size(); ++k) {
    EXPECT_LE(std::abs(eg[k] - ec[k]) / std::abs(ec[0]), bound) << "sample " << k;
  }
}

INSTANTIATE_TEST_SUITE_P(Precisions, CudaNve,
                         testing::Values(Precision::Double, Precision::Mixed, Precision::Single),
                         [](const testing::TestParamInfo<Precision>& info) {
                           return std::string(novamd::core::to_string(info.param));
                         });

TEST(CudaDeterminism, TwoRunsAreBitwiseIdentical) {
  SKIP_WITHOUT_GPU();
  for (auto precision : {Precision::Double, Precision::Mixed}) {
    std::vector<novamd::core::ParticleData> finals;
    std::vector<double> energies;
    for (int run = 0; run < 2; ++run) {
      auto gpu = novamd::backend::make_backend("cuda", mixture(4097, 5, precision, 1.0));
      gpu->compute_forces(novamd::backend::EnergyRequest::Compute);
      for (int s = 0; s < 200; ++s) novamd::integrate::velocity_verlet_step(*gpu, 1e-3);
      finals.push_back(gpu->particles_on_host());
      energies.push_back(gpu->observables().potential_energy);
    }
    EXPECT_EQ(finals[0].position.x, finals[1].position.x);
    EXPECT_EQ(finals[0].velocity.z, finals[1].velocity.z);
    EXPECT_EQ(finals[0].force.y, finals[1].force.y);
    EXPECT_EQ(energies[0], energies[1]);
  }
}

TEST(CudaWrapping, ParticlesCrossingTheBoxManyTimesKeepCorrectForces) {
  SKIP_WITHOUT_GPU();
  // Speeds up to 30 in a box of ~13: 2,000 steps of 1e-2 carry the fastest particles across the
  // box dozens of times.
  auto setup = mixture(1000, 77, Precision::Double, 30.0);
  auto gpu = novamd::backend::make_backend("cuda", setup);
  gpu->compute_forces(novamd::backend::EnergyRequest::Compute);
  for (int s = 0; s < 2000; ++s) novamd::integrate::velocity_verlet_step(*gpu, 1e-2);
  const auto& state = gpu->particles_on_host();
  const auto L = setup.box.length();
  for (std::size_t i = 0; i < state.size(); ++i) {
    EXPECT_GE(state.position.x[i], 0.0);
    EXPECT_LE(state.position.x[i], L.x);
    EXPECT_GE(state.position.z[i], 0.0);
    EXPECT_LE(state.position.z[i], L.z);
  }
  // The forces the GPU holds for its final positions equal the CPU's for the same positions.
  auto at_final = setup;
  at_final.particles = state;
  novamd::backend::CpuBackend cpu(at_final);
  cpu.compute_forces(novamd::backend::EnergyRequest::Compute);
  const auto scale = force_magnitude_sums(at_final);
  for (std::size_t i = 0; i < state.size(); ++i) {
    EXPECT_NEAR(state.force.x[i], cpu.particles_on_host().force.x[i], 1e-12 * scale[i]);
  }
}

}  // namespace

namespace {

TEST(CudaReorder, SortingAlongTheCurveKeepsTheTrajectoryAndTheIdOrder) {
  SKIP_WITHOUT_GPU();
  auto setup = lj_mixture(5000, Precision::Double, novamd::forces::Truncation::ShiftForce);
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> v(-1.0, 1.0);
  for (std::size_t i = 0; i < setup.particles.size(); ++i)
    setup.particles.velocity.set(i, {v(rng), v(rng), v(rng)});
  setup.neighbors.method = novamd::neighbors::NeighborMethod::NeighborList;
  auto plain_setup = setup;
  plain_setup.neighbors.reorder_every = 0;
  setup.neighbors.reorder_every = 7;
  auto sorted = novamd::backend::make_backend("cuda", setup);
  auto plain = novamd::backend::make_backend("cuda", plain_setup);
  for (auto* b : {sorted.get(), plain.get()}) {
    b->compute_forces(novamd::backend::EnergyRequest::Compute);
    for (int step = 0; step < 200; ++step) novamd::integrate::velocity_verlet_step(*b, 0.001);
  }
  EXPECT_GE(sorted->reorders(), 28);
  EXPECT_EQ(plain->reorders(), 0);
  const auto& a = sorted->particles_on_host();
  const auto& b = plain->particles_on_host();
  for (std::size_t i = 0; i < a.size(); ++i) ASSERT_EQ(a.id[i], static_cast<std::int32_t>(i));
  EXPECT_EQ(a.type, b.type);
  // Only the order of summation differs: round-off (1e-15 relative per step) grown over 0.2 tau
  // of chaotic motion (Lyapunov exponent of a few per tau) stays far below 1e-9 of the box.
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto d = setup.box.view<double>().minimum_image(a.position.get(i) - b.position.get(i));
    worst = std::max({worst, std::abs(d.x), std::abs(d.y), std::abs(d.z)});
  }
  EXPECT_LE(worst, 1e-9 * setup.box.length().x);
}

}  // namespace
