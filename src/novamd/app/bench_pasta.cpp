// `novamd bench --case pasta`: nuclear pasta as in examples/nuclear_pasta.yaml (Schneider,
// Horowitz, Hughto and Berry, Phys. Rev. C 88, 065807 (2013): 51,200 nucleons): protons and
// neutrons, proton fraction 0.4, 0.05 fm^-3, T = 1 MeV, dt = 2 fm/c; the nuclear potential cut
// at 10 fm and screened Coulomb between protons (lambda = 10 fm) cut at 50 fm or, in smaller
// boxes, at the largest whole fm within half the box.
//
// Besides the step, each force term is timed alone, and the pairs within each cutoff are
// counted, so that the table says which term bounds the step and at what rate it works.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "novamd/app/bench_command.hpp"
#include "novamd/app/bench_timing.hpp"
#include "novamd/app/version.hpp"
#include "novamd/backend/cuda_device.hpp"
#include "novamd/backend/make_backend.hpp"
#include "novamd/core/error.hpp"
#include "novamd/io/initial_system.hpp"
#include "novamd/neighbors/all_pairs_plan.hpp"

namespace novamd::app {
namespace {

constexpr double kDensity = 0.05;  // nucleons per fm^3
constexpr double kProtonFraction = 0.4;
constexpr double kNuclearCutoff = 10.0;    // fm (the nuclear term's default)
constexpr double kScreeningLength = 10.0;  // fm
constexpr double kTimestep = 2.0;          // fm/c
constexpr std::int64_t kGpuSizes[] = {51200};
constexpr std::int64_t kCpuSizes[] = {4000};

/// The Coulomb cutoff for a cubic box of N nucleons: 50 fm (5 screening lengths) where half
/// the box allows it.
double coulomb_cutoff(std::int64_t nucleons) {
  const double edge = std::cbrt(static_cast<double>(nucleons) / kDensity);
  return std::min(50.0, std::floor(0.5 * edge));
}

io::Config pasta_config(std::int64_t nucleons, const BenchOptions& options) {
  io::Config c;
  c.file = "<bench>";
  c.units = core::nuclear_units();
  c.backend = options.backend;
  c.precision = *core::parse_precision(options.precision);
  c.system.density = kDensity;
  c.system.species =
      core::SpeciesTable({{"p", 1.0, 939.0, 1}, {"n", 0.0, 939.0, -1}});  // nucleons, MeV/c^2
  io::GenerateSettings generate;
  const auto protons = std::llround(kProtonFraction * static_cast<double>(nucleons));
  generate.counts = {{"p", protons}, {"n", nucleons - protons}};
  generate.min_separation = 2.0;  // fm, as in the example
  c.system.structure.generate = generate;
  c.system.velocities.temperature = 1.0;  // MeV
  forces::NuclearSettings nuclear;
  nuclear.cutoff = kNuclearCutoff;
  c.forces = {nuclear, forces::YukawaSettings{kScreeningLength, coulomb_cutoff(nucleons)}};
  c.integrator.timestep = kTimestep;
  return c;
}

/// Pairs closer than the nuclear cutoff (any nucleons), closer than the nuclear cutoff plus
/// the Verlet skin (what the lists hold), and proton pairs closer than the Coulomb cutoff: the
/// pairs that contribute, counted once each, under the minimum image.
struct PairCounts {
  double nuclear = 0, nuclear_list = 0, coulomb = 0;
};

PairCounts count_pairs(const core::ParticleData& p, const core::Box& box, double list_range,
                       double coulomb_range) {
  const auto view = box.view<double>();
  const auto n = static_cast<std::ptrdiff_t>(p.size());
  const double rn2 = kNuclearCutoff * kNuclearCutoff, rl2 = list_range * list_range;
  const double rc2 = coulomb_range * coulomb_range;
  double nuclear = 0, listed = 0, coulomb = 0;
#pragma omp parallel for schedule(dynamic, 64) reduction(+ : nuclear, listed, coulomb)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    for (std::ptrdiff_t j = i + 1; j < n; ++j) {
      const auto d = view.minimum_image(p.position.get(i) - p.position.get(j));
      const double r2 = core::dot(d, d);
      nuclear += r2 < rn2;
      listed += r2 < rl2;
      coulomb += (r2 < rc2 && p.type[i] == 0 && p.type[j] == 0);  // type 0: protons
    }
  }
  return {nuclear, listed, coulomb};
}

/// Pair evaluations per force evaluation of an all-pairs term: the full matrix on the CPU; on
/// the GPU the kernel that all_pairs_plan picks.
double all_pairs_evaluations(const std::string& backend, std::int64_t n) {
  const auto device = backend::query_cuda_device();
  if (backend::resolve_backend_name(backend) != "cuda" || !device)
    return static_cast<double>(n) * static_cast<double>(n - 1);
  const int range = neighbors::half_kernel_range(static_cast<int>(n), device->multiprocessors);
  return neighbors::pair_evaluations(static_cast<int>(n), range);
}

