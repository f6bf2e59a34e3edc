/// @file integrator.cpp
/// Running a splitting (integrator.hpp).

#include "novamd/integrate/integrator.hpp"

#include <fmt/format.h>

#include "novamd/core/error.hpp"

namespace novamd::integrate {

void Integrator::set_temperature(double) {
  throw core::RunError(
      fmt::format("integrator {} has no thermostat whose temperature could change", name()));
}

void Integrator::step(StepOperations& ops, std::int64_t step, EnergyRequest energy, StepEnd end) {
  if (barostat_ && barostat_->moves_at(step) && barostat_->move_point() == MovePoint::StepStart) {
    complete_step(ops);  // none pending: the step before was sampled, so read
    barostat_->move(ops, step);
  }
  int thermostats = 0;
  int measures = 0;
  const std::size_t n = splitting_.size();
  for (std::size_t k = 0; k < n; ++k) {
    const Stage& stage = splitting_[k];
    // The opening kick takes the last step's closing one where that was left to it.
    double kick_dt = stage.fraction * dt_;
    if (k == 0 && stage.op == Operator::Kick) {
      kick_dt += pending_kick_;
      pending_kick_ = 0.0;
    }
    if (k + 1 == n && stage.op == Operator::Kick && end == StepEnd::Continued && joins_kicks()) {
      pending_kick_ = kick_dt;
      break;
    }
    switch (stage.op) {
      case Operator::Kick:
        if (drift_thermostat_drift_at(k + 1)) {  // B, then A O A in one pass
          ops.kick(kick_dt);
          drift_thermostat_drift(ops, step, splitting_[k + 1].fraction * dt_,
                                 splitting_[k + 2].fraction * dt_, thermostats++,
                                 splitting_[k + 3].fraction * dt_, condition_after_drift(k + 3));
          k += 3;
        } else if (k + 1 < n && splitting_[k + 1].op == Operator::Drift) {  // one pass for both
          ops.kick_drift(kick_dt, splitting_[k + 1].fraction * dt_, condition_after_drift(k + 1));
          ++k;
        } else {
          ops.kick(kick_dt);
        }
        break;
      case Operator::Drift:
        ops.drift(stage.fraction * dt_, condition_after_drift(k));
        break;
      case Operator::Thermostat:
        if (k + 1 < n && splitting_[k + 1].op == Operator::Drift) {  // fused where it can be
          thermostat_then_drift(ops, step, stage.fraction * dt_, thermostats++,
                                splitting_[k + 1].fraction * dt_, condition_after_drift(k + 1));
          ++k;
        } else {
          thermostat(ops, step, stage.fraction * dt_, thermostats++);
        }
        break;
      case Operator::Forces:
        if (barostat_ && barostat_->moves_at(step) &&
            barostat_->move_point() == MovePoint::BeforeForces)
          barostat_->move(ops, step);
        ops.compute_forces(computes_virial_at(step) && energy == EnergyRequest::Skip
                               ? EnergyRequest::Totals
                               : energy);
        break;
      case Operator::Dilate:
        if (k + 2 < n && splitting_[k + 1].op == Operator::Drift &&
            splitting_[k + 2].op == Operator::Dilate) {  // D A D, composed where it can be
          dilate_drift_dilate(ops, stage.fraction * dt_, splitting_[k + 1].fraction * dt_,
                              splitting_[k + 2].fraction * dt_, condition_after_drift(k + 1));
          k += 2;
        } else {
          dilate(ops, stage.fraction * dt_);
        }
        break;
      case Operator::Measure:
        measure(ops, energy, measures++);
        break;
    }
  }
}

void Integrator::complete_step(StepOperations& ops) {
  if (pending_kick_ == 0.0) return;
  ops.kick(pending_kick_);
  pending_kick_ = 0.0;
}

bool Integrator::joins_kicks() const {
  return splitting_.size() > 1 && splitting_.front().op == Operator::Kick &&
         splitting_.back().op == Operator::Kick;
}

bool Integrator::drift_thermostat_drift_at(std::size_t k) const {
  return k + 2 < splitting_.size() && splitting_[k].op == Operator::Drift &&
         splitting_[k + 1].op == Operator::Thermostat && splitting_[k + 2].op == Operator::Drift;
}

VelocityCondition Integrator::condition_after_drift(std::size_t k) const {
  for (std::size_t j = k + 1; j < splitting_.size(); ++j) {
    switch (splitting_[j].op) {
      case Operator::Forces:
        continue;
      case Operator::Kick:  // a kick fused with a drift leaves the condition to that drift
        return j + 1 < splitting_.size() && splitting_[j + 1].op == Operator::Drift
                   ? VelocityCondition::Apply
                   : VelocityCondition::Deferred;
      default:
        return VelocityCondition::Apply;
    }
  }
  return VelocityCondition::Apply;  // the step's end state is read
}

}  // namespace novamd::integrate
