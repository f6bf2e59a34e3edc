#pragma once
/// @file stochastic_rescale.hpp
/// Stochastic velocity rescaling (Bussi, Donadio and Parrinello, J. Chem. Phys. 126, 014101
/// (2007)): after each velocity Verlet step the kinetic energy K is replaced by K', drawn so that
/// K relaxes to K_t = f kT / 2 with time constant tau and samples the canonical distribution:
///
///     K' = K + (1 - c)(K_t (R_1^2 + S) / f - K) + 2 R_1 sqrt(c (1 - c) K K_t / f)
///
/// with c = exp(-dt/tau), R_1 a standard normal and S a sum of f - 1 squared standard normals
/// (a chi-squared variate, drawn as 2 Gamma((f - 1)/2)). Every velocity is scaled by
/// alpha = sqrt(K'/K), with the sign of R_1 + sqrt(c f K / ((1 - c) K_t)) as in the authors'
/// code. The random numbers are drawn on the host from the counter-based stream keyed by
/// (seed, StochasticRescale, draw, step), so every backend draws the same. Conserved: total
/// energy plus the kinetic energy the rescalings have removed.

#include <cstdint>

#include "novamd/core/random.hpp"
#include "novamd/integrate/integrator.hpp"

namespace novamd::integrate {

/// A Gamma(shape, 1) variate (Marsaglia and Tsang, ACM TOMS 26, 363 (2000)); tries are draws
/// 1, 2, ... of `stream` at index `step`, so the value is a pure function of its arguments.
double gamma_variate(const core::RandomStream& stream, double shape, std::uint64_t step);

/// The new kinetic energy K' for the current K (see the file comment).
double rescaled_kinetic_energy(double kinetic, double target, double dof, double c,
                               const core::RandomStream& stream, std::uint64_t step,
                               double* r1_out = nullptr);

class StochasticRescale final : public Integrator {
 public:
  /// B/2 A F B/2 O: velocity Verlet, then the rescaling over the whole step.
  StochasticRescale(double dt, double kT, double tau, std::uint64_t seed,
                    const SystemFreedom& system)
      : Integrator(dt, system,
                   {{Operator::Kick, 0.5},
                    {Operator::Drift, 1.0},
                    {Operator::Forces},
                    {Operator::Kick, 0.5},
                    {Operator::Thermostat}}),
        kT_(kT),
        tau_(tau),
        dof_(degrees_of_freedom()),
        seed_(seed) {}
  std::string name() const override { return "bussi"; }
  void set_temperature(double kT) override { kT_ = kT; }

  double thermostat_energy(StepOperations&) override { return removed_; }

  IntegratorState save() const override { return {name(), {removed_}}; }
  void restore(const IntegratorState& state) override;

 private:
  void thermostat(StepOperations& ops, std::int64_t step, double dt, int index) override;

  double kT_, tau_, dof_;
  std::uint64_t seed_;
  double removed_ = 0.0;  ///< kinetic energy the rescalings have taken out so far
};

}  // namespace novamd::integrate
