#pragma once
/// @file bench_timing.hpp
/// Timing for `novamd bench`: medians over batches of steps queued back to back.

#include <algorithm>
#include <chrono>
#include <vector>

#include "novamd/backend/backend.hpp"
#include "novamd/integrate/velocity_verlet.hpp"

namespace novamd::app {

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const auto n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// Median over `repeats` batches of the wall time per call of `work`, each batch `calls` calls
/// queued back to back and waited for once (as in a run, where nothing waits between steps).
template <class Work>
double median_time_per_call(backend::Backend& backend, int repeats, int calls, Work work) {
  using Clock = std::chrono::steady_clock;
  std::vector<double> seconds;
  for (int r = 0; r < repeats; ++r) {
    backend.synchronize();
    const auto start = Clock::now();
    for (int i = 0; i < calls; ++i) work();
    backend.synchronize();
    seconds.push_back(std::chrono::duration<double>(Clock::now() - start).count() / calls);
  }
  return median(seconds);
}

struct StepTimes {
  double step;    ///< one MD step between thermo steps: kick, drift, forces, kick
  double forces;  ///< the force evaluation alone
};

inline StepTimes time_steps(backend::Backend& backend, double dt, int warmup, int steps,
                            int repeats = 9) {
  const auto no_energy = backend::EnergyRequest::Skip;
  backend.compute_forces(backend::EnergyRequest::Compute);
  for (int i = 0; i < warmup; ++i) integrate::velocity_verlet_step(backend, dt, no_energy);
  StepTimes t{};
  t.step = median_time_per_call(backend, repeats, steps,
                                [&] { integrate::velocity_verlet_step(backend, dt, no_energy); });
  t.forces =
      median_time_per_call(backend, repeats, steps, [&] { backend.compute_forces(no_energy); });
  return t;
}

}  // namespace novamd::app
