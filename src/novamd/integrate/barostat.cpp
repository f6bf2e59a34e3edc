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

void StochasticCellRescale::move(StepOperations& ops, std::int64_t step) {
  if (samples_ == 0) return;
  const core::Box box = ops.box();
  const double volume = box.volume();
  core::SymmetricTensor<double> mean = pressure_sum_;
  mean *= 1.0 / static_cast<double>(samples_);
  const core::Vec3<double> log_mu = log_scaling(mean, volume, step);
  const core::Vec3<double> mu{std::exp(log_mu.x), std::exp(log_mu.y), std::exp(log_mu.z)};
  const auto& L = box.length();
  const core::Box next(L.x * mu.x, L.y * mu.y, L.z * mu.z);
  // What the move does to K + U + P0 V: K_aa (1/mu_a^2 - 1) on each axis, exactly (K: the
  // kinetic tensor of what the velocities' scaling moves, particles or molecules' centres);
  // P0 dV; and the first half of U's trapezoid, -W_aa d(ln L_a) / 2 with the sample's virial (the
  // next sample adds the other half).
  const core::SymmetricTensor<double> K = ops.moved_kinetic_tensor();
  add_energy(K.c[0] * (1.0 / (mu.x * mu.x) - 1.0) + K.c[1] * (1.0 / (mu.y * mu.y) - 1.0) +
             K.c[2] * (1.0 / (mu.z * mu.z) - 1.0) + settings().pressure * (next.volume() - volume) -
             half_work(sample_.virial, log_mu));
  ops.rescale_box(next);
  ops.scale_velocities_by_axis({1.0 / mu.x, 1.0 / mu.y, 1.0 / mu.z});
  pressure_sum_ = {};
  samples_ = 0;
  moved_log_ = log_mu;
  moved_ = true;
}

void StochasticCellRescale::sample(const PressureSample& sample) {
  if (moved_) add_energy(-half_work(sample.virial, moved_log_));
  moved_ = false;
  sample_ = sample;
  pressure_sum_ += sample.pressure;
  ++samples_;
}

/// The sum of the samples' pressures since the last move (6 components), the last sample's
/// virial (6) and volume, then the samples' count: checkpoint format 3's layout, where the first
/// six were the one sample's pressure and the count 1 or 0.
std::size_t StochasticCellRescale::variable_count() const {
  return 2 * core::kTensorComponents + 2;
}

std::vector<double> StochasticCellRescale::save_variables() const {
  std::vector<double> values;
  for (int k = 0; k < core::kTensorComponents; ++k) values.push_back(pressure_sum_.c[k]);
  for (int k = 0; k < core::kTensorComponents; ++k) values.push_back(sample_.virial.c[k]);
  values.push_back(sample_.volume);
  values.push_back(static_cast<double>(samples_));
  return values;
}

void StochasticCellRescale::restore_variables(const double* values) {
  for (int k = 0; k < core::kTensorComponents; ++k) pressure_sum_.c[k] = *values++;
  for (int k = 0; k < core::kTensorComponents; ++k) sample_.virial.c[k] = *values++;
  sample_.volume = *values++;
  samples_ = static_cast<std::int64_t>(*values);
  sample_.pressure = pressure_sum_;
  if (samples_ > 0) sample_.pressure *= 1.0 / static_cast<double>(samples_);
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
    return std::make_unique<StochasticCellRescale>(settings, dt, kT, seed);
  if (settings.type == "monte_carlo")
    return std::make_unique<MonteCarloBarostat>(settings, kT, seed, scaled);
  throw std::logic_error("barostat: unknown type " + settings.type);
}

}  // namespace novamd::integrate
