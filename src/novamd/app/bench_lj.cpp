// `novamd bench --case lj`: the Lennard-Jones melt of examples/lj_liquid.yaml (fcc at
// rho* = 0.8442, T* = 1.44, r_c = 2.5 sigma, skin 0.3 sigma, dt = 0.005 tau) at several sizes.

#include <fmt/format.h>

#include <cmath>

#include "novamd/app/bench_command.hpp"
#include "novamd/app/bench_timing.hpp"
#include "novamd/app/version.hpp"
#include "novamd/backend/make_backend.hpp"
#include "novamd/core/error.hpp"
#include "novamd/io/initial_system.hpp"

namespace novamd::app {
namespace {

/// fcc cells per axis: 20 (32,000 atoms), 25 (62,500), 40 (256,000), 63 (1,000,188) and 100
/// (4,000,000); HOOMD-blue's and LAMMPS's LJ benchmarks use the same state.
constexpr int kGpuCells[] = {20, 25, 40, 63, 100};
constexpr int kCpuCells[] = {10, 20};

io::Config melt_config(int cells, const BenchOptions& options) {
  io::Config c;
  c.file = "<bench>";
  c.units = core::lj_units();
  c.backend = options.backend;
  c.precision = *core::parse_precision(options.precision);
  c.system.density = 0.8442;
  c.system.species = core::SpeciesTable({{"Ar", 0, 1.0, 0}});
  io::GenerateSettings generate;
  generate.lattice = "fcc";
  generate.cells = std::array<int, 3>{cells, cells, cells};
  generate.counts = {{"Ar", 4LL * cells * cells * cells}};
  c.system.structure.generate = generate;
  c.system.velocities.temperature = 1.44;
  forces::LennardJonesSettings lj;
  lj.pairs = {{"Ar", "Ar", 1.0, 1.0}};
  lj.cutoff = 2.5;
  c.forces = {lj};
  c.neighbors.skin = 0.3;
  c.neighbors.method = options.neighbors == "cell_list" ? neighbors::NeighborMethod::CellList
                       : options.neighbors == "neighbor_list"
                           ? neighbors::NeighborMethod::NeighborList
                           : neighbors::NeighborMethod::Auto;
  c.neighbors.layout = bench_layout(options);
  c.integrator.timestep = 0.005;
  return c;
}

/// The fcc cells per axis whose 4 n^3 atoms come nearest to `atoms`.
int cells_for(std::int64_t atoms) {
  if (atoms < 4 * 7 * 7 * 7) {
    throw core::InputError(
        fmt::format("--sizes: {} atoms is too few for the melt; expected at least 1,372", atoms));
  }
  return static_cast<int>(std::lround(std::cbrt(static_cast<double>(atoms) / 4.0)));
}

std::string memory_per_atom(const backend::MemoryUse& use, std::size_t atoms) {
  if (use.total() == 0) return "-";
  return fmt::format("{:.0f} ({:.0f}%)", double(use.total()) / double(atoms),
                     100.0 * double(use.neighbors) / double(use.total()));
}

}  // namespace

int bench_lennard_jones(const BenchOptions& options) {
  if (options.neighbors != "auto" && options.neighbors != "neighbor_list" &&
      options.neighbors != "cell_list") {
    throw core::InputError(fmt::format(
        "--neighbors '{}': expected auto, neighbor_list or cell_list", options.neighbors));
  }
  const bool on_gpu = backend::resolve_backend_name(options.backend) == "cuda";
  std::vector<int> cells;
  for (auto n : options.sizes) cells.push_back(cells_for(n));
  if (cells.empty()) {
    if (on_gpu)
      cells.assign(std::begin(kGpuCells), std::end(kGpuCells));
    else
      cells.assign(std::begin(kCpuCells), std::end(kCpuCells));
  }
  fmt::print("{}\n", version_line());
  bool first = true;
  for (int c : cells) {
    const io::Config config = melt_config(c, options);
    io::InitialSystem initial = io::build_initial_system(config);
    const std::size_t atoms = initial.particles.size();
    auto backend = backend::make_backend(config.backend, {config.units,
                                                          config.system.species,
                                                          initial.box,
                                                          std::move(initial.particles),
                                                          config.forces,
                                                          config.precision,
                                                          config.neighbors,
                                                          nullptr,
                                                          {},
                                                          {}});
    if (first) {
      fmt::print(
          "backend {}, precision {}, neighbors {} (layout {}); LJ melt, rho* 0.8442, "
          "T* 1.44, rc 2.5, skin 0.3, dt 0.005\n",
          backend->description(), options.precision, options.neighbors, options.layout);
      fmt::print("{:>9} {:>10} {:>10} {:>12} {:>7} {:>9} {:>14}\n", "N", "ms/step", "steps/s",
                 "atom-steps/s", "forces", "builds", "bytes/atom");
      first = false;
    }
    // The melt first: the crystal needs no rebuilds, the liquid one every 10-20 steps.
    const int warmup = options.warmup > 2 ? options.warmup : (on_gpu ? 300 : 50);
    const int steps = options.steps > 0 ? options.steps : on_gpu ? 200 : 20;
    const int repeats = on_gpu ? 9 : 3;
    const std::int64_t builds_before = backend->neighbor_list_builds();
    const auto t = time_steps(*backend, config.integrator.timestep, warmup, steps, repeats);
    const double timed_steps = double(warmup + steps * repeats);
    const double builds_per_100 =
        100.0 * double(backend->neighbor_list_builds() - builds_before) / timed_steps;
    fmt::print("{:>9} {:>10.4f} {:>10.1f} {:>12.4g} {:>6.0f}% {:>9.1f} {:>14}\n", atoms,
               1e3 * t.step, 1.0 / t.step, double(atoms) / t.step, 100.0 * t.forces / t.step,
               builds_per_100, memory_per_atom(backend->memory_use(), atoms));
    std::fflush(stdout);
  }
  fmt::print(
      "ms/step: median over batches of steps queued back to back (list checks and rebuilds\n"
      "included), energy skipped as between thermo steps; forces: share of the step in the\n"
      "force evaluation (with the list check); builds: list builds per 100 steps over the\n"
      "warm-up and the timed steps; bytes/atom: device memory held per atom (neighbour data's\n"
      "share), '-' on the CPU.\n");
  return core::kExitSuccess;
}

}  // namespace novamd::app
