/// @file simulation.cpp
/// Building a simulation from its input, and running it (simulation.hpp).

#include "novamd/app/simulation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "novamd/app/backend_setup.hpp"
#include "novamd/app/rank_agreement.hpp"
#include "novamd/app/tail_corrections.hpp"
#include "novamd/backend/cpu_backend.hpp"
#include "novamd/backend/cuda_device.hpp"
#include "novamd/backend/make_backend.hpp"
#include "novamd/constraints/term_geometry.hpp"
#include "novamd/forces/force_settings.hpp"
#include "novamd/forces/held_terms.hpp"
#include "novamd/forces/kspace_parameters.hpp"
#include "novamd/io/initial_system.hpp"
#include "novamd/io/rigid_start.hpp"
#include "novamd/io/screening.hpp"

namespace novamd::app {

std::unique_ptr<Simulation> Simulation::create(const SimulationInput& input,
                                               const parallel::MpiSession& session) {
  std::unique_ptr<Simulation> sim(new Simulation());
  sim->root_ = session.rank() == 0;
  const bool more_to_do = agreed_by_all_ranks(session, [&] {
    sim->read_input(input, session);
    return input.library || !(sim->restart_ && sim->first_step_ >= sim->config_.run.steps);
  });
  if (!more_to_do) {
    fmt::print(
        "{}: the checkpoint is at step {}, and run.steps is {}: nothing to do (raise "
        "run.steps, e.g. --steps {}, to go on)\n",
        input.restart->string(), sim->first_step_, sim->config_.run.steps, 2 * sim->first_step_);
    return nullptr;
  }
  sim->communicator_ = std::make_shared<parallel::Communicator>(session, sim->grid_);
  agreed_by_all_ranks(session, [&] { return (sim->build_state(session), 0); });
  return sim;
}

Simulation::~Simulation() {
  try {
    close();
  } catch (const std::exception&) {  // a destructor reports nothing; close() is there for that
  }
}

/// The input, read by every rank alike (no communication: every rank fails alike, too).
void Simulation::read_input(const SimulationInput& input, const parallel::MpiSession& session) {
  input_ = input;
  if (input.config_text) {
    config_ = io::parse_config(*input.config_text, input.config.string(), input.overrides);
    config_.file = input.config;
  } else {
    config_ = io::load_config(input.config, input.overrides);
  }
  backend_name_ = std::string(backend::resolve_backend_name(config_.backend));
  // The CPU's lists are per particle whatever the layout resolved to (the skin depends on it),
  // and beat all pairs from boxes of 2 list reaches on (neighbors::NeighborSettings).
  if (backend_name_ != "cuda") {
    config_.neighbors.layout = neighbors::ListLayout::Atoms;
    config_.neighbors.auto_list_reaches = 2.0;
  }
  if (input.restart) {
    restart_ = load_restart(*input.restart, config_, backend_name_);
    const auto& L = restart_->data.box;
    box_ = core::Box(L[0], L[1], L[2]);
    particles_ = restart_->data.state.particles;
    first_step_ = restart_->data.step;
  } else {
    io::InitialSystem initial = input.particles
                                    ? io::build_initial_system(config_, *input.particles)
                                    : io::build_initial_system(config_);
    box_ = initial.box;
    particles_ = std::move(initial.particles);
  }
  step_ = first_step_;
  forces_current_ = restart_.has_value();  // a checkpoint holds its step's forces
  if (restart_ && first_step_ >= config_.run.steps && !input.library) return;
  if (root_) {  // every output checked before anything is written, by the rank that writes
    planned_outputs_ = planned_outputs(config_);
    // A library user's run writes a checkpoint only where the config asks for one.
    if (input.library && !config_.output.checkpoint.configured)
      std::erase_if(planned_outputs_,
                    [](const PlannedOutput& o) { return o.key == "output.checkpoint.file"; });
    const RunInputs inputs{input.config, config_.system.structure.read, input.restart};
    check_outputs(config_, planned_outputs_, inputs, particles_.size(),
                  core::count_by_type(particles_, config_.system.species.size()),
                  restart_ ? std::optional(first_step_) : std::nullopt);
    check_dcd_timestep(
        config_,
        keeps_one_timestep(config_, first_step_,
                           restart_ ? std::optional(restart_->data.time_axis) : std::nullopt));
  }
  if (config_.system.topology) molecular_ = io::molecular_system(config_);
  for (const auto& f : config_.forces) term_columns_.push_back(forces::energy_column(f));
  for (const auto& b : molecular_.bonded) term_columns_.push_back(forces::energy_column(b));
  for (const auto& f : config_.forces) term_names_.push_back(forces::name_of(f));
  for (const auto& b : molecular_.bonded)
    term_names_.push_back(std::visit([](const auto& s) { return std::string(s.kName); }, b));
  if (config_.rigid_sites) term_names_.push_back("rigid_sites");
  if (session.size() > 1 && runs_spatial(config_, backend_name_)) {
    const double halo =
        backend::spatial_halo(config_.forces, config_.neighbors, box_,
                              config_.rigid_sites ? &*config_.rigid_sites : nullptr);
    bricks_ = parallel::choose_brick_grid(session.size(), box_.length(), halo,
                                          config_.parallel.bricks, config_.parallel.grid_origin);
    bricks_->balanced = config_.parallel.balance;
    grid_ = parallel::GridShape{session.size(), 1};  // the communicator's ranks, in brick order
  } else {
    grid_ = parallel::choose_grid(session.size(), particles_.size(), config_.parallel);
  }
  count_ = core::count_by_type(particles_, config_.system.species.size());
  io::settle_thomas_fermi(config_.forces, config_.system.species, count_, box_.volume());
  forces::resolve_kspace(config_.forces, box_);  // the run header names alpha and kmax
  for (const auto& f : config_.forces) {
    const auto* coulomb = std::get_if<forces::CoulombSettings>(&f);
    if (!coulomb || !coulomb->ewald_split()) continue;
    double sum_q2 = 0.0;
    for (const double q : particles_.charge) sum_q2 += q * q;
    ewald_error_ =
        forces::ewald_error_estimate(*coulomb, box_, static_cast<std::int64_t>(particles_.size()),
                                     sum_q2, config_.units.coulomb);
  }
}

/// Whether a run over several ranks cuts the box into bricks (parallel/spatial_domain.hpp):
/// where the config asks for it, or, with `auto`, on the CPU backend where every force term has
/// a finite cutoff (Coulomb's long range by PME or an Ewald sum, its real space cut off), or
/// rigid molecules interact within a cutoff of their centres; else the force matrix (which
/// holds neither constraints nor rigid molecules).
bool Simulation::runs_spatial(const io::Config& config, const std::string& backend_name) {
  const auto decomposition = config.parallel.decomposition;
  if (decomposition == parallel::Decomposition::ForceMatrix) return false;
  // On the CUDA backend only where asked for (one GPU per rank or ranks sharing one): not yet
  // measured against the force matrix there.
  if (decomposition == parallel::Decomposition::Spatial) return true;
  if (backend_name == "cuda") return false;
  if (config.rigid_sites) return config.rigid_sites->cutoff.has_value();  // lists of centres
  if (config.forces.empty()) return false;
  return std::all_of(config.forces.begin(), config.forces.end(),
                     [](const auto& f) { return std::isfinite(forces::cutoff_of(f)); });
}

/// The backend and integrator on every rank, with the state in place; the analyses.
void Simulation::build_state(const parallel::MpiSession& session) {
  if (session.active() && backend_name_ == "cuda") {
    // One GPU per rank of a node; a rank numbered past the node's GPUs shares one.
    const int device = backend::select_cuda_device(session.local_rank());
    shares_gpus_ =
        session.max_over_ranks(device >= 0 && device != session.local_rank() ? 1 : 0) == 1;
  }
  constraints::ConstraintPlan plan = constraint_plan();
  const std::size_t held = plan.constraint_count();
  held_distances_ = held;
  rigid_waters_ = plan.waters.size();
  if (held > 0)
    held_terms_ = forces::held_term_count(molecular_.bonded, molecular_.topology,
                                          constraints::held_distances_of(plan));
  // A barostat moves molecules held by constraints by their centres; everything else particle
  // by particle.
  const bool scales_molecules = !config_.barostat.type.empty() && held > 0;
  core::Molecules molecules;
  if (scales_molecules) molecules = molecular_.topology.molecules();
  const auto tail = tail_corrections(config_, count_, box_.volume(), /*with_self_energy=*/false);
  const integrate::ScaledSystem scaled{
      scales_molecules ? molecules.count : static_cast<std::int64_t>(particles_.size()),
      tail.energy * box_.volume(), tail.virial * box_.volume(), scales_molecules};
  backend::BackendSetup setup =
      backend_setup_of(config_, box_, std::move(particles_), std::move(molecular_), communicator_);
  setup.bricks = bricks_;
  setup.constraint_plan = std::move(plan);
  if (config_.constraints) setup.constraint_tolerance = config_.constraints->tolerance;
  setup.scaled_molecules = std::move(molecules);
  const std::size_t rotations = io::rotational_freedom(setup.particles, setup.components);
  backend_ = backend::make_backend(config_.backend, std::move(setup));
  freedom_ = {backend_->size(), held, rotations};
  scaled_ = scaled;
  integrator_settings_ = *span_after(config_, first_step_).integrator;
  integrator_ = new_integrator(integrator_settings_);
  time_axis_ = starting_time_axis();
  if (restart_) {
    backend_->restore_state(restart_->data.state);
    restore_integrator();
    if (auto* barostat = integrator_->barostat()) barostat->restore(restart_->data.barostat);
  } else if (held > 0) {
    backend_->constrain_initial_state();
    start_at_exact_temperature();
  }
  make_analyzer();
  plasma_ = analysis::plasma_of(config_.forces, config_.system.species, count_, box_.volume(),
                                config_.units);
}

std::unique_ptr<integrate::Integrator> Simulation::new_integrator(
    const integrate::IntegratorSettings& settings) const {
  auto integrator = integrate::make_integrator(settings, config_.units, config_.seed, freedom_,
                                               config_.barostat, scaled_);
  integrator->attach_barostat(integrate::make_barostat(
      config_.barostat, settings.timestep,
      config_.integrator.temperature.value_or(0.0) * config_.units.boltzmann, config_.seed,
      scaled_));
  return integrator;
}

void Simulation::restore_integrator() {
  const std::string& saved = restart_->data.integrator.type;
  if (saved == integrator_->name()) {
    integrator_->restore(restart_->data.integrator);
    return;
  }
  if (saved == "leapfrog" || integrator_->name() == "leapfrog")
    throw core::InputError(fmt::format(
        "{}: the checkpoint was written by integrator {}; this run's at step {} is {}, and "
        "leapfrog's velocities lag half a step, which no other integrator takes over: expected "
        "{} (or a run from the start)",
        input_.restart->string(), saved, first_step_, integrator_->name(), saved));
  integrator_->start(*backend_);
  restart_->notes.push_back(fmt::format(
      "the checkpoint was written by integrator {}; this run continues with {}, whose "
      "thermostat starts afresh: the trajectory goes on from the checkpoint's state, but not as "
      "the old integrator would have taken it",
      saved, integrator_->name()));
}

/// The distances `constraints` holds, from the topology, the masses by particle id and the
/// bonded terms' lengths and angles (empty without the section).
constraints::ConstraintPlan Simulation::constraint_plan() const {
  if (!config_.constraints) return {};
  const std::vector<double> mass = constraints::masses_by_id(particles_, config_.system.species);
  const std::vector<int> element =
      constraints::atomic_numbers_by_id(particles_, config_.system.species);
  const auto geometry = constraints::term_geometry(molecular_.topology, molecular_.bonded);
  return constraints::plan_constraints(molecular_.topology,
                                       {mass, element, geometry.bond_length, geometry.angle_theta0},
                                       config_.constraints->request);
}

/// With `system.velocities.temperature`, the velocities scaled after the constraints took their
/// share, so that the kinetic temperature over the degrees of freedom left is the one asked for.
void Simulation::start_at_exact_temperature() {
  const auto& target = config_.system.velocities.temperature;
  if (!target || *target <= 0.0) return;
  const double kinetic = backend_->kinetic_energy();
  const double temperature =
      2.0 * kinetic / (integrator_->degrees_of_freedom() * config_.units.boltzmann);
  if (temperature > 0.0) backend_->scale_velocities(std::sqrt(*target / temperature));
}

void Simulation::make_analyzer() {
  const bool lj = config_.units.name == "lj";  // reduced units have no unit names
  analyzer_ = std::make_unique<Analyzer>(
      config_.analysis, AnalysisSystem{box_, config_.system.species, count_, time_axis_,
                                       lj ? "" : config_.units.length, lj ? "" : config_.units.time,
                                       config_.file.string(), root_});
}

void Simulation::open_outputs() {
  if (outputs_) return;
  if (root_) {  // all input is valid: files open now, once no other run writes them
    std::vector<std::filesystem::path> files;
    for (const auto& o : planned_outputs_) files.push_back(o.file);
    output_lock_ = OutputLock(files);
  }
  outputs_ = std::make_unique<RunOutputs>(config_, backend_->size(), count_,
                                          restart_ ? std::optional(first_step_) : std::nullopt,
                                          root_, plasma_, term_columns_);
  outputs_->set_time_axis(time_axis_);
}

core::TimeAxis Simulation::starting_time_axis() {
  if (!restart_) return app::starting_time_axis(config_, first_step_, std::nullopt);
  const core::TimeAxis& saved = restart_->data.time_axis;
  const core::TimeAxis axis = app::starting_time_axis(config_, first_step_, saved);
  const double dt = axis.timestep;
  if (!(axis == saved))
    restart_->notes.push_back(fmt::format(
        "the timestep changed ({} in the checkpoint, {} in this run): from step {} time goes on "
        "from {} in steps of {}",
        saved.timestep, dt, first_step_, axis.origin_time, dt));
  return axis;
}

void Simulation::set_time_axis(const core::TimeAxis& axis) {
  time_axis_ = axis;
  if (outputs_) outputs_->set_time_axis(axis);
  if (analyzer_) analyzer_->set_time_axis(axis);
}

RunContext Simulation::run_context(const StopSignals* signals,
                                   std::chrono::steady_clock::time_point started) {
  if (closed_) throw core::RunError("the simulation is closed; expected a simulation still open");
  open_outputs();
  RunContext context{config_,
                     *backend_,
                     *integrator_,
                     *outputs_,
                     *analyzer_,
                     [&](std::int64_t step) {
                       app::save_checkpoint(config_.output.checkpoint.file, config_, *backend_,
                                            *integrator_, backend_->box(), step, time_axis_,
                                            backend_name_, root_);
                     },
                     started,
                     communicator_.get(),
                     signals};
  context.console = input_.console;
  return context;
}

bool Simulation::enter_stage(const StageSpan& span, std::int64_t from) {
  if (same_integrator(*span.integrator, integrator_settings_)) return false;
  set_time_axis(
      time_axis_.with_timestep(span.integrator->timestep, std::max(span.first_step, from)));
  auto next = new_integrator(*span.integrator);
  const bool new_kind = next->name() != integrator_->name();
  if (new_kind) {
    next->start(*backend_);
    if (outputs_) outputs_->restart_conserved_reference();
  } else {
    next->restore(integrator_->save());  // the thermostat's variables go on
  }
  if (auto* barostat = integrator_->barostat(); barostat && next->barostat())
    next->barostat()->restore(barostat->save());
  integrator_ = std::move(next);
  integrator_settings_ = *span.integrator;
  return new_kind;
}

RunResult Simulation::run_through_stages(std::int64_t from, std::int64_t last, LoopStart start,
                                         const std::function<void(RunContext&)>& configure,
                                         const StopSignals* signals,
                                         std::chrono::steady_clock::time_point started) {
  RunResult total;
  total.first_step = total.last_step = from;
  const double start_time = time_axis_.time(from);
  bool first_loop = true;
  const auto spans = stage_spans(config_);
  for (const StageSpan& span : spans) {
    const bool final_span = span.index + 1 == spans.size();  // it goes on past its end
    if (span.last_step <= from && !final_span) continue;
    const bool new_kind = enter_stage(span, from);
    RunContext context = run_context(signals, started);
    configure(context);
    context.last_step = final_span ? last : std::min(span.last_step, last);
    if (context.last_step < last) context.finish_analysis = false;
    if (span.stage && span.stage->ramp)
      context.ramp = TemperatureRamp{span.first_step, span.last_step,
                                     (*span.stage->ramp)[0] * config_.units.boltzmann,
                                     (*span.stage->ramp)[1] * config_.units.boltzmann};
    if (span.stage && context.console && root_ && from < context.last_step)
      fmt::print("{}{}\n", first_loop ? "" : "\n", describe_stage(span, config_));
    RunResult part = run_simulation(context, from, start);
    step_ = part.last_step;
    forces_current_ = true;
    ++loops_;
    if (first_loop) {
      total = part;
    } else {
      total.last_step = part.last_step;
      total.wall_seconds += part.wall_seconds;
      if (!total.initial || new_kind) total.initial = part.initial;  // the summary's drift
      if (part.final) total.final = part.final;
      total.thermo_rows = part.thermo_rows;
      total.trajectory_frames = part.trajectory_frames;
      total.checkpoints += part.checkpoints;
      total.analysis = part.analysis;
      total.barostat = part.barostat;
      total.reason = part.reason;
      total.signal = part.signal;
    }
    first_loop = false;
    from = part.last_step;
    start = LoopStart::Continuation;
    if (part.reason != StopReason::Completed || from >= last) break;
  }
  total.simulated_time = time_axis_.time(total.last_step) - start_time;
  return total;
}

RunResult Simulation::run(const StopSignals* signals,
                          std::chrono::steady_clock::time_point started) {
  return run_through_stages(
      first_step_, config_.run.steps, restart_ ? LoopStart::Restart : LoopStart::Fresh,
      [](RunContext&) {}, signals, started);
}

RunResult Simulation::run_steps(std::int64_t steps, std::vector<StepCallback> callbacks,
                                const StopSignals* signals) {
  if (steps < 0) throw core::InputError(fmt::format("run: steps is {}; expected 0 or more", steps));
  for (const auto& c : callbacks)
    if (c.every < 1)
      throw core::InputError(
          fmt::format("run: a callback's interval is {}; expected 1 or more steps", c.every));
  // A callback that throws leaves the state at its step, complete: the next run goes on there.
  for (auto& c : callbacks)
    c.call = [this, call = std::move(c.call)](std::int64_t step) {
      step_ = step;
      call(step);
    };
  const LoopStart start = loops_ > 0 ? LoopStart::Continuation
                          : restart_ ? LoopStart::Restart
                                     : LoopStart::Fresh;
  const auto configure = [&](RunContext& context) {
    context.callbacks = callbacks;
    context.checkpoint_on_stop = config_.output.checkpoint.configured;
    context.finish_analysis = false;
  };
  return run_through_stages(step_, step_ + steps, start, configure, signals,
                            std::chrono::steady_clock::now());
}

void Simulation::close() {
  if (closed_) return;
  closed_ = true;
  if (analyzer_ && outputs_) analyzer_->finish();
  outputs_.reset();
  output_lock_ = OutputLock();  // the files are free for another run
}

void Simulation::ensure_forces() {
  if (forces_current_) return;
  backend_->compute_forces(backend::EnergyRequest::Compute);
  forces_current_ = true;
}

analysis::ThermoState Simulation::thermo() {
  ensure_forces();
  open_outputs();
  return outputs_->thermo_state(step_, *backend_, *integrator_);
}

std::vector<std::pair<std::string, double>> Simulation::term_energies(
    const analysis::ThermoState& state) const {
  std::vector<std::pair<std::string, double>> energies;
  const auto& names = term_names_;
  for (std::size_t t = 0; t < state.energy_by_term.size() && t < names.size(); ++t) {
    const auto earlier =
        std::count(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(t), names[t]);
    energies.emplace_back(earlier == 0 ? names[t] : fmt::format("{}:{}", names[t], earlier + 1),
                          state.energy_by_term[t]);
  }
  if (state.tail_energy != 0.0) energies.emplace_back("tail", state.tail_energy);
  return energies;
}

void Simulation::set_particle_vectors(const std::vector<double>& xyz, bool positions) {
  const std::size_t n = backend_->size();
  const char* what = positions ? "positions" : "velocities";
  if (xyz.size() != 3 * n)
    throw core::InputError(
        fmt::format("{}: {} values; expected 3 per particle ({} x 3)", what, xyz.size(), n));
  for (std::size_t k = 0; k < xyz.size(); ++k)
    if (!std::isfinite(xyz[k]))
      throw core::InputError(fmt::format(
          "{}: the value of particle {} along {} is not finite; expected finite numbers", what,
          k / 3, "xyz"[k % 3]));
  ensure_forces();
  integrator_->complete_step(*backend_);
  backend::BackendState state = backend_->save_state();
  auto& p = state.particles;
  auto& target = positions ? p.position : p.velocity;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const auto id = static_cast<std::size_t>(p.id[i]);
    target.set(i, {xyz[3 * id], xyz[3 * id + 1], xyz[3 * id + 2]});
  }
  if (positions) {
    const auto view = backend_->box().view<double>();
    for (std::size_t i = 0; i < p.size(); ++i) p.position.set(i, view.wrap(p.position.get(i)));
  }
  backend_->restore_state(state);
  if (positions) backend_->compute_forces(backend::EnergyRequest::Compute);
}

