#include "novamd/integrate/barostat.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "novamd/core/error.hpp"
#include "novamd/core/random.hpp"
#include "novamd/integrate/monte_carlo_barostat.hpp"

namespace novamd::integrate {
namespace {

/// Half of sum_a W_aa d(ln L_a): one end of the trapezoid for U's change in a move.
double half_work(const core::SymmetricTensor<double>& W, const core::Vec3<double>& log_mu) {
  return 0.5 * (W.c[0] * log_mu.x + W.c[1] * log_mu.y + W.c[2] * log_mu.z);
}

}  // namespace

IntegratorState Barostat::save() const {
  IntegratorState state{name(), {energy_}};
  const std::vector<double> variables = save_variables();
  state.values.insert(state.values.end(), variables.begin(), variables.end());
  return state;
}

void Barostat::restore(const IntegratorState& state) {
  if (state.type != name())
    throw core::InputError(
        fmt::format("the checkpoint's barostat is '{}'; this run's barostat.type is {}",
                    state.type.empty() ? "none" : state.type, name()));
  if (state.values.size() != 1 + variable_count())
    throw core::InputError(fmt::format("the checkpoint's {} state has {} values; expected {}",
                                       name(), state.values.size(), 1 + variable_count()));
  energy_ = state.values[0];
  restore_variables(state.values.data() + 1);
}

int StochasticCellRescale::pressure_slot(std::int64_t step) const {
  const std::int64_t every = settings().every, spacing = sample_spacing();
  const std::int64_t back = every - 1 - step % every;  // steps before the step before a move
  if (back % spacing != 0) return -1;
  return static_cast<int>((every - 1) / spacing - back / spacing);
}

int StochasticCellRescale::slot_count() const {
  return static_cast<int>((settings().every - 1) / sample_spacing()) + 1;
}

void StochasticCellRescale::after_step(StepOperations& ops, std::int64_t step) {
  const int slot = pressure_slot(step);
  if (slot < 0) return;
  ops.queue_pressure_parts(slot);
  filled_ |= 1u << slot;
}

void StochasticCellRescale::prepare_checkpoint(StepOperations& ops) {
  if ((filled_ & ~pulled_) == 0) return;
  const QueuedPressureParts queued = ops.queued_pressure_parts(slot_count());
  const double volume = ops.box().volume();
  for (int k = 0; k < slot_count(); ++k)
    if ((filled_ & ~pulled_) & (1u << k)) kept_[k] = sample_of(queued.samples[k], volume);
  pulled_ |= filled_;
}

StochasticCellRescale::Sample StochasticCellRescale::sample_of(const KineticAndVirial& parts,
                                                               double volume) const {
  Sample s;
  s.virial = parts.virial;
  s.virial.add_isotropic(scaled_.tail_virial_volume / volume / 3.0);
  s.pressure = parts.kinetic;
  s.pressure *= 2.0;
  s.pressure += s.virial;
  s.pressure *= 1.0 / volume;
  return s;
}

StochasticCellRescale::Sample StochasticCellRescale::slot_sample(int slot,
                                                                 const QueuedPressureParts& queued,
                                                                 double volume) const {
  if (pulled_ & (1u << slot)) return kept_[slot];
  return sample_of(queued.samples[slot], volume);
}

void StochasticCellRescale::move(StepOperations& ops, std::int64_t step) {
  if (filled_ == 0) return;
  const core::Box box = ops.box();
  const double volume = box.volume();
  const QueuedPressureParts queued = ops.queued_pressure_parts(slot_count());
  // The interval's mean pressure, its samples in slot order (the same sum after a restart).
  core::SymmetricTensor<double> mean;
  core::SymmetricTensor<double> last_virial;  // the trapezoid's first end
  int samples = 0;
  for (int k = 0; k < slot_count(); ++k) {
    if (!(filled_ & (1u << k))) continue;
    const Sample s = slot_sample(k, queued, volume);
    mean += s.pressure;
    last_virial = s.virial;
    ++samples;
  }
  mean *= 1.0 / static_cast<double>(samples);
  const core::Vec3<double> log_mu = log_scaling(mean, volume, step);
  const core::Vec3<double> mu{std::exp(log_mu.x), std::exp(log_mu.y), std::exp(log_mu.z)};
  const auto& L = box.length();
  const core::Box next(L.x * mu.x, L.y * mu.y, L.z * mu.z);
  // What the move does to K + U + P0 V: K_aa (1/mu_a^2 - 1) on each axis, exactly (K: the
  // kinetic tensor of what the velocities' scaling moves, particles or molecules' centres);
  // P0 dV; and the first half of U's trapezoid, -W_aa d(ln L_a) / 2 with the last sample's virial
  // (the sample after the move adds the other half).
  const core::SymmetricTensor<double>& K = queued.moved_kinetic;
  add_energy(K.c[0] * (1.0 / (mu.x * mu.x) - 1.0) + K.c[1] * (1.0 / (mu.y * mu.y) - 1.0) +
             K.c[2] * (1.0 / (mu.z * mu.z) - 1.0) + settings().pressure * (next.volume() - volume) -
             half_work(last_virial, log_mu));
  ops.rescale_box(next);
  ops.scale_velocities_by_axis({1.0 / mu.x, 1.0 / mu.y, 1.0 / mu.z});
  filled_ = pulled_ = 0;
  kept_ = {};  // a checkpoint keeps this interval's samples alone
  moved_log_ = log_mu;
  moved_ = true;
}

void StochasticCellRescale::sample(const PressureSample& sample) {
  if (moved_) add_energy(-half_work(sample.virial, moved_log_));
  moved_ = false;
}

/// Each slot's pressure and virial (kPressureSlots x 12), then the filled slots' bits; the
/// samples after the last move brought in before the checkpoint (prepare_checkpoint).
std::size_t StochasticCellRescale::variable_count() const {
  return 2 * core::kTensorComponents * kPressureSlots + 1;
}

std::vector<double> StochasticCellRescale::save_variables() const {
  std::vector<double> values;
  for (const Sample& s : kept_) {
    for (int k = 0; k < core::kTensorComponents; ++k) values.push_back(s.pressure.c[k]);
    for (int k = 0; k < core::kTensorComponents; ++k) values.push_back(s.virial.c[k]);
  }
  values.push_back(static_cast<double>(pulled_));
  return values;
}

void StochasticCellRescale::restore_variables(const double* values) {
  for (Sample& s : kept_) {
    for (int k = 0; k < core::kTensorComponents; ++k) s.pressure.c[k] = *values++;
    for (int k = 0; k < core::kTensorComponents; ++k) s.virial.c[k] = *values++;
  }
  filled_ = pulled_ = static_cast<std::uint32_t>(*values);
  moved_ = false;
}

core::Vec3<double> StochasticCellRescale::log_scaling(const core::SymmetricTensor<double>& P,
                                                      double volume, std::int64_t step) const {
  const BarostatSettings& s = settings();
  const double dt = static_cast<double>(s.every) * dt_;
  const double rate = s.compressibility * dt / s.period;  // beta_T dt / tau_p
  const core::RandomStream stream(seed_, core::RandomPurpose::Barostat);
  const auto index = static_cast<std::uint64_t>(step);
  // d(ln V) for a pressure p over a share `share` of the volume's freedom: the drift and the
  // noise of the paper's equation, with beta_T and the noise's variance in proportion.
  const auto d_log_volume = [&](double p, double share, std::uint32_t axis) {
    const double noise = stream.normal(axis, index).first;
    return -share * rate * (s.pressure - p) + std::sqrt(2.0 * share * rate * kT_ / volume) * noise;
  };
  switch (s.coupling) {
    case PressureCoupling::Isotropic: {
      const double d = d_log_volume(P.trace() / 3.0, 1.0, 0) / 3.0;
      return {d, d, d};
    }
    case PressureCoupling::SemiIsotropic: {
      const double xy = d_log_volume(0.5 * (P.c[0] + P.c[1]), 2.0 / 3.0, 0) / 2.0;
      return {xy, xy, d_log_volume(P.c[2], 1.0 / 3.0, 1)};
    }
    case PressureCoupling::Anisotropic:
      return {d_log_volume(P.c[0], 1.0 / 3.0, 0), d_log_volume(P.c[1], 1.0 / 3.0, 1),
              d_log_volume(P.c[2], 1.0 / 3.0, 2)};
  }
  throw std::logic_error("c_rescale: unknown coupling");
}

std::unique_ptr<Barostat> make_barostat(const BarostatSettings& settings, double dt, double kT,
                                        std::uint64_t seed, const ScaledSystem& scaled) {
  if (settings.type.empty() || settings.type == "mttk") return nullptr;
  if (settings.type == "c_rescale")
    return std::make_unique<StochasticCellRescale>(settings, dt, kT, seed, scaled);
  if (settings.type == "monte_carlo")
    return std::make_unique<MonteCarloBarostat>(settings, kT, seed, scaled);
  throw std::logic_error("barostat: unknown type " + settings.type);
}

}  // namespace novamd::integrate
