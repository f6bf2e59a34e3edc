// The CUDA bonded terms (forces/cuda_bonded_force.cu) against the CPU backend on fresh random
// chains that cross the box's faces, with the particles reordered along the Morton curve at
// every evaluation (the device id map must follow): bonds alone at every precision (bonded terms
// are evaluated in double everywhere), and bonds after a Yukawa pair term cut at 2.5 whose
// Verlet lists leave out the pairs within three bonds (the bonded term adds to the pair term's
// output; the pairs left out are checked against the CPU's, test_exclusions.cpp); and each
// angle, dihedral and improper family on the same chains with their angles, dihedrals and
// impropers (tests/support/bonded_molecules.hpp). Bitwise repeatable.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <variant>
#include <vector>

#include "novamd/backend/cpu_backend.hpp"
#include "novamd/backend/cuda_device.hpp"
#include "novamd/backend/make_backend.hpp"
#include "support/bonded_molecules.hpp"
#include "support/force_scale.hpp"
#include "support/systems.hpp"

namespace {

using novamd::backend::BackendSetup;
using novamd::backend::EnergyRequest;
using novamd::core::Precision;

constexpr double kEps = std::numeric_limits<double>::epsilon();

#define SKIP_WITHOUT_GPU() \
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped"

/// 2,000 chains of 5 in a box of edge 24 (10,000 particles: a reorder moves most of them).
BackendSetup chains(Precision precision, bool with_pairs) {
  auto s = novamd::test::random_chains(2000, 5, 24.0, 31);
  if (!with_pairs) s.forces.clear();
  s.precision = precision;
  s.neighbors.reorder_every = 1;
  return s;
}

/// The oracle's setup: the same system in double.
BackendSetup in_double(BackendSetup s) {
  s.precision = Precision::Double;
  return s;
}

struct Result {
  novamd::core::ParticleData particles;  // id order
  novamd::backend::Observables observables;
};

Result evaluate(novamd::backend::Backend& b) {
  b.compute_forces(EnergyRequest::Skip);     // reordered, forces only
  b.compute_forces(EnergyRequest::Compute);  // reordered again, with energy
  return {b.particles_on_host(), b.observables()};
}

class CudaBondedTerms : public testing::TestWithParam<Precision> {};

TEST_P(CudaBondedTerms, BondsAloneMatchTheCpuInDoubleAtEveryPrecision) {
  SKIP_WITHOUT_GPU();
  const auto setup = chains(GetParam(), false);
  novamd::backend::CpuBackend cpu(in_double(setup));
  auto gpu = novamd::backend::make_backend("cuda", setup);
  const Result c = evaluate(cpu), g = evaluate(*gpu);
  EXPECT_EQ(gpu->reorders(), 2);
  double f_max = 0;
  for (std::size_t i = 0; i < setup.particles.size(); ++i)
    f_max = std::max({f_max, std::abs(c.particles.force.x[i]), std::abs(c.particles.force.y[i]),
                      std::abs(c.particles.force.z[i])});
  // The same double arithmetic in each term (FMA contraction on the GPU may differ by an ulp
  // per operation), two terms per particle at most: 16 eps of the largest force.
  for (std::size_t i = 0; i < setup.particles.size(); ++i) {
    ASSERT_NEAR(g.particles.force.x[i], c.particles.force.x[i], 16 * kEps * f_max) << i;
    ASSERT_NEAR(g.particles.force.y[i], c.particles.force.y[i], 16 * kEps * f_max) << i;
    ASSERT_NEAR(g.particles.force.z[i], c.particles.force.z[i], 16 * kEps * f_max) << i;
  }
  const double n = static_cast<double>(setup.particles.size());
  const double e = c.observables.potential_energy;
  EXPECT_NEAR(g.observables.potential_energy, e, 4 * n * kEps * e);
  const double w = std::abs(c.observables.virial.c[0]) + std::abs(c.observables.virial.c[1]) +
                   std::abs(c.observables.virial.c[2]);
  for (int k = 0; k < novamd::core::kTensorComponents; ++k)
    EXPECT_NEAR(g.observables.virial.c[k], c.observables.virial.c[k], 4 * n * kEps * w) << k;

  auto again = novamd::backend::make_backend("cuda", setup);  // no atomics: the same bits
  const Result g2 = evaluate(*again);
  EXPECT_EQ(g2.particles.force.x, g.particles.force.x);
  EXPECT_EQ(g2.observables.virial, g.observables.virial);
}

TEST_P(CudaBondedTerms, BondsAfterAPairTermMatchTheCpu) {
  SKIP_WITHOUT_GPU();
  const auto setup = chains(GetParam(), true);
  novamd::backend::CpuBackend cpu(in_double(setup));
  auto gpu = novamd::backend::make_backend("cuda", setup);
  const Result c = evaluate(cpu), g = evaluate(*gpu);
  // Per particle, relative to the pair term's S_i = sum_j |f_ij| plus the bonds' forces: the
  // pair bound of test_cuda_backend.cpp (1e-12 in double; (32 + 4 L / r_min) FP32 eps for the
  // FP32 pair arithmetic, plus 4 sqrt(N) FP32 eps for FP32 sums).
  const auto scale = novamd::test::force_magnitude_sums(setup);
  const auto& p = setup.particles;
  double r_min = std::numeric_limits<double>::max();
  const auto box = setup.box.view<double>();
  for (std::size_t i = 0; i < p.size(); ++i)
    for (std::size_t j = i + 1; j < p.size(); ++j) {
      const auto d = box.minimum_image(p.position.get(i) - p.position.get(j));
      r_min = std::min(r_min, std::sqrt(novamd::core::dot(d, d)));
    }
  const double eps_f = std::numeric_limits<float>::epsilon();
  const double fp32 = (32.0 + 4.0 * setup.box.length().z / r_min) * eps_f;
  const double bound = GetParam() == Precision::Double ? 1e-12
                       : GetParam() == Precision::Mixed
                           ? fp32
                           : fp32 + 4.0 * std::sqrt(static_cast<double>(p.size())) * eps_f;
  const auto& fc = c.particles.force;
  const auto& fg = g.particles.force;
  for (std::size_t i = 0; i < setup.particles.size(); ++i) {
    const double s = scale[i] + std::abs(fc.x[i]) + std::abs(fc.y[i]) + std::abs(fc.z[i]);
    ASSERT_NEAR(fg.x[i], fc.x[i], bound * s) << i;
    ASSERT_NEAR(fg.y[i], fc.y[i], bound * s) << i;
    ASSERT_NEAR(fg.z[i], fc.z[i], bound * s) << i;
  }
}

/// The chains with their angles, dihedrals and one improper each, evaluated by `family` alone.
BackendSetup molecules(Precision precision, const novamd::forces::BondedSettings& family) {
  auto s = chains(precision, false);
  novamd::test::add_angles_and_torsions(s.topology, 2000, 5);
  s.bonded = {family};
  return s;
}

TEST_P(CudaBondedTerms, EveryAngleDihedralAndImproperFamilyMatchesTheCpu) {
  SKIP_WITHOUT_GPU();
  for (const auto& family : novamd::test::angle_and_torsion_families()) {
    const auto setup = molecules(GetParam(), family);
    const char* name = std::visit([](const auto& f) { return f.kName; }, family);
    SCOPED_TRACE(name);
    novamd::backend::CpuBackend cpu(in_double(setup));
    auto gpu = novamd::backend::make_backend("cuda", setup);
    const Result c = evaluate(cpu), g = evaluate(*gpu);
    std::vector<novamd::core::Vec3<double>> r(setup.particles.size());  // ids are indices here
    for (std::size_t i = 0; i < r.size(); ++i) r[i] = setup.particles.position.get(i);
    const auto ref = novamd::test::bonded_direct_sum(setup.bonded, setup.topology, r, &setup.box);
    double total = 0;
    for (const double m : ref.magnitudes) total += m;
    const double mean = total / static_cast<double>(r.size());
    // The same double arithmetic on both sides but for FMA contraction and the device's sin, cos
    // and atan2 (within 2 ulp of the host's): each term's forces differ by a few dozen eps of
    // their size, S_i = sum over the particle's terms of |f|, or, where a torsion's slope
    // nearly vanishes, of its stiffness times the angle's error: the mean S as a floor.
    for (std::size_t i = 0; i < setup.particles.size(); ++i) {
      const double bound = 64 * kEps * (ref.magnitudes[i] + mean);
      ASSERT_NEAR(g.particles.force.x[i], c.particles.force.x[i], bound) << i;
      ASSERT_NEAR(g.particles.force.y[i], c.particles.force.y[i], bound) << i;
      ASSERT_NEAR(g.particles.force.z[i], c.particles.force.z[i], bound) << i;
    }
    EXPECT_NEAR(g.observables.potential_energy, c.observables.potential_energy, 64 * kEps * total);
    for (int k = 0; k < novamd::core::kTensorComponents; ++k)  // f r with |r| < 4.2
      EXPECT_NEAR(g.observables.virial.c[k], c.observables.virial.c[k], 5 * 64 * kEps * total) << k;
    EXPECT_GT(c.observables.potential_energy, 0.0);

    auto again = novamd::backend::make_backend("cuda", setup);  // no atomics: the same bits
    const Result g2 = evaluate(*again);
    EXPECT_EQ(g2.particles.force.x, g.particles.force.x);
    EXPECT_EQ(g2.observables.virial, g.observables.virial);
  }
}

INSTANTIATE_TEST_SUITE_P(Precisions, CudaBondedTerms,
                         testing::Values(Precision::Double, Precision::Mixed, Precision::Single),
                         [](const auto& info) {
                           return std::string(novamd::core::to_string(info.param));
                         });

}  // namespace