/// Seconds per force evaluation (energy skipped) of a backend holding one of the terms alone.
double term_seconds(const io::Config& config, const io::InitialSystem& initial,
                    const forces::ForceSettings& term, int calls) {
  auto backend = backend::make_backend(config.backend, {config.units,
                                                        config.system.species,
                                                        initial.box,
                                                        initial.particles,
                                                        {term},
                                                        config.precision,
                                                        config.neighbors,
                                                        nullptr,
                                                        {},
                                                        {}});
  backend->compute_forces(backend::EnergyRequest::Compute);  // lists built here
  return median_time_per_call(*backend, 5, calls,
                              [&] { backend->compute_forces(backend::EnergyRequest::Skip); });
}

void print_legend() {
  fmt::print(
      "ms/step: median over batches of steps queued back to back (list checks and rebuilds\n"
      "included), energy skipped as between thermo steps; forces: share of the step in the\n"
      "force evaluation; builds: Verlet-list builds per 100 steps over the warm-up and the\n"
      "timed steps (from the random start, which is hot at first); nucl, Coul ms: each term\n"
      "alone, per force evaluation (energy skipped);\n"
      "pairs: nucleon pairs within 10 fm (nuclear), within 10 fm + skin (list), proton pairs\n"
      "within the Coulomb cutoff (Coul rc), counted once, at the uniform random start\n"
      "(clustering adds nuclear pairs: up to 0.16/0.05 = 3.2x deep inside a cluster at\n"
      "saturation density); evals/s: the Coulomb term's pair evaluations\n"
      "(all pairs: N(N-1)/2 on the GPU's each-pair-once kernel, N(N-1) on the CPU) per second.\n");
}

}  // namespace

int bench_pasta(const BenchOptions& options) {
  const bool on_gpu = backend::resolve_backend_name(options.backend) == "cuda";
  std::vector<std::int64_t> sizes = options.sizes;
  if (sizes.empty()) {
    if (on_gpu)
      sizes.assign(std::begin(kGpuSizes), std::end(kGpuSizes));
    else
      sizes.assign(std::begin(kCpuSizes), std::end(kCpuSizes));
  }
  for (auto n : sizes) {
    if (n < 100) throw core::InputError(fmt::format("--sizes: {} is too few; expected >= 100", n));
  }
  fmt::print("{}\n", version_line());
  bool first = true;
  for (auto n : sizes) {
    const io::Config config = pasta_config(n, options);
    const io::InitialSystem initial = io::build_initial_system(config);
    auto backend = backend::make_backend(config.backend, {config.units,
                                                          config.system.species,
                                                          initial.box,
                                                          initial.particles,
                                                          config.forces,
                                                          config.precision,
                                                          config.neighbors,
                                                          nullptr,
                                                          {},
                                                          {}});
    if (first) {
      fmt::print(
          "backend {}, precision {}; nuclear pasta, Y_p 0.4, 0.05 fm^-3, T 1 MeV, dt 2 "
          "fm/c; nuclear rc 10 fm, Coulomb lambda 10 fm\n",
          backend->description(), options.precision);
      fmt::print("{:>7} {:>9} {:>7} {:>7} {:>9} {:>9} {:>10} {:>10} {:>6} {:>10} {:>10}\n", "N",
                 "ms/step", "forces", "builds", "nucl ms", "Coul ms", "nucl pairs", "list pairs",
                 "Coul rc", "Coul pairs", "evals/s");
      first = false;
    }
    const int steps = options.steps > 0 ? options.steps : on_gpu ? 50 : 2;
    const int warmup = options.warmup > 2 ? options.warmup : (on_gpu ? 50 : 2);
    const int repeats = on_gpu ? 9 : 3;
    const auto t = time_steps(*backend, kTimestep, warmup, steps, repeats);
    const double builds_per_100 = 100.0 * static_cast<double>(backend->neighbor_list_builds()) /
                                  static_cast<double>(warmup + steps * repeats);
    const double nuclear_s = term_seconds(config, initial, config.forces[0], steps);
    const double coulomb_s = term_seconds(config, initial, config.forces[1], steps);
    const double rc = forces::cutoff_of(config.forces[1]);
    const auto pairs = count_pairs(
        initial.particles, initial.box,
        kNuclearCutoff + config.neighbors.skin_for(kNuclearCutoff, initial.box.shortest_edge()),
        rc);
    fmt::print(
        "{:>7} {:>9.3f} {:>6.0f}% {:>7.1f} {:>9.3f} {:>9.3f} {:>10.4g} {:>10.4g} {:>6.0f} "
        "{:>10.4g} {:>10.3g}\n",
        n, 1e3 * t.step, 100.0 * t.forces / t.step, builds_per_100, 1e3 * nuclear_s,
        1e3 * coulomb_s, pairs.nuclear, pairs.nuclear_list, rc, pairs.coulomb,
        all_pairs_evaluations(config.backend, n) / coulomb_s);
    std::fflush(stdout);
  }
  print_legend();
  return core::kExitSuccess;
}

}  // namespace novamd::app
