#include "novamd/integrate/nose_hoover_chain.hpp"

#include <fmt/format.h>

#include <cmath>

#include "novamd/core/error.hpp"
#include "novamd/integrate/velocity_verlet.hpp"

namespace novamd::integrate {

NoseHooverChainState::NoseHooverChainState(int length, double kT, double tau, double dof)
    : kT_(kT), dof_(dof), mass_(length, kT * tau * tau), xi_(length, 0.0), v_(length, 0.0) {
  mass_[0] = dof * kT * tau * tau;
}

double NoseHooverChainState::force(int k, double kinetic) const {
  if (k == 0) return (2.0 * kinetic - dof_ * kT_) / mass_[0];
  return (mass_[k - 1] * v_[k - 1] * v_[k - 1] - kT_) / mass_[k];
}

/// v_k over dt/4, between two dt/8 damping factors from the next thermostat in the chain.
void NoseHooverChainState::update_velocity(int k, double kinetic, double dt) {
  const int last = length() - 1;
  const double damping = k < last ? std::exp(-0.125 * dt * v_[k + 1]) : 1.0;
  v_[k] *= damping;
  v_[k] += 0.25 * dt * force(k, kinetic);
  v_[k] *= damping;
}

double NoseHooverChainState::half_step(double kinetic, double dt) {
  const int last = length() - 1;
  for (int k = last; k >= 0; --k) update_velocity(k, kinetic, dt);
  const double scale = std::exp(-0.5 * dt * v_[0]);
  kinetic *= scale * scale;
  for (int k = 0; k <= last; ++k) xi_[k] += 0.5 * dt * v_[k];
  for (int k = 0; k <= last; ++k) update_velocity(k, kinetic, dt);
  return scale;
}

double NoseHooverChainState::energy() const {
  double e = dof_ * kT_ * xi_[0];
  for (int k = 0; k < length(); ++k) {
    e += 0.5 * mass_[k] * v_[k] * v_[k];
    if (k > 0) e += kT_ * xi_[k];
  }
  return e;
}

std::vector<double> NoseHooverChainState::values() const {
  std::vector<double> out = xi_;
  out.insert(out.end(), v_.begin(), v_.end());
  return out;
}

void NoseHooverChainState::set_values(const std::vector<double>& values) {
  const std::size_t m = xi_.size();
  xi_.assign(values.begin(), values.begin() + m);
  v_.assign(values.begin() + m, values.begin() + 2 * m);
}

void NoseHooverChain::thermostat(StepOperations& ops, std::int64_t, double dt, int index) {
  if (index == 0) {
    ops.scale_velocities(chain_.half_step(kinetic_, dt));
    return;
  }
  const double kinetic = ops.kinetic_energy();
  const double scale = chain_.half_step(kinetic, dt);
  ops.scale_velocities(scale);
  kinetic_ = kinetic * scale * scale;
}

IntegratorState NoseHooverChain::save() const {
  IntegratorState state{name(), chain_.values()};
  state.values.push_back(kinetic_);
  return state;
}

void NoseHooverChain::restore(const IntegratorState& state) {
  const std::size_t expected = 2 * static_cast<std::size_t>(chain_.length()) + 1;
  if (state.values.size() != expected)
    throw core::InputError(
        fmt::format("the checkpoint's nose_hoover state has {} values; a chain of {} needs {}",
                    state.values.size(), chain_.length(), expected));
  chain_.set_values(state.values);
  kinetic_ = state.values.back();
}

}  // namespace novamd::integrate
