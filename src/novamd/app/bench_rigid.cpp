// `novamd bench --case rigid`: seed 001's three data sets of rigid molecules (Kirsch's MarDyn
// CUDA benchmarks: one-centre Lennard-Jones molecules; molecules of three Lennard-Jones sites and
// a dipole; a 50:50 mixture of those with a two-site dipolar molecule) over cutoffs on the
// centres of mass, in reduced units. The same states as ls1-mardyn's benchmark inputs
// (docs/performance.md, "Rigid molecules"): fcc lattices of centres, random orientations.

#include <fmt/format.h>

#include <string>
#include <vector>

#include "novamd/app/backend_setup.hpp"
#include "novamd/app/bench_command.hpp"
#include "novamd/app/bench_timing.hpp"
#include "novamd/app/version.hpp"
#include "novamd/backend/make_backend.hpp"
#include "novamd/core/error.hpp"
#include "novamd/core/precision.hpp"
#include "novamd/io/initial_system.hpp"

namespace novamd::app {
namespace {

core::ComponentSite lj(core::Vec3<double> at, double mass) {
  core::ComponentSite s;
  s.kind = core::SiteKind::LennardJones;
  s.position = at;
  s.epsilon = 1.0;
  s.sigma = 1.0;
  s.mass = mass;
  return s;
}

core::ComponentSite dipole(core::Vec3<double> along) {
  core::ComponentSite s;
  s.kind = core::SiteKind::Dipole;
  s.direction = along;
  s.strength = 1.0;
  return s;
}

/// One Lennard-Jones centre (no rotation).
core::ResolvedComponent one_centre() {
  return core::resolve_component({"1j", {lj({0, 0, 0}, 1.0)}, std::nullopt});
}
/// Three Lennard-Jones sites on a triangle of side 0.866 and a dipole at the centre.
core::ResolvedComponent three_sites_and_dipole() {
  return core::resolve_component({"3j1d",
                                  {lj({0, 0.5, 0}, 1.0 / 3), lj({0.4330127, -0.25, 0}, 1.0 / 3),
                                   lj({-0.4330127, -0.25, 0}, 1.0 / 3), dipole({0, 1, 0})},
                                  std::nullopt});
}
/// Two Lennard-Jones sites 1 apart and a dipole along the axis.
core::ResolvedComponent two_sites_and_dipole() {
  return core::resolve_component(
      {"2j1d", {lj({0, 0, -0.5}, 0.5), lj({0, 0, 0.5}, 0.5), dipole({0, 0, 1})}, std::nullopt});
}

struct DataSet {
  std::string name;
  std::vector<core::ResolvedComponent> components;
  int cells;       ///< fcc cells per axis: 4 n^3 molecules
  double density;  ///< molecules per sigma^3
};

std::vector<DataSet> data_sets() {
  return {{"1j", {one_centre()}, 27, 0.8},
          {"3j1d", {three_sites_and_dipole()}, 23, 0.25},
          {"mix", {three_sites_and_dipole(), two_sites_and_dipole()}, 23, 0.25}};
}

io::Config rigid_config(const DataSet& set, double cutoff, const BenchOptions& options) {
  io::Config c;
  c.file = "<bench>";
  c.units = core::lj_units();
  c.backend = options.backend;
  c.precision = *core::parse_precision(options.precision);
  c.system.components = set.components;
  std::vector<core::Species> species;
  for (const auto& component : set.components)
    species.push_back({component.name, 0.0, component.shape.mass});
  c.system.species = core::SpeciesTable(species);
  const std::int64_t n = 4LL * set.cells * set.cells * set.cells;
  io::GenerateSettings generate;
  generate.lattice = "fcc";
  generate.cells = std::array<int, 3>{set.cells, set.cells, set.cells};
  for (const auto& component : set.components)
    generate.counts.emplace_back(component.name,
                                 n / static_cast<std::int64_t>(set.components.size()));
  c.system.structure.generate = generate;
  c.system.density = set.density;
  c.system.velocities.temperature = 1.0;
  forces::RigidModelSettings sites;
  sites.cutoff = cutoff;
  sites.shift = true;
  sites.epsilon_rf = 1e10;
  c.rigid_sites = sites;
  c.neighbors.skin = 0.3;
  c.integrator.timestep = 0.001;
  return c;
}

}  // namespace

int bench_rigid(const BenchOptions& options) {
  const std::vector<double> cutoffs =
      options.cutoffs.empty() ? std::vector<double>{2.5, 3.5, 5.0} : options.cutoffs;
  fmt::print("{}\n", version_line());
  bool first = true;
  for (const DataSet& set : data_sets()) {
    for (const double cutoff : cutoffs) {
      const io::Config config = rigid_config(set, cutoff, options);
      io::InitialSystem initial = io::build_initial_system(config);
      const std::size_t molecules = initial.particles.size();
      auto backend = backend::make_backend(
          config.backend, backend_setup_of(config, initial.box, std::move(initial.particles)));
      if (first) {
        fmt::print(
            "backend {}, precision {}; seed 001's data sets: fcc centres, random orientations, "
            "T* 1.0, dt 0.001, skin 0.3, LJ shifted, eps_rf 1e10\n",
            backend->description(), options.precision);
        fmt::print("{:>6} {:>8} {:>6} {:>10} {:>12} {:>7} {:>8}\n", "set", "N", "rc", "ms/step",
                   "mol-steps/s", "forces", "builds");
        first = false;
      }
      const int warmup = options.warmup > 2 ? options.warmup : 20;
      const int steps = options.steps > 0 ? options.steps : 10;
      const std::int64_t builds_before = backend->neighbor_list_builds();
      const auto t = time_steps(*backend, config.integrator.timestep, warmup, steps, 3);
      const double timed_steps = double(warmup + steps * 3);
      fmt::print("{:>6} {:>8} {:>6.2f} {:>10.2f} {:>12.4g} {:>6.0f}% {:>8.1f}\n", set.name,
                 molecules, cutoff, 1e3 * t.step, double(molecules) / t.step,
                 100.0 * t.forces / t.step,
                 100.0 * double(backend->neighbor_list_builds() - builds_before) / timed_steps);
      std::fflush(stdout);
    }
  }
  fmt::print(
      "ms/step: median of 3 batches of velocity Verlet steps after the warm-up (energy skipped);\n"
      "forces: share of the step in the force evaluation; builds: list builds per 100 steps.\n");
  return core::kExitSuccess;
}

}  // namespace novamd::app
