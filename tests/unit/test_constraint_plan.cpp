// The constraint plan from a topology (constraints/constraint_plan.hpp): rigid waters found by
// their molecule, with the H-H distance from an H-H bond or from the H-O-H angle; clusters of a
// heavy atom and its hydrogens under h_bonds, waters kept out of them when they are settled;
// the constraint count; and every topology the clusters cannot hold refused with the ids named.
// On the example files: the 1,000 flexible SPC/E waters of examples/water and the AMBER
// dipeptide in 861 TIP3P waters (geometry from the files' bond and angle coefficients).

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "novamd/constraints/constraint_plan.hpp"
#include "novamd/constraints/term_geometry.hpp"
#include "novamd/core/error.hpp"
#include "novamd/io/config.hpp"
#include "novamd/io/initial_system.hpp"
#include "novamd/io/molecular_system.hpp"
#include "support/cli_runner.hpp"
#include "support/example_systems.hpp"

namespace {

using novamd::constraints::BondConstraints;
using novamd::constraints::ConstraintPlan;
using novamd::constraints::ConstraintRequest;
using novamd::constraints::plan_constraints;
using novamd::core::Topology;

constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
constexpr double kTheta = 109.47 * std::numbers::pi / 180.0;

/// A topology with its masses, bond lengths and angles, built term by term.
struct System {
  Topology topology;
  std::vector<double> mass, bond_length, theta0;
  std::vector<int> element;  ///< atomic numbers by id (empty: unknown, hydrogens by mass)

