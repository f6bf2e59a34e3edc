// The CPU's traversal of rigid molecules (forces/cpu_rigid_molecules.hpp) against the all-pairs
// oracle (forces/rigid_model.hpp) on a periodic fluid of three kinds of molecule: the same
// forces, torques, energy and virial, after moves that reuse the list, and bitwise the same for
// any thread count.

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <random>
#include <utility>

#include "novamd/core/random_orientation.hpp"
#include "novamd/forces/cpu_rigid_molecules.hpp"
#include "support/rigid_molecules.hpp"

namespace {

namespace core = novamd::core;
namespace forces = novamd::forces;
using V = core::Vec3<double>;

/// 125 molecules on a jittered lattice in a box of 6.3 (0.5 per sigma^3), turned at random.
core::ParticleData fluid(std::uint64_t seed) {
  core::ParticleData p;
  p.resize(125);
  p.enable(p.orientation);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> jitter(-0.15, 0.15);
  for (std::size_t i = 0; i < 125; ++i) {
    p.type[i] = static_cast<std::int32_t>(i % 3);
    p.id[i] = static_cast<std::int32_t>(i);
    p.position.set(i, {1.26 * (i % 5) + jitter(rng), 1.26 * (i / 5 % 5) + jitter(rng),
                       1.26 * (i / 25) + jitter(rng)});
    const auto q = core::random_orientation(seed, static_cast<std::uint32_t>(i));
    p.orientation.set(i, q);
  }
  return p;
}

forces::RigidModel model() {
  forces::RigidModelSettings settings;
  settings.cutoff = 2.5;
  settings.shift = true;
  settings.epsilon_rf = 30.0;
  return forces::make_rigid_model(novamd::test::three_kinds_of_molecule(), settings);
}

using Evaluated = novamd::test::RigidEvaluation;

Evaluated by_lists(forces::CpuRigidMolecules& term, const core::ParticleData& p,
                   const core::Box& box) {
  return novamd::test::evaluate_rigid(term, p, box);
}

Evaluated by_all_pairs(const core::ParticleData& p, const core::Box& box) {
  Evaluated e = novamd::test::zeroed_evaluation(p.size());
  const auto totals = forces::add_rigid_forces(model(), p, box, e.force, e.torque);
  e.energy = totals.energy;
  e.virial = totals.virial;
  return e;
}

void expect_same(const Evaluated& a, const Evaluated& b) {
  // The same pair terms summed in other orders: 1e-12 of their sizes (forces of order 10 to
  // 100 between close sites, energies of order 100).
  for (std::size_t i = 0; i < a.force.size(); ++i) {
    for (const auto& [u, v] :
         {std::pair{a.force.get(i), b.force.get(i)}, std::pair{a.torque.get(i), b.torque.get(i)}}) {
      EXPECT_NEAR(u.x, v.x, 1e-10);
      EXPECT_NEAR(u.y, v.y, 1e-10);
      EXPECT_NEAR(u.z, v.z, 1e-10);
    }
  }
  EXPECT_NEAR(a.energy, b.energy, 1e-10);
  for (int c = 0; c < core::kTensorComponents; ++c)
    EXPECT_NEAR(a.virial.c[c], b.virial.c[c], 1e-9) << c;
}

TEST(CpuRigidMolecules, MatchTheAllPairsOracleAsTheMoleculesMove) {
  auto p = fluid(61);
  const core::Box box(6.3, 6.3, 6.3);
  forces::CpuRigidMolecules term(model(), 0.4);
  const Evaluated first = by_lists(term, p, box);
  expect_same(first, by_all_pairs(p, box));
  EXPECT_GT(std::abs(first.energy), 10.0);  // a dense fluid's interactions
  // Moves under half the skin keep the list; the molecules turn as well.
  std::mt19937_64 rng(62);
  std::uniform_real_distribution<double> step(-0.1, 0.1);
  for (std::size_t i = 0; i < p.size(); ++i) {
    p.position.set(i, p.position.get(i) + V{step(rng), step(rng), step(rng)});
    auto q = p.orientation.get(i);
    q.x += step(rng);
    p.orientation.set(i, core::normalized(q));
  }
  expect_same(by_lists(term, p, box), by_all_pairs(p, box));
  EXPECT_EQ(term.list_builds(), 1);
}

TEST(CpuRigidMolecules, RepeatBitwiseForAnyThreadCount) {
  const auto p = fluid(63);
  const core::Box box(6.3, 6.3, 6.3);
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  forces::CpuRigidMolecules one(model(), 0.4);
  const Evaluated a = by_lists(one, p, box);
  omp_set_num_threads(std::max(threads, 2));
  forces::CpuRigidMolecules several(model(), 0.4);
  const Evaluated b = by_lists(several, p, box);
  omp_set_num_threads(threads);
  for (const auto& [u, v] : {std::pair{&a.force, &b.force}, std::pair{&a.torque, &b.torque}}) {
    EXPECT_EQ(u->x, v->x);
    EXPECT_EQ(u->y, v->y);
    EXPECT_EQ(u->z, v->z);
  }
  EXPECT_EQ(a.energy, b.energy);
  for (int c = 0; c < core::kTensorComponents; ++c) EXPECT_EQ(a.virial.c[c], b.virial.c[c]);
}

TEST(CpuRigidMolecules, StepsWithoutEnergyGiveTheSameForcesAndTorquesBitwise) {
  // Between thermo rows the term skips the energy, the virial and j's torque (j's own visit
  // gives it): the same arithmetic for what it keeps.
  const auto p = fluid(63);
  const core::Box box(6.3, 6.3, 6.3);
  forces::CpuRigidMolecules term(model(), 0.4);
  const Evaluated with_energy = by_lists(term, p, box);
  Evaluated without = novamd::test::zeroed_evaluation(p.size());
  term.add_forces_and_torques(p, box, without.force, without.torque);
  for (const auto& [u, v] : {std::pair{&with_energy.force, &without.force},
                             std::pair{&with_energy.torque, &without.torque}}) {
    EXPECT_EQ(u->x, v->x);
    EXPECT_EQ(u->y, v->y);
    EXPECT_EQ(u->z, v->z);
  }
  EXPECT_NE(with_energy.energy, 0.0);
}

}  // namespace
