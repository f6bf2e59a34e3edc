#pragma once
/// @file simulation.hpp
/// A simulation as a library object: built from a config file (with `--set` overrides) or a
/// checkpoint, it owns the state (backend, integrator), the outputs and the analyses, and runs
/// the step loop. The `novamd run` command builds one and prints around it; the Python package
/// builds the same object. Signal handling stays with the caller (StopSignals).

#include <chrono>
#include <cstdint>
#include <filesystem>
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
#include "novamd/app/step_loop.hpp"
#include "novamd/backend/backend.hpp"
#include "novamd/forces/kspace_parameters.hpp"
#include "novamd/integrate/integrator.hpp"
#include "novamd/io/config.hpp"
#include "novamd/io/config_overrides.hpp"
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
  void build_state(const parallel::MpiSession& session);
  void make_analyzer();
  constraints::ConstraintPlan constraint_plan() const;
  void start_at_exact_temperature();

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
  std::vector<std::int64_t> count_;
  /// The topology and bonded terms of a molecular system (`system.topology`), until the backend
  /// takes them.
  io::MolecularSystem molecular_;
  /// The thermo column of each of the backend's force terms, in its order.
  std::vector<std::string> term_columns_;
  std::shared_ptr<const parallel::Communicator> communicator_;
  std::unique_ptr<backend::Backend> backend_;
  std::unique_ptr<integrate::Integrator> integrator_;
  std::vector<PlannedOutput> planned_outputs_;
  OutputLock output_lock_;  ///< held by the rank that writes
  std::unique_ptr<RunOutputs> outputs_;
  std::unique_ptr<Analyzer> analyzer_;
  std::optional<analysis::PlasmaParameters> plasma_;
  std::optional<forces::EwaldErrorEstimate> ewald_error_;
};

}  // namespace novamd::app