  explicit System(std::vector<double> masses)
      : topology(static_cast<std::int32_t>(masses.size())), mass(std::move(masses)) {}
  /// A bond of internal type `type` (the file's number minus one).
  void bond(int i, int j, double length, int type = 0) {
    topology.add_bond({type, {i, j}});
    bond_length.push_back(length);
  }
  void angle(int i, int j, int k, double theta) {
    topology.add_angle({0, {i, j, k}});
    theta0.push_back(theta);
  }
  ConstraintPlan plan(BondConstraints bonds, bool water, std::vector<int> types = {}) const {
    return plan_constraints(topology, {mass, element, bond_length, theta0},
                            ConstraintRequest{bonds, water, std::move(types)});
  }
  std::string error(BondConstraints bonds, bool water, std::vector<int> types = {}) const {
    try {
      plan(bonds, water, std::move(types));
    } catch (const novamd::core::InputError& e) {
      return e.what();
    }
    ADD_FAILURE() << "no InputError";
    return "";
  }
};

/// Two SPC/E waters (O-H bonds and an angle) and a methane (C with four H at 1.09 A).
System waters_and_methane() {
  System s({15.9994, 1.008, 1.008, 15.9994, 1.008, 1.008, 12.011, 1.008, 1.008, 1.008, 1.008});
  for (int o : {0, 3}) {
    s.bond(o, o + 1, 1.0);
    s.bond(o, o + 2, 1.0);
    s.angle(o + 1, o, o + 2, kTheta);
  }
  for (int h = 7; h <= 10; ++h) s.bond(6, h, 1.09);
  return s;
}

TEST(ConstraintPlan, WatersFromTheAngleAndHydrogenClustersApart) {
  const System s = waters_and_methane();
  const ConstraintPlan plan = s.plan(BondConstraints::HydrogenBonds, true);
  ASSERT_EQ(plan.waters.size(), 2u);
  EXPECT_EQ(plan.waters[1].o, 3);
  EXPECT_EQ(plan.waters[1].h1, 4);
  EXPECT_EQ(plan.waters[1].h2, 5);
  EXPECT_DOUBLE_EQ(plan.waters[0].geometry.d_oh, 1.0);
  EXPECT_NEAR(plan.waters[0].geometry.d_hh, 1.632980861, 1e-9);  // 2 sin(54.735 degrees)
  EXPECT_DOUBLE_EQ(plan.waters[0].geometry.m_o, 15.9994);
  ASSERT_EQ(plan.clusters.size(), 1u);  // the waters' bonds go to SETTLE, not to a cluster
  EXPECT_EQ(plan.clusters[0].central, 6);
  EXPECT_EQ(plan.clusters[0].count, 4);
  EXPECT_DOUBLE_EQ(plan.clusters[0].length[3], 1.09);
  EXPECT_EQ(plan.constraint_count(), 2u * 3 + 4);
  // Flexible water under h_bonds: each water is a cluster of its oxygen and two hydrogens.
  const ConstraintPlan flexible = s.plan(BondConstraints::HydrogenBonds, false);
  EXPECT_TRUE(flexible.waters.empty());
  ASSERT_EQ(flexible.clusters.size(), 3u);
  EXPECT_EQ(flexible.clusters[0].count, 2);
  EXPECT_EQ(flexible.constraint_count(), 2u + 2 + 4);
  // Rigid water only: the methane is free.
  EXPECT_TRUE(s.plan(BondConstraints::None, true).clusters.empty());
  EXPECT_EQ(s.plan(BondConstraints::None, false).constraint_count(), 0u);
}

TEST(ConstraintPlan, AnHydrogenHydrogenBondGivesTheWaterItsHHDistance) {
  System s({1.008, 15.9994, 1.008});  // TIP3P as AMBER writes it: H, O, H and an H-H bond
  s.bond(1, 0, 0.9572);
  s.bond(1, 2, 0.9572);
  s.bond(0, 2, 1.5136);
  const ConstraintPlan plan = s.plan(BondConstraints::HydrogenBonds, true);
  ASSERT_EQ(plan.waters.size(), 1u);
  EXPECT_EQ(plan.waters[0].o, 1);
  EXPECT_DOUBLE_EQ(plan.waters[0].geometry.d_hh, 1.5136);
  EXPECT_TRUE(plan.clusters.empty());
}

TEST(ConstraintPlan, RefusesWhatItsClustersCannotHold) {
  {  // a hydrogen bridging two heavy atoms
    System s({12.011, 1.008, 12.011});
    s.bond(0, 1, 1.09);
    s.bond(1, 2, 1.09);
    const auto e = s.error(BondConstraints::HydrogenBonds, false);
    EXPECT_NE(e.find("hydrogen 1 (id) is bonded to both 0 and 2"), std::string::npos) << e;
  }
  {  // H2 outside a water
    System s({1.008, 1.008});
    s.bond(0, 1, 0.74);
    const auto e = s.error(BondConstraints::HydrogenBonds, false);
    EXPECT_NE(e.find("particles 0 and 1 (ids) are two hydrogens"), std::string::npos) << e;
  }
  {  // a water with unequal O-H lengths
    System s({15.9994, 1.008, 1.008});
    s.bond(0, 1, 1.0);
    s.bond(0, 2, 0.98);
    s.angle(1, 0, 2, kTheta);
    const auto e = s.error(BondConstraints::None, true);
    EXPECT_NE(e.find("O-H lengths 1 and 0.98"), std::string::npos) << e;
  }
  {  // a water without an angle or an H-H bond
    System s({15.9994, 1.008, 1.008});
    s.bond(0, 1, 1.0);
    s.bond(0, 2, 1.0);
    const auto e = s.error(BondConstraints::None, true);
    EXPECT_NE(e.find("neither an H-H bond nor an H-O-H angle"), std::string::npos) << e;
  }
  {  // five hydrogens on one atom
    System s({14.007, 1.008, 1.008, 1.008, 1.008, 1.008});
    for (int h = 1; h <= 5; ++h) s.bond(0, h, 1.01);
    const auto e = s.error(BondConstraints::HydrogenBonds, false);
    EXPECT_NE(e.find("particle 0 (id) has more than 4 bonded hydrogens"), std::string::npos) << e;
  }
  {  // all_bonds with a bond given twice: dependent constraints
    System s({12.011, 1.008});
    s.bond(0, 1, 1.09);
    s.bond(0, 1, 1.09);
    const auto e = s.error(BondConstraints::AllBonds, false);
    EXPECT_NE(e.find("particles 0 and 1 (ids) are bonded twice"), std::string::npos) << e;
  }
  // A bond whose length is unknown.
  System s({12.011, 1.008});
  s.bond(0, 1, kNone);
  const auto missing = s.error(BondConstraints::HydrogenBonds, false);
  EXPECT_NE(missing.find("the bond 0-1 (ids) has no length"), std::string::npos) << missing;
}

TEST(ConstraintPlan, RepartitionedHydrogensAreFoundByTheirElement) {
  // The waters and methane with hydrogens of 3.024 (hydrogen mass repartitioning, as the JAC
  // benchmark's prmtop): by mass alone nothing is a hydrogen; with the elements the plan is the
  // one of the unmodified masses.
  System s = waters_and_methane();
  const ConstraintPlan light = s.plan(BondConstraints::HydrogenBonds, true);
  for (double& m : s.mass) m = m < 2.2 ? 3.024 : m - 2.0;
  EXPECT_EQ(s.plan(BondConstraints::HydrogenBonds, true).constraint_count(), 0u);
  s.element = {8, 1, 1, 8, 1, 1, 6, 1, 1, 1, 1};
  const ConstraintPlan heavy = s.plan(BondConstraints::HydrogenBonds, true);
  EXPECT_EQ(heavy.constraint_count(), light.constraint_count());
  ASSERT_EQ(heavy.waters.size(), 2u);
  ASSERT_EQ(heavy.clusters.size(), 1u);
  EXPECT_EQ(heavy.clusters[0].count, 4);
  EXPECT_EQ(heavy.waters[0].geometry.m_h, 3.024);  // SETTLE takes the masses as they are
}

/// The plan of a config's topology file, masses by particle id and the geometry of its terms.
ConstraintPlan plan_of(const std::string& yaml, BondConstraints bonds) {
  const auto config = novamd::io::parse_config(yaml, "constraints.yaml", {});
  const auto initial = novamd::io::build_initial_system(config);
  const auto molecular = novamd::io::molecular_system(config);
  const auto mass = novamd::constraints::masses_by_id(initial.particles, config.system.species);
  const auto element =
      novamd::constraints::atomic_numbers_by_id(initial.particles, config.system.species);
  const auto geometry = novamd::constraints::term_geometry(molecular.topology, molecular.bonded);
  return plan_constraints(molecular.topology,
                          {mass, element, geometry.bond_length, geometry.angle_theta0},
                          ConstraintRequest{bonds, true});
}

TEST(ConstraintPlanFiles, SpceWaterBoxIsAThousandRigidWaters) {
  const ConstraintPlan plan = plan_of(novamd::test::kWaterExampleSystem +
                                          "forces:\n"
                                          "  - lennard_jones: {cutoff: 9.0}\n"
                                          "integrator: {type: velocity_verlet, timestep: 0.5}\n"
                                          "run: {steps: 0}\n",
                                      BondConstraints::HydrogenBonds);
  ASSERT_EQ(plan.waters.size(), 1000u);
  EXPECT_TRUE(plan.clusters.empty());
  EXPECT_EQ(plan.constraint_count(), 3000u);
  for (const auto& w : plan.waters) {
    ASSERT_DOUBLE_EQ(w.geometry.d_oh, 1.0);
    ASSERT_NEAR(w.geometry.d_hh, 1.632980861, 1e-9);  // 109.47 degrees
    ASSERT_DOUBLE_EQ(w.geometry.m_h, 1.008);
  }
}

TEST(ConstraintPlanFiles, AmberDipeptideHasItsWatersAndSixHydrogenClusters) {
  const ConstraintPlan plan = plan_of(novamd::test::kDipeptideExampleSystem +
                                          "forces:\n"
                                          "  - lennard_jones: {cutoff: 10.0}\n"
                                          "integrator: {type: velocity_verlet, timestep: 0.5}\n"
                                          "run: {steps: 0}\n",
                                      BondConstraints::HydrogenBonds);
  ASSERT_EQ(plan.waters.size(), 861u);
  // TIP3P: O-H 0.9572 A, H-O-H 104.52 degrees (no H-H bond in this flexible prmtop).
  EXPECT_NEAR(plan.waters[0].geometry.d_oh, 0.9572, 1e-6);
  EXPECT_NEAR(plan.waters[0].geometry.d_hh, 2 * 0.9572 * std::sin(52.26 * std::numbers::pi / 180),
              1e-4);
  // ACE-ALA-NME: two methyls and ALA's CB (3 H each), two amide N-H and CA-H: 12 hydrogens.
  ASSERT_EQ(plan.clusters.size(), 6u);
  int hydrogens = 0;
  for (const auto& c : plan.clusters) hydrogens += c.count;
  EXPECT_EQ(hydrogens, 12);
  EXPECT_EQ(plan.constraint_count(), 861u * 3 + 12);
}

TEST(ConstraintPlanFiles, RepartitionedPrmtopWithoutAtomicNumbersIsPlannedByAtomNames) {
  // The dipeptide's prmtop with its hydrogens made 3.024 heavy and its ATOMIC_NUMBER section
  // removed (as the JAC benchmark's file is): the elements come from the atom names (H..., as
  // OpenMM guesses them), and the plan is the unmodified file's.
  std::ifstream in(NOVAMD_SOURCE_DIR "/examples/amber-dipeptide/dipeptide.prmtop");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto section = [&](const std::string& flag) {
    const auto begin = text.find("%FLAG " + flag + "\n");
    return std::pair{begin, text.find("%FLAG", begin + 1)};
  };
  auto [z_begin, z_end] = section("ATOMIC_NUMBER");
  ASSERT_NE(z_begin, std::string::npos);
  text.erase(z_begin, z_end - z_begin);
  auto [m_begin, m_end] = section("MASS");
  std::string masses = text.substr(m_begin, m_end - m_begin);
  for (std::size_t at; (at = masses.find("1.00794700E+00")) != std::string::npos;)
    masses.replace(at, 14, "3.02400000E+00");
  text.replace(m_begin, m_end - m_begin, masses);
  novamd::test::TempDir dir;
  dir.write("heavy.prmtop", text);
  const std::string system =
      "units: real\n"
      "system:\n"
      "  topology: {read: " +
      (dir.path() / "heavy.prmtop").string() +
      ", coordinates: " NOVAMD_SOURCE_DIR
      "/examples/amber-dipeptide/dipeptide.inpcrd}\n"
      "forces:\n"
      "  - lennard_jones: {cutoff: 10.0}\n"
      "integrator: {type: velocity_verlet, timestep: 0.5}\n"
      "run: {steps: 0}\n";
  const ConstraintPlan plan = plan_of(system, BondConstraints::HydrogenBonds);
  EXPECT_EQ(plan.waters.size(), 861u);
  EXPECT_EQ(plan.clusters.size(), 6u);
  EXPECT_EQ(plan.constraint_count(), 861u * 3 + 12);
  EXPECT_EQ(plan.waters[0].geometry.m_h, 3.024);
}

}  // namespace

