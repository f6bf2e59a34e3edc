// The CUDA short-range traversals (Verlet lists, cell lists) against the CPU backend over all
// pairs in a dilute gas whose cell grid is capped. Every traversal at every lane count, in every
// force term and precision, through moves and removals, bitwise repeatable: CudaForceTerms
// (test_cuda_force_terms.cpp). Skipped where no CUDA device exists.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "novamd/backend/cpu_backend.hpp"
#include "novamd/backend/cuda_device.hpp"
#include "novamd/core/device_buffer.cuh"
#include "novamd/forces/cuda_force_term.cuh"
#include "novamd/neighbors/force_arrays_cuda.cuh"
#include "support/force_scale.hpp"

namespace {

using novamd::backend::BackendSetup;
using novamd::core::Precision;
using novamd::neighbors::NeighborMethod;

/// Forces from one CUDA force term on the particles of `setup`, the term kept across calls so
/// that its lists persist.
template <Precision P>
class TermHarness {
 public:
  using PairT = typename novamd::core::PrecisionTypes<P>::PairT;

  TermHarness(const BackendSetup& setup, int lanes) : lanes_(lanes) {
    term_ = novamd::forces::make_cuda_force_term<P>(setup.forces[0], setup.species, setup.units,
                                                    setup.neighbors, setup.box);
  }

  /// Forces on `setup`'s particles, as x, y, z arrays one after another.
  std::vector<double> forces(const BackendSetup& setup) {
    const auto& p = setup.particles;
    const int n = static_cast<int>(p.size());
    std::vector<novamd::neighbors::PairPosition<PairT>> packed(n);
    for (int i = 0; i < n; ++i) {
      packed[i] = {PairT(p.position.x[i]), PairT(p.position.y[i]), PairT(p.position.z[i]),
                   p.type[i]};
    }
    positions_.copy_from_host(packed, stream_.get());
    out_.resize(n);
    // resident threads such that lanes_per_target picks exactly `lanes_`
    const novamd::forces::CudaForceInput<PairT> input{
        positions_.data(), n, setup.box.view<PairT>(), setup.box, 132, 2 * n * lanes_};
    term_->add_to(input, out_.view(), {false, true}, stream_.get());
    std::vector<double> x, y, z;
    out_.fx.copy_to_host(x, stream_.get());
    out_.fy.copy_to_host(y, stream_.get());
    out_.fz.copy_to_host(z, stream_.get());
    stream_.synchronize();
    x.insert(x.end(), y.begin(), y.end());
    x.insert(x.end(), z.begin(), z.end());
    return x;
  }
  std::int64_t builds() const { return term_->list_builds(); }

 private:
  int lanes_;
  novamd::core::CudaStream stream_;
  std::unique_ptr<novamd::forces::CudaForceTerm<PairT>> term_;
  novamd::core::DeviceBuffer<novamd::neighbors::PairPosition<PairT>> positions_;
  novamd::neighbors::DeviceForceArrays<double> out_;
};

/// max_i |F_gpu - F_cpu|_inf / S_i, the CPU evaluating all pairs in double.
double error_against_cpu(const std::vector<double>& gpu, const BackendSetup& setup) {
  auto at = setup;
  at.precision = Precision::Double;
  at.neighbors.method = NeighborMethod::AllPairs;
  novamd::backend::CpuBackend cpu(at);
  cpu.compute_forces(novamd::backend::EnergyRequest::Compute);
  const auto& f = cpu.particles_on_host().force;
  const auto scale = novamd::test::force_magnitude_sums(at);
  const std::size_t n = f.size();
  double worst = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double err = std::max({std::abs(gpu[i] - f.x[i]), std::abs(gpu[n + i] - f.y[i]),
                                 std::abs(gpu[2 * n + i] - f.z[i])});
    worst = std::max(worst, err / scale[i]);
  }
  return worst;
}

/// `s` with its particles moved by (-4, -3, -0.5), wrapped, into `box`: the cluster keeps its
/// pairs, part of it across the box's corner.
BackendSetup in_box(BackendSetup s, const novamd::core::Box& box) {
  const auto view = box.view<double>();
  for (std::size_t i = 0; i < s.particles.size(); ++i)
    s.particles.position.set(
        i, view.wrap(s.particles.position.get(i) - novamd::core::Vec3<double>{4.0, 3.0, 0.5}));
  s.box = box;
  return s;
}

// A dilute gas: cells of one cutoff in a box of 8e4 x 7e4 x 9e4 would number 3e13, so the grid
// is capped at a few cells per particle (cell_dimensions.hpp); in a long thin box the capped
// grid has fewer than 3 cells across and the term takes all pairs. Every pair is still found.
TEST(CudaTraversalDilute, CappedGridsMatchAllPairsOnTheCpu) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  for (const auto& box : {novamd::core::Box(8e4, 7e4, 9e4), novamd::core::Box(1e7, 20.0, 20.0)}) {
    for (const auto method : {NeighborMethod::NeighborList, NeighborMethod::CellList}) {
      auto setup = in_box(
          novamd::test::lj_mixture(300, Precision::Double, novamd::forces::Truncation::ShiftForce),
          box);
      setup.neighbors.method = method;
      setup.neighbors.skin = 0.3;
      TermHarness<Precision::Double> gpu(setup, 2);
      EXPECT_LE(error_against_cpu(gpu.forces(setup), setup), 1e-12)
          << box.length().x << (method == NeighborMethod::CellList ? " cell list" : " lists");
    }
  }
}

}  // namespace
