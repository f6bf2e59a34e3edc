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
#include "support/systems.hpp"

namespace {

using novamd::backend::BackendSetup;
using novamd::backend::CpuBackend;
using novamd::backend::EnergyRequest;
using novamd::core::Vec3;
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

struct Reference {
  std::vector<Vec3<double>> force;  ///< by id
  double energy = 0;
  std::vector<double> scale;  ///< S_i = sum_j |f_ij|
  int excluded_within_cutoff = 0;
};

/// Every pair within the cutoff (nearest image) but those of one chain at most 3 apart.
Reference double_loop(const BackendSetup& s) {
  const auto& p = s.particles;
  const auto box = s.box.view<double>();
  Reference ref;
  ref.force.assign(p.size(), {});
  ref.scale.assign(p.size(), 0.0);
  for (std::size_t i = 0; i < p.size(); ++i)
    for (std::size_t j = i + 1; j < p.size(); ++j) {
      const auto d = box.minimum_image(p.position.get(i) - p.position.get(j));
      const double r = std::sqrt(novamd::core::dot(d, d));
      if (r >= 2.5) continue;
      const bool same_chain = i / kChainLength == j / kChainLength;
      if (same_chain && j - i <= 3) {
        ++ref.excluded_within_cutoff;
        continue;
      }
      const double zz = s.species[p.type[i]].charge * s.species[p.type[j]].charge;
      const double v = zz * std::exp(-r / 1.5) / r;
      const double f_over_r = v * (1 / r + 1 / 1.5) / r;
      ref.force[i] += f_over_r * d;
      ref.force[j] -= f_over_r * d;
      ref.energy += v;
      ref.scale[i] += std::abs(f_over_r) * r;
      ref.scale[j] += std::abs(f_over_r) * r;
    }
  return ref;
}

TEST(Exclusions, VerletListsLeaveOutThePairsWithinThreeBonds) {
  const auto setup = chains_with_yukawa(NeighborMethod::Auto, 1);  // reordered every time
  const auto ref = double_loop(setup);
  ASSERT_GT(ref.excluded_within_cutoff, 1000);  // the test means something
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