void Simulation::set_positions(const std::vector<double>& xyz) {
  set_particle_vectors(xyz, true);
}
void Simulation::set_velocities(const std::vector<double>& xyz) {
  set_particle_vectors(xyz, false);
}

void Simulation::set_box(const core::Box& box, bool scale_positions) {
  const auto& L = box.length();
  for (double edge : {L.x, L.y, L.z})
    if (!(edge > 0.0) || !std::isfinite(edge))
      throw core::InputError(fmt::format(
          "box: [{}, {}, {}]; expected three positive, finite edge lengths", L.x, L.y, L.z));
  ensure_forces();
  integrator_->complete_step(*backend_);
  std::vector<double> kept;
  if (!scale_positions) {
    const auto& p = backend_->particles_on_host();
    kept.resize(3 * p.size());
    for (std::size_t i = 0; i < p.size(); ++i)
      for (int a = 0; a < 3; ++a) kept[3 * i + a] = p.position.components()[a]->at(i);
  }
  try {
    backend_->rescale_box(box);
  } catch (const core::RunError& e) {
    throw core::InputError(fmt::format("box: {}", e.what()));
  }
  if (scale_positions)
    backend_->compute_forces(backend::EnergyRequest::Compute);
  else
    set_positions(kept);
}

void Simulation::save_checkpoint(const std::filesystem::path& file) {
  ensure_forces();
  prepare_checkpoint(*integrator_, *backend_);
  app::save_checkpoint(file, config_, *backend_, *integrator_, backend_->box(), step_, time_axis_,
                       backend_name_, root_);
}

}  // namespace novamd::app
