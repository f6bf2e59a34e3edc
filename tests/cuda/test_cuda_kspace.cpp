// The Ewald sum and smooth PME on the CUDA backend against the CPU backend (the oracle) on fresh
// random ions (a NaCl-like mixture with a net charge, so the background term counts), for the
// Ewald sum and PME of orders 4, 5 and 6 on a grid of unequal, odd and even lengths, in double and
// mixed precision (and on a coarse grid, where the stencils wrap): forces, energy and virial
// tensor; steps without energy give the same forces
// within the bound; after a box rescale they agree again (the influence function follows the
// box); a second GPU evaluation repeats the first bit for bit. Skipped without a CUDA device.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "novamd/backend/cuda_device.hpp"
#include "novamd/backend/make_backend.hpp"
#include "novamd/io/config.hpp"
#include "novamd/io/initial_system.hpp"

namespace {

using novamd::backend::EnergyRequest;

novamd::io::Config ions(const std::string& coulomb, int seed) {
  return novamd::io::parse_config(
      fmt::format("units: real\n"
                  "seed: {}\n"
                  "system:\n"
                  "  box: [24.0, 25.0, 26.0]\n"
                  "  species: [{{name: Na, charge: 1, mass: 22.99}}, {{name: Cl, charge: -1, "
                  "mass: 35.45}}]\n"
                  "  structure: {{generate: {{lattice: random, counts: {{Na: 260, Cl: 250}}, "
                  "min_separation: 2.2}}}}\n"
                  "forces:\n"
                  "  - coulomb: {{{}}}\n"
                  "integrator: {{type: velocity_verlet, timestep: 1.0}}\n"
                  "run: {{steps: 0}}\n",
                  seed, coulomb),
      "ions.yaml");
}

std::unique_ptr<novamd::backend::Backend> backend_for(const novamd::io::Config& config,
                                                      const char* name,
                                                      novamd::core::Precision precision) {
  auto initial = novamd::io::build_initial_system(config);
  return novamd::backend::make_backend(name, {config.units,
                                              config.system.species,
                                              initial.box,
                                              std::move(initial.particles),
                                              config.forces,
                                              precision,
                                              config.neighbors,
                                              nullptr,
                                              {},
                                              {}});
}

double largest_force(const novamd::core::ParticleData& p) {
  double largest = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i)
    largest =
        std::max({largest, std::abs(p.force.x[i]), std::abs(p.force.y[i]), std::abs(p.force.z[i])});
  return largest;
}

// Bounds, relative to the largest force and to the energy's magnitude: in double, the GPU's
// charge grid rounds each of the N p^3 contributions by at most 2^-41 e and the Ewald sum's
// phases differ from the CPU's in the last bits, some 1e-12 relative: bound 1e-9. In mixed
// precision the real-space pairs are FP32 (2^-24 relative each, some 100 pairs a particle with
// cancellation), and so is PME's mesh (weights and grid values rounded to 2^-24 relative, the
// float transforms adding some log2(K) such roundings, the interpolation's 125 terms summed in
// FP32: a few 1e-7 of the largest force): bound 2e-5.
void expect_cuda_matches_cpu(const std::string& coulomb, novamd::core::Precision precision,
                             double relative) {
  SCOPED_TRACE(coulomb);
  const int seed = 17;
  const auto config = ions(coulomb, seed);
  auto cpu = backend_for(config, "cpu", novamd::core::Precision::Double);
  auto gpu = backend_for(config, "cuda", precision);
  auto again = backend_for(config, "cuda", precision);
  const auto compare = [&](const char* when) {
    SCOPED_TRACE(when);
    cpu->compute_forces(EnergyRequest::Compute);
    gpu->compute_forces(EnergyRequest::Compute);
    const auto& a = cpu->particles_on_host();
    const auto b = gpu->particles_on_host();
    const double tolerance = relative * largest_force(a);
    ASSERT_GT(largest_force(a), 1.0);  // kcal/mol/A
    for (std::size_t i = 0; i < a.size(); ++i) {
      ASSERT_NEAR(b.force.x[i], a.force.x[i], tolerance) << i;
      ASSERT_NEAR(b.force.y[i], a.force.y[i], tolerance) << i;
      ASSERT_NEAR(b.force.z[i], a.force.z[i], tolerance) << i;
    }
    const auto oa = cpu->observables(), ob = gpu->observables();
    const double scale = std::abs(oa.potential_energy);
    EXPECT_NEAR(ob.potential_energy, oa.potential_energy, relative * scale);
    for (int c = 0; c < 6; ++c)
      EXPECT_NEAR(ob.virial.c[c], oa.virial.c[c], relative * scale) << "component " << c;
    // Without energy: the same forces within the bound (the pair kernels with and without
    // energy are compiled apart and may contract their multiply-adds differently).
    gpu->compute_forces(EnergyRequest::Skip);
    const auto skipped = gpu->particles_on_host();
    for (std::size_t i = 0; i < b.size(); ++i) {
      ASSERT_NEAR(skipped.force.x[i], b.force.x[i], tolerance) << i;
      ASSERT_NEAR(skipped.force.z[i], b.force.z[i], tolerance) << i;
    }
  };
  compare("at the start");
  again->compute_forces(EnergyRequest::Compute);
  const auto repeat = again->particles_on_host();
  gpu->compute_forces(EnergyRequest::Compute);
  const auto first = gpu->particles_on_host();
  for (std::size_t i = 0; i < first.size(); ++i) {
    ASSERT_EQ(repeat.force.x[i], first.force.x[i]) << i;
    ASSERT_EQ(repeat.force.y[i], first.force.y[i]) << i;
    ASSERT_EQ(repeat.force.z[i], first.force.z[i]) << i;
  }
  EXPECT_EQ(again->observables().potential_energy, gpu->observables().potential_energy);
  const auto& L = cpu->box().length();
  const novamd::core::Box stretched(L.x * 1.03, L.y * 0.98, L.z * 1.01);
  cpu->rescale_box(stretched);
  gpu->rescale_box(stretched);
  compare("after a box rescale");
}

TEST(CudaKspace, EwaldAndPmeMatchTheCpuInDoubleAndMixed) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  for (const auto precision : {novamd::core::Precision::Double, novamd::core::Precision::Mixed}) {
    const double relative = precision == novamd::core::Precision::Double ? 1e-9 : 2e-5;
    expect_cuda_matches_cpu("method: ewald, cutoff: 9.0, tolerance: 1e-6", precision, relative);
    for (int order = 4; order <= 6; ++order)
      expect_cuda_matches_cpu(
          fmt::format("method: pme, cutoff: 9.0, tolerance: 1e-6, order: {}, grid: [27, 32, 35]",
                      order),
          precision, relative);
    expect_cuda_matches_cpu("method: pme, cutoff: 9.0, tolerance: 1e-4", precision, relative);
    // A coarse grid: each stencil covers half of an axis, and most points wrap.
    expect_cuda_matches_cpu("method: pme, cutoff: 9.0, tolerance: 1e-6, order: 4, grid: [8, 9, 10]",
                            precision, relative);
  }
}

}  // namespace
