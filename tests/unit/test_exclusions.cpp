// Excluded pairs (neighbors/exclusions.hpp): in a system with bonds, the pair terms leave out
// the pairs within three bonds (1-2, 1-3, 1-4; DESIGN principle 10) in the Verlet-list build.
// Checked on random chains of 5 that cross the box's faces, with the particles reordered at
// every evaluation (the lists must follow the ids), against a plain double loop written out
// here that skips the pairs of one chain at most 3 apart in it (the 1-5 pair of a chain is
// kept); methods that cannot leave pairs out are input errors.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "novamd/backend/cpu_backend.hpp"
#include "novamd/core/error.hpp"
#include "support/charged_particles.hpp"
#include "support/systems.hpp"

namespace {

using novamd::backend::BackendSetup;
using novamd::backend::CpuBackend;
using novamd::backend::EnergyRequest;
using novamd::neighbors::NeighborMethod;

constexpr int kChainLength = 5;

/// 300 chains of 5 in a box of edge 12, Yukawa (lambda 1.5) cut at 2.5, no bonded term.
BackendSetup chains_with_yukawa(NeighborMethod method, std::int64_t reorder_every) {
  auto s = novamd::test::random_chains(300, kChainLength, 12.0, 5);
  s.bonded.clear();
  s.neighbors.method = method;
  s.neighbors.reorder_every = reorder_every;
  return s;
}

/// Every pair within the cutoff (nearest image) with the species' charges, but those of one
/// chain at most 3 apart; `excluded` counts the pairs left out.
novamd::test::Reference double_loop(const BackendSetup& s, int& excluded) {
  const auto& p = s.particles;
  excluded = 0;
  return novamd::test::cut_yukawa_double_loop(
      p, s.box, [&](std::size_t i) { return s.species[p.type[i]].charge; },
      [&](std::size_t i, std::size_t j) {
        const bool skip = i / kChainLength == j / kChainLength && j - i <= 3;
        if (skip) {  // counted only within the cutoff: the loop asks after the cutoff test
          ++excluded;
        }
        return skip;
      });
}

TEST(Exclusions, VerletListsLeaveOutThePairsWithinThreeBonds) {
  const auto setup = chains_with_yukawa(NeighborMethod::Auto, 1);  // reordered every time
  int excluded_within_cutoff = 0;
  const auto ref = double_loop(setup, excluded_within_cutoff);
  ASSERT_GT(excluded_within_cutoff, 1000);  // the test means something
  CpuBackend backend(setup);
  for (int k = 0; k < 3; ++k) backend.compute_forces(EnergyRequest::Compute);
  EXPECT_EQ(backend.reorders(), 3);
  const auto& p = backend.particles_on_host();  // id order
  const double eps = std::numeric_limits<double>::epsilon();
  // Another summation order over at most 64 pairs per particle: 4 x 64 eps of S_i.
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double tol = 4.0 * 64 * eps * ref.scale[i] + 1e-300;
    ASSERT_NEAR(p.force.x[i], ref.force[i].x, tol) << i;
    ASSERT_NEAR(p.force.y[i], ref.force[i].y, tol) << i;
    ASSERT_NEAR(p.force.z[i], ref.force[i].z, tol) << i;
  }
  EXPECT_NEAR(backend.observables().potential_energy, ref.energy,
              4.0 * p.size() * eps * std::abs(ref.energy));
}

TEST(Exclusions, AMethodThatCannotLeavePairsOutIsAnInputError) {
  for (const auto method : {NeighborMethod::AllPairs, NeighborMethod::CellList}) {
    try {
      CpuBackend backend(chains_with_yukawa(method, 0));
      ADD_FAILURE() << "no error";
    } catch (const novamd::core::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("neighbors.method"), std::string::npos) << e.what();
    }
  }
  auto unbounded = chains_with_yukawa(NeighborMethod::Auto, 0);
  unbounded.forces = {novamd::forces::YukawaSettings{1.5, novamd::forces::kNoCutoff}};
  try {
    CpuBackend backend(unbounded);
    ADD_FAILURE() << "no error";
  } catch (const novamd::core::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("forces.yukawa: the system has excluded pairs"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
