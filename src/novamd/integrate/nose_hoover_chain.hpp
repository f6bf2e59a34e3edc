#pragma once
/// @file nose_hoover_chain.hpp
/// Nose-Hoover chains (Martyna, Klein and Tuckerman, J. Chem. Phys. 97, 2635 (1992)), integrated
/// by the Trotter splitting of Martyna, Tuckerman, Tobias and Klein (Mol. Phys. 87, 1117 (1996)):
///
///     NHC(dt/2)  velocity Verlet(dt)  NHC(dt/2)
///
/// with M thermostats of positions xi_k, velocities v_k and masses Q_1 = f kT tau^2,
/// Q_k = kT tau^2 (f degrees of freedom, tau the relaxation time). NHC(dt/2) updates the chain
/// from its end, scales every particle velocity by exp(-dt/2 v_1), then updates the chain back.
/// The forces on the chain are G_1 = (2K - f kT)/Q_1 and G_k = (Q_{k-1} v_{k-1}^2 - kT)/Q_k.
/// Conserved: H = K + U + sum_k Q_k v_k^2 / 2 + f kT xi_1 + kT sum_{k>1} xi_k.

#include <vector>

#include "novamd/integrate/integrator.hpp"

namespace novamd::integrate {

/// The chain's variables and its half-step update, apart from any backend (unit-tested alone).
class NoseHooverChainState {
 public:
  NoseHooverChainState(int length, double kT, double tau, double dof);

  /// NHC(dt/2) for a system of kinetic energy `kinetic`: updates the chain and returns the
  /// factor by which every velocity is to be scaled.
  double half_step(double kinetic, double dt);
  /// sum_k Q_k v_k^2 / 2 + f kT xi_1 + kT sum_{k>1} xi_k.
  double energy() const;

  /// The target k_B T; the masses stay those of the temperature the chain was made for.
  void set_temperature(double kT) { kT_ = kT; }

  std::vector<double> values() const;  ///< xi, then v
  void set_values(const std::vector<double>& values);
  int length() const { return static_cast<int>(xi_.size()); }

 private:
  double force(int k, double kinetic) const;  ///< G_k
  void update_velocity(int k, double kinetic, double dt);

  double kT_, dof_;
  std::vector<double> mass_, xi_, v_;
};

class NoseHooverChain final : public Integrator {
 public:
  /// O B/2 A F B/2 O: the chain's half steps around velocity Verlet.
  NoseHooverChain(double dt, double kT, double tau, int length, const SystemFreedom& system)
      : Integrator(dt, system,
                   {{Operator::Thermostat},
                    {Operator::Kick, 0.5},
                    {Operator::Drift, 1.0},
                    {Operator::Forces},
                    {Operator::Kick, 0.5},
                    {Operator::Thermostat}}),
        chain_(length, kT, tau, degrees_of_freedom()) {}
  std::string name() const override { return "nose_hoover"; }
  void set_temperature(double kT) override { chain_.set_temperature(kT); }

  void start(StepOperations& ops) override { kinetic_ = ops.kinetic_energy(); }
  double thermostat_energy(StepOperations&) override { return chain_.energy(); }

  /// xi, v, then the kinetic energy carried from the last step.
  IntegratorState save() const override;
  void restore(const IntegratorState& state) override;

 private:
  /// The opening (index 0, from the kinetic energy carried over) or closing (1) half step.
  void thermostat(StepOperations& ops, std::int64_t step, double dt, int index) override;
  NoseHooverChainState chain_;
  double kinetic_ = 0.0;  ///< kinetic energy after the last step's closing scaling
};

}  // namespace novamd::integrate
