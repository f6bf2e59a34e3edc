// Per-particle charges in the CUDA pair traversals (physics/charge_scaled.hpp): the Yukawa
// potential per unit charge product, cut at 2.5, scaled by q_i q_j read from the particles'
// `charge` field, on every traversal (all pairs in both kernels, cell lists, Verlet lists per
// particle and as cluster pairs) in double and mixed, against a double loop written out
// (support/charged_particles.hpp). Every particle has type 0, so no type table could give these
// forces.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "novamd/backend/cuda_device.hpp"
#include "novamd/forces/cuda_pair_force.cuh"
#include "novamd/neighbors/all_pairs_plan.hpp"
#include "novamd/neighbors/cluster_grid.hpp"
#include "novamd/neighbors/force_arrays_cuda.cuh"
#include "novamd/physics/charge_scaled.hpp"
#include "support/charged_particles.hpp"
#include "support/force_term_cases.hpp"

namespace {

using novamd::core::Box;
using novamd::core::ParticleData;
using novamd::neighbors::ListLayout;
using novamd::neighbors::NeighborMethod;

template <class T>
using Evaluator =
    novamd::physics::Truncated<novamd::physics::ChargeScaled<novamd::physics::Yukawa<T>>>;

constexpr int kMultiprocessors = 132;

/// Forces of the charge-scaled term over `method` (all pairs: the chunked or the each-pair-once
/// kernel, as the particle count decides), as x, y, z arrays one after another.
template <class T>
std::vector<double> gpu_forces(const ParticleData& p, const Box& box, NeighborMethod method,
                               ListLayout layout) {
  using Scaled = novamd::physics::ChargeScaled<novamd::physics::Yukawa<T>>;
  novamd::physics::PairTable<typename Scaled::Params> unit(1);
  unit.at(0, 0) = Scaled::make_params(1.0, 1.0, 1.0, novamd::test::kLambda);
  const auto table = novamd::physics::with_cutoff<Scaled, false>(unit, novamd::test::kCutoff,
                                                                 novamd::physics::Truncation::Cut);
  novamd::forces::CudaPairForce<Evaluator<T>, double> term(table, method, novamd::test::kCutoff,
                                                           0.3, 1, layout,
                                                           /*excluded_pairs=*/false);
  const int n = static_cast<int>(p.size());
  std::vector<novamd::neighbors::PairPosition<T>> packed(n);
  for (int i = 0; i < n; ++i)
    packed[i] = {T(p.position.x[i]), T(p.position.y[i]), T(p.position.z[i]), 0};
  novamd::core::CudaStream stream;
  novamd::core::DeviceBuffer<novamd::neighbors::PairPosition<T>> positions;
  novamd::core::DeviceBuffer<double> charge;
  positions.copy_from_host(packed, stream.get());
  charge.copy_from_host(p.charge, stream.get());
  novamd::neighbors::DeviceForceArrays<double> out;
  out.resize(n);
  novamd::forces::CudaForceInput<T> input{
      positions.data(), n, box.view<T>(), box, kMultiprocessors, 2048 * kMultiprocessors};
  input.fields.charge = charge.data();
  term.add_to(input, out.view(), {false, true}, stream.get());
  std::vector<double> x, y, z;
  out.fx.copy_to_host(x, stream.get());
  out.fy.copy_to_host(y, stream.get());
  out.fz.copy_to_host(z, stream.get());
  stream.synchronize();
  x.insert(x.end(), y.begin(), y.end());
  x.insert(x.end(), z.begin(), z.end());
  return x;
}

/// max_i (|F_gpu - F_ref|_inf - absolute)^+ / S_i: the error beyond an absolute allowance
/// (fixed-point sums), relative to the sum of the magnitudes of particle i's pair forces.
double worst_error(const std::vector<double>& f, const novamd::test::Reference& ref,
                   double absolute) {
  const std::size_t n = ref.force.size();
  double worst = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (ref.scale[i] == 0) continue;
    const double e = std::max({std::abs(f[i] - ref.force[i].x), std::abs(f[n + i] - ref.force[i].y),
                               std::abs(f[2 * n + i] - ref.force[i].z)});
    worst = std::max(worst, std::max(e - absolute, 0.0) / ref.scale[i]);
  }
  return worst;
}

struct Case {
  std::size_t n;
  NeighborMethod method;
  ListLayout layout = ListLayout::Atoms;
};

class CudaChargeScaled : public testing::TestWithParam<Case> {};

