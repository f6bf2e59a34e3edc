#include "novamd/app/run_command.hpp"

#include <fmt/format.h>

#include <cmath>

#include "novamd/app/console.hpp"
#include "novamd/app/simulation.hpp"
#include "novamd/app/version.hpp"
#include "novamd/backend/make_backend.hpp"
#include "novamd/core/error.hpp"
#include "novamd/io/initial_system.hpp"

namespace novamd::app {
namespace {

std::string describe_truncation(forces::Truncation t) {
  switch (t) {
    case forces::Truncation::Cut:
      return "cut";
    case forces::Truncation::ShiftEnergy:
      return "energy shifted";
    case forces::Truncation::ShiftForce:
      return "force shifted";
  }
  return "?";
}

std::string describe_force(const forces::ForceSettings& settings, const core::UnitSystem& units) {
  const double rc = forces::cutoff_of(settings);
  if (const auto* y = std::get_if<forces::YukawaSettings>(&settings)) {
    const std::string range = std::isinf(rc) ? "all pairs under the minimum image"
                                             : fmt::format("cutoff {} {}, {}", rc, units.length,
                                                           describe_truncation(y->truncation));
    return fmt::format("yukawa (screening length {} {}, {})", y->screening_length, units.length,
                       range);
  }
  const auto& lj = std::get<forces::LennardJonesSettings>(settings);
  return fmt::format("lennard_jones ({} pair entries, cutoff {} {}, {}{})", lj.pairs.size(), rc,
                     units.length, describe_truncation(lj.truncation),
                     lj.tail_correction ? ", tail correction" : "");
}

/// How the pair forces find their pairs, as the CPU backend resolves `neighbors` for the first
/// term with a cutoff.
std::string describe_neighbors(const io::Config& config, const core::Box& box) {
  for (const auto& f : config.forces) {
    const double rc = forces::cutoff_of(f);
    if (std::isinf(rc)) continue;
    switch (neighbors::resolve_method(config.neighbors, rc, box.shortest_edge())) {
      case neighbors::NeighborMethod::NeighborList:
        return fmt::format("Verlet lists, skin {:.6g} {}, checked every {} steps",
                           config.neighbors.skin_for(rc), config.units.length,
                           config.neighbors.check_every);
      case neighbors::NeighborMethod::CellList: return "cell lists";
      default: return "all pairs";
    }
  }
  return "all pairs";
}

std::string describe_particles(const core::ParticleData& particles,
                               const core::SpeciesTable& species) {
  std::vector<std::int64_t> count(species.size(), 0);
  for (auto t : particles.type) ++count[t];
  std::string text = fmt::format("{}", particles.size());
  for (int t = 0; t < species.size(); ++t) {
    text += fmt::format("{} {} {}", t == 0 ? ":" : ",", species[t].name, count[t]);
  }
  return text;
}

std::vector<HeaderLine> header_lines(const io::Config& config, const io::InitialSystem& initial,
                                     const backend::Backend& backend) {
  const auto& u = config.units;
  const auto& L = initial.box.length();
  std::vector<HeaderLine> lines{
      {"config", config.file.string()},
      {"backend", backend.description()},
      {"precision", std::string(core::to_string(config.precision))},
      {"units", fmt::format("{} ({}, {}, {}, {})", u.name, u.length, u.energy, u.mass, u.time)},
      {"particles", describe_particles(initial.particles, config.system.species)},
      {"box",
       fmt::format("{:.6g} x {:.6g} x {:.6g} {} (number density {:.4g} {}^-3)", L.x, L.y, L.z,
                   u.length, initial.particles.size() / initial.box.volume(), u.length)}};
  for (const auto& f : config.forces) lines.push_back({"force", describe_force(f, u)});
  lines.push_back({"neighbors", describe_neighbors(config, initial.box)});
  lines.push_back(
      {"integrator", fmt::format("{}, timestep {} {}, {} steps", config.integrator.type,
                                 config.integrator.timestep, u.time, config.run.steps)});
  std::string output = fmt::format("{} every {} steps", config.output.thermo.file.string(),
                                   config.output.thermo.every);
  if (const auto& t = config.output.trajectory) {
    output += fmt::format("; {} every {} steps", t->file.string(), t->every);
  }
  lines.push_back({"output", output});
  return lines;
}

void print_summary(const RunResult& r, const backend::Backend& backend,
                   const core::UnitSystem& units) {
  fmt::print("\n");
  if (r.steps > 0) {
    const double per_step = r.wall_seconds / static_cast<double>(r.steps);
    fmt::print("Done: {} steps in {:.3f} s: {:.4g} ms/step, {:.4g} steps/s, {:.3g} atom-steps/s\n",
               r.steps, r.wall_seconds, 1e3 * per_step, 1.0 / per_step,
               static_cast<double>(backend.size()) / per_step);
    if (backend.neighbor_list_builds() > 0) {
      fmt::print("Neighbour lists built {} times", backend.neighbor_list_builds());
      if (backend.reorders() > 0) {
        fmt::print("; particles sorted along the Morton curve {} times", backend.reorders());
      }
      fmt::print("\n");
    }
    const double e0 = r.initial.total_energy;
    fmt::print("Total energy: {:.10g} {} at step 0, {:.10g} at step {} (relative change {:.3g})\n",
               e0, units.energy, r.final.total_energy, r.final.step,
               e0 != 0 ? (r.final.total_energy - e0) / std::abs(e0) : 0.0);
  } else {
    fmt::print("Done: initial state evaluated (run.steps = 0)\n");
  }
  fmt::print("Wrote {} thermo rows", r.thermo_rows);
  if (r.trajectory_frames > 0) fmt::print(", {} trajectory frames", r.trajectory_frames);
  fmt::print("\n");
}

}  // namespace

io::Override parse_override(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0) {
    throw core::InputError(
        fmt::format("--set '{}': expected key.path=value, e.g. --set run.steps=100", text));
  }
  return {text.substr(0, eq), text.substr(eq + 1)};
}

int run_command(const RunOptions& options) {
  const io::Config config = io::load_config(options.config, options.overrides);
  io::InitialSystem initial = io::build_initial_system(config);
  const core::Box box = initial.box;
  auto backend =
      backend::make_backend(config.backend,
                            {config.units, config.system.species, initial.box, initial.particles,
                             config.forces, config.precision, config.neighbors});

  fmt::print("{}\n", version_line());
  print_header(header_lines(config, initial, *backend));
  std::vector<std::int64_t> count(config.system.species.size(), 0);
  for (auto t : initial.particles.type) ++count[t];
  const auto tail =
      forces::tail_correction(config.forces, config.system.species, count, box.volume());
  RunOutputs outputs(config, config.system.species, tail);  // all input is valid: files open now
  const RunResult result = run_simulation(config, *backend, box, outputs);
  print_summary(result, *backend, config.units);
  return core::kExitSuccess;
}

}  // namespace novamd::app
