// Which drifts of each integrator leave the velocity condition of held distances to the next
// kick (integrate::VelocityCondition): those whose next stage touching the velocities is a kick,
// and no other. A drift before a thermostat, a measurement or the step's end applies it. And which
// steps leave their closing kick to the next step's opening one (integrate::StepEnd): those of
// splittings that end and begin with a kick, where nothing reads the state between.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <memory>
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

/// The integrator `type` (thermostats at 300 K) with time step dt, for 100 particles.
std::unique_ptr<novamd::integrate::Integrator> integrator_of(const std::string& type, double dt) {
  novamd::integrate::IntegratorSettings settings;
  settings.type = type;
  settings.timestep = dt;
  if (type != "velocity_verlet" && type != "leapfrog") settings.temperature = 300.0;
  settings.friction = 0.01;
  settings.tau = 100.0;
  return novamd::integrate::make_integrator(settings, novamd::core::real_units(), 1, {100});
}

std::vector<std::string> one_step(const std::string& type) {
  auto integrator = integrator_of(type, 1.0);
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

/// Records each operation, a kick with its time.
class TimedOperations final : public novamd::integrate::StepOperations {
 public:
  std::vector<std::string> log;
  void compute_forces(novamd::integrate::EnergyRequest) override { log.push_back("F"); }
  void kick(double dt) override { log.push_back(fmt::format("B{}", dt)); }
  void drift(double dt, VelocityCondition) override { log.push_back(fmt::format("A{}", dt)); }
  void scale_velocities(double) override { log.push_back("O"); }
  void thermalize(const novamd::integrate::VelocityNoise&) override { log.push_back("O"); }
  double langevin_heat() override { return 0.0; }
  double kinetic_energy() override { return 1.0; }
};

/// The log of steps 1 and 2 of `type` (time step 2), step 1 with `first_end`; then of
/// complete_step, twice.
Log two_steps(const std::string& type, novamd::integrate::StepEnd first_end) {
  auto integrator = integrator_of(type, 2.0);
  TimedOperations ops;
  integrator->step(ops, 1, novamd::integrate::EnergyRequest::Skip, first_end);
  ops.log.push_back("|");
  integrator->step(ops, 2, novamd::integrate::EnergyRequest::Skip,
                   novamd::integrate::StepEnd::Continued);
  ops.log.push_back("|");
  integrator->complete_step(ops);
  integrator->complete_step(ops);
  return ops.log;
}

TEST(JoinedKicks, AStepNobodyReadsLeavesItsClosingKickToTheNext) {
  using novamd::integrate::StepEnd;
  // BAOAB: one kick of a whole step between the force evaluations; complete_step gives the
  // closing half kick once.
  EXPECT_EQ(two_steps("langevin", StepEnd::Continued),
            (Log{"B1", "A1", "O", "A1", "F", "|", "B2", "A1", "O", "A1", "F", "|", "B1"}));
  EXPECT_EQ(two_steps("velocity_verlet", StepEnd::Continued),
            (Log{"B1", "A2", "F", "|", "B2", "A2", "F", "|", "B1"}));
  // A step that is read ends with its closing kick.
  EXPECT_EQ(two_steps("velocity_verlet", StepEnd::Read),
            (Log{"B1", "A2", "F", "B1", "|", "B1", "A2", "F", "|", "B1"}));
  // Splittings that end with a thermostat, or begin with a drift, keep their kicks.
  EXPECT_EQ(two_steps("bussi", StepEnd::Continued),
            (Log{"B1", "A2", "F", "B1", "O", "|", "B1", "A2", "F", "B1", "O", "|"}));
  EXPECT_EQ(two_steps("leapfrog", StepEnd::Continued),
            (Log{"A2", "F", "B2", "|", "A2", "F", "B2", "|"}));
}

}  // namespace
