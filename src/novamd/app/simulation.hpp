#pragma once
/// @file simulation.hpp
/// A simulation as a library object: built from a config file (with `--set` overrides) or a
/// checkpoint, it owns the state (backend, integrator), the outputs and the analyses, and runs
/// the step loop. The `novamd run` command builds one and prints around it; the Python package
/// builds the same object. Signal handling stays with the caller (StopSignals).

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "novamd/analysis/plasma.hpp"
#include "novamd/app/analyzer.hpp"
#include "novamd/app/checkpointing.hpp"
#include "novamd/app/output_lock.hpp"
#include "novamd/app/output_plan.hpp"
#include "novamd/app/run_outputs.hpp"
#include "novamd/app/run_stages.hpp"
#include "novamd/app/step_loop.hpp"
#include "novamd/backend/backend.hpp"
#include "novamd/forces/kspace_parameters.hpp"
#include "novamd/integrate/integrator.hpp"
#include "novamd/io/config.hpp"
#include "novamd/io/config_overrides.hpp"
#include "novamd/io/initial_system.hpp"
#include "novamd/io/molecular_system.hpp"
#include "novamd/parallel/communicator.hpp"
#include "novamd/parallel/mpi_session.hpp"
#include "novamd/parallel/process_grid.hpp"

namespace novamd::app {

/// Where a simulation comes from.
struct SimulationInput {
  std::filesystem::path config;
  std::vector<io::Override> overrides;           ///< --set, then --backend/--precision/--steps
  std::optional<std::filesystem::path> restart;  ///< --restart FILE: continue a checkpoint
  /// The config as YAML text instead of a file (a library user's dict); `config` then names it
  /// in messages, and relative paths in it are taken from the working directory.
  std::optional<std::string> config_text;
  /// The particles as arrays, in place of the config's structure (a library user's).
  std::optional<io::GivenParticles> particles;
  /// Driven by a library user (Python) rather than the command line: run_steps() decides how
  /// far each run goes (run.steps is only the default), a restart at or past run.steps is still
  /// built, and a stop by a signal writes a checkpoint only where output.checkpoint asks.
  bool library = false;
  /// Whether runs print the thermo table and the progress line.
  bool console = true;
};

class Simulation {
 public:
  /// Reads the config (and the checkpoint), checks every output path (nothing is written), and
  /// builds the state on every rank of `session`; each stage ends with every rank knowing
  /// whether all succeeded (rank_agreement.hpp). Null when a restart has nothing left to do.
  /// @throws core::InputError (bad input, exit code 2) or core::RunError.
  static std::unique_ptr<Simulation> create(const SimulationInput& input,
                                            const parallel::MpiSession& session);
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  /// Opens the output files (once no other run writes them) and the analyses' files; run()
  /// does it when it has not been done.
  void open_outputs();
  /// Runs to config().run.steps: step 0's forces and output first on a fresh run, then the
  /// steps, output and checkpoints when due. `signals` stop the run at a step boundary with a
  /// checkpoint (none: installed for the run); `started`: where run.walltime counts from.
  RunResult run(const StopSignals* signals = nullptr,
                std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now());

  /// A library user's run: `steps` more steps from the current one (fresh: step 0's forces and
  /// output first), calling `callbacks` after their steps. Output files stay open between runs,
  /// and the analyses go on; close() ends them. The last step of each run is written as the
  /// last step of a command-line run is.
  RunResult run_steps(std::int64_t steps, std::vector<StepCallback> callbacks = {},
                      const StopSignals* signals = nullptr);
  /// Writes the analyses' final averages and closes the output files (idempotent; the
  /// destructor does it).
  void close();
  /// The step the state is at: the last step taken (or the first step before any).
  std::int64_t step() const { return step_; }
  /// The simulated time of each step (core/time_axis.hpp), and of the current one.
  const core::TimeAxis& time_axis() const { return time_axis_; }
  double time() const { return time_axis_.time(step_); }
  /// Evaluates the forces and energies if no run has yet (a fresh simulation's step 0).
  void ensure_forces();
  /// The thermo quantities of the current state (every column's value, and each term's energy).
  analysis::ThermoState thermo();
  /// Each force term's energy in `state` (thermo()), by the term's config name ("lennard_jones",
  /// "harmonic_bond"; a repeated name gets ":2", ":3"), and the tail correction ("tail") where
  /// there is one.
  std::vector<std::pair<std::string, double>> term_energies(
      const analysis::ThermoState& state) const;
  /// Positions (wrapped into the box), velocities and forces in id order.
  const core::ParticleData& particles() { return backend_->particles_on_host(); }
  /// Sets every particle's position or velocity (x, y, z per particle in id order); the forces
  /// are evaluated again for the new positions.
  /// @throws core::InputError for the wrong number of values or one that is not finite.
  void set_positions(const std::vector<double>& xyz);
  void set_velocities(const std::vector<double>& xyz);
  /// Changes the box; positions scale with it (`scale_positions`), else they stay where they are
  /// (wrapped into the new box). The forces are evaluated again.
  /// @throws core::InputError for an edge that is not positive and finite, or a cutoff beyond half
  ///   the new shortest edge.
  void set_box(const core::Box& box, bool scale_positions);
  /// Writes a checkpoint of the current state to `file` (run_command's format: `novamd run
  /// --restart` continues it).
  void save_checkpoint(const std::filesystem::path& file);

