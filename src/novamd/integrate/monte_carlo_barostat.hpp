#pragma once
/// @file monte_carlo_barostat.hpp
/// The Monte Carlo barostat (OpenMM's MonteCarloBarostat; Chow and Ferguson, Comput. Phys.
/// Commun. 91, 283 (1995); Aqvist et al., Chem. Phys. Lett. 384, 288 (2004)). At the start of
/// every `every`-th step it tries a volume V' = V + dV, dV uniform in [-s, s]: the box edges and
/// the positions (or the molecules' centres, ScaledSystem) scale together, the potential energy
/// U' is evaluated there, and the move is kept with probability min(1, exp(-w / kT)),
///
///     w = U' - U + P0 (V' - V) - N kT ln(V' / V),
///
/// U the energy at the end of the step before (read with U', or sampled on the host before a
/// checkpoint), N the scaled particles or
/// molecules: the Metropolis criterion of the isobaric ensemble, V^N exp(-(U + P0 V) / kT). A
/// rejected move puts back the positions, the box and the forces; a trial volume of 0 or less,
/// or a box too small for a cutoff, counts as rejected untried. Velocities are not touched.
/// The step size s starts at 1% of V and adapts as OpenMM's does: after 10 or more tries with
/// under 25% kept it shrinks by 1.1, over 75% it grows by 1.1 (to at most 30% of V), and the
/// counts restart.
///
/// Couplings: `isotropic` scales all three edges by (V'/V)^(1/3); `semi_isotropic` picks, with
/// equal odds, x and y together (by (V'/V)^(1/2)) or z alone; `anisotropic` one edge of the
/// three. Each choice keeps a step size of its own. The draws come from the counter-based stream
/// (seed, Barostat, 8 or 9, step): every backend and a restart draw the same.
///
/// The conserved quantity: each kept move adds U' - U + P0 (V' - V) to energy(), so that
/// K + U + P0 V + (the thermostat's) - energy() is unchanged by the moves.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "novamd/integrate/barostat.hpp"

namespace novamd::integrate {

class MonteCarloBarostat final : public Barostat {
 public:
  MonteCarloBarostat(const BarostatSettings& settings, double kT, std::uint64_t seed,
                     const ScaledSystem& scaled)
      : Barostat(settings), kT_(kT), seed_(seed), scaled_(scaled) {}
  std::string name() const override { return "monte_carlo"; }
  MovePoint move_point() const override { return MovePoint::StepStart; }
  /// The step before each move: U at the positions the move starts from.
  bool samples_after(std::int64_t step) const override {
    return (step + 1) % settings().every == 0;
  }
  /// U stays on the device until the move reads it with U' (one wait for both), except before
  /// a checkpoint, which keeps it.
  bool defers_samples() const override { return true; }
  void sample(const PressureSample& sample) override {
    potential_ = sample.potential_energy;
    sampled_ = true;
  }
  /// Tries a volume move: evaluates the forces with energies at the trial volume (the step's
  /// forces where it is kept); puts the configuration back where it is not.
  void move(StepOperations& ops, std::int64_t step) override;

  /// "Monte Carlo barostat: T volume moves tried, K kept (P%)".
  std::string summary() const override;
  /// Moves tried and kept since the run's start (a restart's included).
  std::int64_t tried() const { return total_tried_; }
  std::int64_t kept() const { return total_kept_; }
  /// The step size of each choice of edges (the first only for isotropic coupling); 0 before
  /// the first move.
  const std::array<double, 3>& step_sizes() const { return step_size_; }

 private:
  /// The edges a move scales: 0 for all three (isotropic); x and y (0) or z (1)
  /// (semi-isotropic); x, y or z (anisotropic). `u`: a uniform draw in (0, 1).
  int choose_edges(double u) const;
  /// `box` with the volume scaled by `ratio` over the edges `choice` names.
  core::Box scaled_box(const core::Box& box, int choice, double ratio) const;
  /// Counts the try; adapts the choice's step size after 10 or more tries.
  void adapt(int choice, bool kept, double volume);

  std::vector<double> save_variables() const override;
  std::size_t variable_count() const override;
  void restore_variables(const double* values) override;

  double kT_;
  std::uint64_t seed_;
  ScaledSystem scaled_;
  double potential_ = 0.0;  ///< U of a host sample (sample()), tail correction included
  bool sampled_ = false;    ///< a host sample came since the last move
  std::array<double, 3> step_size_{};
  std::array<std::int64_t, 3> tried_{}, kept_{};  ///< since the choice's size last changed
  std::int64_t total_tried_ = 0, total_kept_ = 0;
};

}  // namespace novamd::integrate
