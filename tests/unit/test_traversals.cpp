// The traversal `auto` resolves to; the `neighbors` config; NVE energy conservation of the LJ
// liquid with a force-shifted cutoff on Verlet lists. Every traversal against the all-pairs
// reference: ForceTerms (test_force_terms.cpp).

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "novamd/backend/cpu_backend.hpp"
#include "novamd/forces/cpu_force_term.hpp"
#include "novamd/core/error.hpp"
#include "novamd/integrate/velocity_verlet.hpp"
#include "novamd/io/config.hpp"
#include "novamd/io/initial_system.hpp"
#include "support/force_scale.hpp"

namespace {

using novamd::backend::CpuBackend;
using novamd::neighbors::NeighborMethod;
constexpr auto kEnergy = novamd::backend::EnergyRequest::Compute;

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

// A Verlet list is checked only every check_every evaluations, but a list built for another
// particle count must never be traversed: after particles are removed between checks, the term
// rebuilds at once and matches all pairs (it read past its arrays before).
TEST(CpuTraversals, VerletListsFollowAChangeOfParticleCountBetweenChecks) {
  auto setup = novamd::test::lj_mixture(900, novamd::core::Precision::Double,
                                        novamd::forces::Truncation::ShiftEnergy);
  novamd::neighbors::NeighborSettings lists;
  lists.method = NeighborMethod::NeighborList;
  lists.check_every = 10;
  novamd::neighbors::NeighborSettings all;
  all.method = NeighborMethod::AllPairs;
  const auto make = [&](const novamd::neighbors::NeighborSettings& n) {
    return novamd::forces::make_cpu_force_term(setup.forces[0], setup.species, setup.units,
                                               novamd::core::Precision::Double, n,
                                               setup.box.shortest_edge());
  };
  auto listed = make(lists);
  novamd::neighbors::ForceBuffers out;
  out.reset(setup.particles.size());
  listed->add_to(setup.particles, setup.box, out, /*with_energy=*/true);  // built for 900
  novamd::core::ParticleData fewer;
  for (std::size_t i = 0; i < setup.particles.size(); i += 2) {
    const std::size_t k = fewer.size();
    fewer.resize(k + 1);
    fewer.position.set(k, setup.particles.position.get(i));
    fewer.type[k] = setup.particles.type[i];
    fewer.id[k] = static_cast<std::int32_t>(k);
  }
  novamd::neighbors::ForceBuffers with_lists, reference;
  with_lists.reset(fewer.size());
  reference.reset(fewer.size());
  listed->add_to(fewer, setup.box, with_lists,
                 /*with_energy=*/true);  // the second call: no scheduled check
  make(all)->add_to(fewer, setup.box, reference, /*with_energy=*/true);
  EXPECT_EQ(listed->list_builds(), 2);
  for (std::size_t i = 0; i < fewer.size(); ++i)  // the same pairs, another order: 1e-12
    ASSERT_NEAR(with_lists.force.x[i], reference.force.x[i],
                1e-12 * (1.0 + std::abs(reference.force.x[i])))
        << i;
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
