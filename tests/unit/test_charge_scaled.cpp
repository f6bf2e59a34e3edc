// Per-particle charges in pair terms (physics/charge_scaled.hpp): a potential per unit charge
// product, scaled by q_i q_j read from the particles' `charge` field by every CPU traversal.
// Checked with every particle of one type and random charges (so that no type table could give
// the forces), the Yukawa potential per unit charge cut at 2.5, against a double loop that
// writes q_i q_j exp(-r / lambda) / r out. And a sum of two potentials in one pass
// (physics/pair_sum.hpp: Lennard-Jones, not scaled, and the Ewald real space, scaled), against
// the two passes it replaces.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "novamd/core/particles.hpp"
#include "novamd/neighbors/all_pairs_cpu.hpp"
#include "novamd/neighbors/cell_grid.hpp"
#include "novamd/neighbors/cell_list_cpu.hpp"
#include "novamd/neighbors/neighbor_list_cpu.hpp"
#include "novamd/neighbors/verlet_list.hpp"
#include "novamd/physics/charge_scaled.hpp"
#include "novamd/physics/ewald.hpp"
#include "novamd/physics/lennard_jones.hpp"
#include "novamd/physics/pair_sum.hpp"
#include "novamd/physics/truncated.hpp"
#include "novamd/physics/yukawa.hpp"
#include "support/charged_particles.hpp"

