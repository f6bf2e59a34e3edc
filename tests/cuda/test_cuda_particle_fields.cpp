// The particle store's optional fields on the CUDA backend against the CPU backend (the
// oracle): charges follow their particles through the device's Morton reordering, image counts
// follow the drift kernels (fused kick-drift and plain drift), and both come back from a saved
// and restored state. Skipped, with a message, where no CUDA device exists.

#include <gtest/gtest.h>

#include "novamd/backend/cpu_backend.hpp"
#include "novamd/backend/cuda_backend.hpp"
#include "novamd/backend/cuda_device.hpp"
#include "support/moving_particles.hpp"

namespace {

using novamd::backend::Backend;
using novamd::backend::BackendSetup;
using novamd::core::ParticleData;

using novamd::test::charge_of;

BackendSetup moving_particles_with_fields() {
  return novamd::test::moving_particles_with_fields(3000, 12.0, 29, /*v=*/6.0);
}

/// Velocity Verlet steps (fused kick-drift) and, every third step, a Langevin-like split drift.
void advance(Backend& backend, int steps, double dt) {
  for (int s = 0; s < steps; ++s) {
    if (s % 3 == 0) {
      backend.kick(0.5 * dt);
      backend.drift(0.5 * dt, novamd::integrate::VelocityCondition::Apply);
      backend.drift(0.5 * dt, novamd::integrate::VelocityCondition::Apply);
    } else {
      backend.kick_drift(0.5 * dt, dt, novamd::integrate::VelocityCondition::Apply);
    }
    backend.compute_forces(novamd::backend::EnergyRequest::Compute);
    backend.kick(0.5 * dt);
  }
}

TEST(CudaParticleFields, ChargesAndImagesMatchTheCpuBackend) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  const auto setup = moving_particles_with_fields();
  novamd::backend::CpuBackend cpu(setup);
  auto cuda = novamd::backend::make_cuda_backend(setup);
  advance(cpu, 30, 0.01);
  advance(*cuda, 30, 0.01);
  ASSERT_GT(cuda->reorders(), 0);
  const ParticleData& a = cpu.particles_on_host();
  const ParticleData& b = cuda->particles_on_host();
  int crossed = 0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    ASSERT_EQ(b.id[k], static_cast<std::int32_t>(k));
    ASSERT_EQ(b.charge[k], charge_of(b.id[k]));
    // The same double updates per particle (no forces), up to fused multiply-adds: 60 drifts
    // of a coordinate below 13.2, each rounding by at most 2e-15.
    ASSERT_NEAR(a.position.x[k], b.position.x[k], 1e-12) << k;
    ASSERT_NEAR(a.position.z[k], b.position.z[k], 1e-12) << k;
    ASSERT_EQ(a.image.x[k], b.image.x[k]) << k;
    ASSERT_EQ(a.image.y[k], b.image.y[k]) << k;
    ASSERT_EQ(a.image.z[k], b.image.z[k]) << k;
    crossed += a.image.x[k] != 0 || a.image.y[k] != 0 || a.image.z[k] != 0;
  }
  EXPECT_GT(crossed, 100);
}

TEST(CudaParticleFields, SavedStateCarriesChargesAndImages) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  const auto setup = moving_particles_with_fields();
  auto cuda = novamd::backend::make_cuda_backend(setup);
  advance(*cuda, 12, 0.01);
  const auto state = cuda->save_state();
  auto continued = novamd::backend::make_cuda_backend(setup);
  continued->restore_state(state);
  advance(*cuda, 8, 0.01);
  advance(*continued, 8, 0.01);
  const ParticleData a = cuda->particles_on_host();
  const ParticleData& b = continued->particles_on_host();
  EXPECT_EQ(a.position.x, b.position.x);  // bitwise
  EXPECT_EQ(a.charge, b.charge);
  EXPECT_EQ(a.image.x, b.image.x);
  EXPECT_EQ(a.image.z, b.image.z);
}

}  // namespace
