#include "novamd/app/run_health.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "novamd/app/rank_agreement.hpp"
#include "novamd/neighbors/neighbor_settings.hpp"

namespace novamd::app {
namespace {

/// The cause to suggest when a run goes wrong.
std::string likely_cause(const io::Config& config, double timestep) {
  const auto& u = config.units;
  std::string text = fmt::format(
      "the time step ({} {}) may be too large, or particles started too close", timestep, u.time);
  const auto& generate = config.system.structure.generate;
  if (generate && generate->lattice == "random" && generate->min_separation == 0.0)
    text +=
        " (the random structure has no min_separation: set "
        "system.structure.generate.min_separation, e.g. to 0.9 sigma)";
  return text;
}

}  // namespace

StepLimit step_limit(const io::Config& config, const core::Box& box) {
  const double edge = box.shortest_edge();
  StepLimit limit{0.1 * edge, fmt::format("a tenth of the shortest box edge, {:.6g}", edge)};
  for (const auto& term : config.forces) {
    const double rc = forces::cutoff_of(term);
    if (neighbors::resolve_method(config.neighbors, rc, edge) !=
        neighbors::NeighborMethod::NeighborList)
      continue;
    const double skin = config.neighbors.skin_for(rc, edge);
    if (0.5 * skin < limit.displacement)
      limit = {0.5 * skin, fmt::format("half the neighbour-list skin, {:.6g}", skin)};
  }
  return limit;
}

void stop_if_unstable(backend::Backend& backend, std::int64_t step, const StepLimit& limit,
                      const io::Config& config, double timestep) {
  const auto bad = backend.find_unstable(limit.displacement / timestep);
  if (!bad) return;
  const std::string& length = config.units.length;
  // Every rank finds the same particle (backends agree over the ranks): every rank stops here.
  if (bad->what == core::Instability::Speed)
    throw CollectiveRunError(fmt::format(
        "step {}: particle {} moves more than {:.6g} {} in one step ({}); {}", step,
        bad->particle_id, limit.displacement, length, limit.basis, likely_cause(config, timestep)));
  throw CollectiveRunError(fmt::format("step {}: particle {} has a non-finite {}; {}", step,
                                       bad->particle_id, core::to_string(bad->what),
                                       likely_cause(config, timestep)));
}

double EnergyWatch::relative_drift(const analysis::ThermoState& state) const {
  if (!first_conserved_ || scale_ == 0.0) return 0.0;
  return std::abs(state.conserved_energy - *first_conserved_) / scale_;
}

void EnergyWatch::check(const analysis::ThermoState& s, const io::Config& config, double timestep) {
  const struct {
    const char* name;
    double value;
  } quantities[] = {{"kinetic energy", s.kinetic_energy}, {"potential energy", s.potential_energy},
                    {"total energy", s.total_energy},     {"conserved energy", s.conserved_energy},
                    {"temperature", s.temperature},       {"pressure", s.pressure}};
  for (const auto& q : quantities)
    if (!std::isfinite(q.value))
      throw CollectiveRunError(fmt::format("step {}: the {} is {}; {}", s.step, q.name, q.value,
                                           likely_cause(config, timestep)));
  if (!first_conserved_) {
    first_conserved_ = s.conserved_energy;
    first_step_ = s.step;
    scale_ =
        std::max({std::abs(s.conserved_energy), std::abs(s.potential_energy), s.kinetic_energy});
    return;
  }
  const double drift = relative_drift(s);
  if (max_drift_ && drift > *max_drift_)
    throw CollectiveRunError(fmt::format(
        "step {}: the conserved energy is {:.10g} {}, {:.10g} at step {}: it drifted by {:.3g} "
        "times the energy scale of that state ({:.6g}), more than run.max_energy_drift ({}); "
        "{} (or raise run.max_energy_drift, or set it to none)",
        s.step, s.conserved_energy, config.units.energy, *first_conserved_, first_step_, drift,
        scale_, *max_drift_, likely_cause(config, timestep)));
}

}  // namespace novamd::app
