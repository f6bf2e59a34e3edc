// The backend owns the box (backend::Backend::box, rescale_box): a rescaled box scales every
// position by the ratio of the edges and gives the forces of a system built afresh in that box
// (to round-off: the neighbour lists follow the box rather than being built again); a box too small
// for a cutoff is refused. The barostats build on this.

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "novamd/backend/cpu_backend.hpp"
#include "novamd/core/error.hpp"
#include "support/force_scale.hpp"

namespace {

using novamd::backend::BackendSetup;
using novamd::backend::CpuBackend;
using novamd::backend::EnergyRequest;
using novamd::core::Box;

/// An LJ mixture of 600 particles on Verlet lists (skin 0.3), not reordered.
BackendSetup lj_setup() {
  auto setup = novamd::test::lj_mixture(600, novamd::core::Precision::Double,
                                        novamd::forces::Truncation::ShiftEnergy);
  setup.neighbors.method = novamd::neighbors::NeighborMethod::NeighborList;
  setup.neighbors.reorder_every = 0;
  setup.neighbors.skin = 0.3;
  return setup;
}

Box scaled(const Box& box, double fx, double fy, double fz) {
  return Box(box.length().x * fx, box.length().y * fy, box.length().z * fz);
}

TEST(BoxRescale, ForcesMatchASystemBuiltInTheNewBox) {
  const auto setup = lj_setup();
  CpuBackend backend(setup);
  backend.compute_forces(EnergyRequest::Compute);  // lists built in the old box
  const Box target = scaled(setup.box, 1.03, 0.98, 1.01);
  backend.rescale_box(target);
  EXPECT_EQ(backend.box().length().y, target.length().y);
  backend.compute_forces(EnergyRequest::Compute);

  BackendSetup fresh_setup = setup;  // the same positions, scaled the same way
  fresh_setup.box = target;
  for (std::size_t i = 0; i < fresh_setup.particles.size(); ++i) {
    fresh_setup.particles.position.x[i] *= target.length().x / setup.box.length().x;
    fresh_setup.particles.position.y[i] *= target.length().y / setup.box.length().y;
    fresh_setup.particles.position.z[i] *= target.length().z / setup.box.length().z;
  }
  CpuBackend fresh(fresh_setup);
  fresh.compute_forces(EnergyRequest::Compute);
  // Same positions (one multiplication each). The list followed the box (no build: a shrink of
  // 2% leaves 0.98 x 2.8 - 2.5 = 0.244 of its 0.3 skin), so its pairs come in another order
  // than the fresh list's: forces equal to round-off, 1e-13 of the sum of pair-force
  // magnitudes (a missed or extra pair within the cutoff would be off by its whole force).
  EXPECT_EQ(backend.neighbor_list_builds(), 1);
  const auto& a = backend.particles_on_host();
  const auto& b = fresh.particles_on_host();
  EXPECT_EQ(a.position.x, b.position.x);
  fresh_setup.particles = b;
  const auto sums = novamd::test::force_magnitude_sums(fresh_setup);
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_NEAR(a.force.x[i], b.force.x[i], 1e-13 * sums[i]) << i;
    ASSERT_NEAR(a.force.y[i], b.force.y[i], 1e-13 * sums[i]) << i;
    ASSERT_NEAR(a.force.z[i], b.force.z[i], 1e-13 * sums[i]) << i;
  }
  const double energy = fresh.observables().potential_energy;
  EXPECT_NEAR(backend.observables().potential_energy, energy, 1e-13 * std::abs(energy));
  const auto w = fresh.observables().virial;
  for (int k = 0; k < novamd::core::kTensorComponents; ++k)  // every component
    EXPECT_NEAR(backend.observables().virial.c[k], w.c[k], 1e-13 * std::abs(w.trace())) << k;
}

TEST(BoxRescale, ExpandingTheBoxLowersTheDensePressure) {
  // A dense LJ mixture is under positive virial pressure: an expansion must lower the virial,
  // and rescaling back must give the first state (to round-off of two multiplications).
  const auto setup = lj_setup();
  CpuBackend backend(setup);
  backend.compute_forces(EnergyRequest::Compute);
  const double before = backend.observables().virial.trace();
  backend.rescale_box(scaled(setup.box, 1.05, 1.05, 1.05));
  backend.compute_forces(EnergyRequest::Compute);
  EXPECT_LT(backend.observables().virial.trace(), before);
  backend.rescale_box(setup.box);
  backend.compute_forces(EnergyRequest::Compute);
  EXPECT_NEAR(backend.observables().virial.trace(), before, 1e-9 * std::abs(before));
}

TEST(BoxRescale, ABoxTooSmallForTheCutoffIsARunError) {
  const auto setup = lj_setup();  // cutoff 2.5
  CpuBackend backend(setup);
  const double edge = setup.box.shortest_edge();
  const double shrink = 4.9 / edge;  // shortest edge 4.9 < 2 x 2.5
  try {
    backend.rescale_box(scaled(setup.box, shrink, shrink, shrink));
    FAIL() << "expected core::RunError";
  } catch (const novamd::core::RunError& e) {
    EXPECT_NE(std::string(e.what()).find("exceeds half its shortest edge"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(backend.box().length().x, setup.box.length().x);  // unchanged on refusal
}

}  // namespace
