#include "novamd/integrate/mttk.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "novamd/core/error.hpp"

namespace novamd::integrate {

MttkNoseHoover::MttkNoseHoover(double dt, double kT, double tau, int chain,
                               const BarostatSettings& barostat, const ScaledSystem& scaled,
                               const SystemFreedom& system)
    : Integrator(dt, system,
                 {{Operator::Thermostat},
                  {Operator::Kick, 0.5},
                  {Operator::Dilate, 0.5},
                  {Operator::Drift, 1.0},
                  {Operator::Dilate, 0.5},
                  {Operator::Forces},
                  {Operator::Kick, 0.5},
                  {Operator::Thermostat}}),
      barostat_(barostat),
      scaled_(scaled),
      kT_(kT),
      strain_mass_(static_cast<double>(scaled.count + 1) * kT * barostat.period * barostat.period),
      moving_(barostat.coupling == PressureCoupling::Isotropic ? 1 : 3),
      every_(std::max<std::int64_t>(barostat.every, 1)),
      particle_chain_(chain, kT, tau, degrees_of_freedom()),
      barostat_chain_(chain, kT, barostat.period, moving_) {}

void MttkNoseHoover::start(StepOperations& ops) {
  measure(ops);
}

void MttkNoseHoover::thermostat(StepOperations& ops, std::int64_t step, double step_dt, int index) {
  // The outer operators at a block's start (the step after a multiple of every_) and end.
  if (index == 0 ? (step - 1) % every_ != 0 : step % every_ != 0) return;
  const double dt = step_dt * static_cast<double>(every_);
  const double volume = ops.box().volume();
  if (index == 0) {  // C_w C_v Wdot S, from the tensors carried over
    thermostat_barostat(dt);
    thermostat_particles(ops, dt);
    push_strain_rates(volume, 0.5 * dt);
    damp_velocities(ops, 0.5 * dt);
    return;
  }
  damp_velocities(ops, 0.5 * dt);  // S Wdot C_v C_w, from the new forces and velocities
  measure(ops);
  push_strain_rates(volume, 0.5 * dt);
  thermostat_particles(ops, dt);
  thermostat_barostat(dt);
}

void MttkNoseHoover::dilate(StepOperations& ops, double dt) {
  const auto& L = ops.box().length();
  ops.rescale_box(core::Box(L.x * std::exp(strain_rate_[0] * dt),
                            L.y * std::exp(strain_rate_[1] * dt),
                            L.z * std::exp(strain_rate_[2] * dt)));
}

void MttkNoseHoover::dilate_drift_dilate(StepOperations& ops, double first_dt, double drift_dt,
                                         double second_dt, VelocityCondition after) {
  if (moving_ != 1 || scaled_.molecules) {  // per-axis drifts, or centres apart from the drift
    Integrator::dilate_drift_dilate(ops, first_dt, drift_dt, second_dt, after);
    return;
  }
  dilate(ops, first_dt + second_dt);
  ops.drift(drift_dt * std::exp(strain_rate_[0] * second_dt), after);
}

void MttkNoseHoover::thermostat_barostat(double dt) {
  const double scale = barostat_chain_.half_step(0.5 * twice_barostat_kinetic(), dt);
  for (double& w : strain_rate_) w *= scale;
}

void MttkNoseHoover::thermostat_particles(StepOperations& ops, double dt) {
  const double scale = particle_chain_.half_step(kinetic_energy_, dt);
  ops.scale_velocities(scale);
  kinetic_ *= scale * scale;
  kinetic_energy_ *= scale * scale;
}

void MttkNoseHoover::push_strain_rates(double volume, double dt) {
  const double n = static_cast<double>(scaled_.count);
  const double kinetic_share = 2.0 * kinetic_.trace() / (3.0 * n);  // 2K / (3N)
  const auto pressure = [&](int a) {                                // P_aa = (2 K_aa + W_aa) / V
    return (2.0 * kinetic_.c[a] + virial_.c[a]) / volume;
  };
  if (moving_ == 1) {
    const double p = (pressure(0) + pressure(1) + pressure(2)) / 3.0;
    const double w =
        strain_rate_[0] + dt * (volume * (p - barostat_.pressure) + kinetic_share) / strain_mass_;
    strain_rate_ = {w, w, w};
    return;
  }
  for (int a = 0; a < 3; ++a)
    strain_rate_[static_cast<std::size_t>(a)] +=
        dt * (volume * (pressure(a) - barostat_.pressure) + kinetic_share) / strain_mass_;
}

void MttkNoseHoover::damp_velocities(StepOperations& ops, double dt) {
  const double trace_share = (strain_rate_[0] + strain_rate_[1] + strain_rate_[2]) /
                             (3.0 * static_cast<double>(scaled_.count));
  ops.scale_velocities_by_axis({std::exp(-dt * (strain_rate_[0] + trace_share)),
                                std::exp(-dt * (strain_rate_[1] + trace_share)),
                                std::exp(-dt * (strain_rate_[2] + trace_share))});
}

void MttkNoseHoover::measure(StepOperations& ops) {
  const KineticAndVirial now = ops.kinetic_and_virial();
  kinetic_ = now.kinetic;
  virial_ = now.virial;
  kinetic_energy_ = now.kinetic_energy;
  virial_.add_isotropic(scaled_.tail_virial_volume / ops.box().volume() / 3.0);
}

double MttkNoseHoover::twice_barostat_kinetic() const {
  double sum = 0.0;
  for (const double w : strain_rate_) sum += strain_mass_ * w * w;
  return sum;
}

double MttkNoseHoover::thermostat_energy(StepOperations& ops) {
  return particle_chain_.energy() + barostat_chain_.energy() + 0.5 * twice_barostat_kinetic() +
         barostat_.pressure * ops.box().volume();
}

IntegratorState MttkNoseHoover::save() const {
  IntegratorState state{name(), particle_chain_.values()};
  const auto baro = barostat_chain_.values();
  state.values.insert(state.values.end(), baro.begin(), baro.end());
  state.values.insert(state.values.end(), strain_rate_.begin(), strain_rate_.end());
  for (int k = 0; k < core::kTensorComponents; ++k) state.values.push_back(kinetic_.c[k]);
  for (int k = 0; k < core::kTensorComponents; ++k) state.values.push_back(virial_.c[k]);
  if (scaled_.molecules) state.values.push_back(kinetic_energy_);
  return state;
}

void MttkNoseHoover::restore(const IntegratorState& state) {
  const std::size_t chain = 2 * static_cast<std::size_t>(particle_chain_.length());
  const std::size_t expected =
      2 * chain + 3 + 2 * core::kTensorComponents + (scaled_.molecules ? 1 : 0);
  if (state.values.size() != expected)
    throw core::InputError(fmt::format(
        "the checkpoint's nose_hoover state has {} values; with the mttk barostat it needs {} "
        "(a checkpoint of a run without it cannot continue with it)",
        state.values.size(), expected));
  const auto* v = state.values.data();
  particle_chain_.set_values({v, v + chain});
  barostat_chain_.set_values({v + chain, v + 2 * chain});
  v += 2 * chain;
  for (double& w : strain_rate_) w = *v++;
  for (int k = 0; k < core::kTensorComponents; ++k) kinetic_.c[k] = *v++;
  for (int k = 0; k < core::kTensorComponents; ++k) virial_.c[k] = *v++;
  kinetic_energy_ = scaled_.molecules ? *v : kinetic_.trace();
}

}  // namespace novamd::integrate
