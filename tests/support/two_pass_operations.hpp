#pragma once
/// @file two_pass_operations.hpp
/// A backend's step operations with the fused ones the backend may override
/// (StepOperations::thermalize_drift, drift_thermalize_drift) left to StepOperations' defaults:
/// the stages as separate passes, each drift constrained in turn, to compare a backend's fused
/// passes with.

#include "novamd/backend/backend.hpp"
#include "novamd/integrate/step_operations.hpp"

namespace novamd::test {

class TwoPassOperations final : public integrate::StepOperations {
 public:
  explicit TwoPassOperations(backend::Backend& backend) : b_(backend) {}
  void compute_forces(integrate::EnergyRequest e) override { b_.compute_forces(e); }
  void kick(double dt) override { b_.kick(dt); }
  void drift(double dt, integrate::VelocityCondition after) override { b_.drift(dt, after); }
  void kick_drift(double kick_dt, double drift_dt, integrate::VelocityCondition after) override {
    b_.kick_drift(kick_dt, drift_dt, after);
  }
  void scale_velocities(double factor) override { b_.scale_velocities(factor); }
  void thermalize(const integrate::VelocityNoise& noise) override { b_.thermalize(noise); }
  double langevin_heat() override { return b_.langevin_heat(); }
  double kinetic_energy() override { return b_.kinetic_energy(); }

 private:
  backend::Backend& b_;
};

}  // namespace novamd::test
