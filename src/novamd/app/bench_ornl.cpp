// `novamd bench --case ornl`: seed 002's workload, LJ plus short-range Coulomb at 10 A over
// binned cells on a protein-sized system of about 15,000 atoms. The system is flexible SPC/E
// water (Berendsen et al., J. Phys. Chem. 91, 6269 (1987): O -0.8476 e, H +0.4238 e, LJ on O
// epsilon 0.1553 kcal/mol, sigma 3.166 A; O-H 1 A and H-O-H 109.47 deg held by harmonic terms of
// K = 450 kcal/mol/A^2 and 55 kcal/mol/rad^2), 17^3 = 4,913 molecules at 1 g/cm^3 (14,739
// atoms) with random orientations: per-atom charges, bonds, angles and excluded pairs, as a
// solvated protein has them. The table gives the step, the force evaluation, the two pair terms
// and the bonded terms (alone, and what they add to the force evaluation), for cell lists
// (binning every step: seed 002's scheme) and Verlet lists, beside the seed's target of 6 ms per
// step; then the binning's three phases on the GPU; then the same water with smooth PME
// (tolerance 5e-4, OpenMM's default; order 5) over Verlet lists, beside OpenMM's water-pme case
// (benchmarks/openmm/molecular.py).

#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <variant>

#include "novamd/app/bench_command.hpp"
#include "novamd/app/bench_timing.hpp"
#include "novamd/app/version.hpp"
#include "novamd/backend/binning_timing.hpp"
#include "novamd/backend/make_backend.hpp"
#include "novamd/core/error.hpp"
#include "novamd/core/random.hpp"
#include "novamd/forces/kspace_parameters.hpp"
#include "novamd/io/initial_system.hpp"
#include "novamd/io/molecular_system.hpp"

