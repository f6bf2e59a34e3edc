#include "novamd/app/run_command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "novamd/app/checkpointing.hpp"
#include "novamd/app/rank_agreement.hpp"
#include "novamd/app/console.hpp"
#include "novamd/app/output_lock.hpp"
#include "novamd/app/output_plan.hpp"
#include "novamd/app/plasma_report.hpp"
#include "novamd/app/simulation.hpp"
#include "novamd/app/stop_signals.hpp"
#include "novamd/app/version.hpp"
#include "novamd/integrate/integrator.hpp"
#include "novamd/backend/cuda_device.hpp"
#include "novamd/backend/make_backend.hpp"
#include "novamd/core/error.hpp"
#include "novamd/io/initial_system.hpp"
#include "novamd/io/screening.hpp"
#include "novamd/parallel/communicator.hpp"
#include "novamd/parallel/mpi_session.hpp"
#include "novamd/parallel/process_grid.hpp"

namespace novamd::app {
namespace {

/// How one pair force finds its pairs, as the CPU backend resolves `neighbors` for its cutoff.
std::string describe_method(const io::Config& config, double rc, const core::Box& box) {
  switch (neighbors::resolve_method(config.neighbors, rc, box.shortest_edge())) {
    case neighbors::NeighborMethod::NeighborList:
      return fmt::format("Verlet lists, skin {:.6g} {}, checked every {} steps",
                         config.neighbors.skin_for(rc), config.units.length,
                         config.neighbors.check_every);
    case neighbors::NeighborMethod::CellList: return "cell lists";
    default: return "all pairs";
  }
}

/// How the pair forces find their pairs: one description when every term does the same, else
/// one per term ("nuclear: Verlet lists, ...; yukawa: all pairs").
std::string describe_neighbors(const io::Config& config, const core::Box& box) {
  std::vector<std::string> methods;
  for (const auto& f : config.forces)
    methods.push_back(describe_method(config, forces::cutoff_of(f), box));
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

/// "4 (grid 2 x 2: 2 blocks of targets, 2 of sources)", and how the pair forces run then.
std::string describe_ranks(const parallel::GridShape& grid, const io::Config& config) {
  std::string text = fmt::format("{} (grid {} x {}{})", grid.ranks(), grid.rows, grid.columns,
                                 config.parallel.grid ? "" : ", auto");
  if (grid.ranks() == 1) return text;
  bool cutoff = false;
  for (const auto& f : config.forces) cutoff = cutoff || !std::isinf(forces::cutoff_of(f));
  if (cutoff)
    text += "; force-matrix blocks: pair forces with a cutoff test every pair of the block "
            "(no neighbour lists)";
  return text;
}

std::vector<HeaderLine> header_lines(const io::Config& config, const core::Box& box,
                                     const std::vector<std::int64_t>& count,
                                     const backend::Backend& backend,
                                     const app::Analyzer& analyzer) {
  const auto& u = config.units;
  const auto& L = box.length();
  std::vector<HeaderLine> lines{
      {"config", config.file.string()},
      {"backend", backend.description()},
      {"precision", std::string(core::to_string(config.precision))},
      {"units", fmt::format("{} ({}, {}, {}, {})", u.name, u.length, u.energy, u.mass, u.time)},
      {"particles", describe_particles(count, config.system.species)},
      {"box",
       fmt::format("{:.6g} x {:.6g} x {:.6g} {} (number density {:.4g} {}^-3)", L.x, L.y, L.z,
                   u.length, static_cast<double>(backend.size()) / box.volume(), u.length)}};
  for (const auto& f : config.forces) lines.push_back({"force", forces::describe(f, u)});
  lines.push_back({"neighbors", describe_neighbors(config, box)});
  lines.push_back({"integrator", describe_integrator(config)});
  std::string output = fmt::format("{} every {} steps", config.output.thermo.file.string(),
                                   config.output.thermo.every);
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
  const auto& i = config.integrator;
  const auto& u = config.units;
  std::string text = fmt::format("{}, timestep {} {}", i.type, i.timestep, u.time);
  if (i.type == "langevin")
    text += fmt::format(", T = {} {}, friction {} per {}", *i.temperature, u.temperature,
                        i.friction, u.time);
  if (i.type == "nose_hoover")
    text += fmt::format(", T = {} {}, tau {} {}, chain of {}", *i.temperature, u.temperature,
                        i.tau, u.time, i.chain);
  if (i.type == "bussi")
    text += fmt::format(", T = {} {}, tau {} {}", *i.temperature, u.temperature, i.tau, u.time);
  return text + fmt::format(", to step {}", config.run.steps);
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
  if (r.steps() > 0) {
    const double per_step = r.wall_seconds / static_cast<double>(r.steps());
    fmt::print("Done: {} steps in {:.3f} s: {:.4g} ms/step, {:.4g} steps/s, {:.3g} atom-steps/s\n",
               r.steps(), r.wall_seconds, 1e3 * per_step, 1.0 / per_step,
               static_cast<double>(backend.size()) / per_step);
    if (backend.neighbor_list_builds() > 0) {
      fmt::print("Neighbour lists built {} times", backend.neighbor_list_builds());
      if (backend.reorders() > 0) {
        fmt::print("; particles sorted along the Morton curve {} times", backend.reorders());
      }
      fmt::print("\n");
    }
    if (r.initial && r.final && r.final->step > r.initial->step) {
      const double e0 = r.initial->conserved_energy;
      fmt::print("Conserved energy: {:.10g} {} at step {}, {:.10g} at step {} (relative change "
                 "{:.3g})\n",
                 e0, units.energy, r.initial->step, r.final->conserved_energy, r.final->step,
                 e0 != 0 ? (r.final->conserved_energy - e0) / std::abs(e0) : 0.0);
    }
  } else {
    fmt::print("Done: initial state evaluated (run.steps = 0)\n");
  }
  fmt::print("Wrote {} thermo rows", r.thermo_rows);
  if (r.trajectory_frames > 0) fmt::print(", {} trajectory frames", r.trajectory_frames);
  if (r.checkpoints > 0) fmt::print(", {} checkpoints", r.checkpoints);
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

/// The run's starting state: built from the config, or read from a checkpoint.
struct StartingState {
  core::Box box;
  core::ParticleData particles;  ///< id order when fresh; a checkpoint's storage order
  std::optional<Restart> restart;
};

StartingState starting_state(const RunOptions& options, const io::Config& config,
                             const std::string& backend_name) {
  if (!options.restart) {
    io::InitialSystem initial = io::build_initial_system(config);
    return {initial.box, std::move(initial.particles), std::nullopt};
  }
  Restart restart = load_restart(*options.restart, config, backend_name);
  const auto& L = restart.data.box;
  const core::Box box(L[0], L[1], L[2]);
  core::ParticleData particles = restart.data.state.particles;
  return {box, std::move(particles), std::move(restart)};
}

/// Everything a run holds once its input is read and its state is built, on every rank.
struct PreparedRun {
  io::Config config;
  std::string backend_name;
  StartingState start;
  std::int64_t first_step = 0;
  parallel::GridShape grid;
  std::vector<std::int64_t> count;  ///< particles per species
  std::shared_ptr<const parallel::Communicator> communicator;
  std::unique_ptr<backend::Backend> backend;
  std::unique_ptr<integrate::Integrator> integrator;
  std::vector<PlannedOutput> planned_outputs;
  OutputLock output_lock;  ///< held by the rank that writes
  std::unique_ptr<RunOutputs> outputs;
  std::unique_ptr<app::Analyzer> analyzer;
};

/// Every output checked before anything is written (by the rank that writes them).
void check_run_outputs(const RunOptions& options, PreparedRun& run) {
  const auto& config = run.config;
  run.planned_outputs = planned_outputs(config);
  const RunInputs inputs{options.config, config.system.structure.read, options.restart};
  check_outputs(config, run.planned_outputs, inputs, run.start.particles.size(),
                run.start.restart ? std::optional(run.first_step) : std::nullopt);
}

/// The input, read by every rank alike (no communication: every rank fails alike, too).
/// Nothing when a restart has nothing left to do.
std::unique_ptr<PreparedRun> read_input(const RunOptions& options,
                                        const parallel::MpiSession& session) {
  auto run = std::make_unique<PreparedRun>();
  run->config = io::load_config(options.config, options.overrides);
  const auto& config = run->config;
  run->backend_name = std::string(backend::resolve_backend_name(config.backend));
  run->start = starting_state(options, config, run->backend_name);
  run->first_step = run->start.restart ? run->start.restart->data.step : 0;
  if (run->start.restart && run->first_step >= config.run.steps) {
    fmt::print("{}: the checkpoint is at step {}, and run.steps is {}: nothing to do (raise "
               "run.steps, e.g. --steps {}, to go on)\n",
               options.restart->string(), run->first_step, config.run.steps,
               2 * run->first_step);
    return nullptr;
  }
  if (session.rank() == 0) check_run_outputs(options, *run);
  run->grid = parallel::choose_grid(session.size(), run->start.particles.size(), config.parallel);
  run->count = core::count_by_type(run->start.particles, config.system.species.size());
  io::settle_thomas_fermi(run->config.forces, config.system.species, run->count,
                          run->start.box.volume());
  return run;
}

/// The backend and integrator on every rank, with the state in place.
void build_state(PreparedRun& run, const parallel::MpiSession& session) {
  const auto& config = run.config;
  auto& start = run.start;
  if (session.active() && run.backend_name == "cuda")
    backend::select_cuda_device(session.local_rank());  // one GPU per rank of a node
  run.backend = backend::make_backend(
      config.backend, {config.units, config.system.species, start.box, std::move(start.particles),
                       config.forces, config.precision, config.neighbors, run.communicator});
  run.integrator = integrate::make_integrator(config.integrator, config.units, config.seed,
                                              {run.backend->size()});
  if (start.restart) {
    run.backend->restore_state(start.restart->data.state);
    run.integrator->restore(start.restart->data.integrator);
  }
}

/// The console header and the output files (rank 0 writes them; the others only take part in
/// gathering what they hold).
void open_outputs(const RunOptions& options, PreparedRun& run, bool root) {
  const auto& config = run.config;
  const auto& start = run.start;
  const bool lj = config.units.name == "lj";  // reduced units have no unit names
  run.analyzer = std::make_unique<app::Analyzer>(
      config.analysis,
      app::AnalysisSystem{start.box, config.system.species, run.count,
                               config.integrator.timestep, lj ? "" : config.units.length,
                               lj ? "" : config.units.time, config.file.string(), root});
  auto plasma = analysis::plasma_of(config.forces, config.system.species, run.count,
                                    start.box.volume(), config.units);
  fmt::print("{}\n", version_line());
  auto lines = header_lines(config, start.box, run.count, *run.backend, *run.analyzer);
  if (plasma) {  // after the force terms
    const auto neighbors = std::find_if(lines.begin(), lines.end(),
                                        [](const HeaderLine& l) { return l.key == "neighbors"; });
    lines.insert(neighbors, {"plasma", describe_plasma(config, *plasma)});
  }
  if (run.grid.ranks() > 1 || parallel::launched_by_mpi()) {
    std::string ranks = describe_ranks(run.grid, config);
    if (run.backend_name == "cuda")
      ranks += fmt::format("; {} GPUs, one per rank (device = the rank's number on its node "
                           "mod the node's GPUs; rank 0's is shown under backend)",
                           run.grid.ranks());
    lines.insert(lines.begin() + 2, {"ranks", ranks});
  }
  print_header(lines);
  if (start.restart) {
    fmt::print("Restarting from {} at step {}\n", options.restart->string(), run.first_step);
    for (const auto& note : start.restart->notes) fmt::print("Note: {}\n", note);
    if (run.analyzer->active())
      fmt::print("Note: the analyses start anew from step {}: their files will hold only the "
                 "samples from here on\n",
                 run.first_step);
    fmt::print("\n");
  }
  const auto tail =
      forces::tail_correction(config.forces, config.system.species, run.count, start.box.volume());
  // All input is valid: files open now, once no other run writes them.
  if (root) {
    std::vector<std::filesystem::path> files;
    for (const auto& o : run.planned_outputs) files.push_back(o.file);
    run.output_lock = OutputLock(files);
  }
  run.outputs = std::make_unique<RunOutputs>(
      config, run.backend->size(), tail,
      start.restart ? std::optional(run.first_step) : std::nullopt, root, std::move(plasma));
}

}  // namespace

int run_command(const RunOptions& options, const parallel::MpiSession& session) {
  const auto started = std::chrono::steady_clock::now();
  const bool root = session.rank() == 0;
  // Before anything is written: a signal during set-up stops the run at its first step
  // boundary, with a checkpoint, like any other.
  const StopSignals signals;
  // Each stage ends with every rank knowing whether all succeeded (app/rank_agreement.hpp).
  auto prepared = agreed_by_all_ranks(session, [&] { return read_input(options, session); });
  if (!prepared) return core::kExitSuccess;
  PreparedRun& run = *prepared;
  run.communicator = std::make_shared<parallel::Communicator>(session, run.grid);
  agreed_by_all_ranks(session, [&] { return (build_state(run, session), 0); });
  agreed_by_all_ranks(session, [&] { return (open_outputs(options, run, root), 0); });

  const auto& config = run.config;
  RunContext context{config, *run.backend, *run.integrator, run.start.box, *run.outputs,
                     *run.analyzer, [&](std::int64_t step) {
                       save_checkpoint(config.output.checkpoint.file, config, *run.backend,
                                       *run.integrator, run.start.box, step, run.backend_name,
                                       root);
                     },
                     started, run.communicator.get(), &signals};
  const RunResult result = run_simulation(context, run.first_step, run.start.restart.has_value());
  print_summary(result, *run.backend, config);
  return core::kExitSuccess;
}

int run_command(const RunOptions& options) { return run_command(options, parallel::MpiSession()); }

}  // namespace novamd::app
