#include "novamd/integrate/monte_carlo_barostat.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "novamd/core/random.hpp"

namespace novamd::integrate {
namespace {

/// The stream ids of the draws (RandomPurpose::Barostat; stochastic cell rescaling takes 0-2).
constexpr std::uint32_t kTrialDraw = 8;   ///< the choice of edges and dV
constexpr std::uint32_t kAcceptDraw = 9;  ///< the Metropolis test
constexpr std::int64_t kAdaptAfter = 10;  ///< tries before a step size may change

}  // namespace

void MonteCarloBarostat::move(StepOperations& ops, std::int64_t step) {
  const bool sampled = sampled_;
  const double sampled_potential = potential_;
  // Consumed: a run that checkpointed before this move holds what one that did not holds.
  sampled_ = false;
  potential_ = 0.0;
  const core::Box box = ops.box();
  const double volume = box.volume();
  const core::RandomStream stream(seed_, core::RandomPurpose::Barostat);
  const auto index = static_cast<std::uint64_t>(step);
  const core::RandomPair trial_draw = stream.uniform(kTrialDraw, index);
  const int choice = choose_edges(trial_draw.first);
  double& size = step_size_[static_cast<std::size_t>(choice)];
  if (size == 0.0) size = 0.01 * volume;
  const double ratio = 1.0 + size * (2.0 * trial_draw.second - 1.0) / volume;
  bool kept = false;
  const core::Box trial = scaled_box(box, choice, ratio > 0.0 ? ratio : 1.0);
  // A volume of 0 or less, or a box too small for a cutoff, is a rejected try.
  if (ratio > 0.0 && ops.takes_box(trial)) {
    const double trial_volume = trial.volume();
    if (!sampled) ops.queue_potential_energy(0);  // the step before computed its energies
    ops.keep_configuration();
    ops.rescale_box(trial);
    ops.compute_forces(EnergyRequest::Totals);
    ops.queue_potential_energy(1);
    const auto energies = ops.queued_potential_energies();
    const double potential =
        sampled ? sampled_potential : energies[0] + scaled_.tail_energy_volume / volume;
    const double trial_potential = energies[1] + scaled_.tail_energy_volume / trial_volume;
    const double work_done =
        trial_potential - potential + settings().pressure * (trial_volume - volume);
    const double w =
        work_done - static_cast<double>(scaled_.count) * kT_ * std::log(trial_volume / volume);
    kept = w <= 0.0 || stream.uniform(kAcceptDraw, index).first < std::exp(-w / kT_);
    if (kept) {
      add_energy(work_done);
      ops.release_configuration();
    } else {
      ops.restore_configuration();
    }
  }
  adapt(choice, kept, volume);
}

std::string MonteCarloBarostat::summary() const {
  return fmt::format(
      "Monte Carlo barostat: {} volume moves tried, {} kept ({:.1f}%)", total_tried_, total_kept_,
      total_tried_ > 0
          ? 100.0 * static_cast<double>(total_kept_) / static_cast<double>(total_tried_)
          : 0.0);
}

int MonteCarloBarostat::choose_edges(double u) const {
  switch (settings().coupling) {
    case PressureCoupling::Isotropic:
      return 0;
    case PressureCoupling::SemiIsotropic:
      return u < 0.5 ? 0 : 1;
    case PressureCoupling::Anisotropic:
      return std::min(static_cast<int>(3.0 * u), 2);
  }
  return 0;
}

core::Box MonteCarloBarostat::scaled_box(const core::Box& box, int choice, double ratio) const {
  core::Vec3<double> f{1.0, 1.0, 1.0};
  switch (settings().coupling) {
    case PressureCoupling::Isotropic:
      f = {std::cbrt(ratio), std::cbrt(ratio), std::cbrt(ratio)};
      break;
    case PressureCoupling::SemiIsotropic:
      if (choice == 0)
        f.x = f.y = std::sqrt(ratio);
      else
        f.z = ratio;
      break;
    case PressureCoupling::Anisotropic:
      (choice == 0 ? f.x : choice == 1 ? f.y : f.z) = ratio;
      break;
  }
  const auto& L = box.length();
  return core::Box(L.x * f.x, L.y * f.y, L.z * f.z);
}

void MonteCarloBarostat::adapt(int choice, bool kept, double volume) {
  const auto c = static_cast<std::size_t>(choice);
  ++tried_[c];
  ++total_tried_;
  if (kept) {
    ++kept_[c];
    ++total_kept_;
  }
  if (tried_[c] < kAdaptAfter) return;
  const auto tried = static_cast<double>(tried_[c]), kept_count = static_cast<double>(kept_[c]);
  if (kept_count < 0.25 * tried) {
    step_size_[c] /= 1.1;
  } else if (kept_count > 0.75 * tried) {
    step_size_[c] = std::min(step_size_[c] * 1.1, 0.3 * volume);
  } else {
    return;
  }
  tried_[c] = kept_[c] = 0;
}

/// U, whether sampled (1 or 0), then per choice of edges the step size, the tries and the kept
/// moves since it last changed, then the run's tries and kept moves.
std::size_t MonteCarloBarostat::variable_count() const {
  return 2 + 3 * 3 + 2;
}

std::vector<double> MonteCarloBarostat::save_variables() const {
  std::vector<double> values{potential_, sampled_ ? 1.0 : 0.0};
  for (std::size_t c = 0; c < 3; ++c) {
    values.push_back(step_size_[c]);
    values.push_back(static_cast<double>(tried_[c]));
    values.push_back(static_cast<double>(kept_[c]));
  }
  values.push_back(static_cast<double>(total_tried_));
  values.push_back(static_cast<double>(total_kept_));
  return values;
}

void MonteCarloBarostat::restore_variables(const double* values) {
  potential_ = *values++;
  sampled_ = *values++ != 0.0;
  for (std::size_t c = 0; c < 3; ++c) {
    step_size_[c] = *values++;
    tried_[c] = static_cast<std::int64_t>(*values++);
    kept_[c] = static_cast<std::int64_t>(*values++);
  }
  total_tried_ = static_cast<std::int64_t>(*values++);
  total_kept_ = static_cast<std::int64_t>(*values);
}

}  // namespace novamd::integrate