  const io::Config& config() const { return config_; }
  const SimulationInput& input() const { return input_; }
  const std::string& backend_name() const { return backend_name_; }
  backend::Backend& backend() { return *backend_; }
  const backend::Backend& backend() const { return *backend_; }
  integrate::Integrator& integrator() { return *integrator_; }
  /// The box: the starting one until the backend is built, then the backend's (which owns it).
  const core::Box& box() const { return backend_ ? backend_->box() : box_; }
  const Analyzer& analyzer() const { return *analyzer_; }
  /// The plasma parameters of an ion plasma (Yukawa terms), for the header and thermo columns.
  const std::optional<analysis::PlasmaParameters>& plasma() const { return plasma_; }
  /// The Ewald sum's estimated RMS force error (a `coulomb` term with method ewald), else none.
  const std::optional<forces::EwaldErrorEstimate>& ewald_error() const { return ewald_error_; }
  const parallel::GridShape& grid() const { return grid_; }
  /// The bricks of a spatial decomposition over several ranks; none: the force matrix grid().
  const std::optional<parallel::BrickGrid>& bricks() const { return bricks_; }
  /// Whether some ranks of a CUDA run share a GPU (more ranks on a node than it has GPUs).
  bool shares_gpus() const { return shares_gpus_; }
  /// Particles per species.
  const std::vector<std::int64_t>& species_counts() const { return count_; }
  /// The step the run starts from: 0, or the checkpoint's.
  std::int64_t first_step() const { return first_step_; }
  /// The checkpoint this run continues, if any.
  const std::optional<Restart>& restart() const { return restart_; }
  /// Whether this rank writes the files (rank 0).
  bool writes_files() const { return root_; }
  /// Distances the run holds fixed (`constraints`), and of them those in rigid waters.
  std::size_t held_distances() const { return held_distances_; }
  std::size_t rigid_waters() const { return rigid_waters_; }
  /// Bonded terms the constraints make constant, left out of the evaluation (held_terms.hpp).
  std::size_t held_terms() const { return held_terms_; }

 private:
  Simulation() = default;
  void read_input(const SimulationInput& input, const parallel::MpiSession& session);
  static bool runs_spatial(const io::Config& config, const std::string& backend_name);
  void build_state(const parallel::MpiSession& session);
  void make_analyzer();
  constraints::ConstraintPlan constraint_plan() const;
  void start_at_exact_temperature();
  RunContext run_context(const StopSignals* signals, std::chrono::steady_clock::time_point started);
  /// A new integrator of `settings`, with the config's barostat.
  std::unique_ptr<integrate::Integrator> new_integrator(
      const integrate::IntegratorSettings& settings) const;
  /// The restart's integrator variables where the checkpoint's integrator is this run's; else a
  /// note that its thermostat starts afresh.
  void restore_integrator();
  /// Takes the integrator of `span` for its steps (a new one where the settings change; the
  /// same kind keeps its variables). True where the kind changed, and with it what the
  /// conserved energy means (its drift counts from the stage's first row).
  bool enter_stage(const StageSpan& span, std::int64_t from);
  /// Takes `axis` as the time of each step, in the outputs and analyses too.
  void set_time_axis(const core::TimeAxis& axis);
  /// The time axis at the first step: step x timestep, or the checkpoint's continued with this
  /// run's timestep (with a note where it changes).
  core::TimeAxis starting_time_axis();
  /// Runs from step `from` to `last`, stage by stage; `configure` completes each loop's context.
  RunResult run_through_stages(std::int64_t from, std::int64_t last, LoopStart start,
                               const std::function<void(RunContext&)>& configure,
                               const StopSignals* signals,
                               std::chrono::steady_clock::time_point started);
  void set_particle_vectors(const std::vector<double>& xyz, bool positions);

  SimulationInput input_;
  io::Config config_;
  std::string backend_name_;
  core::Box box_;                 ///< the starting box, until the backend takes it
  core::ParticleData particles_;  ///< the starting state until the backend takes it
  std::optional<Restart> restart_;
  std::int64_t first_step_ = 0;
  bool root_ = true;
  std::size_t held_distances_ = 0, rigid_waters_ = 0, held_terms_ = 0;
  parallel::GridShape grid_;
  std::optional<parallel::BrickGrid> bricks_;
  bool shares_gpus_ = false;
  std::vector<std::int64_t> count_;
  /// The topology and bonded terms of a molecular system (`system.topology`), until the backend
  /// takes them.
  io::MolecularSystem molecular_;
  /// The thermo column of each of the backend's force terms, in its order.
  std::vector<std::string> term_columns_;
  /// The config name of each of the backend's force terms, in its order.
  std::vector<std::string> term_names_;
  std::shared_ptr<const parallel::Communicator> communicator_;
  std::unique_ptr<backend::Backend> backend_;
  std::unique_ptr<integrate::Integrator> integrator_;
  integrate::IntegratorSettings integrator_settings_;  ///< integrator_'s
  integrate::SystemFreedom freedom_;                   ///< for integrators made later (stages)
  integrate::ScaledSystem scaled_;
  std::vector<PlannedOutput> planned_outputs_;
  OutputLock output_lock_;  ///< held by the rank that writes
  std::unique_ptr<RunOutputs> outputs_;
  std::unique_ptr<Analyzer> analyzer_;
  std::optional<analysis::PlasmaParameters> plasma_;
  std::optional<forces::EwaldErrorEstimate> ewald_error_;
  std::int64_t step_ = 0;        ///< the step the state is at
  core::TimeAxis time_axis_;     ///< the time of each step
  bool forces_current_ = false;  ///< the state's forces were evaluated (by a run, or a restart)
  bool closed_ = false;
  int loops_ = 0;  ///< runs of the step loop so far
};

}  // namespace novamd::app