TEST_P(CudaChargeScaled, EveryTraversalScalesByTheParticlesCharges) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  const auto [n, method, layout] = GetParam();
  const double edge = std::cbrt(static_cast<double>(n) / 0.88 / (0.9 * 1.1));
  const Box box(edge, 0.9 * edge, 1.1 * edge);
  const ParticleData p = novamd::test::random_charged(box, n);
  const auto ref = novamd::test::double_loop(p, box);
  if (method == NeighborMethod::AllPairs && n > 4096)  // the each-pair-once kernel runs
    ASSERT_GT(novamd::neighbors::half_kernel_range(static_cast<int>(n), kMultiprocessors), 0);
  // double: the sums' order, a few hundred eps of S_i; mixed: (32 + 4 L / r_min) FP32 eps
  // (separations from float positions; test_cuda_backend.cpp), r_min = 0.7. Cluster pairs add
  // each partial sum in fixed point, each addition within 2^-33 (the count as in
  // support/force_term_cases.cpp, cuda_cluster_arithmetic).
  const double columns =
      novamd::neighbors::cluster_columns(box, n, novamd::test::kCutoff + 0.3).count();
  const double fixed = layout == ListLayout::Clusters
                           ? novamd::test::cuda_cluster_arithmetic(novamd::core::Precision::Double)
                                 .fixed_error(double(n), columns)
                           : 0.0;
  const double in_double = worst_error(gpu_forces<double>(p, box, method, layout), ref, fixed);
  const auto mixed_forces = gpu_forces<float>(p, box, method, layout);
  const double in_mixed = worst_error(mixed_forces, ref, fixed);
  const double mixed_bound =
      (32.0 + 4.0 * 1.1 * edge / 0.7) * std::numeric_limits<float>::epsilon();
  std::printf(
      "N = %zu, method %d, layout %d: error double %.3g (bound 1e-12), mixed %.3g "
      "(bound %.3g)\n",
      n, static_cast<int>(method), static_cast<int>(layout), in_double, in_mixed, mixed_bound);
  EXPECT_LE(in_double, 1e-12);
  EXPECT_LE(in_mixed, mixed_bound);
  EXPECT_GT(worst_error(mixed_forces, ref, 0.0), 0.0);  // float arithmetic really ran
}

// Two particles at one place (a blown-up state): their pair force is not finite, and both
// list layouts say so in those particles' forces, where the run's state check looks, while every
// other particle's force stays finite. (Cluster pairs sum in fixed point, which has no NaN: a
// sum that is not finite marks its particle, whose force is then NaN.)
TEST(CudaChargeScaled, CoincidentParticlesGiveNonFiniteForcesInEitherLayout) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  const std::size_t n = 1500;
  const double edge = std::cbrt(static_cast<double>(n) / 0.88 / (0.9 * 1.1));
  const Box box(edge, 0.9 * edge, 1.1 * edge);
  ParticleData p = novamd::test::random_charged(box, n);
  p.position.set(7, p.position.get(3));
  for (const ListLayout layout : {ListLayout::Atoms, ListLayout::Clusters}) {
    SCOPED_TRACE(layout == ListLayout::Clusters ? "clusters" : "atoms");
    const auto f = gpu_forces<float>(p, box, NeighborMethod::NeighborList, layout);
    for (std::size_t i = 0; i < n; ++i) {
      const bool finite =
          std::isfinite(f[i]) && std::isfinite(f[n + i]) && std::isfinite(f[2 * n + i]);
      EXPECT_EQ(finite, i != 3 && i != 7) << "particle " << i;
    }
  }
}

std::string case_name(const testing::TestParamInfo<Case>& info) {
  static const char* const kNames[] = {"auto", "all_pairs", "cell_list", "neighbor_list"};
  return std::string(kNames[static_cast<int>(info.param.method)]) +
         (info.param.layout == ListLayout::Clusters ? "_clusters" : "") + "_N" +
         std::to_string(info.param.n);
}

INSTANTIATE_TEST_SUITE_P(
    Traversals, CudaChargeScaled,
    testing::Values(Case{1500, NeighborMethod::AllPairs}, Case{6000, NeighborMethod::AllPairs},
                    Case{1500, NeighborMethod::CellList}, Case{1500, NeighborMethod::NeighborList},
                    Case{1500, NeighborMethod::NeighborList, ListLayout::Clusters}),
    case_name);

}  // namespace
