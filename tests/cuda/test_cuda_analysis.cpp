// The CUDA analysis kernels (g(r) pair counts, S(q) mode sums, MSD displacements) against the
// CPU analysis, on the device arrays of a CUDA backend and the host arrays of a CPU backend
// holding the same fresh random particles. Skipped, with a message, where no CUDA device
// exists.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <random>

#include "novamd/analysis/sampler.hpp"
#include "novamd/backend/cuda_device.hpp"
#include "novamd/backend/make_backend.hpp"
#include "support/systems.hpp"

namespace {

using novamd::analysis::DistanceBins;
using novamd::analysis::make_cpu_sampler;
using novamd::analysis::make_cuda_sampler;
using novamd::analysis::SamplerSetup;
using novamd::backend::Backend;
using novamd::backend::BackendSetup;
constexpr double kEps = std::numeric_limits<double>::epsilon();

#define SKIP_WITHOUT_GPU() \
  if (!novamd::backend::query_cuda_device()) GTEST_SKIP() << "no CUDA device: CUDA tests skipped"

/// `n` particles of `species` species (types at random), uniform in a box of edges L, 0.9 L,
/// 1.1 L at number density 0.4, no two closer than 0.6, velocities uniform in [-v, v].
BackendSetup mixture(std::size_t n, int species, std::uint64_t seed, double v = 0.0) {
  const double edge = std::cbrt(static_cast<double>(n) / 0.4 / (0.9 * 1.1));
  auto setup = novamd::test::random_mixture(n, edge, seed, 1.5, 0.6, v);
  std::vector<novamd::core::Species> table;
  for (int a = 0; a < species; ++a)
    table.push_back({"S" + std::to_string(a), 1.0 + a % 7, 1.0 + a, 0});
  setup.species = novamd::core::SpeciesTable(table);
  std::mt19937_64 rng(seed + 1);
  for (auto& t : setup.particles.type) t = static_cast<std::int32_t>(rng() % species);
  return setup;
}

struct Backends {
  std::unique_ptr<Backend> cpu, cuda;
};

Backends both_backends(const BackendSetup& setup) {
  return {novamd::backend::make_backend("cpu", setup),
          novamd::backend::make_backend("cuda", setup)};
}

SamplerSetup sampler_setup(const BackendSetup& setup) {
  SamplerSetup s;
  s.box = setup.box;
  s.species = setup.species.size();
  s.particles = setup.particles.size();
  return s;
}

/// Pairs whose scaled distance r bins / r_max lies within `slack` of a bin edge (0 included,
/// r_max included): the only pairs whose bin may differ between two correct roundings.
std::uint64_t pairs_near_bin_edges(const novamd::core::ParticleData& p,
                                   const novamd::core::Box& box, const DistanceBins& bins,
                                   double slack) {
  const auto view = box.view<double>();
  std::uint64_t near = 0;
  for (std::size_t i = 0; i < p.size(); ++i)
    for (std::size_t j = i + 1; j < p.size(); ++j) {
      const auto d = view.minimum_image(p.position.get(i) - p.position.get(j));
      const double s = std::sqrt(novamd::core::dot(d, d)) * bins.bins / bins.r_max;
      if (s <= bins.bins + slack && std::abs(s - std::round(s)) < slack) ++near;
    }
  return near;
}

// The histogram counts are integers: equal on both, except for a pair whose distance lies
// within the two computations' round-off of a bin edge. Both compute the nearest image
// d - L round(d/L) (within an ulp of L per component: the device fuses it into FMAs) and
// r = sqrt(d.d) (a few ulps of r), so |r_gpu - r_cpu| <= 4 eps L_max + 4 eps r <= 8 eps L_max;
// in units of bins, slack = 8 eps L_max bins / r_max, doubled for margin. Each such pair can
// move one count between two neighbouring bins (or across r_max), so the counts of a bin may
// differ by at most the number of such pairs, and the sum of the differences by twice that.
void expect_pair_counts_match(std::size_t n, int species, int bin_count, std::uint64_t seed) {
  const auto setup = mixture(n, species, seed);
  auto backends = both_backends(setup);
  auto sampler = sampler_setup(setup);
  const double half_edge = 0.5 * setup.box.shortest_edge();
  sampler.pair_bins = DistanceBins{half_edge, bin_count};
  std::vector<std::uint64_t> cpu, gpu;
  make_cpu_sampler(sampler)->count_pairs(backends.cpu->particle_arrays(), cpu);
  make_cuda_sampler(sampler)->count_pairs(backends.cuda->particle_arrays(), gpu);
  ASSERT_EQ(cpu.size(), gpu.size());
  const auto& L = setup.box.length();
  const double slack = 16.0 * kEps * std::max({L.x, L.y, L.z}) * bin_count / half_edge;
  const auto near = pairs_near_bin_edges(setup.particles, setup.box, *sampler.pair_bins, slack);
  std::uint64_t total = 0, differences = 0;
  for (std::size_t k = 0; k < cpu.size(); ++k) {
    const std::uint64_t difference = cpu[k] > gpu[k] ? cpu[k] - gpu[k] : gpu[k] - cpu[k];
    EXPECT_LE(difference, near) << "bin " << k;
    differences += difference;
    total += cpu[k];
  }
  EXPECT_LE(differences, 2 * near);
  // r_max = L_min / 2 = 0.45 L: the sphere holds 0.39 of the 0.99 L^3 box, so about 0.39 of the
  // pairs (a little less: none closer than 0.6).
  EXPECT_GT(static_cast<double>(total), 0.3 * n * (n - 1) / 2);
  std::printf("%llu pairs counted, %llu near a bin edge, %llu counts differ\n",
              static_cast<unsigned long long>(total), static_cast<unsigned long long>(near),
              static_cast<unsigned long long>(differences));
}

TEST(CudaAnalysis, PairCountsMatchTheCpu) {
  SKIP_WITHOUT_GPU();
  expect_pair_counts_match(3000, 3, 200, 11);  // a histogram in shared memory
}

TEST(CudaAnalysis, PairCountsOfALargeHistogramMatchTheCpu) {
  SKIP_WITHOUT_GPU();
  expect_pair_counts_match(1500, 4, 1000, 12);  // 10 pairs x 1000 bins: global atomics
}

/// The S(q) bin sums of both samplers for `species` species, compared column by column.
// Each density mode rho_a(q) = sum_j exp(i q . r_j) of W = sum_j |w_j| (the column's weights)
// is computed from the same positions. A term's phase t = n . r / L carries a few ulps of its
// summands (<= 3 eps |n|_1, |r / L| < 1) and the sine and cosine a few ulps more, so a term is
// off by at most e1 = 2 pi 3 eps n1_max + 4 eps; summing N terms in another order (chunks on
// the device) adds at most N eps per unit of weight. So |d rho| <= Delta = W (e1 + N eps), and
// a column |w.rho|^2 or Re(rho_a conj(rho_b)) is off by at most 2 W Delta + Delta^2 per mode;
// adding a bin's M modes (each at most W^2, in mode order on both) adds at most M eps W^2 each.
void expect_structure_factor_matches(std::size_t n, int species, double q_max, int bin_count,
                                     std::uint64_t seed) {
  const auto setup = mixture(n, species, seed);
  auto backends = both_backends(setup);
  const auto modes = novamd::analysis::reciprocal_modes(setup.box, q_max, bin_count);
  auto sampler = sampler_setup(setup);
  sampler.modes = &modes;
  for (const auto& s : setup.species.all()) sampler.weights.push_back(s.charge);
  std::vector<double> cpu, gpu;
  make_cpu_sampler(sampler)->structure_factor_sums(backends.cpu->particle_arrays(), cpu);
  make_cuda_sampler(sampler)->structure_factor_sums(backends.cuda->particle_arrays(), gpu);
  ASSERT_EQ(cpu.size(), gpu.size());
  const int columns = novamd::analysis::structure_factor_columns(species);
  int n1_max = 0;
  for (const auto& k : modes.vectors)
    n1_max = std::max(n1_max, std::abs(k.nx) + std::abs(k.ny) + std::abs(k.nz));
  const double per_term = 2 * std::numbers::pi * 3 * kEps * n1_max + 4 * kEps + n * kEps;
  std::vector<double> weight(columns, 0.0);  // W of each column
  std::vector<double> count(species, 0.0);
  for (auto t : setup.particles.type) count[t] += 1.0;
  for (int a = 0; a < species; ++a) {
    weight[0] += count[a];
    weight[1] += count[a] * std::abs(sampler.weights[a]);
    for (int b = a; b < species; ++b)
      weight[2 + novamd::analysis::species_pair_index(a, b, species)] =
          std::max(count[a], count[b]);
  }
  double worst = 0.0;
  for (int bin = 0; bin < bin_count; ++bin) {
    const double mode_count = double(modes.bin_begin[bin + 1] - modes.bin_begin[bin]);
    for (int c = 0; c < columns; ++c) {
      const double delta = weight[c] * per_term;
      const double bound = mode_count * (2 * weight[c] * delta + delta * delta +
                                         mode_count * kEps * weight[c] * weight[c]);
      const double difference = std::abs(gpu[bin * columns + c] - cpu[bin * columns + c]);
      EXPECT_LE(difference, bound) << "bin " << bin << " column " << c;
      if (bound > 0) worst = std::max(worst, difference / bound);
    }
  }
  std::printf("%zu modes; largest difference %.3g of its bound\n", modes.vectors.size(), worst);
}

TEST(CudaAnalysis, StructureFactorMatchesTheCpu) {
  SKIP_WITHOUT_GPU();
  expect_structure_factor_matches(2000, 2, 5.0, 25, 21);  // accumulators in shared memory
}

TEST(CudaAnalysis, StructureFactorOfManySpeciesMatchesTheCpu) {
  SKIP_WITHOUT_GPU();
  expect_structure_factor_matches(600, 24, 3.0, 10, 22);  // 24 species: global accumulators
}

/// kick, drift, forces, kick: velocity Verlet on the backend's primitives.
void step(Backend& backend, double dt) {
  backend.kick(0.5 * dt);
  backend.drift(dt, novamd::integrate::VelocityCondition::Apply);
  backend.compute_forces(novamd::backend::EnergyRequest::Skip);
  backend.kick(0.5 * dt);
}

// 40 steps of velocity Verlet on both backends, the particles sorted along the Morton curve
// every 10 force evaluations (each backend in its own order), the displacements followed every
// step. The two trajectories drift apart by delta (measured: the largest position difference,
// ~1e-11 at most as in the integrator tests) plus the tracking round-off (an ulp of L per
// component per step: 40 x 4 eps L); the displacement d_j of particle j then differs by at most
// 2 sqrt(3) delta, so sum_{j in a} |d_j|^2 by at most 2 sum_j |d_j| 2 sqrt(3) delta +
// N_a 12 delta^2 <= 4 sqrt(3) delta (N_a S_a)^(1/2) + 12 N_a delta^2 (Cauchy-Schwarz).
TEST(CudaAnalysis, DisplacementsAfterARealRunMatchTheCpu) {
  SKIP_WITHOUT_GPU();
  auto setup = mixture(1000, 2, 31, 1.0);
  setup.neighbors.reorder_every = 10;
  auto backends = both_backends(setup);
  auto sampler = sampler_setup(setup);
  auto cpu = make_cpu_sampler(sampler);
  auto gpu = make_cuda_sampler(sampler);
  for (auto* b : {backends.cpu.get(), backends.cuda.get()})
    b->compute_forces(novamd::backend::EnergyRequest::Skip);
  cpu->start_displacements(backends.cpu->particle_arrays());
  gpu->start_displacements(backends.cuda->particle_arrays());
  const int steps = 40;
  for (int s = 0; s < steps; ++s) {
    step(*backends.cpu, 0.005);
    step(*backends.cuda, 0.005);
    cpu->track_displacements(backends.cpu->particle_arrays());
    gpu->track_displacements(backends.cuda->particle_arrays());
  }
  ASSERT_GT(backends.cuda->reorders(), 0);
  const auto cpu_sums = cpu->squared_displacement_sums(backends.cpu->particle_arrays());
  const auto gpu_sums = gpu->squared_displacement_sums(backends.cuda->particle_arrays());
  const auto& a = backends.cpu->particles_on_host();
  const auto& b = backends.cuda->particles_on_host();
  double delta = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto d = setup.box.view<double>().minimum_image(a.position.get(i) - b.position.get(i));
    delta = std::max({delta, std::abs(d.x), std::abs(d.y), std::abs(d.z)});
  }
  EXPECT_LT(delta, 1e-11);
  const auto& L = setup.box.length();
  delta += steps * 4 * kEps * std::max({L.x, L.y, L.z});
  std::vector<double> count(2, 0.0);
  for (auto t : setup.particles.type) count[t] += 1.0;
  for (int t = 0; t < 2; ++t) {
    EXPECT_GT(cpu_sums[t], 0.0);
    const double bound = 4 * std::sqrt(3.0) * delta * std::sqrt(count[t] * cpu_sums[t]) +
                         12 * count[t] * delta * delta;
    EXPECT_NEAR(gpu_sums[t], cpu_sums[t], bound) << "type " << t;
  }
  std::printf("positions differ by %.3g; MSD sums %.10g and %.10g\n", delta, cpu_sums[0],
              gpu_sums[0]);
}

}  // namespace
