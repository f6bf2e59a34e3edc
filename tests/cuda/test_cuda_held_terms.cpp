// Bonded terms made constant by constraints (forces/held_terms.hpp) on the CUDA backend: on the
// AMBER dipeptide in TIP3P with PME (bonds to hydrogens and rigid waters held), in double,
// leaving them out changes neither the energies, nor the virial with the constraints' share,
// nor a velocity Verlet trajectory, beyond round-off; each family's energy, the held terms'
// constant included, is the CPU's. Skipped where no CUDA device exists.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>

#include "novamd/backend/cpu_backend.hpp"
#include "novamd/backend/cuda_device.hpp"
#include "novamd/backend/make_backend.hpp"
#include "support/held_dipeptide.hpp"

namespace {

using novamd::backend::EnergyRequest;
using novamd::integrate::VelocityCondition;

TEST(CudaHeldTerms, LeavingThemOutChangesNoEnergyVirialOrTrajectoryAndMatchesTheCpu) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  const auto left_out = novamd::backend::make_backend("cuda", novamd::test::held_dipeptide(true));
  const auto evaluated = novamd::backend::make_backend("cuda", novamd::test::held_dipeptide(false));
  novamd::backend::CpuBackend cpu(novamd::test::held_dipeptide(true));
  for (auto* b : {left_out.get(), evaluated.get()}) b->constrain_initial_state();
  cpu.constrain_initial_state();

  const auto a = left_out->observables(), b = evaluated->observables(), c = cpu.observables();
  std::printf("start: potential energies %.3g kcal/mol apart (of %.6g), CPU %.3g\n",
              a.potential_energy - b.potential_energy, b.potential_energy,
              a.potential_energy - c.potential_energy);
  ASSERT_EQ(a.term_energy.size(), c.term_energy.size());
  for (std::size_t t = 0; t < a.term_energy.size(); ++t) {
    // The same sums in another order (the CPU's: 1e-13 of the whole, as its own test measures).
    EXPECT_NEAR(a.term_energy[t], b.term_energy[t], 1e-12 * std::abs(b.potential_energy)) << t;
    // The CPU in double: PME's grid sums and the fixed-point pair sums (2^-32 a force unit) in
    // another order; 1e-10 of the whole.
    EXPECT_NEAR(a.term_energy[t], c.term_energy[t], 1e-10 * std::abs(c.potential_energy)) << t;
  }
  for (int k = 0; k < novamd::core::kTensorComponents; ++k)
    EXPECT_NEAR(a.virial.c[k], b.virial.c[k], 1e-8) << "component " << k;

  const double dt = 1.0;  // fs
  for (int step = 0; step < 20; ++step) {
    for (auto* backend : {left_out.get(), evaluated.get()}) {
      backend->kick(dt / 2);
      backend->drift(dt, VelocityCondition::Apply);
      backend->compute_forces(EnergyRequest::Skip);
      backend->kick(dt / 2);
    }
  }
  const auto position = [](const novamd::core::ParticleData& p, std::size_t i) {
    return p.position.get(i);
  };
  const auto& pa = left_out->particles_on_host();
  const auto& pb = evaluated->particles_on_host();
  const double dx = novamd::test::largest_difference(pa, pb, position).first;
  std::printf("after 20 steps: positions %.3g A apart\n", dx);
  // The CPU's 1.3e-14 A, with the fixed-point pair sums' quantum (2.3e-10 kcal/mol/A, some
  // 1e-13 A over 20 fs at these masses) and margin.
  EXPECT_LT(dx, 1e-11);
}

}  // namespace
