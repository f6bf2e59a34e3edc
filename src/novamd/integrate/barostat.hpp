#pragma once
/// @file barostat.hpp
/// Constant pressure: a barostat changes the box every `every` steps, just before that step's
/// force evaluation (Integrator::step), from the pressure the step loop measured at the end of
/// the step before (measure()). The positions scale with the box edges, the velocities inversely,
/// and the step's forces are then evaluated at the new positions as usual: a move costs no force
/// evaluation of its own. The step before each move computes energies (its virial).
///
/// The conserved quantity of a run at constant pressure is K + U + P0 V plus the energy the
/// thermostat has taken out, minus the energy the barostat's moves have put in (energy()).

#include <cstdint>
#include <memory>
#include <string>

#include "novamd/core/box.hpp"
#include "novamd/core/tensor.hpp"
#include "novamd/core/units.hpp"
#include "novamd/integrate/integrator_state.hpp"
#include "novamd/integrate/step_operations.hpp"

namespace novamd::integrate {

/// How the box edges move together.
enum class PressureCoupling {
  Isotropic,      ///< one factor for all three edges, from the scalar pressure
  SemiIsotropic,  ///< x and y together (from (P_xx + P_yy) / 2), z on its own
  Anisotropic,    ///< each edge from its own diagonal component (the box stays orthorhombic)
};

/// `barostat: {type, pressure, period, compressibility, coupling, every}` (docs/config.md), in
/// the run's units; `pressure` and `compressibility` already in energy per length^3 and its
/// inverse.
struct BarostatSettings {
  std::string type;  ///< c_rescale (the only type so far)
  double pressure = 0.0;
  double period = 0.0;           ///< tau_p: the relaxation time of the volume
  double compressibility = 0.0;  ///< beta_T: an estimate of the isothermal compressibility
  PressureCoupling coupling = PressureCoupling::Isotropic;
  std::int64_t every = 10;  ///< steps between moves
};

/// The pressure tensor (energy per length^3, kinetic part included, tail corrections too), the
/// virial tensor (energy) and the volume at the end of a step.
struct PressureSample {
  core::SymmetricTensor<double> pressure;
  core::SymmetricTensor<double> virial;
  double volume = 0.0;
};

class Barostat {
 public:
  explicit Barostat(const BarostatSettings& settings) : settings_(settings) {}
  virtual ~Barostat() = default;

  /// The config name (c_rescale).
  virtual std::string name() const = 0;
  const BarostatSettings& settings() const { return settings_; }

  /// Whether the step loop measures the pressure after `step`: the step before each move.
  bool measures_after(std::int64_t step) const { return (step + 1) % settings_.every == 0; }
  /// Whether `step` moves the box, before its forces.
  bool moves_at(std::int64_t step) const { return step > 0 && step % settings_.every == 0; }
  /// The pressure at the end of the step before the next move.
  void measure(const PressureSample& sample) {
    sample_ = sample;
    measured_ = true;
  }

  /// Moves the box before the forces of `step` (scaling positions and velocities through `ops`);
  /// nothing where no pressure was measured since the last move.
  void move(StepOperations& ops, std::int64_t step);
  /// Whether a move awaits complete_move (the step loop computes that step's energies).
  bool completes_after(std::int64_t step) const { return moves_at(step) && moved_; }
  /// After the step that moved, with the virial at the moved positions (its force evaluation
  /// computed energies): completes the move's account of U.
  void complete_move(const PressureSample& after);

  /// The energy the moves have put into the system: the changes of K + U + P0 V they made, K's
  /// and P0 V's exactly, U's by the trapezoid rule, -sum_a (W_aa + W'_aa) / 2 d ln L_a with the
  /// virials of the sample before the move and of the evaluation after it (exact to second
  /// order in the move; first order alone left a drift of some 0.1 kT a move in a liquid, from
  /// U's curvature).
  double energy() const { return energy_; }
  /// P0 V: the enthalpy's share of the conserved quantity, at volume `volume`.
  double pressure_volume(double volume) const { return settings_.pressure * volume; }

  /// The barostat's variables (energy, the last sample), for a checkpoint.
  IntegratorState save() const;
  /// @throws core::InputError when the state does not fit.
  void restore(const IntegratorState& state);

 protected:
  /// The logarithms of the three edges' scaling factors for a move over `dt` (every steps) at
  /// temperature kT from the measured sample; `step` keys the random draws.
  virtual core::Vec3<double> log_scaling(const PressureSample& sample, double volume,
                                         std::int64_t step) const = 0;

 private:
  BarostatSettings settings_;
  PressureSample sample_;
  bool measured_ = false;
  double energy_ = 0.0;
  core::Vec3<double> moved_log_{};  ///< ln of the last move's factors, until complete_move
  bool moved_ = false;
};

/// Stochastic cell rescaling (Bernetti and Bussi, J. Chem. Phys. 153, 114107 (2020); the form
/// of the GROMACS reference manual). The logarithm of the volume, eps = ln V, follows the Ito
/// equation
///
///     d eps = -(beta_T / tau_p) (P0 - P) dt + sqrt(2 kT beta_T / (V tau_p)) dW
///
/// (P: the instantaneous pressure, its kinetic part from the particles' velocities, which the
/// move scales; kT: the thermostat's), which samples V^(N+1) exp(-(U + P0 V) / kT) in eps; it is
/// integrated over each move's interval dt = every x time step by one Euler-Maruyama step, and
/// every edge is scaled by exp(d eps / 3). (In V or in L itself, the Ito correction adds a kT / V
/// to the drift.) Semi-isotropic coupling moves ln(L_x L_y) and ln L_z, anisotropic coupling
/// each ln L_a, by the same equation with the pressure along their own axes (the mean of P_xx
/// and P_yy, or P_aa) and their share of the volume's freedom (2/3 and 1/3, or 1/3 each) in the
/// drift and in the noise's variance. The noise is drawn from the counter-based stream (seed,
/// Barostat, axis, step): every backend and a restart draw the same.
class StochasticCellRescale final : public Barostat {
 public:
  StochasticCellRescale(const BarostatSettings& settings, double dt, double kT, std::uint64_t seed)
      : Barostat(settings), dt_(dt), kT_(kT), seed_(seed) {}
  std::string name() const override { return "c_rescale"; }

 private:
  core::Vec3<double> log_scaling(const PressureSample& sample, double volume,
                                 std::int64_t step) const override;

  double dt_, kT_;
  std::uint64_t seed_;
};

/// The barostat `settings` ask for (none where settings.type is empty); `dt`: the time step;
/// `kT`: the thermostat's temperature in energy units.
std::unique_ptr<Barostat> make_barostat(const BarostatSettings& settings, double dt, double kT,
                                        std::uint64_t seed);

}  // namespace novamd::integrate
