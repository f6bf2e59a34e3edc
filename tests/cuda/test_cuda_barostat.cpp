// Constant pressure on the CUDA backend against the CPU's: the LJ liquid of the restart tests
// under stochastic cell rescaling (anisotropic, a move every 3 steps), 60 steps in double on
// both; and 1,000 rigid waters under the Monte Carlo barostat (semi-isotropic, every 3 steps),
// their molecules moved by their centres. The moves draw the same numbers on every backend
// (core::RandomStream on the host), so the boxes differ only by the forces' rounding, carried
// through 20 moves (a Monte Carlo move's verdict could flip only where its criterion fell within
// that rounding of the draw). Skipped where no CUDA device exists.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "novamd/backend/cpu_backend.hpp"
#include "novamd/backend/cuda_device.hpp"
#include "novamd/backend/make_backend.hpp"
#include "novamd/io/checkpoint.hpp"
#include "support/held_dipeptide.hpp"
#include "support/restart_check.hpp"

namespace {

/// The checkpoints after `steps` steps of `config` in double on the CPU and on the GPU.
std::pair<novamd::io::CheckpointData, novamd::io::CheckpointData> cpu_and_cuda(
    const std::string& config, std::int64_t steps) {
  novamd::test::TempDir cpu, gpu;
  cpu.write("config.yaml", config);
  gpu.write("config.yaml", config);
  novamd::test::run_in(cpu, "cpu", "double", steps, false);
  novamd::test::run_in(gpu, "cuda", "double", steps, false);
  return {novamd::io::read_checkpoint(cpu.path() / "run.chk"),
          novamd::io::read_checkpoint(gpu.path() / "run.chk")};
}

/// Each of `b`'s values within relative + absolute of `a`'s.
void expect_values_near(const std::vector<double>& a, const std::vector<double>& b, double relative,
                        double absolute) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t k = 0; k < a.size(); ++k)
    EXPECT_NEAR(b[k], a[k], relative * std::abs(a[k]) + absolute) << k;
}

/// Both boxes moved from the cubic `start` and 1e-10 of an edge apart.
void expect_boxes_moved_alike(const novamd::io::CheckpointData& a,
                              const novamd::io::CheckpointData& b, double start) {
  for (int d = 0; d < 3; ++d) {
    EXPECT_NE(a.box[d], start) << d;
    EXPECT_NEAR(b.box[d], a.box[d], 1e-10 * a.box[d]) << d;
  }
}

TEST(CudaBarostat, MovesTheBoxAsTheCpuDoes) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  const std::string config =
      novamd::test::restart_config("{type: bussi, timestep: 0.005, temperature: 1.2, tau: 0.2}") +
      "barostat: {type: c_rescale, pressure: 1.0, period: 0.2, compressibility: 0.1, "
      "coupling: anisotropic, every: 3}\n";
  const auto [a, b] = cpu_and_cuda(config, 60);
  const double start = std::cbrt(864 / 0.8442);  // the box before any move
  for (int d = 0; d < 3; ++d) {
    EXPECT_NE(a.box[d], start) << d;  // the box moved
    // The pair sums differ by some 1e-15 relative between the backends (their orders differ);
    // over 60 steps of a liquid such differences grow by a few orders of magnitude, and a move
    // changes an edge by some 1e-4: 1e-10 of the edge bounds the difference generously.
    EXPECT_NEAR(b.box[d], a.box[d], 1e-10 * a.box[d]) << d;
  }
  ASSERT_EQ(a.barostat.values.size(), b.barostat.values.size());
  EXPECT_NEAR(b.barostat.values[0], a.barostat.values[0],
              1e-8 * std::abs(a.barostat.values[0]) + 1e-10);  // the moves' energy
}

TEST(CudaBarostat, MonteCarloMovesMoleculesAsTheCpuDoes) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  const std::string config = novamd::test::rigid_water_npt_restart_config("semi_isotropic");
  const auto [a, b] = cpu_and_cuda(config, 30);
  EXPECT_NE(a.box[0], a.box[2]);  // semi-isotropic: x and z moved apart (the box was cubic)
  EXPECT_EQ(a.box[0], a.box[1]);
  for (int d = 0; d < 3; ++d) EXPECT_NEAR(b.box[d], a.box[d], 1e-10 * a.box[d]) << d;
  ASSERT_EQ(a.barostat.values.size(), b.barostat.values.size());
  // The energy account, the sample's U, and the counts of tries and kept moves (the last two).
  const auto& x = a.barostat.values;
  const auto& y = b.barostat.values;
  EXPECT_NEAR(y[0], x[0], 1e-7 * std::abs(x[0]) + 1e-7);
  EXPECT_NEAR(y[1], x[1], 1e-9 * std::abs(x[1]));
  EXPECT_EQ(y[y.size() - 2], x[x.size() - 2]);
  EXPECT_EQ(y.back(), x.back());
  EXPECT_GT(x.back(), 0.0);  // some moves were kept
  EXPECT_LT(x.back(), x[x.size() - 2]);  // and some put back (4 of 10 kept on the CPU)
}

