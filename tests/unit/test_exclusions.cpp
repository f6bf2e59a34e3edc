// Excluded pairs: in a system with bonds, every pair term leaves out the pairs within three
// bonds (1-2, 1-3, 1-4; DESIGN principle 10) on every traversal: Verlet lists in their build
// (neighbors/exclusions.hpp), all pairs and cell lists as they visit the sources
// (neighbors/excluded_rows.hpp). Checked on random chains of 5 that cross the box's faces
// against a plain double loop written out here that skips the pairs of one chain at most 3
// apart in it (the 1-5 pair of a chain is kept): through the backend with the particles
// reordered at every evaluation (the exclusions must follow the ids), and through one force term
// per traversal with ids shuffled in storage, after every particle moved by just under half the
// skin (chains split anew by the periodic boundary, Verlet lists kept) and after a reorder.
// Only the force-matrix decomposition cannot leave pairs out: an input error.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <string>

#include "novamd/backend/cpu_backend.hpp"
#include "novamd/core/error.hpp"
#include "novamd/forces/cpu_force_term.hpp"
#include "support/charged_particles.hpp"
#include "support/systems.hpp"

namespace {

using novamd::backend::BackendSetup;
using novamd::backend::CpuBackend;
using novamd::backend::EnergyRequest;
using novamd::core::ParticleData;
using novamd::neighbors::NeighborMethod;

constexpr int kChainLength = 5;
constexpr double kEps = std::numeric_limits<double>::epsilon();

/// 300 chains of 5 (1,500 particles) in a box of 12 x 10.8 x 13.2, Yukawa (lambda 1.5) cut at
/// `cutoff`, no bonded term.
BackendSetup chains_with_yukawa(NeighborMethod method, std::int64_t reorder_every,
                                double cutoff = novamd::test::kCutoff) {
  auto s = novamd::test::random_chains(300, kChainLength, 12.0, 5);
  s.bonded.clear();
  s.forces = {novamd::forces::YukawaSettings{novamd::test::kLambda, cutoff}};
  s.neighbors.method = method;
  s.neighbors.reorder_every = reorder_every;
  return s;
}

/// Whether the particles of ids a and b are within three bonds: one chain, at most 3 apart.
bool within_three_bonds(std::int32_t a, std::int32_t b) {
  return a / kChainLength == b / kChainLength && std::abs(a - b) <= 3;
}

/// Every pair of `p` (any storage order) within `cutoff` (nearest image) with the species'
/// charges, but those within three bonds; `excluded` counts the pairs left out within the
/// cutoff.
novamd::test::Reference double_loop(const BackendSetup& s, const ParticleData& p, double cutoff,
                                    int& excluded) {
  excluded = 0;
  return novamd::test::cut_yukawa_double_loop(
      p, s.box, [&](std::size_t i) { return s.species[p.type[i]].charge; },
      [&](std::size_t i, std::size_t j) {
        const bool skip = within_three_bonds(p.id[i], p.id[j]);
        excluded += skip;  // asked only within the cutoff
        return skip;
      },
      cutoff);
}

/// Summed terms per particle that the tolerances allow for: every other particle over all
/// pairs; within 2.5 at this density (0.88) about 57, at most twice that.
double pairs_per_particle(double cutoff, std::size_t n) {
  return std::isinf(cutoff) ? static_cast<double>(n) : 128.0;
}

/// Forces (in p's storage order) and energy against the reference. Another summation order
/// over m terms: 4 m eps of S_i = sum_j |f_ij| per component, 4 m eps of sum |v_ij| in energy.
void expect_matches(const novamd::core::Vec3Array& force, double energy,
                    const novamd::test::Reference& ref, double m, const std::string& label) {
  for (std::size_t i = 0; i < ref.force.size(); ++i) {
    const double tol = 4.0 * m * kEps * ref.scale[i] + 1e-300;
    ASSERT_NEAR(force.x[i], ref.force[i].x, tol) << label << ", particle " << i;
    ASSERT_NEAR(force.y[i], ref.force[i].y, tol) << label << ", particle " << i;
    ASSERT_NEAR(force.z[i], ref.force[i].z, tol) << label << ", particle " << i;
  }
  EXPECT_NEAR(energy, ref.energy, 4.0 * m * kEps * ref.energy_scale) << label;
}

struct Case {
  NeighborMethod method;
  double cutoff;
};

std::string case_name(const testing::TestParamInfo<Case>& info) {
  static const char* const kNames[] = {"auto", "all_pairs", "cell_list", "neighbor_list"};
  return std::string(kNames[static_cast<int>(info.param.method)]) +
         (std::isinf(info.param.cutoff) ? "_no_cutoff" : "_cut");
}

class Exclusions : public testing::TestWithParam<Case> {};

TEST_P(Exclusions, EveryMethodLeavesOutThePairsWithinThreeBonds) {
  const auto [method, cutoff] = GetParam();
  const auto setup = chains_with_yukawa(method, 1, cutoff);  // reordered every time
  int excluded = 0;
  const auto ref = double_loop(setup, setup.particles, cutoff, excluded);
  ASSERT_GT(excluded, 1000);  // the test means something
  CpuBackend backend(setup);
  for (int k = 0; k < 3; ++k) backend.compute_forces(EnergyRequest::Compute);
  EXPECT_EQ(backend.reorders(), 3);
  const auto& p = backend.particles_on_host();  // id order, as the setup's
  expect_matches(p.force, backend.observables().potential_energy, ref,
                 pairs_per_particle(cutoff, p.size()), "after 3 reorders");
}

/// A random permutation of n storage places.
std::vector<std::size_t> shuffled(std::size_t n, std::mt19937_64& rng) {
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::shuffle(order.begin(), order.end(), rng);
  return order;
}

/// Moves every particle by `length` in a random direction, wrapped into the box; returns how
/// many crossed a face of the box.
int move_all(ParticleData& p, const novamd::core::Box& box, double length, std::mt19937_64& rng) {
  std::normal_distribution<double> normal;
  const auto view = box.view<double>();
  const auto L = box.length();
  int crossed = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    novamd::core::Vec3<double> d{normal(rng), normal(rng), normal(rng)};
    d *= length / std::sqrt(novamd::core::dot(d, d));
    const auto r = p.position.get(i) + d;
    crossed += r.x < 0 || r.x >= L.x || r.y < 0 || r.y >= L.y || r.z < 0 || r.z >= L.z;
    p.position.set(i, view.wrap(r));
  }
  return crossed;
}

