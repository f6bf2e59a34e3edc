#include "novamd/app/bench_command.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <limits>

#include "novamd/app/bench_timing.hpp"
#include "novamd/app/version.hpp"
#include "novamd/backend/cuda_device.hpp"
#include "novamd/backend/make_backend.hpp"
#include "novamd/core/error.hpp"
#include "novamd/integrate/velocity_verlet.hpp"
#include "novamd/io/initial_system.hpp"
#include "novamd/neighbors/all_pairs_plan.hpp"

namespace novamd::app {
namespace {

/// Seed 000, Table II: ions and the best K20 (CUDA) milliseconds per call to `newton`.
struct TableTwoRow {
  std::int64_t ions;
  double k20_ms;
};
constexpr TableTwoRow kTableTwo[] = {{1152, 0.801},   {1536, 1.091},  {1728, 1.231},
                                     {3456, 3.152},   {6912, 10.148}, {13824, 41.389},
                                     {27648, 140.982}};

/// C/O 50:50 at 5e-8 fm^-3 (white-dwarf matter, as in examples/white_dwarf_co.yaml), all pairs.
io::Config bench_config(std::int64_t ions, const BenchOptions& options) {
  io::Config c;
  c.file = "<bench>";
  c.units = core::nuclear_units();
  c.backend = options.backend;
  c.precision = *core::parse_precision(options.precision);
  c.system.density = 5e-8;
  c.system.species = core::SpeciesTable({{"C", 6, 11177.929, 0}, {"O", 8, 14899.169, 0}});
  io::GenerateSettings generate;
  generate.counts = {{"C", ions / 2}, {"O", ions - ions / 2}};
  generate.min_separation = 50.0;
  c.system.structure.generate = generate;
  c.system.velocities.temperature = 0.001;
  c.forces = {forces::YukawaSettings{475.0, forces::kNoCutoff}};
  c.integrator.timestep = 200.0;
  return c;
}

/// The force kernels' arithmetic per pair evaluation: FP64 (double) or FP32 (mixed, single)
/// instructions in the inner loop, counted in the SASS for the bare Yukawa evaluator without
/// energy (docs/performance.md), and the H100's lanes for them per SM and clock.
struct ArithmeticCount {
  double half_kernel, chunk_kernel;  ///< instructions per pair evaluation
  double lanes_per_sm;               ///< FP64: 64, FP32: 128 (compute capability 9.0)
};

ArithmeticCount arithmetic_count(core::Precision p) {
  if (p == core::Precision::Double) return {54.75, 48.0, 64.0};
  return {29.8, 26.0, 128.0};
}

/// Share of the GPU's arithmetic limit that the force evaluation reaches, or "-" on the CPU.
std::string arithmetic_share(const io::Config& config, double force_seconds) {
  const auto device = backend::query_cuda_device();
  if (backend::resolve_backend_name(config.backend) != "cuda" || !device) return "-";
  const int n = static_cast<int>(config.system.structure.generate->counts[0].second +
                                 config.system.structure.generate->counts[1].second);
  const int range = neighbors::half_kernel_range(n, device->multiprocessors);
  const auto count = arithmetic_count(config.precision);
  const double per_eval = range > 0 ? count.half_kernel : count.chunk_kernel;
  const double achieved = neighbors::pair_evaluations(n, range) * per_eval / force_seconds;
  const double limit = device->multiprocessors * count.lanes_per_sm * device->clock_khz * 1e3;
  return fmt::format("{:.0f}%", 100.0 * achieved / limit);
}

/// Sizes a machine can hold: at most 2^31 - 1 particles (32-bit ids), and at most one per KiB of
/// physical memory (a generous bound on what a particle costs, with its neighbour data).
void check_bench_sizes(const std::vector<std::int64_t>& sizes) {
  const auto pages = ::sysconf(_SC_PHYS_PAGES);
  const auto page_size = ::sysconf(_SC_PAGESIZE);
  const double memory = pages > 0 && page_size > 0 ? double(pages) * double(page_size) : 0.0;
  constexpr double kBytesPerParticle = 1024.0;
  for (const auto n : sizes) {
    if (n > std::numeric_limits<std::int32_t>::max())
      throw core::InputError(fmt::format("--sizes: {} particles; expected at most {}", n,
                                         std::numeric_limits<std::int32_t>::max()));
    if (memory > 0.0 && double(n) * kBytesPerParticle > memory)
      throw core::InputError(fmt::format(
          "--sizes: {} particles would need about {:.3g} GB of memory; this machine has "
          "{:.3g} GB: expected at most {}",
          n, double(n) * kBytesPerParticle / 1e9, memory / 1e9,
          static_cast<std::int64_t>(memory / kBytesPerParticle)));
  }
}

}  // namespace

neighbors::ListLayout bench_layout(const BenchOptions& options) {
  if (const auto layout = neighbors::list_layout_named(options.layout)) return *layout;
  throw core::InputError(
      fmt::format("--layout '{}': expected auto, atoms or clusters", options.layout));
}

int bench_command(const BenchOptions& options) {
  if (!core::parse_precision(options.precision)) {
    throw core::InputError(
        fmt::format("--precision '{}': expected double, mixed or single", options.precision));
  }
  bench_layout(options);  // refused before any work
  check_bench_sizes(options.sizes);
  if (options.case_name == "lj") return bench_lennard_jones(options);
  if (options.case_name == "pasta") return bench_pasta(options);
  if (options.case_name == "ornl") return bench_ornl(options);
  if (options.case_name == "rigid") return bench_rigid(options);
  if (options.case_name != "yukawa") {
    throw core::InputError(
        fmt::format("--case '{}': expected yukawa, lj, pasta, ornl or rigid", options.case_name));
  }
  std::vector<TableTwoRow> rows;
  for (const auto& row : kTableTwo) {
    if (options.sizes.empty() || std::count(options.sizes.begin(), options.sizes.end(), row.ions))
      rows.push_back(row);
  }
  for (auto n : options.sizes) {
    if (std::none_of(std::begin(kTableTwo), std::end(kTableTwo),
                     [n](const TableTwoRow& r) { return r.ions == n; })) {
      if (n < 2) throw core::InputError(fmt::format("--sizes: {} is too small; expected >= 2", n));
      rows.push_back({n, 0.0});
    }
  }

  fmt::print("{}\n", version_line());
  bool first = true;
  for (const auto& row : rows) {
    const io::Config config = bench_config(row.ions, options);
    io::InitialSystem initial = io::build_initial_system(config);
    auto backend = backend::make_backend(config.backend, {config.units,
                                                          config.system.species,
                                                          initial.box,
                                                          std::move(initial.particles),
                                                          config.forces,
                                                          config.precision,
                                                          {},
                                                          nullptr,
                                                          {},
                                                          {}});
    if (first) {
      fmt::print("backend {}, precision {}; C/O 50:50 at 5e-8 fm^-3, Yukawa all pairs\n",
                 backend->description(), options.precision);
      fmt::print("{:>8} {:>10} {:>8} {:>12} {:>7} {:>10} {:>9}\n", "N", "ms/step", "forces",
                 "pairs/s", "arith", "K20 ms", "speed-up");
      first = false;
    }
    const bool on_gpu = backend::resolve_backend_name(options.backend) == "cuda";
    const int steps = options.steps > 0 ? options.steps : on_gpu ? 100 : (row.ions > 10000 ? 1 : 3);
    const auto t = time_steps(*backend, config.integrator.timestep, options.warmup, steps);
    const double pairs = static_cast<double>(row.ions) * static_cast<double>(row.ions - 1);
    const std::string k20 = row.k20_ms > 0 ? fmt::format("{:.3f}", row.k20_ms) : "-";
    const std::string speedup =
        row.k20_ms > 0 ? fmt::format("{:.2f}", row.k20_ms / (1e3 * t.step)) : "-";
    fmt::print("{:>8} {:>10.4f} {:>7.0f}% {:>12.4g} {:>7} {:>10} {:>9}\n", row.ions, 1e3 * t.step,
               100.0 * t.forces / t.step, pairs / t.forces, arithmetic_share(config, t.forces), k20,
               speedup);
    std::fflush(stdout);
  }
  fmt::print(
      "ms/step: median over 9 batches of steps queued back to back, energy skipped as\n"
      "between thermo steps; forces: share of the step spent in the force evaluation;\n"
      "pairs/s: N(N-1) target-source pairs (as in seed 000) per second of force evaluation;\n"
      "arith: the force kernels' FP64 (double) or FP32 arithmetic as a share of the GPU's\n"
      "peak at its maximum clock (instruction counts in docs/performance.md).\n");
  return core::kExitSuccess;
}

}  // namespace novamd::app
