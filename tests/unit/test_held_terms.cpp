// Bonded terms made constant by constraints (forces/held_terms.hpp): a term of two or three
// particles whose every distance is held is left out of the force evaluation, its energy (the
// term at the held geometry) still counted. The split is checked term by term on one water; on
// the AMBER dipeptide in TIP3P with PME (bonds to hydrogens and rigid waters held), leaving the
// terms out changes neither the energies, nor the virial with the constraints' share, nor a
// velocity Verlet trajectory, beyond the constraint tolerance.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "novamd/backend/cpu_backend.hpp"
#include "novamd/forces/held_terms.hpp"
#include "novamd/physics/harmonic_angle.hpp"
#include "novamd/physics/harmonic_bond.hpp"
#include "novamd/physics/periodic_dihedral.hpp"
#include "support/held_dipeptide.hpp"

namespace {

using novamd::core::HeldDistances;
using novamd::core::TermList;
using novamd::forces::split_held_terms;
using novamd::physics::HarmonicAngle;
using novamd::physics::HarmonicBond;

constexpr double kOh = 1.0, kHh = 1.6;  // a water's held lengths: O = 0, H = 1 and 2

HeldDistances water_held(bool with_hh = true) {
  HeldDistances held;
  held.hold(0, 1, kOh);
  held.hold(2, 0, kOh);  // either order
  if (with_hh) held.hold(1, 2, kHh);
  return held;
}

TEST(HeldTerms, AWatersBondsAreLeftOutWithTheirEnergyAtTheHeldLengths) {
  TermList<2> bonds;
  bonds.type = {0, 0, 1};
  bonds.ids = {0, 1, 0, 2, 1, 2};
  const std::vector<HarmonicBond::Params> params{{100.0, 0.9}, {50.0, 1.5}};
  const HeldDistances held = water_held();
  const auto split = split_held_terms<HarmonicBond>(bonds, params, &held, 4);
  EXPECT_EQ(split.held, 3u);
  EXPECT_EQ(split.evaluated.size(), 0u);
  ASSERT_EQ(split.held_energy.size(), 4u);
  // K (d - r0)^2, each shared half and half: O-H 1.0 each, H-H 0.5.
  const double oh = 100.0 * 0.1 * 0.1, hh = 50.0 * 0.1 * 0.1;
  EXPECT_NEAR(split.held_energy[0], oh, 1e-14);
  EXPECT_NEAR(split.held_energy[1], oh / 2 + hh / 2, 1e-14);
  EXPECT_NEAR(split.held_energy[2], oh / 2 + hh / 2, 1e-14);
  EXPECT_EQ(split.held_energy[3], 0.0);
}

TEST(HeldTerms, AnAngleIsHeldOnlyWhereAllThreeSidesAre) {
  TermList<3> angles;
  angles.type = {0};
  angles.ids = {1, 0, 2};  // H-O-H, the oxygen in the middle
  const std::vector<HarmonicAngle::Params> params{{30.0, 1.6}};
  const HeldDistances rigid = water_held();
  const auto split = split_held_terms<HarmonicAngle>(angles, params, &rigid, 3);
  ASSERT_EQ(split.held, 1u);
  const double theta = 2.0 * std::asin(kHh / (2.0 * kOh));  // the held triangle's angle at O
  const double energy = 30.0 * (theta - 1.6) * (theta - 1.6);
  ASSERT_GT(energy, 1.0);
  for (int id = 0; id < 3; ++id) EXPECT_NEAR(split.held_energy[id], energy / 3, 1e-12) << id;

  const HeldDistances two_sides = water_held(false);  // the angle still bends
  const auto kept = split_held_terms<HarmonicAngle>(angles, params, &two_sides, 3);
  EXPECT_EQ(kept.held, 0u);
  EXPECT_EQ(kept.evaluated.size(), 1u);
  EXPECT_TRUE(kept.held_energy.empty());
  const auto none = split_held_terms<HarmonicAngle>(angles, params, nullptr, 3);
  EXPECT_EQ(none.evaluated.size(), 1u);
}

TEST(HeldTerms, TermsOfFourParticlesAreAlwaysEvaluated) {
  TermList<4> dihedrals;
  dihedrals.type = {0};
  dihedrals.ids = {0, 1, 2, 3};
  novamd::physics::PeriodicDihedral::Params p{};
  HeldDistances all_six;
  for (int a = 0; a < 4; ++a)
    for (int b = a + 1; b < 4; ++b) all_six.hold(a, b, 1.0);
  const auto split =
      split_held_terms<novamd::physics::PeriodicDihedral>(dihedrals, {p}, &all_six, 4);
  EXPECT_EQ(split.held, 0u);
  EXPECT_EQ(split.evaluated.size(), 1u);
}

TEST(HeldTerms, LeavingThemOutChangesNoEnergyVirialOrTrajectory) {
  using novamd::backend::EnergyRequest;
  using novamd::integrate::VelocityCondition;
  novamd::backend::CpuBackend left_out(novamd::test::held_dipeptide(true)),
      evaluated(novamd::test::held_dipeptide(false));
  for (auto* b : {&left_out, &evaluated}) b->constrain_initial_state();
  const auto force = [](const novamd::core::ParticleData& p, std::size_t i) {
    return p.force.get(i);
  };
  const auto position = [](const novamd::core::ParticleData& p, std::size_t i) {
    return p.position.get(i);
  };
  const auto velocity = [](const novamd::core::ParticleData& p, std::size_t i) {
    return p.velocity.get(i);
  };
  const auto compare_observables = [&](const char* when) {
    const auto a = left_out.observables(), b = evaluated.observables();
    double largest_virial = 0.0;
    for (int k = 0; k < novamd::core::kTensorComponents; ++k)
      largest_virial = std::max(largest_virial, std::abs(a.virial.c[k] - b.virial.c[k]));
    std::printf("%s: potential energies %.3g kcal/mol apart (of %.6g), virials %.3g\n", when,
                a.potential_energy - b.potential_energy, b.potential_energy, largest_virial);
    // The held lengths within 1e-12 of themselves: the held terms' energy at the held geometry
    // is their energy at the actual one to round-off (measured: 2e-11 kcal/mol of 8,056).
    EXPECT_NEAR(a.potential_energy, b.potential_energy, 1e-13 * std::abs(b.potential_energy))
        << when;
    ASSERT_EQ(a.term_energy.size(), b.term_energy.size());
    for (std::size_t t = 0; t < a.term_energy.size(); ++t)
      EXPECT_NEAR(a.term_energy[t], b.term_energy[t], 1e-13 * std::abs(b.potential_energy))
          << when << ", term " << t;
    // The constraint forces take up what the held terms no longer give: the total virial is the
    // same to round-off of its parts (some 1e4 kcal/mol; measured: 3e-11).
    for (int k = 0; k < novamd::core::kTensorComponents; ++k)
      EXPECT_NEAR(a.virial.c[k], b.virial.c[k], 1e-9) << when << ", component " << k;
  };
  compare_observables("after the initial constraints");
  // The held terms' forces are left out: the forces differ where the waters' bonds pull.
  EXPECT_GT(novamd::test::largest_difference(left_out.particles_on_host(),
                                             evaluated.particles_on_host(), force)
                .first,
            1.0);

  const double dt = 1.0;  // fs
  for (int step = 0; step < 20; ++step) {
    for (auto* b : {&left_out, &evaluated}) {
      b->kick(dt / 2);
      b->drift(dt, VelocityCondition::Apply);
      b->compute_forces(EnergyRequest::Skip);
      b->kick(dt / 2);
    }
  }
  // Each step's positions come out of SHAKE and SETTLE along the same directions, to 1e-12 of the
  // lengths, and SETTLE is exact: the paths differ by round-off. Measured: 1.3e-14 A and
  // 1.6e-15 A/fs.
  const auto [dx, x_size] = novamd::test::largest_difference(
      left_out.particles_on_host(), evaluated.particles_on_host(), position);
  const auto [dv, v_size] = novamd::test::largest_difference(
      left_out.particles_on_host(), evaluated.particles_on_host(), velocity);
  std::printf("after 20 steps: positions %.3g A apart, velocities %.3g A/fs\n", dx, dv);
  EXPECT_LT(dx, 1e-12);
  EXPECT_LT(dv, 1e-13);
  compare_observables("after 20 steps");
}

}  // namespace