/// Bonds (consecutive ids of a chain) whose two particles lie on opposite sides of the box,
/// farther apart along an axis than half the box: chains split by the periodic boundary.
int split_bonds(const ParticleData& p, const novamd::core::Box& box) {
  std::vector<std::size_t> at(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) at[p.id[i]] = i;
  const auto L = box.length();
  int split = 0;
  for (std::size_t a = 1; a < p.size(); ++a) {
    if (a % kChainLength == 0) continue;
    const auto d = p.position.get(at[a]) - p.position.get(at[a - 1]);
    split += std::abs(d.x) > L.x / 2 || std::abs(d.y) > L.y / 2 || std::abs(d.z) > L.z / 2;
  }
  return split;
}

TEST_P(Exclusions, EveryTraversalFollowsMovesAcrossTheBoundaryAndReorders) {
  const auto [method, cutoff] = GetParam();
  const auto setup = chains_with_yukawa(method, 0, cutoff);
  std::mt19937_64 rng(17);
  ParticleData p = setup.particles;
  novamd::core::permute(p, shuffled(p.size(), rng));  // ids differ from storage places
  const auto exclusions = setup.topology.exclusions(novamd::core::kExcludedSeparations);
  auto term = novamd::forces::make_cpu_force_term(
      setup.forces[0], setup.species, setup.units, novamd::core::Precision::Double, setup.neighbors,
      setup.box.shortest_edge(), std::nullopt, &exclusions);
  const double m = pairs_per_particle(cutoff, p.size());
  novamd::neighbors::ForceBuffers out;
  const auto check = [&](const std::string& phase) {
    out.reset(p.size());
    term->add_to(p, setup.box, out, true);
    int excluded = 0;
    const auto ref = double_loop(setup, p, cutoff, excluded);
    ASSERT_GT(excluded, 1000) << phase;
    expect_matches(out.force, out.total_energy(), ref, m, phase);
  };
  check("shuffled");
  // Just under half the skin: a Verlet list is still complete, and kept.
  const double skin =
      setup.neighbors.skin_for(std::isinf(cutoff) ? 1.0 : cutoff, setup.box.shortest_edge());
  const int split_before = split_bonds(p, setup.box);
  EXPECT_GT(move_all(p, setup.box, 0.49 * skin, rng), 5);  // about 25 expected
  EXPECT_GT(split_bonds(p, setup.box), 20);
  EXPECT_NE(split_bonds(p, setup.box), split_before);  // chains split anew by the boundary
  check("moved");
  if (method == NeighborMethod::NeighborList) {
    EXPECT_EQ(term->list_builds(), 1);
  }
  novamd::core::permute(p, shuffled(p.size(), rng));
  term->invalidate_lists();
  check("reordered");
}

