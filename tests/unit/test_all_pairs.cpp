// The CPU all-pairs traversal: hand-derived two- and three-particle cases, an independent naive
// double loop on random mixtures, and bitwise independence of the OpenMP thread count.

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <limits>

#include "novamd/backend/cpu_backend.hpp"
#include "support/systems.hpp"

namespace {

using novamd::backend::BackendSetup;
using novamd::backend::CpuBackend;
using novamd::core::Vec3;
constexpr double kEps = std::numeric_limits<double>::epsilon();

/// Two or three unit charges on the x axis in a 10 x 10 x 10 box, lambda = 2, k_e = 1.
BackendSetup charges_on_x_axis(std::vector<double> xs) {
  BackendSetup s;
  s.units = novamd::core::lj_units();
  s.species = novamd::core::SpeciesTable({{"A", 1.0, 1.0, 0}});
  s.box = novamd::core::Box(10, 10, 10);
  s.forces = {novamd::forces::YukawaSettings{2.0, novamd::forces::kNoCutoff}};
  s.particles.resize(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) {
    s.particles.position.set(i, {xs[i], 5.0, 5.0});
    s.particles.id[i] = static_cast<int>(i);
  }
  return s;
}

double v_pair(double r) {
  return std::exp(-r / 2.0) / r;
}
double f_pair(double r) {
  return v_pair(r) * (1.0 / r + 0.5);
}  // magnitude, repulsive

TEST(AllPairsCpu, TwoParticlesMatchHandDerivedValues) {
  CpuBackend b(charges_on_x_axis({1.0, 2.5}));
  b.compute_forces(novamd::backend::EnergyRequest::Compute);
  const auto& f = b.particles_on_host().force;
  const double tol = 8 * kEps * f_pair(1.5);
  EXPECT_NEAR(f.x[0], -f_pair(1.5), tol);  // pushed apart along x
  EXPECT_NEAR(f.x[1], +f_pair(1.5), tol);
  EXPECT_EQ(f.y[0], 0.0);
  EXPECT_NEAR(b.observables().potential_energy, v_pair(1.5), 8 * kEps * v_pair(1.5));
  EXPECT_NEAR(b.observables().virial.trace(), f_pair(1.5) * 1.5, 8 * kEps * f_pair(1.5) * 1.5);
}

TEST(AllPairsCpu, PairAcrossThePeriodicBoundaryUsesTheNearestImage) {
  CpuBackend b(charges_on_x_axis({0.5, 9.5}));  // 1.0 apart through the boundary, not 9.0
  b.compute_forces(novamd::backend::EnergyRequest::Compute);
  const auto& f = b.particles_on_host().force;
  const double tol = 8 * kEps * f_pair(1.0);
  EXPECT_NEAR(f.x[0], +f_pair(1.0), tol);  // the image of particle 1 sits at x = -0.5
  EXPECT_NEAR(f.x[1], -f_pair(1.0), tol);
  EXPECT_NEAR(b.observables().potential_energy, v_pair(1.0), 8 * kEps * v_pair(1.0));
}

TEST(AllPairsCpu, ThreeParticlesSumTheirPairs) {
  // x = 1, 2, 9: pairs (0,1) r = 1, (0,2) r = 2 through the boundary, (1,2) r = 3 through it.
  CpuBackend b(charges_on_x_axis({1.0, 2.0, 9.0}));
  b.compute_forces(novamd::backend::EnergyRequest::Compute);
  const auto& f = b.particles_on_host().force;
  const double f0 = -f_pair(1.0) + f_pair(2.0);  // 1 pushes 0 left; 2's image at -1 pushes right
  const double f1 = f_pair(1.0) + f_pair(3.0);   // 2's image at -1 pushes 1 right
  const double f2 = -f_pair(2.0) - f_pair(3.0);
  const double tol = 16 * kEps * f_pair(1.0);
  EXPECT_NEAR(f.x[0], f0, tol);
  EXPECT_NEAR(f.x[1], f1, tol);
  EXPECT_NEAR(f.x[2], f2, tol);
  const double e = v_pair(1.0) + v_pair(2.0) + v_pair(3.0);
  EXPECT_NEAR(b.observables().potential_energy, e, 16 * kEps * e);
}

/// Independent reference: for each pair i < j, the nearest of the 27 periodic images found by
/// search (no rint), the Yukawa formula written out, Newton's third law.
struct Reference {
  std::vector<Vec3<double>> force;
  double energy = 0;
  double virial[6] = {};    ///< xx, yy, zz, xy, xz, yz: sum over pairs of d_a f_b
  double virial_scale = 0;  ///< sum over pairs of |f| r
};

Reference naive_double_loop(const BackendSetup& s) {
  const auto& p = s.particles;
  const auto L = s.box.length();
  const double lambda = std::get<novamd::forces::YukawaSettings>(s.forces[0]).screening_length;
  Reference ref;
  ref.force.assign(p.size(), {});
  for (std::size_t i = 0; i < p.size(); ++i) {
    for (std::size_t j = i + 1; j < p.size(); ++j) {
      Vec3<double> best{};
      double best_r2 = std::numeric_limits<double>::max();
      for (int a = -1; a <= 1; ++a)
        for (int b = -1; b <= 1; ++b)
          for (int c = -1; c <= 1; ++c) {
            const Vec3<double> d{p.position.x[i] - p.position.x[j] + a * L.x,
                                 p.position.y[i] - p.position.y[j] + b * L.y,
                                 p.position.z[i] - p.position.z[j] + c * L.z};
            if (novamd::core::dot(d, d) < best_r2) best = d, best_r2 = novamd::core::dot(d, d);
          }
      const double r = std::sqrt(best_r2);
      const double zz = s.species[p.type[i]].charge * s.species[p.type[j]].charge;
      const double v = zz * std::exp(-r / lambda) / r;
      const double f_over_r = v * (1 / r + 1 / lambda) / r;
      ref.force[i] += f_over_r * best;
      ref.force[j] -= f_over_r * best;
      ref.energy += v;
      const double fd[3] = {f_over_r * best.x, f_over_r * best.y, f_over_r * best.z};
      const double d[3] = {best.x, best.y, best.z};
      const int a_of[6] = {0, 1, 2, 0, 0, 1}, b_of[6] = {0, 1, 2, 1, 2, 2};
      for (int k = 0; k < 6; ++k) ref.virial[k] += d[a_of[k]] * fd[b_of[k]];
      ref.virial_scale += std::abs(f_over_r) * best_r2;
    }
  }
  return ref;
}

class AllPairsRandom : public testing::TestWithParam<int> {};

TEST_P(AllPairsRandom, MatchesNaiveDoubleLoop) {
  const auto n = static_cast<std::size_t>(GetParam());
  const auto setup = novamd::test::random_mixture(n, 9.0, 1000 + n, 1.5, 0.3);
  const Reference ref = naive_double_loop(setup);
  CpuBackend b(setup);
  b.compute_forces(novamd::backend::EnergyRequest::Compute);
  const auto& f = b.particles_on_host().force;
  // Sums of up to N terms in a different order: relative error <= N eps of the largest
  // force in the system (cancellation makes small net forces less accurate than the terms).
  double f_max = 0;
  for (const auto& fi : ref.force) f_max = std::max(f_max, std::sqrt(novamd::core::dot(fi, fi)));
  const double tol = 4.0 * static_cast<double>(n) * kEps * std::max(f_max, 1e-300);
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_NEAR(f.x[i], ref.force[i].x, tol) << "particle " << i;
    EXPECT_NEAR(f.y[i], ref.force[i].y, tol) << "particle " << i;
    EXPECT_NEAR(f.z[i], ref.force[i].z, tol) << "particle " << i;
  }
  const auto obs = b.observables();
  EXPECT_NEAR(obs.potential_energy, ref.energy, 4.0 * n * kEps * std::abs(ref.energy) + 1e-300);
  // Each component, off-diagonal ones included (which cancel over the pairs): within N eps of
  // the sum of the terms' magnitudes.
  for (int k = 0; k < 6; ++k) {
    EXPECT_NEAR(obs.virial.c[k], ref.virial[k], 4.0 * n * kEps * ref.virial_scale + 1e-300)
        << "component " << novamd::core::kTensorComponentNames[k];
  }
  if (n == 1) EXPECT_EQ(obs.potential_energy, 0.0);
}

INSTANTIATE_TEST_SUITE_P(Sizes, AllPairsRandom, testing::Values(1, 2, 3, 64, 1000));

TEST(AllPairsCpu, BitwiseIndependentOfThreadCount) {
  const auto setup = novamd::test::random_mixture(333, 8.0, 7, 1.5, 0.3);
  const int saved = omp_get_max_threads();
  std::vector<novamd::core::ParticleData> results;
  std::vector<double> energies;
  for (int threads : {1, 2, 3, 5}) {
    omp_set_num_threads(threads);
    CpuBackend b(setup);
    b.compute_forces(novamd::backend::EnergyRequest::Compute);
    results.push_back(b.particles_on_host());
    energies.push_back(b.observables().potential_energy);
  }
  omp_set_num_threads(saved);
  for (std::size_t k = 1; k < results.size(); ++k) {
    EXPECT_EQ(results[k].force.x, results[0].force.x);  // bitwise: std::vector<double> ==
    EXPECT_EQ(results[k].force.y, results[0].force.y);
    EXPECT_EQ(results[k].force.z, results[0].force.z);
    EXPECT_EQ(energies[k], energies[0]);
  }
}

}  // namespace