// MTTK (anisotropic) on both backends, 60 steps in double: the box follows the strain rates,
// which the pressure pushes at every step, so the backends' rounding grows as in any
// trajectory; 1e-10 of the edge as for c_rescale.
// In blocks of 4 steps (`every`) too, the pressure read at the blocks' ends only, and isotropic.
TEST(CudaBarostat, MttkMovesTheBoxAsTheCpuDoes) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  // isotropic: D A D as one dilation and a scaled drift
  for (const char* coupling : {"anisotropic", "anisotropic, every: 4", "isotropic, every: 4"}) {
    const std::string config =
        novamd::test::restart_config(
            "{type: nose_hoover, timestep: 0.005, temperature: 1.2, tau: 0.2}") +
        "barostat: {type: mttk, pressure: 1.0, period: 0.5, coupling: " + coupling + "}\n";
    const auto [a, b] = cpu_and_cuda(config, 60);
    expect_boxes_moved_alike(a, b, std::cbrt(864 / 0.8442));
    expect_values_near(a.integrator.values, b.integrator.values, 1e-8, 1e-10);
  }
}

// Stochastic cell rescaling (anisotropic) and MTTK (isotropic, every step and in blocks of 4) on
// 1,000 rigid waters, 30 steps in double on both backends: the molecules' centres and their
// velocities move with the box, from the molecular pressure (CPU sums in molecule order, segment
// sums on the GPU: 1e-15 apart), so the boxes differ by the forces' rounding carried through the
// moves; 1e-10 of the edge as above.
TEST(CudaBarostat, MolecularBarostatsMoveTheBoxAsTheCpuDoes) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  for (const std::string& config : {novamd::test::rigid_water_rescale_config("anisotropic"),
                                    novamd::test::rigid_water_mttk_config("isotropic"),
                                    novamd::test::rigid_water_mttk_config("isotropic, every: 4")}) {
    const auto [a, b] = cpu_and_cuda(config, 30);
    expect_boxes_moved_alike(a, b, std::cbrt(29915.108975000017));  // the example's box
    expect_values_near(a.barostat.values, b.barostat.values, 1e-7, 1e-7);
    expect_values_near(a.integrator.values, b.integrator.values, 1e-7, 1e-7);
  }
}

// The molecular pressure's parts and the centres' velocity moves (backend/molecule_pressure.hpp)
// on the GPU against the CPU: the AMBER dipeptide in 861 rigid waters with PME, velocities drawn
// at random, in double. The centres' kinetic tensor sums the same terms in another order (1e-12
// of its trace); the molecular virial takes the forces, whose pair sums are fixed point on the
// GPU (2^-32 of a force unit) and PME's grid sums in another order: 1e-9 of the atomic virial's
// scale (some 1,000 kcal/mol) bounds both, where the molecules' inner share alone is 100 times
// that. After a velocity move, every velocity agrees to 1e-15 A/fs.
TEST(CudaMolecularPressure, SumsAndVelocityMovesMatchTheCpu) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  const auto setup =
      novamd::test::held_dipeptide_moved_by_molecules(novamd::test::kDipeptidePmeForces, 11);
  novamd::backend::CpuBackend cpu(setup);
  const auto gpu = novamd::backend::make_backend("cuda", setup);
  const auto c = cpu.barostat_totals(), g = gpu->barostat_totals();
  const auto atomic = cpu.observables();
  const double scale =
      std::abs(atomic.virial.c[0]) + std::abs(atomic.virial.c[1]) + std::abs(atomic.virial.c[2]);
  for (int k = 0; k < novamd::core::kTensorComponents; ++k) {
    EXPECT_NEAR(g.kinetic.c[k], c.kinetic.c[k], 1e-12 * c.kinetic.trace()) << k;
    EXPECT_NEAR(g.virial.c[k], c.virial.c[k], 1e-9 * scale) << k;
  }
  EXPECT_GT(std::abs(c.virial.c[0] - atomic.virial.c[0]), 1e-7 * scale);  // not the atomic one
  const auto kc = cpu.moved_kinetic_tensor(), kg = gpu->moved_kinetic_tensor();
  EXPECT_NEAR(kg.c[1], kc.c[1], 1e-12 * kc.trace());
  const novamd::core::Vec3<double> factor{1.02, 0.97, 1.005};
  cpu.scale_velocities_by_axis(factor);
  gpu->scale_velocities_by_axis(factor);
  const auto velocity = [](const novamd::core::ParticleData& p, std::size_t i) {
    return p.velocity.get(i);
  };
  const auto [difference, size] =
      novamd::test::largest_difference(cpu.particles_on_host(), gpu->particles_on_host(), velocity);
  EXPECT_GT(size, 0.01);
  EXPECT_LT(difference, 1e-15);
}

}  // namespace
