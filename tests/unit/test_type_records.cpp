// Lennard-Jones + Ewald real-space tables held as a record per type (physics/type_records.hpp),
// which the GPU's cluster kernel reads in place of the table in single precision: every entry
// the records rebuild is within a few float roundings of the table's, for Lorentz-Berthelot
// species of every truncation and for the AMBER dipeptide's prmtop (whose A and B coefficients
// follow the same rules to their printed digits); a table with a pair of its own (NBFIX), a
// geometric sigma or a per-pair Coulomb difference is refused, and the kernel reads the table.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "novamd/core/species.hpp"
#include "novamd/core/units.hpp"
#include "novamd/forces/pair_sum_terms.hpp"
#include "novamd/io/config.hpp"
#include "novamd/physics/type_records.hpp"
#include "support/example_systems.hpp"

namespace {

using novamd::forces::CoulombMethod;
using novamd::forces::CoulombSettings;
using novamd::forces::LennardJonesSettings;
using novamd::physics::TypeRecords;

CoulombSettings pme(double cutoff) {
  CoulombSettings c;
  c.method = CoulombMethod::Pme;
  c.cutoff = cutoff;
  c.ewald.alpha = 0.3;
  return c;
}

/// Four species: three Lennard-Jones sites of different sizes and a bare charge (no like pair).
const novamd::core::SpeciesTable kSpecies(
    {{"C", 0.0, 12.0, 0}, {"O", 0.0, 16.0, 0}, {"N", 0.0, 14.0, 0}, {"H", 0.4, 1.0, 0}});

LennardJonesSettings lorentz_berthelot(novamd::forces::Truncation truncation) {
  LennardJonesSettings s;
  s.cutoff = 9.0;
  s.truncation = truncation;
  s.pairs = {{"C", "C", 0.086, 3.40}, {"O", "O", 0.21, 2.96}, {"N", "N", 0.17, 3.25}};
  return s;
}

/// Calls check(table, records) with the one-pass table of `lj` and `coulomb` in float and what
/// from_table makes of it.
template <class Check>
void with_records(const LennardJonesSettings& lj, const CoulombSettings& coulomb,
                  const novamd::core::SpeciesTable& species, Check&& check) {
  novamd::forces::with_lj_coulomb_sum<float>(
      lj, coulomb, species, novamd::core::real_units(), [&]<class Sum>(const auto& table) -> int {
        if constexpr (TypeRecords<Sum>::kAvailable) {
          check.template operator()<Sum>(table, TypeRecords<Sum>::from_table(table, lj.cutoff));
        } else {  // CHARMM switching: a table always
          ADD_FAILURE() << "these settings have no switching";
        }
        return 0;
      });
}

double relative(double x, double y) {
  return x == y ? 0.0 : std::abs(x - y) / std::max(std::abs(x), std::abs(y));
}

/// Every rebuilt entry against the table's: C12, C6 and the shifts within the records' rounding
/// (TypeRecords::kTolerance, 64 float roundings, derived there), the rest bitwise.
template <class Sum, class Table, class Records>
void expect_rebuilt(const Table& table, const Records& records) {
  ASSERT_TRUE(records.has_value());
  const auto& [per_type, shared] = *records;
  ASSERT_EQ(int(per_type.size()), table.num_types());
  for (int a = 0; a < table.num_types(); ++a) {
    for (int b = 0; b < table.num_types(); ++b) {
      const auto& entry = table.view()(a, b);
      const auto rebuilt = TypeRecords<Sum>::combine(per_type[a], per_type[b], shared);
      constexpr double kRebuilt = TypeRecords<Sum>::kTolerance;
      EXPECT_LE(relative(entry.first.potential.c12, rebuilt.first.potential.c12), kRebuilt);
      EXPECT_LE(relative(entry.first.potential.c6, rebuilt.first.potential.c6), kRebuilt);
      EXPECT_LE(relative(entry.first.energy_shift, rebuilt.first.energy_shift), kRebuilt);
      EXPECT_LE(relative(entry.first.force_at_cutoff, rebuilt.first.force_at_cutoff), kRebuilt);
      EXPECT_EQ(entry.first.cutoff_squared, rebuilt.first.cutoff_squared);
      EXPECT_EQ(entry.second.potential.alpha, rebuilt.second.potential.alpha);
      EXPECT_EQ(entry.second.energy_shift, rebuilt.second.energy_shift);
    }
  }
}

TEST(TypeRecords, LorentzBerthelotSpeciesAreRebuiltInEveryTruncation) {
  using novamd::forces::Truncation;
  for (const auto truncation : {Truncation::Cut, Truncation::ShiftEnergy, Truncation::ShiftForce}) {
    SCOPED_TRACE(int(truncation));
    with_records(
        lorentz_berthelot(truncation), pme(9.0), kSpecies,
        [&]<class Sum>(const auto& table, const auto& records) {
          expect_rebuilt<Sum>(table, records);
          // The bare charge H has no Lennard-Jones with anything.
          const auto& [per_type, shared] = *records;
          EXPECT_EQ(per_type[3].root_eps4, 0.0f);
          EXPECT_EQ(TypeRecords<Sum>::combine(per_type[3], per_type[1], shared).first.potential.c6,
                    0.0f);
          if (truncation != Truncation::Cut)  // the shifts are not zero: compared above
            EXPECT_NE(table.view()(0, 1).first.energy_shift, 0.0f);
        });
  }
}

TEST(TypeRecords, APairOfItsOwnOrOtherMixingIsReadAsATable) {
  auto nbfix = lorentz_berthelot(novamd::forces::Truncation::Cut);
  nbfix.pairs.push_back({"C", "O", 0.15, 3.0});  // not (3.40 + 2.96) / 2, sqrt(0.086 x 0.21)
  auto geometric = lorentz_berthelot(novamd::forces::Truncation::Cut);
  geometric.mixing = novamd::forces::Mixing::Geometric;
  for (const auto& lj : {nbfix, geometric}) {
    with_records(lj, pme(9.0), kSpecies, [&]<class Sum>(const auto&, const auto& records) {
      EXPECT_FALSE(records.has_value());
    });
  }
  // An entry a quarter of the tolerance off still passes (the rebuilt entries here are within
  // some 1e-7 of the table's); one five times the tolerance off does not.
  with_records(lorentz_berthelot(novamd::forces::Truncation::Cut), pme(9.0), kSpecies,
               [&]<class Sum>(const auto& table, const auto&) {
                 for (const auto [factor, passes] :
                      {std::pair{0.25, true}, std::pair{-0.25, true}, std::pair{5.0, false}}) {
                   auto changed = table;
                   auto& c12 = changed.at(0, 2).first.potential.c12;
                   c12 = float(double(c12) * (1.0 + factor * TypeRecords<Sum>::kTolerance));
                   EXPECT_EQ(TypeRecords<Sum>::from_table(changed, 9.0).has_value(), passes)
                       << factor;
                 }
               });
}

/// The pair evaluated from the records directly (evaluate_direct: the GPU cluster kernel's path)
/// against the sum evaluated from the rebuilt entry, for every type pair at distances from
/// 0.8 sigma to past the cutoff: force and energy within 64 float roundings of the size of their
/// largest term (each path rounds some twenty times, and the Gaussian's exponent, up to
/// alpha^2 r_c^2 = 7.3, carries its own rounding into exp); the energy passes give the sum's force
/// (pass 0) or none (pass 1), and energies that add to the sum's; a pair off the mask or
/// past the cutoff gives exact zeros, even at r = 0.
template <class Sum, class Table, class Records>
void expect_direct_follows_entry(const Table& table, const Records& records) {
  using R = TypeRecords<Sum>;
  using Pass0 = novamd::physics::PairSumEnergyPass<Sum, 0>;
  using Pass1 = novamd::physics::PairSumEnergyPass<Sum, 1>;
  static_assert(R::template kDirect<Sum> && R::template kDirect<Pass0>);
  ASSERT_TRUE(records.has_value());
  const auto& [per_type, shared] = *records;
  const auto direct = R::direct_of(shared);
  const float qi = 0.417f, qj = -0.834f;
  constexpr double kDirectTolerance = 64 * 0.5 * std::numeric_limits<float>::epsilon();
  for (int a = 0; a < table.num_types(); ++a) {
    for (int b = 0; b < table.num_types(); ++b) {
      const auto entry = R::combine(per_type[a], per_type[b], shared);
      const double sigma = double(per_type[a].half_sigma) + per_type[b].half_sigma;
      for (double r = 0.8 * std::max(sigma, 1.0); r < 10.0; r += 0.05) {
        const float r2 = float(r * r);
        const auto expected = Sum::evaluate(r2, entry, qi * qj);
        const auto got =
            R::template evaluate_direct<Sum>(r2, per_type[a], per_type[b], direct, qi, qj, true);
        const auto lj = novamd::physics::scaled_part<typename R::First>(r2, entry.first, 1.0f);
        const auto coulomb = novamd::physics::scaled_part<
            novamd::physics::Truncated<novamd::physics::EwaldReal<float>, false>>(r2, entry.second,
                                                                                  qi * qj);
        const double force_scale = std::abs(lj.force_over_r) + std::abs(coulomb.force_over_r) +
                                   std::abs(double(entry.first.potential.c12) / std::pow(r, 14));
        const double energy_scale = std::abs(lj.energy) + std::abs(coulomb.energy) +
                                    std::abs(double(entry.first.potential.c12) / std::pow(r, 12)) +
                                    std::abs(entry.first.energy_shift);
        SCOPED_TRACE("types " + std::to_string(a) + ", " + std::to_string(b) +
                     ", r = " + std::to_string(r));
        EXPECT_LE(std::abs(double(got.force_over_r) - expected.force_over_r),
                  kDirectTolerance * force_scale);
        EXPECT_LE(std::abs(double(got.energy) - expected.energy), kDirectTolerance * energy_scale);
        const auto lj_pass =
            R::template evaluate_direct<Pass0>(r2, per_type[a], per_type[b], direct, qi, qj, true);
        const auto coulomb_pass =
            R::template evaluate_direct<Pass1>(r2, per_type[a], per_type[b], direct, qi, qj, true);
        EXPECT_EQ(lj_pass.force_over_r, got.force_over_r);
        EXPECT_EQ(coulomb_pass.force_over_r, 0.0f);
        // The parts add to the sum's energy: to its last rounding (on the host the compiler may
        // fuse a part's last product into the sum's addition; the GPU tests ask bitwise equality
        // of the forces of energy steps and other steps).
        EXPECT_LE(std::abs(double(lj_pass.energy) + coulomb_pass.energy - got.energy),
                  std::numeric_limits<float>::epsilon() *
                      (std::abs(lj_pass.energy) + std::abs(coulomb_pass.energy)));
        if (r >= 9.0) EXPECT_EQ(got.force_over_r, 0.0f);
        const auto off_mask =
            R::template evaluate_direct<Sum>(r2, per_type[a], per_type[b], direct, qi, qj, false);
        EXPECT_EQ(off_mask.force_over_r, 0.0f);
        EXPECT_EQ(off_mask.energy, 0.0f);
      }
      const auto at_zero =
          R::template evaluate_direct<Sum>(0.0f, per_type[a], per_type[b], direct, qi, qj, false);
      EXPECT_EQ(at_zero.force_over_r, 0.0f);
      EXPECT_EQ(at_zero.energy, 0.0f);
    }
  }
}

TEST(TypeRecords, TheDirectPairFollowsTheRebuiltEntryInCutAndShiftedTruncations) {
  for (const auto truncation :
       {novamd::forces::Truncation::Cut, novamd::forces::Truncation::ShiftEnergy}) {
    with_records(lorentz_berthelot(truncation), pme(9.0), kSpecies,
                 [&]<class Sum>(const auto& table, const auto& records) {
                   if constexpr (TypeRecords<Sum>::template kDirect<Sum>) {
                     expect_direct_follows_entry<Sum>(table, records);
                   } else {
                     ADD_FAILURE() << "cut and energy-shifted LJ with PME evaluate directly";
                   }
                 });
  }
}

TEST(TypeRecords, TheAmberDipeptidesCoefficientsFollowTheRules) {
  const auto config = novamd::io::parse_config(
      novamd::test::kDipeptideExampleSystem +
          "forces:\n  - lennard_jones: {cutoff: 9.0}\n"
          "  - coulomb: {method: pme, cutoff: 9.0, tolerance: 5.0e-4}\n"
          "integrator: {type: velocity_verlet, timestep: 1.0}\nrun: {steps: 0}\n",
      "dipeptide.yaml", {});
  const auto& lj = std::get<LennardJonesSettings>(config.forces.at(0));
  auto coulomb = std::get<CoulombSettings>(config.forces.at(1));
  coulomb.ewald.alpha = 0.3;  // as the box would resolve it; the records do not depend on it
  with_records(lj, coulomb, config.system.species,
               [&]<class Sum>(const auto& table, const auto& records) {
                 EXPECT_GT(table.num_types(), 5);
                 expect_rebuilt<Sum>(table, records);
               });
}

}  // namespace
