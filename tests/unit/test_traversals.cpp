// Every CPU traversal through the backend against the all-pairs reference; the `neighbors`
// config; NVE energy conservation of the LJ liquid with a force-shifted cutoff on Verlet lists.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "novamd/backend/cpu_backend.hpp"
#include "novamd/core/error.hpp"
#include "novamd/integrate/velocity_verlet.hpp"
#include "novamd/io/config.hpp"
#include "novamd/io/initial_system.hpp"
#include "support/systems.hpp"

namespace {

using novamd::backend::BackendSetup;
using novamd::backend::CpuBackend;
using novamd::neighbors::NeighborMethod;
constexpr auto kEnergy = novamd::backend::EnergyRequest::Compute;

BackendSetup lj_liquid(std::size_t n, novamd::forces::Truncation truncation) {
  const double edge = std::cbrt(n / 0.75 / (0.9 * 1.1));
  auto s = novamd::test::random_mixture(n, edge, 21, 1.0, 0.88, 1.0);
  novamd::forces::LennardJonesSettings lj;
  lj.pairs = {{"A", "A", 1.0, 1.0}, {"B", "B", 0.7, 0.95}, {"C", "C", 1.3, 1.05}};
  lj.cutoff = 2.5;
  lj.truncation = truncation;
  s.forces = {lj};
  return s;
}

TEST(CpuTraversals, EveryMethodMatchesAllPairs) {
  for (auto truncation :
       {novamd::forces::Truncation::Cut, novamd::forces::Truncation::ShiftForce}) {
    auto reference_setup = lj_liquid(2000, truncation);
    reference_setup.neighbors.method = NeighborMethod::AllPairs;
    CpuBackend reference(reference_setup);
    reference.compute_forces(kEnergy);
    const auto& f_ref = reference.particles_on_host().force;
    double f_max = 0;
    for (double f : f_ref.x) f_max = std::max(f_max, std::abs(f));
    for (auto method :
         {NeighborMethod::CellList, NeighborMethod::NeighborList, NeighborMethod::Auto}) {
      auto setup = reference_setup;
      setup.neighbors.method = method;
      CpuBackend b(setup);
      b.compute_forces(kEnergy);
      const auto& f = b.particles_on_host().force;
      // The same pair terms summed in another order: 4 N eps of the largest force.
      const double tol = 4.0 * 2000 * std::numeric_limits<double>::epsilon() * f_max;
      for (std::size_t i = 0; i < f.size(); ++i) {
        ASSERT_NEAR(f.x[i], f_ref.x[i], tol) << static_cast<int>(method) << " particle " << i;
        ASSERT_NEAR(f.z[i], f_ref.z[i], tol) << static_cast<int>(method) << " particle " << i;
      }
      const double e = reference.observables().potential_energy;
      EXPECT_NEAR(b.observables().potential_energy, e, 1e-12 * std::abs(e));
      EXPECT_EQ(b.neighbor_list_builds() > 0, method != NeighborMethod::CellList);  // auto: list
    }
  }
}

TEST(CpuTraversals, AutoChoosesAllPairsWithoutACutoffOrInASmallBox) {
  using novamd::neighbors::resolve_method;
  const novamd::neighbors::NeighborSettings automatic;
  EXPECT_EQ(resolve_method(automatic, std::numeric_limits<double>::infinity(), 100.0),
            NeighborMethod::AllPairs);
  EXPECT_EQ(resolve_method(automatic, 2.5, 8.3), NeighborMethod::AllPairs);  // < 3 x (2.5 + 0.3)
  EXPECT_EQ(resolve_method(automatic, 2.5, 8.4), NeighborMethod::NeighborList);
  novamd::neighbors::NeighborSettings cells;
  cells.method = NeighborMethod::CellList;
  EXPECT_EQ(resolve_method(cells, 2.5, 8.3), NeighborMethod::CellList);
}

const char* kLjMelt = R"(units: lj
system:
  density: 0.8442
  species: [{name: Ar, mass: 1}]
  structure: {generate: {lattice: fcc, cells: 5, fractions: {Ar: 1.0}}}
  velocities: {temperature: 1.44}
forces:
  - lennard_jones: {pairs: [{types: [Ar, Ar], epsilon: 1, sigma: 1}], cutoff: 2.5, truncation: force_shift}
neighbors: {method: neighbor_list, skin: 0.3}
integrator: {type: velocity_verlet, timestep: 0.002}
run: {steps: 5000}
)";

TEST(CpuTraversals, NeighborsConfigIsReadAndChecked) {
  const auto config = novamd::io::parse_config(kLjMelt, "melt.yaml");
  EXPECT_EQ(config.neighbors.method, NeighborMethod::NeighborList);
  EXPECT_DOUBLE_EQ(config.neighbors.skin.value(), 0.3);
  const struct {
    const char* set;
    const char* key;
  } bad[] = {{"neighbors.method=verlet", "neighbors.method"},
             {"neighbors.skin=-0.1", "neighbors.skin"},
             {"neighbors.check_every=0", "neighbors.check_every"},
             {"neighbors.skn=0.2", "neighbors.skn"}};
  for (const auto& b : bad) {
    const std::string set = b.set;
    const auto eq = set.find('=');
    try {
      novamd::io::parse_config(kLjMelt, "melt.yaml", {{set.substr(0, eq), set.substr(eq + 1)}});
      ADD_FAILURE() << b.set << " was accepted";
    } catch (const novamd::core::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(b.key), std::string::npos) << e.what();
    }
  }
}

TEST(CpuTraversals, LjLiquidWithForceShiftConservesEnergyOnVerletLists) {
  // The classic melt (fcc at rho* = 0.8442, T* = 1.44), 500 atoms, force-shifted LJ at 2.5,
  // Verlet lists with skin 0.3; dt = 0.002: 5,000 steps = 10 tau. The force shift makes energy
  // and force continuous at the cutoff, so velocity Verlet's error is O(dt^2) and bounded:
  // measured max |E(t) - E(0)| / |E(0)| = 2.4e-5 (bound 1e-4), no drift beyond the fluctuation.
  const auto config = novamd::io::parse_config(kLjMelt, "melt.yaml");
  auto initial = novamd::io::build_initial_system(config);
  CpuBackend b({config.units, config.system.species, initial.box, initial.particles, config.forces,
                config.precision, config.neighbors});
  b.compute_forces(kEnergy);
  const auto o0 = b.observables();
  const double e0 = o0.kinetic_energy + o0.potential_energy;
  double worst = 0;
  for (int step = 1; step <= 5000; ++step) {
    novamd::integrate::velocity_verlet_step(b, 0.002);
    if (step % 50 == 0) {
      const auto o = b.observables();
      worst = std::max(worst, std::abs(o.kinetic_energy + o.potential_energy - e0) / std::abs(e0));
    }
  }
  std::printf("LJ melt NVE: max relative energy deviation %.3g, %lld list builds\n", worst,
              static_cast<long long>(b.neighbor_list_builds()));
  EXPECT_LT(worst, 1e-4);
  EXPECT_GT(b.neighbor_list_builds(), 1);  // the liquid moved: lists were rebuilt
}

}  // namespace
