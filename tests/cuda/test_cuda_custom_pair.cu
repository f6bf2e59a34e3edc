// custom_pair's GPU kernels (forces/custom_pair_kernel.cuh). The case table (CudaForceTerms:
// custom_pair_*) checks the formulas compiled at run time by NVRTC against the CPU on every
// traversal and precision; here the same kernels compiled by nvcc, with a formula written by
// hand, give the CPU's double loop (so the file is checked where the library builds), and the
// run-time term repeats itself bit for bit and refuses what it cannot leave out.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "novamd/backend/cuda_device.hpp"
#include "novamd/core/cuda_check.cuh"
#include "novamd/core/device_buffer.cuh"
#include "novamd/core/error.hpp"
#include "novamd/forces/cuda_force_term.cuh"
#include "novamd/forces/custom_pair_kernel.cuh"
#include "novamd/neighbors/force_arrays_cuda.cuh"

namespace {

namespace custom = novamd::forces::custom;
using novamd::core::Box;

/// Lennard-Jones with p = {epsilon, sigma}, written by hand as the generated Formula is.
struct LennardJonesFormula {
  template <class T>
  __device__ static T energy(T r, const T* p) {
    const T x = p[1] / r, x6 = x * x * x * x * x * x;
    return T(4) * p[0] * (x6 * x6 - x6);
  }
  template <class T>
  __device__ static T slope(T r, const T* p) {
    const T x = p[1] / r, x6 = x * x * x * x * x * x;
    return T(4) * p[0] * (T(-12) * x6 * x6 + T(6) * x6) / r;
  }
};

__global__ void lennard_jones_all_pairs(const custom::Position<double>* pos, int n,
                                        custom::Box<double> box, custom::Pairs<double> pairs,
                                        custom::Output out, custom::Mode mode) {
  custom::all_pair_forces<LennardJonesFormula, double>(pos, n, box, pairs, out, mode);
}

constexpr double kCutoff = 2.5, kEdge = 8.0;

/// n positions in a cube of edge `edge`, no two closer than 0.8.
std::vector<custom::Position<double>> random_positions(int n, std::uint64_t seed,
                                                       double edge = kEdge) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, edge);
  std::vector<custom::Position<double>> p;
  while (static_cast<int>(p.size()) < n) {
    const custom::Position<double> c{unit(rng), unit(rng), unit(rng), 0};
    bool far = true;
    for (const auto& q : p) {
      double d2 = 0;
      for (const double d : {c.x - q.x, c.y - q.y, c.z - q.z}) {
        const double m = d - edge * std::nearbyint(d / edge);
        d2 += m * m;
      }
      far = far && d2 > 0.8 * 0.8;
    }
    if (far) p.push_back(c);
  }
  return p;
}

TEST(CudaCustomPair, TheKernelsCompiledByNvccGiveTheCpusDoubleLoop) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  const int n = 300;
  const auto pos = random_positions(n, 17);
  // One type: epsilon 1, sigma 1, r_c^2, energy shift V(r_c), no force shift.
  const double xc6 = std::pow(1.0 / kCutoff, 6), shift = 4 * (xc6 * xc6 - xc6);
  const std::vector<double> params{1.0, 1.0, kCutoff * kCutoff, shift, 0.0};
  novamd::core::CudaStream stream;
  novamd::core::DeviceBuffer<custom::Position<double>> d_pos;
  novamd::core::DeviceBuffer<double> d_params;
  d_pos.copy_from_host(pos, stream.get());
  d_params.copy_from_host(params, stream.get());
  novamd::neighbors::DeviceForceArrays<double> out;
  out.resize(n);
  const auto v = out.view();
  custom::Output o{v.fx, v.fy, v.fz, v.energy, {}};
  for (int k = 0; k < 6; ++k) o.virial[k] = v.virial[k];
  const custom::Box<double> box{{kEdge, kEdge, kEdge}, {1 / kEdge, 1 / kEdge, 1 / kEdge}};
  // The table's copy in shared memory (custom::table_in_shared): its bytes given to the launch.
  lennard_jones_all_pairs<<<(n + 127) / 128, 128, params.size() * sizeof(double), stream.get()>>>(
      d_pos.data(), n, box, {d_params.data(), 1, 5, 2, 0}, o, {1, 0});
  NOVAMD_CUDA_CHECK_LAUNCH();
  std::vector<double> fx, energy;
  out.fx.copy_to_host(fx, stream.get());
  out.energy.copy_to_host(energy, stream.get());
  stream.synchronize();
  // The CPU's double loop; bound: a few dozen roundings of each pair's terms (both sides
  // evaluate the same products, the device's sqrt and quotients correctly rounded too, its
  // FMAs rounding once where the host rounds twice): 64 eps of the magnitudes.
  constexpr double eps = std::numeric_limits<double>::epsilon();
  double total = 0, total_scale = 0, device_total = 0;
  for (int i = 0; i < n; ++i) {
    double f = 0, scale = 0;
    for (int j = 0; j < n; ++j) {
      if (j == i) continue;
      double d[3] = {pos[i].x - pos[j].x, pos[i].y - pos[j].y, pos[i].z - pos[j].z};
      for (double& c : d) c -= kEdge * std::nearbyint(c / kEdge);
      const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
      if (r2 >= kCutoff * kCutoff) continue;
      const double r = std::sqrt(r2), x6 = std::pow(1 / r, 6);
      const double force_over_r = 4 * (12 * x6 * x6 - 6 * x6) / r2;
      f += force_over_r * d[0];
      scale += 4 * (12 * x6 * x6 + 6 * x6) / r;
      total += 0.5 * (4 * (x6 * x6 - x6) - shift);
      total_scale += 0.5 * 4 * (x6 * x6 + x6 + std::abs(shift));
    }
    EXPECT_NEAR(fx[i], f, 64 * eps * scale) << "particle " << i;
    device_total += energy[i];
  }
  EXPECT_NEAR(device_total, total, 64 * eps * total_scale);
  EXPECT_NE(total, 0.0);
}

