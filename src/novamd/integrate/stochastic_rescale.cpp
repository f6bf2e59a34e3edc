#include "novamd/integrate/stochastic_rescale.hpp"

#include <fmt/format.h>

#include <cmath>

#include "novamd/core/error.hpp"
#include "novamd/integrate/velocity_verlet.hpp"

namespace novamd::integrate {
namespace {

/// Draw ids of the stream: R_1 from draw 0, Gamma tries from 1 up, the shape boost from the top.
constexpr std::uint32_t kFirstTry = 1;
constexpr std::uint32_t kBoostDraw = 0xffffffffu;

}  // namespace

double gamma_variate(const core::RandomStream& stream, double shape, std::uint64_t step) {
  if (shape < 1.0) {  // Gamma(a) = Gamma(a + 1) U^(1/a)
    const double u = stream.uniform(kBoostDraw, step).first;
    return gamma_variate(stream, shape + 1.0, step) * std::pow(u, 1.0 / shape);
  }
  const double d = shape - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  for (std::uint32_t draw = kFirstTry;; draw += 2) {
    const double x = stream.normal(draw, step).first;
    const double u = stream.uniform(draw + 1, step).first;
    const double v = std::pow(1.0 + c * x, 3);
    if (v <= 0.0) continue;
    if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v;
  }
}

double rescaled_kinetic_energy(double kinetic, double target, double dof, double c,
                               const core::RandomStream& stream, std::uint64_t step,
                               double* r1_out) {
  const double r1 = stream.normal(0, step).first;
  const double s = dof > 1.0 ? 2.0 * gamma_variate(stream, 0.5 * (dof - 1.0), step) : 0.0;
  if (r1_out) *r1_out = r1;
  return kinetic + (1.0 - c) * (target * (s + r1 * r1) / dof - kinetic) +
         2.0 * r1 * std::sqrt(c * (1.0 - c) * kinetic * target / dof);
}

void StochasticRescale::thermostat(StepOperations& ops, std::int64_t step, double dt, int) {
  const double kinetic = ops.kinetic_energy();
  if (kinetic <= 0.0) return;
  const double c = std::exp(-dt / tau_);
  const double target = 0.5 * dof_ * kT_;
  const core::RandomStream stream(seed_, core::RandomPurpose::StochasticRescale);
  double r1 = 0.0;
  const double rescaled = rescaled_kinetic_energy(kinetic, target, dof_, c, stream,
                                                  static_cast<std::uint64_t>(step), &r1);
  double alpha = std::sqrt(std::max(rescaled, 0.0) / kinetic);
  if (r1 + std::sqrt(c * dof_ * kinetic / ((1.0 - c) * target)) < 0.0) alpha = -alpha;
  ops.scale_velocities(alpha);
  removed_ += kinetic - alpha * alpha * kinetic;
}

void StochasticRescale::restore(const IntegratorState& state) {
  if (state.values.size() != 1)
    throw core::InputError(
        fmt::format("the checkpoint's bussi state has {} values; expected 1", state.values.size()));
  removed_ = state.values[0];
}

}  // namespace novamd::integrate
