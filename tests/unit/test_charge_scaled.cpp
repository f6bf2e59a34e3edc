// Per-particle charges in pair terms (physics/charge_scaled.hpp): a potential per unit charge
// product, scaled by q_i q_j read from the particles' `charge` field by every CPU traversal.
// Checked with every particle of one type and random charges (so that no type table could give
// the forces), the Yukawa potential per unit charge cut at 2.5, against a double loop that
// writes q_i q_j exp(-r / lambda) / r out.

#include <gtest/gtest.h>

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

}  // namespace
