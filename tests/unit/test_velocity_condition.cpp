// Which drifts of each integrator leave the velocity condition of held distances to the next
// kick (integrate::VelocityCondition): those whose next stage touching the velocities is a kick,
// and no other. A drift before a thermostat, a measurement or the step's end applies it.

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "novamd/core/units.hpp"
#include "novamd/integrate/integrator.hpp"

namespace {

using novamd::integrate::VelocityCondition;

/// Records each operation of a step, a drift with its velocity condition.
class RecordingOperations final : public novamd::integrate::StepOperations {
 public:
  std::vector<std::string> log;
  void compute_forces(novamd::integrate::EnergyRequest) override { log.push_back("F"); }
  void kick(double) override { log.push_back("B"); }
  void drift(double, VelocityCondition after) override {
    log.push_back(after == VelocityCondition::Apply ? "A+" : "A-");
  }
  void scale_velocities(double) override { log.push_back("O"); }
  void thermalize(const novamd::integrate::VelocityNoise&) override { log.push_back("O"); }
  double langevin_heat() override { return 0.0; }
  double kinetic_energy() override { return 1.0; }
};

std::vector<std::string> one_step(const std::string& type) {
  novamd::integrate::IntegratorSettings settings;
  settings.type = type;
  settings.timestep = 1.0;
  if (type != "velocity_verlet" && type != "leapfrog") settings.temperature = 300.0;
  settings.friction = 0.01;
  settings.tau = 100.0;
  auto integrator =
      novamd::integrate::make_integrator(settings, novamd::core::real_units(), 1, {100});
  RecordingOperations ops;
  integrator->step(ops, 1, novamd::integrate::EnergyRequest::Skip);
  return ops.log;
}

using Log = std::vector<std::string>;

TEST(VelocityCondition, DriftsBeforeAKickLeaveItToTheKick) {
  EXPECT_EQ(one_step("velocity_verlet"), (Log{"B", "A-", "F", "B"}));
  // BAOAB: the first drift's condition stays (the O step's heat must not count the radial
  // velocity a drift's correction leaves); the second drift's goes to the closing kick.
  EXPECT_EQ(one_step("langevin"), (Log{"B", "A+", "O", "A-", "F", "B"}));
  EXPECT_EQ(one_step("bussi"), (Log{"B", "A-", "F", "B", "O"}));
  // Leapfrog measures its half-step velocities after the forces.
  EXPECT_EQ(one_step("leapfrog"), (Log{"A+", "F", "B"}));
}

TEST(VelocityCondition, NoseHooverLeavesItToTheClosingKick) {
  const Log log = one_step("nose_hoover");
  ASSERT_GE(log.size(), 4u);
  // The drift between the half kicks, whatever the chain's own velocity scalings around them.
  int drifts = 0;
  for (std::size_t k = 0; k < log.size(); ++k) {
    if (log[k][0] != 'A') continue;
    ++drifts;
    EXPECT_EQ(log[k], "A-");
    ASSERT_LT(k + 2, log.size());
    EXPECT_EQ(log[k + 1], "F");
    EXPECT_EQ(log[k + 2], "B");
  }
  EXPECT_EQ(drifts, 1);
}

/// An integrator of the given splitting, for splittings no integrator of the engine has.
class Splitting final : public novamd::integrate::Integrator {
 public:
  explicit Splitting(novamd::integrate::Splitting stages)
      : Integrator(1.0, {100}, std::move(stages)) {}
  std::string name() const override { return "splitting"; }
};

TEST(VelocityCondition, AKickFusedWithADriftDoesNotTakeItOver) {
  using novamd::integrate::Operator;
  const auto one_step_of = [](novamd::integrate::Splitting stages) {
    Splitting integrator(std::move(stages));
    RecordingOperations ops;
    integrator.step(ops, 1, novamd::integrate::EnergyRequest::Skip);
    return ops.log;
  };
  // The kick after the forces runs fused with the next drift, without a condition of its own.
  EXPECT_EQ(one_step_of({{Operator::Drift, 0.5},
                         {Operator::Forces},
                         {Operator::Kick, 1.0},
                         {Operator::Drift, 0.5}}),
            (Log{"A+", "F", "B", "A+"}));
  EXPECT_EQ(one_step_of({{Operator::Drift, 1.0}, {Operator::Forces}, {Operator::Kick, 1.0}}),
            (Log{"A-", "F", "B"}));
}

}  // namespace
