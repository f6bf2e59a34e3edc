#include "novamd/app/run_command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "novamd/app/console.hpp"
#include "novamd/app/output_plan.hpp"
#include "novamd/app/plasma_report.hpp"
#include "novamd/app/rank_agreement.hpp"
#include "novamd/app/run_stages.hpp"
#include "novamd/app/simulation.hpp"
#include "novamd/app/step_loop.hpp"
#include "novamd/app/stop_signals.hpp"
#include "novamd/app/version.hpp"
#include "novamd/core/error.hpp"
#include "novamd/core/wording.hpp"
#include "novamd/forces/rigid_kspace.hpp"
#include "novamd/parallel/communicator.hpp"
#include "novamd/parallel/mpi_session.hpp"
#include "novamd/parallel/process_grid.hpp"

namespace novamd::app {
namespace {

/// How one pair force finds its pairs, as the CPU backend resolves `neighbors` for its cutoff
/// (every method leaves a molecular system's excluded pairs out); `cluster_pairs`: the lists are
/// the CUDA backend's cluster pairs (`neighbors.layout`).
std::string describe_method(const io::Config& config, const forces::ForceSettings& term,
                            const core::Box& box, bool cluster_pairs) {
  const double rc = forces::cutoff_of(term);
  switch (neighbors::resolve_method(config.neighbors, rc, box.shortest_edge())) {
    case neighbors::NeighborMethod::NeighborList:
      return fmt::format("Verlet lists{}, skin {:.6g} {}, checked every {}",
                         cluster_pairs ? " of cluster pairs (32 x 32)" : "",
                         config.neighbors.skin_for(rc, box.shortest_edge()), config.units.length,
                         config.neighbors.check_every == 1
                             ? std::string("step")
                             : core::counted(config.neighbors.check_every, "step"));
    case neighbors::NeighborMethod::CellList:
      return "cell lists";
    default:
      return "all pairs";
  }
}

/// How the pair forces find their pairs: one description when every term does the same, else
/// one per term ("nuclear: Verlet lists, ...; yukawa: all pairs").
std::string describe_neighbors(const io::Config& config, const core::Box& box, bool cluster_pairs) {
  std::vector<std::string> methods;
  for (const auto& f : config.forces)
    methods.push_back(describe_method(config, f, box, cluster_pairs));
  if (std::all_of(methods.begin(), methods.end(), [&](const auto& m) { return m == methods[0]; }))
    return methods.empty() ? "all pairs" : methods[0];
  std::string text;
  for (std::size_t t = 0; t < methods.size(); ++t)
    text += fmt::format("{}{}: {}", t ? "; " : "", forces::name_of(config.forces[t]), methods[t]);
  return text;
}

std::string describe_particles(const std::vector<std::int64_t>& count,
                               const core::SpeciesTable& species) {
  std::int64_t total = 0;
  for (auto c : count) total += c;
  std::string text = fmt::format("{}", total);
  for (int t = 0; t < species.size(); ++t) {
    text += fmt::format("{} {} {}", t == 0 ? ":" : ",", species[t].name, count[t]);
  }
  return text;
}

std::string describe_integrator(const io::Config& config);
std::string describe_barostat(const io::Config& config);

/// Whether a pair force of the config has a finite cutoff.
bool has_cutoff(const io::Config& config) {
  return std::any_of(config.forces.begin(), config.forces.end(),
                     [](const auto& f) { return !std::isinf(forces::cutoff_of(f)); });
}

/// "4 (grid 2 x 2: 2 blocks of targets, 2 of sources)", and how the pair forces run then.
std::string describe_ranks(const parallel::GridShape& grid, const io::Config& config) {
  std::string text = fmt::format("{} (grid {} x {}{})", grid.ranks(), grid.rows, grid.columns,
                                 config.parallel.grid ? "" : ", auto");
  if (grid.ranks() == 1) return text;
  if (has_cutoff(config))
    text +=
        "; force-matrix blocks: pair forces with a cutoff test every pair of the block "
        "(no neighbour lists)";
  return text;
}

/// "4 (spatial: 1 x 2 x 2 bricks, auto)", "2 (spatial: 2 x 1 x 1 bricks, balanced by particle
/// count)".
std::string describe_bricks(const parallel::BrickGrid& bricks, const io::Config& config) {
  return fmt::format("{} (spatial: {} x {} x {} bricks{}{})", bricks.ranks(), bricks.dims[0],
                     bricks.dims[1], bricks.dims[2], config.parallel.bricks ? "" : ", auto",
                     bricks.balanced ? ", balanced by particle count" : "");
}

std::vector<HeaderLine> header_lines(const io::Config& config, const core::Box& box,
                                     const std::vector<std::int64_t>& count,
                                     const backend::Backend& backend, bool cluster_pairs,
                                     const app::Analyzer& analyzer) {
  const auto& u = config.units;
  const auto& L = box.length();
  std::vector<HeaderLine> lines{
      {"config", config.file.string()},
      {"backend", backend.description()},
      {"precision", std::string(core::to_string(config.precision))},
      {"units", fmt::format("{} ({}, {}, {}, {})", u.name, u.length, u.energy, u.mass, u.time)},
      {config.system.components.empty() ? "particles" : "molecules",
       describe_particles(count, config.system.species)},
      {"box",
       fmt::format("{:.6g} x {:.6g} x {:.6g} {} (number density {:.4g} {}^-3)", L.x, L.y, L.z,
                   u.length, static_cast<double>(backend.size()) / box.volume(), u.length)}};
  for (const auto& f : config.forces) lines.push_back({"force", forces::describe(f, u)});
  if (const auto& rigid = config.rigid_sites) {
    const double cutoff = *rigid->cutoff;
    lines.push_back(
        {"force",
         fmt::format("rigid_sites: every site pair of the molecules whose centres lie "
                     "within {} {}{}{}{}",
                     cutoff, u.length, rigid->shift ? "; Lennard-Jones shifted at the cutoff" : "",
                     rigid->epsilon_rf
                         ? fmt::format("; reaction field, eps_rf {:g}", *rigid->epsilon_rf)
                         : "",
                     rigid->tail_correction ? "; MarDyn's long-range correction" : "")});
    if (const auto kspace = forces::resolved_kspace(*rigid, box))
      lines.push_back({"force", "rigid_sites' charges: " + kspace->describe(u) +
                                    " over the charge sites; real space on the centres' cutoff"});
    lines.push_back(
        {"neighbors",
         fmt::format("Verlet lists of the molecules' centres, skin {:.4g} {}",
                     config.neighbors.skin_for(cutoff, box.shortest_edge()), u.length)});
  } else {
    lines.push_back({"neighbors", describe_neighbors(config, box, cluster_pairs)});
  }
  lines.push_back({"integrator", describe_integrator(config)});
  if (!config.run.stages.empty())
    for (const auto& span : stage_spans(config))
      lines.push_back({"stages", describe_stage(span, config)});
  if (!config.barostat.type.empty()) lines.push_back({"barostat", describe_barostat(config)});
  if (const auto& c = config.constraints) {
    using constraints::BondConstraints;
    const std::string bonds =
        c->request.bonds == BondConstraints::HydrogenBonds ? "bonds to hydrogens (SHAKE and RATTLE)"
        : c->request.bonds == BondConstraints::AllBonds
            ? "all bonds (each molecule's coupled: CCMA)"
        : c->request.bonds == BondConstraints::ListedTypes
            ? fmt::format("bonds of types {} (clusters: SHAKE and RATTLE; others: CCMA)",
                          fmt::join(c->request.bond_types, ", "))
            : "no bonds";
    lines.push_back({"constraints", fmt::format("{}, {}, tolerance {:.3g}", bonds,
                                                c->request.rigid_water ? "rigid waters (SETTLE)"
                                                                       : "flexible waters",
                                                c->tolerance)});
  }
  const auto& thermo = config.output.thermo;
  std::string output = thermo.file.empty()
                           ? std::string("no thermo file")
                           : fmt::format("{} every {} steps", thermo.file.string(), thermo.every);
  for (const auto& t : config.output.trajectories)
    output += fmt::format("; {} every {} steps", t.file.string(), t.every);
  const auto& chk = config.output.checkpoint;
  if (chk.configured)
    output += chk.every > 0 ? fmt::format("; {} every {} steps", chk.file.string(), chk.every)
                            : fmt::format("; {} at the end", chk.file.string());
  lines.push_back({"output", output});
  for (const auto& line : analyzer.describe()) lines.push_back({"analysis", line});
  if (config.run.walltime)
    lines.push_back({"walltime", fmt::format("{:.0f} s: stops with a checkpoint before then",
                                             *config.run.walltime)});
  return lines;
}

std::string describe_integrator(const io::Config& config) {
  const auto& i = config.run.stages.empty() ? config.integrator : config.run.stages[0].integrator;
  const auto& u = config.units;
  std::string text = fmt::format("{}, timestep {} {}", i.type, i.timestep, u.time);
  if (i.type == "langevin")
    text += fmt::format(", T = {} {}, friction {} per {}", *i.temperature, u.temperature,
                        i.friction, u.time);
  if (i.type == "nose_hoover")
    text += fmt::format(", T = {} {}, tau {} {}, chain of {}", *i.temperature, u.temperature, i.tau,
                        u.time, i.chain);
  if (i.type == "bussi")
    text += fmt::format(", T = {} {}, tau {} {}", *i.temperature, u.temperature, i.tau, u.time);
  return text + fmt::format(", to step {}", config.run.steps);
}

std::string describe_barostat(const io::Config& config) {
  const auto& b = config.barostat;
  const auto& u = config.units;
  const char* coupling = b.coupling == integrate::PressureCoupling::Anisotropic ? "anisotropic"
                         : b.coupling == integrate::PressureCoupling::SemiIsotropic
                             ? "semi-isotropic"
                             : "isotropic";
  if (b.type == "mttk")
    return fmt::format("mttk ({}), P = {:.6g} {}, period {} {}, with the Nose-Hoover chains{}",
                       coupling, b.pressure * u.pressure_scale, u.pressure, b.period, u.time,
                       b.every > 1 ? fmt::format(", in blocks of {} steps", b.every) : "");
  if (b.type == "monte_carlo")
    return fmt::format("{} ({}), P = {:.6g} {}, a volume move every {} steps{}", b.type, coupling,
                       b.pressure * u.pressure_scale, u.pressure, b.every,
                       config.constraints ? ", molecules moved by their centres of mass" : "");
  return fmt::format(
      "{} ({}), P = {:.6g} {}, period {} {}, compressibility {:.4g} per {}, "
      "every {} steps",
      b.type, coupling, b.pressure * u.pressure_scale, u.pressure, b.period, u.time,
      b.compressibility / u.pressure_scale, u.pressure, b.every);
}

void print_stop(const RunResult& r, const io::Config& config) {
  const auto& file = config.output.checkpoint.file;
  if (r.reason == StopReason::Signal) {
    fmt::print("\nReceived {} at step {}: wrote checkpoint {}\n", StopSignals::name(r.signal),
               r.last_step, file.string());
  } else if (r.reason == StopReason::Walltime) {
    fmt::print("\nStopping before the wall-clock limit at step {}: wrote checkpoint {}\n",
               r.last_step, file.string());
  } else {
    return;
  }
  fmt::print("Continue with: novamd run {} --restart {}\n", config.file.string(), file.string());
}

void print_summary(const RunResult& r, const backend::Backend& backend, const io::Config& config) {
  const auto& units = config.units;
  print_stop(r, config);
  fmt::print("\n");
  for (const auto& line : r.analysis) fmt::print("{}\n", line);
  if (!r.barostat.empty()) fmt::print("{}\n", r.barostat);
  if (r.steps() > 0) {
    const double per_step = r.wall_seconds / static_cast<double>(r.steps());
    fmt::print("Done: {} steps in {:.3f} s: {:.4g} ms/step, {:.4g} steps/s, {:.3g} atom-steps/s",
               r.steps(), r.wall_seconds, 1e3 * per_step, 1.0 / per_step,
               static_cast<double>(backend.size()) / per_step);
    // Simulated time per day of wall time, the biomolecular measure (time in fs: `real` units),
    // from the mean timestep (stages may take others).
    if (units.time == "fs")
      fmt::print(", {:.4g} ns/day",
                 ns_per_day(r.simulated_time / static_cast<double>(r.steps()), per_step));
    fmt::print("\n");
    if (backend.neighbor_list_builds() > 0) {
      fmt::print("Neighbour lists built {}", core::counted(backend.neighbor_list_builds(), "time"));
      if (backend.reorders() > 0) {
        fmt::print("; particles sorted along the Morton curve {}",
                   core::counted(backend.reorders(), "time"));
      }
      fmt::print("\n");
    }
    if (r.initial && r.final && r.final->step > r.initial->step) {
      const double e0 = r.initial->conserved_energy;
      fmt::print(
          "Conserved energy: {:.10g} {} at step {}, {:.10g} at step {} (relative change "
          "{:.3g})\n",
          e0, units.energy, r.initial->step, r.final->conserved_energy, r.final->step,
          e0 != 0 ? (r.final->conserved_energy - e0) / std::abs(e0) : 0.0);
    }
  } else {
    fmt::print("Done: initial state evaluated (run.steps = 0)\n");
  }
  fmt::print("Wrote {}", core::counted(r.thermo_rows, "thermo row"));
  if (r.trajectory_frames > 0)
    fmt::print(", {}", core::counted(r.trajectory_frames, "trajectory frame"));
  if (r.checkpoints > 0) fmt::print(", {}", core::counted(r.checkpoints, "checkpoint"));
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

namespace {

/// The version line, the run's header, and the notes of a restart.
void print_run_header(const Simulation& sim) {
  const auto& config = sim.config();
  const auto& plasma = sim.plasma();
  fmt::print("{}\n", version_line());
  const bool cluster_pairs =
      sim.backend_name() == "cuda" && config.neighbors.layout == neighbors::ListLayout::Clusters;
  auto lines = header_lines(config, sim.box(), sim.species_counts(), sim.backend(), cluster_pairs,
                            sim.analyzer());
  for (auto& line : lines)
    if (line.key == "constraints")
      line.value += fmt::format(
          "; {} distances held ({} rigid waters); {} bonded terms held constant (not evaluated)",
          sim.held_distances(), sim.rigid_waters(), sim.held_terms());
  if (const auto& error = sim.ewald_error()) {  // after the force terms
    const auto neighbors = std::find_if(lines.begin(), lines.end(),
                                        [](const HeaderLine& l) { return l.key == "neighbors"; });
    const auto& u = config.units;
    lines.insert(
        neighbors,
        {"ewald", fmt::format("estimated RMS force error {:.2g} {}/{} (real space {:.2g}, "
                              "reciprocal {:.2g}; {}){}",
                              error->total(), u.energy, u.length, error->real, error->reciprocal,
                              error->pme ? "Kolafa and Perram 1992, Deserno and Holm 1998"
                                         : "Kolafa and Perram 1992",
                              error->pme ? "; the mesh's is P3M's estimate, which smooth PME "
                                           "exceeds a few times: `novamd check` measures it"
                                         : "")});
  }
  if (plasma) {  // after the force terms
    const auto neighbors = std::find_if(lines.begin(), lines.end(),
                                        [](const HeaderLine& l) { return l.key == "neighbors"; });
    lines.insert(neighbors, {"plasma", describe_plasma(config, *plasma)});
  }
  if (sim.grid().ranks() > 1 || parallel::launched_by_mpi()) {
    std::string ranks =
        sim.bricks() ? describe_bricks(*sim.bricks(), config) : describe_ranks(sim.grid(), config);
    if (sim.backend_name() == "cuda")
      ranks += fmt::format(
          "; {} (device = the rank's number on its node mod the node's GPUs; rank 0's is shown "
          "under backend)",
          sim.shares_gpus() ? std::string("more ranks than GPUs on a node: ranks share them")
                            : fmt::format("{} GPUs, one per rank", sim.grid().ranks()));
    lines.insert(lines.begin() + 2, {"ranks", ranks});
  }
  const bool blocks_with_cutoff = sim.grid().ranks() > 1 && !sim.bricks() && has_cutoff(config);
  if (blocks_with_cutoff)  // the force matrix builds no lists: the header must not name any
    for (auto& line : lines)
      if (line.key == "neighbors")
        line.value = "none: each rank tests every pair of its force-matrix block";
  print_header(lines);
  if (blocks_with_cutoff && sim.writes_files())
    fmt::print(
        "Note: under mpirun the force matrix splits all pairs over the ranks; with a cutoff each "
        "rank still tests every pair of its block, which costs more than one rank with neighbour "
        "lists (OpenMP threads or one GPU) for all but the longest cutoffs\n");
  if (sim.writes_files())
    for (const auto& note : trajectory_notes(config, config.run.steps))
      fmt::print("Note: {}\n", note);
  if (sim.restart()) {
    fmt::print("Restarting from {} at step {}\n", sim.input().restart->string(), sim.first_step());
    for (const auto& note : sim.restart()->notes) fmt::print("Note: {}\n", note);
    if (sim.analyzer().active())
      fmt::print(
          "Note: the analyses start anew from step {}: their files will hold only the "
          "samples from here on\n",
          sim.first_step());
    fmt::print("\n");
  }
}

}  // namespace

int run_command(const RunOptions& options, const parallel::MpiSession& session) {
  const auto started = std::chrono::steady_clock::now();
  // Before anything is written: a signal during set-up stops the run at its first step
  // boundary, with a checkpoint, like any other.
  const StopSignals signals;
  const auto sim = Simulation::create(options, session);
  if (!sim) return core::kExitSuccess;
  // The header, then the files (each stage agreed by every rank, app/rank_agreement.hpp).
  agreed_by_all_ranks(session, [&] { return (print_run_header(*sim), sim->open_outputs(), 0); });
  const RunResult result = sim->run(&signals, started);
  print_summary(result, sim->backend(), sim->config());
  return core::kExitSuccess;
}

int run_command(const RunOptions& options) {
  return run_command(options, parallel::MpiSession());
}

}  // namespace novamd::app
