#include "novamd/app/run_stages.hpp"

#include <fmt/format.h>

namespace novamd::app {

std::vector<StageSpan> stage_spans(const io::Config& config) {
  if (config.run.stages.empty()) return {StageSpan{0, 0, {}, nullptr, &config.integrator}};
  std::vector<StageSpan> spans;
  std::int64_t first = 0;
  for (std::size_t k = 0; k < config.run.stages.size(); ++k) {
    const io::RunStage& stage = config.run.stages[k];
    spans.push_back({k, first, first + stage.steps, &stage, &stage.integrator});
    first += stage.steps;
  }
  return spans;
}

StageSpan span_after(const io::Config& config, std::int64_t step) {
  const auto spans = stage_spans(config);
  for (const auto& span : spans)
    if (step < span.last_step) return span;
  return spans.back();
}

std::string describe_stage(const StageSpan& span, const io::Config& config) {
  const auto& i = *span.integrator;
  const auto& u = config.units;
  std::string text =
      fmt::format("stage {} of {}, steps {} to {}: {}", span.index + 1, config.run.stages.size(),
                  span.first_step + 1, span.last_step, i.type);
  if (span.stage && span.stage->ramp)
    text += fmt::format(", T {} to {} {}", (*span.stage->ramp)[0], (*span.stage->ramp)[1],
                        u.temperature);
  else if (i.temperature)
    text += fmt::format(", T {} {}", *i.temperature, u.temperature);
  return text;
}

core::TimeAxis starting_time_axis(const io::Config& config, std::int64_t first_step,
                                  const std::optional<core::TimeAxis>& saved) {
  const double dt = span_after(config, first_step).integrator->timestep;
  return saved ? saved->with_timestep(dt, first_step) : core::TimeAxis{0, 0.0, dt};
}

bool keeps_one_timestep(const io::Config& config, std::int64_t first_step,
                        const std::optional<core::TimeAxis>& saved) {
  const core::TimeAxis axis = starting_time_axis(config, first_step, saved);
  if (!axis.from_step_zero()) return false;
  for (const auto& span : stage_spans(config))
    if (span.last_step > first_step && span.integrator->timestep != axis.timestep) return false;
  return true;
}

bool same_integrator(const integrate::IntegratorSettings& a,
                     const integrate::IntegratorSettings& b) {
  return a.type == b.type && a.timestep == b.timestep && a.temperature == b.temperature &&
         a.friction == b.friction && a.tau == b.tau && a.chain == b.chain;
}

}  // namespace novamd::app