/// A custom Lennard-Jones term for one species in `box`, skin 0.3.
std::unique_ptr<novamd::forces::CudaForceTerm<double>> lennard_jones_term(const Box& box,
                                                                          bool excluded_pairs) {
  novamd::forces::CustomPairSettings s;
  s.formula = std::make_shared<const novamd::physics::CustomFormula>(
      "4*eps*((sigma/r)^12 - (sigma/r)^6)", std::vector<std::string>{"eps", "sigma"});
  s.defaults = {1.0, 1.0};
  s.cutoff = kCutoff;
  const novamd::core::SpeciesTable species({{"A", 0.0, 1.0, 0}});
  novamd::neighbors::NeighborSettings neighbors;
  neighbors.skin = 0.3;
  return novamd::forces::make_cuda_custom_pair<novamd::core::Precision::Double>(
      s, species, neighbors, box, excluded_pairs);
}

TEST(CudaCustomPair, TheRunTimeCompiledTermRepeatsItselfBitForBit) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  const int n = 400;
  const auto pos = random_positions(n, 23, 10.0);
  const Box box(10.0, 10.0, 10.0);  // 10 >= 3 (2.5 + 0.3): over the Verlet lists
  novamd::core::CudaStream stream;
  novamd::core::DeviceBuffer<custom::Position<double>> d_pos;
  d_pos.copy_from_host(pos, stream.get());
  novamd::forces::CudaForceInput<double> in{
      reinterpret_cast<const novamd::neighbors::PairPosition<double>*>(d_pos.data()),
      n,
      box.view<double>(),
      box,
      132,
      2048 * 132};
  std::vector<std::vector<double>> runs;
  for (int run = 0; run < 2; ++run) {
    auto term = lennard_jones_term(box, false);
    novamd::neighbors::DeviceForceArrays<double> out;
    out.resize(n);
    term->add_to(in, out.view(), {false, true}, stream.get());
    std::vector<double> fx, energy;
    out.fx.copy_to_host(fx, stream.get());
    out.energy.copy_to_host(energy, stream.get());
    stream.synchronize();
    fx.insert(fx.end(), energy.begin(), energy.end());
    runs.push_back(fx);
    EXPECT_EQ(term->list_builds(), 1);
  }
  EXPECT_EQ(runs[0], runs[1]);
}

TEST(CudaCustomPair, ExcludedPairsInABoxTooSmallForTheListsAreRefused) {
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  const Box box(kEdge, kEdge, kEdge);  // under 3 (r_c + skin): all pairs, no exclusions there
  auto term = lennard_jones_term(box, true);
  const auto pos = random_positions(50, 29);
  novamd::core::CudaStream stream;
  novamd::core::DeviceBuffer<custom::Position<double>> d_pos;
  d_pos.copy_from_host(pos, stream.get());
  novamd::forces::CudaForceInput<double> in{
      reinterpret_cast<const novamd::neighbors::PairPosition<double>*>(d_pos.data()),
      50,
      box.view<double>(),
      box,
      132,
      2048 * 132};
  novamd::neighbors::DeviceForceArrays<double> out;
  out.resize(50);
  try {
    term->add_to(in, out.view(), {false, false}, stream.get());
    ADD_FAILURE() << "expected an InputError";
  } catch (const novamd::core::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("excluded pairs"), std::string::npos) << e.what();
  }
}

}  // namespace
