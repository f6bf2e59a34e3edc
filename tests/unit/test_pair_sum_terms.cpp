// Lennard-Jones and the Ewald real space in one pass (forces/pair_sum_terms.hpp): which force
// lists share the pass, and the CPU backend's one pass against its two separate terms on 1,000
// flexible SPC/E waters with PME (the same terms listed Coulomb first run apart): every force,
// each term's energy and the virial tensor; energy steps that move the particles exactly as
// other steps do; and a bitwise restart.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "novamd/backend/make_backend.hpp"
#include "novamd/forces/kspace_parameters.hpp"
#include "novamd/forces/pair_sum_terms.hpp"
#include "novamd/io/config.hpp"
#include "novamd/io/initial_system.hpp"
#include "novamd/io/molecular_system.hpp"
#include "support/example_systems.hpp"
#include "support/restart_check.hpp"

namespace {

using novamd::forces::CoulombMethod;
using novamd::forces::CoulombSettings;
using novamd::forces::ForceSettings;
using novamd::forces::LennardJonesSettings;
using novamd::forces::lj_coulomb_pass_at;

CoulombSettings coulomb(CoulombMethod method, double cutoff) {
  CoulombSettings c;
  c.method = method;
  c.cutoff = cutoff;
  return c;
}

LennardJonesSettings lj(double cutoff) {
  LennardJonesSettings s;
  s.cutoff = cutoff;
  return s;
}

TEST(PairSumTerms, LjFollowedByAnEwaldSplitOfTheSameCutoffOverListsSharesThePass) {
  const novamd::core::Box box(40.0, 40.0, 40.0);  // 3 x (10 + 1.2) = 33.6 A fits
  const novamd::neighbors::NeighborSettings automatic;
  using Forces = std::vector<ForceSettings>;
  EXPECT_EQ(lj_coulomb_pass_at(Forces{lj(10.0), coulomb(CoulombMethod::Pme, 10.0)}, automatic, box),
            0u);
  EXPECT_EQ(
      lj_coulomb_pass_at(Forces{lj(10.0), coulomb(CoulombMethod::Ewald, 10.0)}, automatic, box),
      0u);
  // Not: other cutoffs, short-range Coulomb, Coulomb listed first, no lists in the box or by
  // choice, no Lennard-Jones.
  EXPECT_FALSE(
      lj_coulomb_pass_at(Forces{lj(10.0), coulomb(CoulombMethod::Pme, 9.0)}, automatic, box));
  EXPECT_FALSE(
      lj_coulomb_pass_at(Forces{lj(10.0), coulomb(CoulombMethod::Shift, 10.0)}, automatic, box));
  EXPECT_FALSE(
      lj_coulomb_pass_at(Forces{coulomb(CoulombMethod::Pme, 10.0), lj(10.0)}, automatic, box));
  EXPECT_FALSE(lj_coulomb_pass_at(Forces{lj(10.0), coulomb(CoulombMethod::Pme, 10.0)}, automatic,
                                  novamd::core::Box(30.0, 40.0, 40.0)));
  novamd::neighbors::NeighborSettings all_pairs;
  all_pairs.method = novamd::neighbors::NeighborMethod::AllPairs;
  EXPECT_FALSE(
      lj_coulomb_pass_at(Forces{lj(10.0), coulomb(CoulombMethod::Pme, 10.0)}, all_pairs, box));
  EXPECT_FALSE(lj_coulomb_pass_at(Forces{coulomb(CoulombMethod::Pme, 10.0)}, automatic, box));
}

// The plan both backends build their terms by: the Coulomb entry after a one-pass
// Lennard-Jones entry joins its term, every other entry has a term of its own, and only the first
// entry of a term restores a checkpoint's neighbour state.
TEST(PairSumTerms, ThePlanGivesTheOnePassCoulombEntryTheLennardJonesTerm) {
  using Forces = std::vector<ForceSettings>;
  const Forces forces{coulomb(CoulombMethod::Shift, 8.0), lj(10.0),
                      coulomb(CoulombMethod::Pme, 10.0), lj(12.0)};
  const auto fused = novamd::forces::plan_terms(forces, 1u);
  EXPECT_EQ(fused.term_of, (std::vector<std::size_t>{0, 1, 1, 2}));
  EXPECT_TRUE(fused.starts_pass(1));
  EXPECT_FALSE(fused.starts_pass(2));
  EXPECT_TRUE(fused.joins_previous(2));
  EXPECT_FALSE(fused.joins_previous(3));
  EXPECT_TRUE(fused.restores(0));
  EXPECT_TRUE(fused.restores(1));
  EXPECT_FALSE(fused.restores(2));
  EXPECT_TRUE(fused.restores(3));
  const auto apart = novamd::forces::plan_terms(forces, std::nullopt);
  EXPECT_EQ(apart.term_of, (std::vector<std::size_t>{0, 1, 2, 3}));
  for (std::size_t f = 0; f < forces.size(); ++f) {
    EXPECT_FALSE(apart.joins_previous(f));
    EXPECT_TRUE(apart.restores(f));
  }
}

/// 1,000 flexible SPC/E waters (examples/water, 31.04 A), LJ and PME cut at 9 A (three list
/// cells per axis), the two force terms in the order given.
std::string water(const std::string& forces) {
  return novamd::test::kWaterExampleSystem + "forces:\n" + forces +
         "integrator: {type: velocity_verlet, timestep: 0.5}\nrun: {steps: 0}\n";
}

struct Evaluation {
  novamd::core::ParticleData particles;
  novamd::backend::Observables observables;
  std::int64_t list_builds = 0;
};

std::unique_ptr<novamd::backend::Backend> cpu_backend(const std::string& yaml) {
  const auto config = novamd::io::parse_config(yaml, "water.yaml");
  auto initial = novamd::io::build_initial_system(config);
  auto molecular = novamd::io::molecular_system(config);
  return novamd::backend::make_backend(
      "cpu", {config.units, config.system.species, initial.box, std::move(initial.particles),
              config.forces, novamd::core::Precision::Double, config.neighbors, nullptr,
              std::move(molecular.topology), std::move(molecular.bonded)});
}

Evaluation evaluate(const std::string& yaml) {
  auto b = cpu_backend(yaml);
  b->compute_forces(novamd::backend::EnergyRequest::Compute);
  return {b->particles_on_host(), b->observables(), b->neighbor_list_builds()};
}

const std::string kLjLine = "  - lennard_jones: {cutoff: 9.0}\n";
const std::string kPmeLine = "  - coulomb: {method: pme, cutoff: 9.0, tolerance: 1e-6}\n";

// One pass and two passes add the same pair terms in another grouping: each force differs by a
// few roundings of its some 400 pair terms (bound 1e-12 of the largest force), energies and
// virial by the rounding of sums over a million pairs (1e-12 of their scale).
TEST(PairSumTerms, TheCpuBackendsOnePassMatchesItsTwoPasses) {
  const Evaluation one = evaluate(water(kLjLine + kPmeLine));
  const Evaluation two = evaluate(water(kPmeLine + kLjLine));
  EXPECT_EQ(one.list_builds, 1);
  EXPECT_EQ(two.list_builds, 2);
  double largest = 0.0;
  for (std::size_t i = 0; i < two.particles.size(); ++i)
    largest = std::max({largest, std::abs(two.particles.force.x[i]),
                        std::abs(two.particles.force.y[i]), std::abs(two.particles.force.z[i])});
  ASSERT_GT(largest, 10.0);  // kcal/mol/A
  bool differs = false;
  for (std::size_t i = 0; i < two.particles.size(); ++i) {
    ASSERT_NEAR(one.particles.force.x[i], two.particles.force.x[i], 1e-12 * largest) << i;
    ASSERT_NEAR(one.particles.force.y[i], two.particles.force.y[i], 1e-12 * largest) << i;
    ASSERT_NEAR(one.particles.force.z[i], two.particles.force.z[i], 1e-12 * largest) << i;
    differs = differs || one.particles.force.x[i] != two.particles.force.x[i];
  }
  EXPECT_TRUE(differs);  // really another summation
  // Terms in setup order: LJ, Coulomb, then the bonded families (bonds, angles, the excluded
  // pairs' Ewald corrections) for one; Coulomb, LJ, ... for two.
  const auto& a = one.observables.term_energy;
  const auto& b = two.observables.term_energy;
  ASSERT_EQ(a.size(), 5u);
  ASSERT_EQ(b.size(), 5u);
  double scale = 0.0;
  for (const double e : a) scale += std::abs(e);
  EXPECT_NEAR(a[0], b[1], 1e-12 * scale);                                   // vdw
  EXPECT_NEAR(a[1], b[0], 1e-12 * scale);                                   // coulomb
  for (int t = 2; t < 5; ++t) EXPECT_NEAR(a[t], b[t], 1e-12 * scale) << t;  // the same terms
  EXPECT_NEAR(one.observables.potential_energy, two.observables.potential_energy, 1e-12 * scale);
  for (int k = 0; k < novamd::core::kTensorComponents; ++k)
    EXPECT_NEAR(one.observables.virial.c[k], two.observables.virial.c[k], 1e-12 * scale) << k;
}

// On an energy step the one-pass term reports each potential's energy in its own pass, but its
// forces are still the sum's: the run's trajectory does not depend on how often thermo rows are
// written.
TEST(PairSumTerms, EnergyStepsGiveTheForcesOfOtherStepsBitwise) {
  auto b = cpu_backend(water(kLjLine + kPmeLine));
  b->compute_forces(novamd::backend::EnergyRequest::Skip);
  const auto without = b->particles_on_host().force;
  b->compute_forces(novamd::backend::EnergyRequest::Compute);
  const auto with = b->particles_on_host().force;
  EXPECT_TRUE(novamd::test::bitwise_equal(with, without));
  EXPECT_EQ(b->neighbor_list_builds(), 1);
}

// A run of the one-pass term through a checkpoint (one neighbour state per config force term,
// bonded families apart): 10 + 10 steps against 20 straight, bitwise, with list builds and
// sorts along the curve in both halves.
TEST(PairSumTerms, RestartsContinueBitwise) {
  novamd::test::expect_bitwise_restart_of_config(novamd::test::water_pme_restart_config(), "cpu",
                                                 "double", 10);
}

}  // namespace