namespace novamd::app {
namespace {

constexpr int kMoleculesPerEdge = 17;
constexpr double kTimestep = 0.5;  // fs: flexible water
constexpr double kSeedTargetMs = 6.0;

/// SPC/E water molecules on a cubic lattice, each turned by a random rotation (`seed`).
io::TopologyFile water_box(int per_edge, std::uint64_t seed) {
  const int molecules = per_edge * per_edge * per_edge;
  const double volume = molecules * 18.0153 / 0.6022140857;  // A^3 at 1 g/cm^3
  const double edge = std::cbrt(volume), spacing = edge / per_edge;
  io::TopologyFile f;
  f.format = "generated";
  f.box_edges = core::Vec3<double>{edge, edge, edge};
  f.types = {{"OW", 15.9994}, {"HW", 1.008}};
  f.pair_style = "lj_cut";
  io::LennardJonesCoefficients oxygen, hydrogen;
  oxygen.epsilon = 0.1553;
  oxygen.sigma = 3.166;
  hydrogen.sigma = 1.0;  // epsilon 0: no LJ on hydrogen
  f.lj_by_type = {oxygen, hydrogen};
  f.bond = io::StyleCoefficients{"harmonic", {{450.0, 1.0}}};
  f.angle = io::StyleCoefficients{"harmonic", {{55.0, 109.47}}};
  f.topology = core::Topology(3 * molecules);
  const core::RandomStream rng(seed, core::RandomPurpose::BenchmarkSetup);
  const double half_angle = 0.5 * 109.47 * std::numbers::pi / 180.0;
  for (int m = 0; m < molecules; ++m) {
    const core::Vec3<double> o{(m % per_edge + 0.5) * spacing,
                               (m / per_edge % per_edge + 0.5) * spacing,
                               (m / (per_edge * per_edge) + 0.5) * spacing};
    // A random orthonormal frame from two random directions (Gram-Schmidt).
    const auto random_unit = [&](std::uint64_t k) {
      const core::RandomPair u = rng.uniform(static_cast<std::uint32_t>(m), k);
      const double z = 2.0 * u.first - 1.0, phi = 2.0 * std::numbers::pi * u.second;
      const double s = std::sqrt(1.0 - z * z);
      return core::Vec3<double>{s * std::cos(phi), s * std::sin(phi), z};
    };
    const core::Vec3<double> a = random_unit(0);
    core::Vec3<double> b = random_unit(1);
    const double ab = core::dot(a, b);
    b = {b.x - ab * a.x, b.y - ab * a.y, b.z - ab * a.z};
    const double nb = std::sqrt(core::dot(b, b));
    b = {b.x / nb, b.y / nb, b.z / nb};
    const double c = std::cos(half_angle), s = std::sin(half_angle);
    const std::int32_t first = 3 * m;
    f.position.push_back(o);
    f.position.push_back(
        {o.x + c * a.x + s * b.x, o.y + c * a.y + s * b.y, o.z + c * a.z + s * b.z});
    f.position.push_back(
        {o.x + c * a.x - s * b.x, o.y + c * a.y - s * b.y, o.z + c * a.z - s * b.z});
    f.type.insert(f.type.end(), {0, 1, 1});
    f.charge.insert(f.charge.end(), {-0.8476, 0.4238, 0.4238});
    f.molecule.insert(f.molecule.end(), {m + 1, m + 1, m + 1});
    f.topology.add_bond({0, {first, first + 1}});
    f.topology.add_bond({0, {first, first + 2}});
    f.topology.add_angle({0, {first + 1, first, first + 2}});
  }
  return f;
}

constexpr double kPmeTolerance = 5e-4;

io::Config water_config(const BenchOptions& options, neighbors::NeighborMethod method,
                        bool pme = false) {
  io::Config c;
  c.file = "<bench>";
  c.units = core::real_units();
  c.backend = options.backend;
  c.precision = *core::parse_precision(options.precision);
  io::TopologySettings topology;
  topology.read = "<generated water>";
  topology.format = "lammps_data";
  topology.file = std::make_shared<const io::TopologyFile>(water_box(kMoleculesPerEdge, 2026));
  c.system.species = core::SpeciesTable({{"OW", 0.0, 15.9994, 0}, {"HW", 0.0, 1.008, 0}});
  c.system.topology = topology;
  c.system.velocities.temperature = 300.0;
  forces::LennardJonesSettings lj;
  lj.pairs = {{"OW", "OW", 0.1553, 3.166}};
  lj.cutoff = 10.0;
  forces::CoulombSettings coulomb;
  coulomb.method = forces::CoulombMethod::Shift;
  coulomb.truncation = forces::Truncation::ShiftForce;
  coulomb.cutoff = 10.0;
  if (pme) {
    coulomb.method = forces::CoulombMethod::Pme;
    coulomb.truncation = forces::Truncation::Cut;
    coulomb.ewald.tolerance = kPmeTolerance;
  }
  c.forces = {lj, coulomb};
  c.neighbors.method = method;
  c.neighbors.skin = 2.0;
  c.neighbors.layout = bench_layout(options);
  c.integrator.timestep = kTimestep;
  return c;
}

/// Seconds per force evaluation (energy skipped) of a backend with only `forces` and `bonded`.
double seconds_of(const io::Config& config, const io::InitialSystem& initial,
                  std::vector<forces::ForceSettings> forces, const io::MolecularSystem& molecular,
                  bool with_bonded, int calls) {
  auto backend = backend::make_backend(
      config.backend,
      {config.units, config.system.species, initial.box, initial.particles, std::move(forces),
       config.precision, config.neighbors, nullptr, molecular.topology,
       with_bonded ? molecular.bonded : std::vector<forces::BondedSettings>{}});
  backend->compute_forces(backend::EnergyRequest::Compute);
  return median_time_per_call(*backend, 5, calls,
                              [&] { backend->compute_forces(backend::EnergyRequest::Skip); });
}

/// The three phases of one cell binning on the GPU (each pair term over cell lists bins the
/// particles at every evaluation).
void print_binning_phases(const BenchOptions& options) {
  const io::Config config = water_config(options, neighbors::NeighborMethod::CellList);
  if (backend::resolve_backend_name(config.backend) != "cuda") return;
  const io::InitialSystem initial = io::build_initial_system(config);
  const auto& p = initial.particles.position;
  std::vector<core::Vec3<double>> positions(p.x.size());
  for (std::size_t i = 0; i < positions.size(); ++i) positions[i] = {p.x[i], p.y[i], p.z[i]};
  const double cutoff = 10.0;
  const auto t = backend::time_cell_binning(positions, initial.box, cutoff, config.precision, 100);
  if (!t) return;
  const double assign = median(t->assign), sort = median(t->sort), ranges = median(t->ranges);
  fmt::print(
      "cell binning on the GPU, {} atoms, cells of >= {} A, us per binning: assign {:.2f}, "
      "count (radix sort by cell) {:.2f}, gather (cell ranges) {:.2f}; total {:.2f}\n",
      positions.size(), cutoff, 1e6 * assign, 1e6 * sort, 1e6 * ranges,
      1e6 * (assign + sort + ranges));
}

/// The water with PME over Verlet lists: the step, the force evaluation, LJ alone, Coulomb with
/// PME alone, and the force-shifted Coulomb of the same pairs alone, whose difference from PME's
/// estimates the mesh's share.
void print_pme_table(const BenchOptions& options) {
  const bool on_gpu = backend::resolve_backend_name(options.backend) == "cuda";
  const io::Config config = water_config(options, neighbors::NeighborMethod::NeighborList, true);
  const io::Config shifted = water_config(options, neighbors::NeighborMethod::NeighborList);
  const io::InitialSystem initial = io::build_initial_system(config);
  const io::MolecularSystem molecular = io::molecular_system(config);
  auto backend = backend::make_backend(
      config.backend,
      {config.units, config.system.species, initial.box, initial.particles, config.forces,
       config.precision, config.neighbors, nullptr, molecular.topology, molecular.bonded});
  auto resolved = config.forces;
  forces::resolve_kspace(resolved, initial.box);
  fmt::print("the same water with {}, Verlet lists:\n",
             forces::describe(resolved[1], config.units));
  fmt::print("{:>9} {:>9} {:>9} {:>9} {:>11} {:>9}\n", "ms/step", "forces", "LJ ms", "PME ms",
             "shifted ms", "mesh ms");
  const int steps = options.steps > 0 ? options.steps : on_gpu ? 100 : 3;
  const int warmup = options.warmup > 2 ? options.warmup : (on_gpu ? 100 : 2);
  const auto t = time_steps(*backend, kTimestep, warmup, steps, on_gpu ? 9 : 3);
  const double lj = seconds_of(config, initial, {config.forces[0]}, molecular, false, steps);
  // The PME term with its exclusion corrections (a bonded family of the molecular system).
  io::MolecularSystem corrections;
  corrections.topology = molecular.topology;
  for (const auto& family : molecular.bonded)
    if (std::holds_alternative<forces::EwaldExcludedPairSettings>(family))
      corrections.bonded.push_back(family);
  const double pme = seconds_of(config, initial, {config.forces[1]}, corrections, true, steps);
  const double shift = seconds_of(shifted, initial, {shifted.forces[1]}, molecular, false, steps);
  fmt::print("{:>9.3f} {:>9.3f} {:>9.3f} {:>9.3f} {:>11.3f} {:>9.3f}\n", 1e3 * t.step,
             1e3 * t.forces, 1e3 * lj, 1e3 * pme, 1e3 * shift, 1e3 * (pme - shift));
  fmt::print(
      "PME ms: the Coulomb term alone (real space, mesh, self energy) with the excluded pairs'\n"
      "corrections; shifted ms: force-shifted Coulomb over the same pairs; mesh ms: their\n"
      "difference, an estimate of the mesh's share (spreading, FFTs, convolution, gather).\n");
}

}  // namespace

int bench_ornl(const BenchOptions& options) {
  const bool on_gpu = backend::resolve_backend_name(options.backend) == "cuda";
  fmt::print("{}\n", version_line());
  bool first = true;
  for (const auto method :
       {neighbors::NeighborMethod::CellList, neighbors::NeighborMethod::NeighborList}) {
    const io::Config config = water_config(options, method);
    const io::InitialSystem initial = io::build_initial_system(config);
    const io::MolecularSystem molecular = io::molecular_system(config);
    auto backend = backend::make_backend(
        config.backend,
        {config.units, config.system.species, initial.box, initial.particles, config.forces,
         config.precision, config.neighbors, nullptr, molecular.topology, molecular.bonded});
    if (first) {
      fmt::print(
          "backend {}, precision {}; seed 002's case: {} atoms of flexible SPC/E water "
          "(box {:.2f} A), LJ + force-shifted Coulomb at 10 A, bonds and angles, dt {} fs\n",
          backend->description(), options.precision, initial.particles.size(),
          initial.box.length().x, kTimestep);
      fmt::print("{:>14} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>8} {:>10}\n", "pairs by", "ms/step",
                 "forces", "LJ ms", "Coul ms", "bonded", "+bonded", "bonded%", "seed 002");
      first = false;
    }
    const int steps = options.steps > 0 ? options.steps : on_gpu ? 100 : 3;
    const int warmup = options.warmup > 2 ? options.warmup : (on_gpu ? 100 : 2);
    const auto t = time_steps(*backend, kTimestep, warmup, steps, on_gpu ? 9 : 3);
    const double lj = seconds_of(config, initial, {config.forces[0]}, molecular, false, steps);
    const double coulomb = seconds_of(config, initial, {config.forces[1]}, molecular, false, steps);
    const double bonded = seconds_of(config, initial, {}, molecular, true, steps);
    // Both from fresh backends over the same positions and storage order (the stepped backend
    // of t.forces has moved and reordered its particles, which changes the cell traversal's
    // cost by more than the bonded terms take).
    const double pairs = seconds_of(config, initial, config.forces, molecular, false, steps);
    const double all = seconds_of(config, initial, config.forces, molecular, true, steps);
    const double added = all - pairs;  // a difference of medians: noise may make it negative
    fmt::print(
        "{:>14} {:>9.3f} {:>9.3f} {:>9.3f} {:>9.3f} {:>9.4f} {:>9.4f} {:>7.1f}% {:>7.1f} ms\n",
        method == neighbors::NeighborMethod::CellList ? "cell lists" : "Verlet lists", 1e3 * t.step,
        1e3 * t.forces, 1e3 * lj, 1e3 * coulomb, 1e3 * bonded, 1e3 * added, 100.0 * added / t.step,
        kSeedTargetMs);
    std::fflush(stdout);
  }
  fmt::print(
      "ms/step: median over batches of steps queued back to back (cell lists: the particles\n"
      "binned at every evaluation, as in seed 002; Verlet lists: skin 2 A, rebuilt when due),\n"
      "energy skipped; forces: the force evaluation; LJ, Coul: each pair term alone; bonded: the\n"
      "bonds and angles alone; +bonded: what they add to the force evaluation (all terms less\n"
      "the two pair terms together, each timed as LJ ms; bonded%: its share of the step);\n"
      "seed 002: its target per step.\n");
  print_binning_phases(options);
  print_pme_table(options);
  return core::kExitSuccess;
}

}  // namespace novamd::app