namespace {

using novamd::core::Box;
using novamd::core::ParticleData;
using novamd::neighbors::ForceBuffers;
using novamd::test::double_loop;
using novamd::test::kCutoff;
using novamd::test::kLambda;
using novamd::test::random_charged;
using novamd::test::Reference;
using Scaled = novamd::physics::ChargeScaled<novamd::physics::Yukawa<double>>;
using Evaluator = novamd::physics::Truncated<Scaled>;

static_assert(novamd::physics::kScaledByCharges<Scaled>);
static_assert(novamd::physics::kScaledByCharges<Evaluator>);  // the cutoff keeps the mark
static_assert(!novamd::physics::kScaledByCharges<novamd::physics::Yukawa<double>>);

void expect_matches(const ForceBuffers& out, const Reference& ref, const char* traversal) {
  const double eps = std::numeric_limits<double>::epsilon();
  for (std::size_t i = 0; i < ref.force.size(); ++i) {  // up to 64 pairs per particle
    const double tol = 4.0 * 64 * eps * ref.scale[i] + 1e-300;
    ASSERT_NEAR(out.force.x[i], ref.force[i].x, tol) << traversal << ", particle " << i;
    ASSERT_NEAR(out.force.y[i], ref.force[i].y, tol) << traversal << ", particle " << i;
    ASSERT_NEAR(out.force.z[i], ref.force[i].z, tol) << traversal << ", particle " << i;
  }
  EXPECT_NEAR(out.total_energy(), ref.energy,
              4.0 * ref.force.size() * eps * std::abs(ref.energy) + 1e-12)
      << traversal;
}

TEST(ChargeScaledPairs, EveryCpuTraversalScalesByTheParticlesCharges) {
  const Box box(12.0, 10.8, 13.2);
  const ParticleData p = random_charged(box, 1500);
  novamd::physics::PairTable<Scaled::Params> unit(1);
  unit.at(0, 0) = Scaled::make_params(1.0, 1.0, 1.0, kLambda);  // per unit charge product
  const auto table =
      novamd::physics::with_cutoff<Scaled, false>(unit, kCutoff, novamd::physics::Truncation::Cut);
  const auto ref = double_loop(p, box);
  const auto view = box.view<double>();

  ForceBuffers all;
  all.reset(p.size());
  novamd::neighbors::all_pairs_cpu<Evaluator, double, true>(p, view, table.view(), all);
  expect_matches(all, ref, "all pairs");

  ForceBuffers cells;
  cells.reset(p.size());
  novamd::neighbors::CellGrid grid;
  grid.build(p, box, kCutoff);
  novamd::neighbors::cell_list_cpu<Evaluator, double, true>(p, view, table.view(), grid, cells);
  expect_matches(cells, ref, "cell list");

  ForceBuffers listed;
  listed.reset(p.size());
  novamd::neighbors::VerletList list(kCutoff, 0.3);
  list.update(p, box);
  novamd::neighbors::neighbor_list_cpu<Evaluator, double, true>(p, view, table.view(), list,
                                                                listed);
  expect_matches(listed, ref, "neighbor list");

  // Mixed precision: the pair arithmetic in float, charges rounded to float.
  using Mixed =
      novamd::physics::Truncated<novamd::physics::ChargeScaled<novamd::physics::Yukawa<float>>>;
  novamd::physics::PairTable<novamd::physics::Yukawa<float>::Params> unit_f(1);
  unit_f.at(0, 0) = novamd::physics::Yukawa<float>::make_params(1.0, 1.0, 1.0, kLambda);
  const auto table_f =
      novamd::physics::with_cutoff<novamd::physics::ChargeScaled<novamd::physics::Yukawa<float>>,
                                   false>(unit_f, kCutoff, novamd::physics::Truncation::Cut);
  ForceBuffers mixed;
  mixed.reset(p.size());
  novamd::neighbors::neighbor_list_cpu<Mixed, double, true>(p, view, table_f.view(), list, mixed);
  double worst = 0;  // relative to S_i: float separations and exp, a few float eps
  for (std::size_t i = 0; i < p.size(); ++i)
    worst = std::max(worst, std::abs(mixed.force.x[i] - ref.force[i].x) / ref.scale[i]);
  EXPECT_LT(worst, 64 * std::numeric_limits<float>::epsilon());
  EXPECT_GT(worst, 0.0);  // float arithmetic really ran
}

/// Lennard-Jones (epsilon 0.2, sigma 0.3, not scaled by charges) and the Ewald split's
/// real-space Coulomb (k_e 1, alpha 1.1, scaled by q_i q_j) cut at kCutoff, in one pass over one
/// Verlet list, against each potential's own pass; the energy-step passes give each potential's
/// energy bit for bit as its own pass does (the same operations on the same numbers in the same
/// order), the first with the one pass's forces bit for bit, the second with none.
TEST(PairSums, OnePassGivesTheSumOfTwoPotentialsAndEachPartAlone) {
  namespace physics = novamd::physics;
  using Lj = physics::Truncated<physics::LennardJones<double>>;
  using Real = physics::Truncated<physics::EwaldReal<double>>;
  using Sum = physics::PairSum<Lj, Real>;
  static_assert(physics::kReadsCharges<Sum> && !physics::kScaledByCharges<Sum>);
  static_assert(physics::parts_of<Sum>() == 2 && physics::parts_of<Lj>() == 1);
  const Box box(12.0, 10.8, 13.2);
  const ParticleData p = random_charged(box, 1500);
  physics::PairTable<physics::LennardJones<double>::Params> lj_bare(1);
  lj_bare.at(0, 0) = physics::LennardJones<double>::make_params(0.2, 0.3);
  physics::PairTable<physics::EwaldReal<double>::Params> real_bare(1);
  real_bare.at(0, 0) = physics::EwaldReal<double>::make_params(1.0, 1.0, 1.1);
  const auto lj = physics::with_cutoff<physics::LennardJones<double>, false>(
      lj_bare, kCutoff, physics::Truncation::Cut);
  const auto real = physics::with_cutoff<physics::EwaldReal<double>, false>(
      real_bare, kCutoff, physics::Truncation::Cut);
  physics::PairTable<Sum::Params> sum(1);
  sum.at(0, 0) = {lj.view()(0, 0), real.view()(0, 0)};

  const auto view = box.view<double>();
  novamd::neighbors::VerletList list(kCutoff, 0.3);
  list.update(p, box);
  const auto pass = [&]<class E>(const physics::PairTable<typename E::Params>& table) {
    ForceBuffers out;
    out.reset(p.size());
    novamd::neighbors::neighbor_list_cpu<E, double, true>(p, view, table.view(), list, out);
    return out;
  };
  const ForceBuffers lj_alone = pass.operator()<Lj>(lj);
  const ForceBuffers real_alone = pass.operator()<Real>(real);
  const ForceBuffers one_pass = pass.operator()<Sum>(sum);
  const ForceBuffers first = pass.operator()<physics::PairSumEnergyPass<Sum, 0>>(sum);
  const ForceBuffers second = pass.operator()<physics::PairSumEnergyPass<Sum, 1>>(sum);

  const double eps = std::numeric_limits<double>::epsilon();
  double largest = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    ASSERT_EQ(first.force.x[i], one_pass.force.x[i]) << i;  // energy steps: the sum's forces
    ASSERT_EQ(second.force.x[i], 0.0) << i;
    ASSERT_EQ(first.energy[i], lj_alone.energy[i]) << i;
    ASSERT_EQ(second.energy[i], real_alone.energy[i]) << i;
    largest = std::max({largest, std::abs(lj_alone.force.x[i]), std::abs(real_alone.force.x[i])});
  }
  // The sum adds the two pair forces before the sum over pairs: each of about 60 pairs rounds
  // once more, so the bound is a few eps per pair of the largest force.
  bool differs = false;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double separate = lj_alone.force.x[i] + real_alone.force.x[i];
    ASSERT_NEAR(one_pass.force.x[i], separate, 4.0 * 64 * eps * largest) << i;
    differs = differs || one_pass.force.x[i] != lj_alone.force.x[i];
  }
  EXPECT_TRUE(differs);  // the Coulomb part really entered the sum
  const double energy = lj_alone.total_energy() + real_alone.total_energy();
  EXPECT_NEAR(one_pass.total_energy(), energy,
              4.0 * p.size() * eps *
                  (std::abs(lj_alone.total_energy()) + std::abs(real_alone.total_energy())));
  for (int k = 0; k < novamd::core::kTensorComponents; ++k) {
    double together = 0.0, apart = 0.0, scale = 0.0;
    for (std::size_t i = 0; i < p.size(); ++i) {
      together += one_pass.virial[k][i];
      apart += lj_alone.virial[k][i] + real_alone.virial[k][i];
      scale += std::abs(lj_alone.virial[k][i]) + std::abs(real_alone.virial[k][i]);
    }
    EXPECT_NEAR(together, apart, 64 * eps * scale) << "virial component " << k;
  }
}

}  // namespace
