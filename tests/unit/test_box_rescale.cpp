// The backend owns the box (backend::Backend::box, rescale_box): a rescaled box scales every
// position by the ratio of the edges and gives the forces of a system built afresh in that box;
// neighbour lists follow; a box too small for a cutoff is refused. The barostats build on this.

#include <gtest/gtest.h>

#include <string>

#include "novamd/backend/cpu_backend.hpp"
#include "novamd/core/error.hpp"
#include "support/force_scale.hpp"

namespace {

using novamd::backend::BackendSetup;
using novamd::backend::CpuBackend;
using novamd::backend::EnergyRequest;
using novamd::core::Box;

/// An LJ mixture of 600 particles on Verlet lists, not reordered (the summation order then
/// depends only on the lists, which a rescaled box and a fresh one build alike).
BackendSetup lj_setup() {
  auto setup = novamd::test::lj_mixture(600, novamd::core::Precision::Double,
                                        novamd::forces::Truncation::ShiftEnergy);
  setup.neighbors.method = novamd::neighbors::NeighborMethod::NeighborList;
  setup.neighbors.reorder_every = 0;
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
  // Same positions (one multiplication each), same lists, same order: bitwise the same.
  EXPECT_EQ(backend.particles_on_host().position.x, fresh.particles_on_host().position.x);
  EXPECT_EQ(backend.particles_on_host().force.x, fresh.particles_on_host().force.x);
  EXPECT_EQ(backend.particles_on_host().force.z, fresh.particles_on_host().force.z);
  EXPECT_EQ(backend.observables().potential_energy, fresh.observables().potential_energy);
  EXPECT_EQ(backend.observables().virial, fresh.observables().virial);  // every component
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
