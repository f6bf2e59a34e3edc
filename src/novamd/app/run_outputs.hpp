#pragma once
/// @file run_outputs.hpp
/// What a run writes at its output steps: thermo rows (CSV and console) and trajectory frames.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "novamd/analysis/thermo.hpp"
#include "novamd/app/run_health.hpp"
#include "novamd/backend/backend.hpp"
#include "novamd/core/time_axis.hpp"
#include "novamd/integrate/integrator.hpp"
#include "novamd/io/config.hpp"
#include "novamd/io/site_frames.hpp"
#include "novamd/io/thermo_writer.hpp"
#include "novamd/io/topology_output.hpp"
#include "novamd/io/trajectory_writer.hpp"

namespace novamd::app {

/// The files a run writes. Opened only after all input is validated (nothing is written over
/// on bad input).
class RunOutputs {
 public:
  /// `species_counts`: particles per species, for the energy and virial of the pairs beyond
  /// the cutoffs (forces::tail_correction), added to every thermo row in the backend's box.
  /// `resume_after_step`: a restart from a checkpoint at this step; existing files are kept up
  /// to it and appended to. `writes_files` false (MPI ranks other than 0): nothing is opened or
  /// written, but every step's collective reads (observables, particles) happen as on rank 0.
  /// `plasma`: the plasma parameters of an ion plasma, for the `plasma` thermo columns.
  /// `term_columns`: the thermo column of each of the backend's force terms, in its order
  /// (forces::energy_column; empty by default: every pair term of the config, no bonded term).
  RunOutputs(const io::Config& config, std::size_t particles,
             std::vector<std::int64_t> species_counts,
             std::optional<std::int64_t> resume_after_step, bool writes_files = true,
             std::optional<analysis::PlasmaParameters> plasma = std::nullopt,
             std::vector<std::string> term_columns = {});
  ~RunOutputs();

  /// Whether the step's output reads energies (a thermo or console row is due).
  bool energy_due(std::int64_t step, bool last_step) const;

  /// Whether anything is written at `step`: the run checks the particles' state before.
  bool any_due(std::int64_t step, bool last_step) const;

  /// Writes the thermo row and trajectory frames due at `step`, in the backend's box; returns
  /// the thermo state if a row was due. Step 0 (of a fresh run) and the last step are always
  /// written.
  std::optional<analysis::ThermoState> write_due(std::int64_t step, bool last_step,
                                                 backend::Backend& backend,
                                                 integrate::Integrator& integrator);

  /// The virial tensor and the potential energy now (tail corrections included), for a
  /// barostat; the backend's energies must be current (an energy step).
  integrate::PressureSample pressure_sample(backend::Backend& backend,
                                            integrate::Integrator& integrator);

  /// The thermo state now (every column's value), as a row at `step` would hold it; the
  /// backend's energies must be current.
  analysis::ThermoState thermo_state(std::int64_t step, backend::Backend& backend,
                                     integrate::Integrator& integrator);

  /// The conserved quantity changes its meaning (a stage's integrator of another kind): its
  /// drift and the energy watch count from the next row.
  void restart_conserved_reference() {
    first_conserved_.reset();
    energy_watch_.restart();
  }

  /// The time of each step from now on (a stage or restart with another timestep).
  void set_time_axis(const core::TimeAxis& axis) { time_axis_ = axis; }

  std::int64_t thermo_rows() const { return thermo_rows_; }
  std::int64_t trajectory_frames() const { return frames_; }

 private:
  struct Trajectory {
    io::TrajectoryOutputSettings settings;
    std::unique_ptr<io::TrajectoryWriter> writer;  ///< none where this rank writes no files
  };

  /// The backend's sums with the integrator's kinetic energy and the tail corrections added
  /// (to the potential energy and the virial), and the tail's energy apart (its column).
  struct Sums {
    backend::Observables observables;
    double tail_energy;
  };
  /// The observables with the tail correction; `observed`: the backend's (observables(), or
  /// totals() where each term's energy is not read).
  Sums sums(backend::Observables observed, backend::Backend& backend,
            const integrate::Integrator& integrator) const;
  void write_trajectories(std::int64_t step, bool last_step, backend::Backend& backend);
  /// The PSF at the first output step, the LAMMPS data file at the last.
  void write_topology_files(std::int64_t step, bool last_step, backend::Backend& backend);

  const io::Config& config_;
  std::vector<std::int64_t> species_counts_;
  double total_mass_ = 0.0;          ///< in mass units
  double mass_density_scale_ = 1.0;  ///< the mass_density column's unit per mass / length^3
  std::optional<analysis::PlasmaParameters> plasma_;
  std::vector<std::string> term_columns_;
  /// A molecular system's species, terms and names for the PSF and LAMMPS data outputs.
  std::optional<io::TopologyOutput> topology_output_;
  bool topology_written_ = false;
  std::optional<io::ThermoWriter> thermo_;  ///< none where this rank writes no files
  std::vector<Trajectory> trajectories_;
  io::SiteFrames sites_;  ///< rigid molecules' sites, for trajectories of sites
  std::optional<double> first_conserved_;
  EnergyWatch energy_watch_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::int64_t thermo_rows_ = 0;
  core::TimeAxis time_axis_;  ///< the config's timestep from step 0 until set_time_axis
  std::int64_t frames_ = 0;
};

}  // namespace novamd::app