namespace {

TEST(ConstraintPlan, AllBondsHoldEachMoleculeAsOneCoupledSet) {
  // Two rigid waters go to SETTLE; the methane's four bonds are one set, whose K^-1 couples
  // each C-H bond to the other three through the carbon (the angles' theta0, 109.47 degrees).
  System s = waters_and_methane();
  for (int a = 7; a <= 10; ++a)
    for (int b = a + 1; b <= 10; ++b) s.angle(a, 6, b, kTheta);
  const auto plan = s.plan(BondConstraints::AllBonds, true);
  EXPECT_EQ(plan.waters.size(), 2u);
  EXPECT_TRUE(plan.clusters.empty());
  ASSERT_EQ(plan.coupled.size(), 1u);
  const auto& set = plan.coupled[0];
  EXPECT_EQ(set.ids, (std::vector<std::int32_t>{6, 7, 8, 9, 10}));
  EXPECT_EQ(set.constraints.size(), 4u);
  EXPECT_EQ(plan.constraint_count(), 2u * 3 + 4);
  // K_kl = w_C cos(theta) / (w_C + w_H) for every pair of C-H bonds (equal lengths): K =
  // (1 - c) I + c J with c that value (J: all ones, J^2 = 4 J), whose inverse is
  // (I - c J / (1 + 3 c)) / (1 - c).
  const double wc = 1.0 / 12.011, wh = 1.0 / 1.008;
  const double c = wc * std::cos(kTheta) / (wc + wh);
  const double diagonal = (1.0 - c / (1.0 + 3 * c)) / (1.0 - c);
  const double off = -c / ((1.0 + 3 * c) * (1.0 - c));
  ASSERT_EQ(set.inverse_offsets.size(), 5u);
  for (std::size_t r = 0; r < 4; ++r) {
    for (auto e = set.inverse_offsets[r]; e < set.inverse_offsets[r + 1]; ++e) {
      const bool on_diagonal = std::size_t(set.inverse_column[std::size_t(e)]) == r;
      EXPECT_NEAR(set.inverse_value[std::size_t(e)], on_diagonal ? diagonal : off, 1e-14);
    }
  }
  // |off| = 0.027, above the 0.02 below which entries are dropped: every row keeps all four.
  EXPECT_NEAR(std::abs(off), 0.0273, 1e-4);
  EXPECT_EQ(set.inverse_column.size(), 16u);
}

TEST(ConstraintPlan, ListedBondTypesMakeStarsClustersAndOtherGroupsCoupledSets) {
  // A butane-like chain C0-C1-C2-C3 (bond type 2 in the file's numbering) with a hydrogen on
  // C0 and two on C3 (type 1), and an ethane-like pair C8-C9 (type 2) apart.
  System s({12.011, 12.011, 12.011, 12.011, 1.008, 1.008, 1.008, 12.011, 12.011});
  for (int c = 0; c < 3; ++c) s.bond(c, c + 1, 1.53, 1);
  s.bond(0, 4, 1.09);
  s.bond(3, 5, 1.09);
  s.bond(3, 6, 1.09);
  s.bond(7, 8, 1.54, 1);
  {  // type 1: the C-H bonds, stars around C0 and C3
    const auto plan = s.plan(BondConstraints::ListedTypes, false, {1});
    ASSERT_EQ(plan.clusters.size(), 2u);
    EXPECT_TRUE(plan.coupled.empty());
    EXPECT_EQ(plan.clusters[0].central, 0);
    EXPECT_EQ(plan.clusters[0].count, 1);
    EXPECT_EQ(plan.clusters[1].central, 3);
    EXPECT_EQ(plan.clusters[1].count, 2);
  }
  {  // type 2: the chain of three C-C bonds is no star (coupled); the lone C-C pair is a cluster
    const auto plan = s.plan(BondConstraints::ListedTypes, false, {2});
    ASSERT_EQ(plan.coupled.size(), 1u);
    EXPECT_EQ(plan.coupled[0].ids, (std::vector<std::int32_t>{0, 1, 2, 3}));
    EXPECT_EQ(plan.coupled[0].constraints.size(), 3u);
    ASSERT_EQ(plan.clusters.size(), 1u);
    EXPECT_EQ(plan.clusters[0].central, 7);
    EXPECT_EQ(plan.constraint_count(), 4u);
  }
  {  // both: one molecule of six bonds, coupled, and the pair
    const auto plan = s.plan(BondConstraints::ListedTypes, false, {1, 2});
    ASSERT_EQ(plan.coupled.size(), 1u);
    EXPECT_EQ(plan.coupled[0].constraints.size(), 6u);
    EXPECT_EQ(plan.constraint_count(), 7u);
  }
  const auto e = s.error(BondConstraints::ListedTypes, false, {3});
  EXPECT_NE(e.find("no bond has type 3"), std::string::npos) << e;
}

TEST(ConstraintPlan, AllBondsRefusesAMoleculeBeyondTheCoupledSolversSize) {
  // A chain of 6,001 bonds: more than kMaxCoupledConstraints, refused before any matrix is made.
  System s(std::vector<double>(6002, 12.011));
  for (int i = 0; i < 6001; ++i) s.bond(i, i + 1, 1.53);
  const auto e = s.error(BondConstraints::AllBonds, false);
  EXPECT_NE(e.find("particles 0 to 6001 (ids) has 6001 bonds"), std::string::npos) << e;
  EXPECT_NE(e.find("at most 6000"), std::string::npos) << e;
}

}  // namespace