INSTANTIATE_TEST_SUITE_P(Traversals, Exclusions,
                         testing::Values(Case{NeighborMethod::NeighborList, novamd::test::kCutoff},
                                         Case{NeighborMethod::AllPairs, novamd::test::kCutoff},
                                         Case{NeighborMethod::CellList, novamd::test::kCutoff},
                                         Case{NeighborMethod::Auto, novamd::forces::kNoCutoff}),
                         case_name);

// Without exclusions the traversals take every pair: the same chains without bonds give the
// double loop that skips nothing (the masked and unmasked loops are one code path apart).
TEST(ExclusionsAbsent, EveryTraversalTakesEveryPairWithoutBonds) {
  for (const auto method :
       {NeighborMethod::AllPairs, NeighborMethod::CellList, NeighborMethod::NeighborList}) {
    auto setup = chains_with_yukawa(method, 0);
    setup.topology = novamd::core::Topology(static_cast<std::int32_t>(setup.particles.size()));
    const auto& p = setup.particles;
    const auto ref = novamd::test::cut_yukawa_double_loop(
        p, setup.box, [&](std::size_t i) { return setup.species[p.type[i]].charge; },
        [](std::size_t, std::size_t) { return false; });
    CpuBackend backend(setup);
    backend.compute_forces(EnergyRequest::Compute);
    expect_matches(backend.particles_on_host().force, backend.observables().potential_energy, ref,
                   pairs_per_particle(novamd::test::kCutoff, p.size()),
                   "method " + std::to_string(static_cast<int>(method)));
  }
}

TEST(ExclusionsInBlocks, AForceMatrixBlockWithExcludedPairsIsAnInputError) {
  const auto setup = chains_with_yukawa(NeighborMethod::Auto, 0);
  const auto exclusions = setup.topology.exclusions(novamd::core::kExcludedSeparations);
  const auto n = static_cast<std::ptrdiff_t>(setup.particles.size());
  try {
    novamd::forces::make_cpu_force_term(setup.forces[0], setup.species, setup.units,
                                        novamd::core::Precision::Double, setup.neighbors,
                                        setup.box.shortest_edge(),
                                        novamd::neighbors::PairBlock{0, n / 2, 0, n}, &exclusions);
    ADD_FAILURE() << "no error";
  } catch (const novamd::core::InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("forces.yukawa: the system has excluded pairs"), std::string::npos)
        << message;
    EXPECT_NE(message.find("parallel.grid"), std::string::npos) << message;
  }
}

}  // namespace
