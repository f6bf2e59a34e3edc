#pragma once
/// @file cpu_kspace_term.hpp
/// The CPU's Ewald-split Coulomb terms (methods ewald and pme): the real-space pair term
/// (erfc-screened, physics::EwaldReal, over the run's traversal), then the method's reciprocal
/// sum, then the self energy and the neutralising background of physics/ewald.hpp. The
/// corrections of excluded pairs are a bonded term of their own (EwaldExcludedPairSettings). One
/// term, one energy (`coulomb_energy`).
///
/// ewald (forces/cpu_ewald_term.cpp): the sum over wave vectors, structure factors in particle
/// order, each particle's force over the wave vectors in a fixed order.
/// pme (forces/cpu_pme_term.cpp): smooth particle-mesh Ewald (physics/pme.hpp): charges spread
/// on the grid, FFTW3's real-to-complex transforms (with its OpenMP threads), the influence
/// function, forces interpolated back. Deterministic: each thread spreads into its own slab of
/// grid planes (along x), visiting the particles in storage order, so every grid point sums its
/// charges in the same order whatever the thread count; the plans are FFTW_ESTIMATE's (chosen
/// without timing) and the grid sums run in a fixed order.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "novamd/core/tensor.hpp"
#include "novamd/core/units.hpp"
#include "novamd/forces/cpu_force_term.hpp"
#include "novamd/forces/force_settings.hpp"

namespace novamd::forces {

class CpuKspaceTerm : public CpuForceTerm {
 public:
  /// Without `real_space` (null) the reciprocal sum, self energy and background alone.
  CpuKspaceTerm(std::unique_ptr<CpuForceTerm> real_space, const CoulombSettings& settings,
                const core::UnitSystem& units);

  void add_to(const core::ParticleData& particles, const core::Box& box,
              neighbors::ForceBuffers& out, bool with_energy) final;
  /// The real space's parts (Lennard-Jones first, where it shares the pass); the reciprocal sum
  /// belongs to the last, the Coulomb part.
  int parts() const final { return real_ ? real_->parts() : 1; }
  void add_part_to(int part, const core::ParticleData& particles, const core::Box& box,
                   neighbors::ForceBuffers& out, bool with_energy) final;
  std::int64_t list_builds() const final { return real_ ? real_->list_builds() : 0; }
  void invalidate_lists() final {
    if (real_) real_->invalidate_lists();
  }
  void follow_box(const core::Box& box) final {
    if (real_) real_->follow_box(box);
  }
  neighbors::NeighborState neighbor_state() const final {
    return real_ ? real_->neighbor_state() : neighbors::NeighborState{};
  }
  void restore_neighbors(const neighbors::NeighborState& state, const core::ParticleData& p,
                         const core::Box& box) final {
    if (real_) real_->restore_neighbors(state, p, box);
  }
  /// The real space's targets and the reciprocal sum's (where it splits over ranks).
  bool restrict_targets(std::size_t begin, std::size_t end) final;
  void share_over_ranks(RankSum sum) final { rank_sum_ = std::move(sum); }
  bool lists_due(const core::ParticleData& particles, const core::Box& box) const final {
    return real_ && real_->lists_due(particles, box);
  }

 protected:
  /// Whether the reciprocal sum can run on a rank's owned particles, its global part summed over
  /// the ranks (rank_sum()): PME's mesh, the Ewald sum's structure factors.
  virtual bool splits_over_ranks() const { return false; }
  /// The slots whose charges and forces the reciprocal sum takes (every slot unrestricted),
  /// bounded by `n`.
  std::pair<std::size_t, std::size_t> targets(std::size_t n) const {
    return {std::min(targets_.first, n), std::min(targets_.second, n)};
  }
  /// Sums a mesh over the ranks (nothing unrestricted or on one rank).
  void rank_sum(double* data, std::size_t count) const {
    if (rank_sum_) rank_sum_(data, count);
  }
  /// The reciprocal sum's forces, and with `with_energy` each particle's energy share; returns
  /// the reciprocal virial tensor (only with `with_energy`).
  virtual core::SymmetricTensor<double> add_reciprocal(const core::ParticleData& particles,
                                                       const core::Box& box,
                                                       neighbors::ForceBuffers& out,
                                                       bool with_energy) = 0;
  double coulomb_factor() const { return k_; }  ///< k_e / dielectric
  double alpha() const { return alpha_; }

 private:
  /// Self energy to each particle; the background's energy and the reciprocal virial spread
  /// evenly over the particles.
  void add_reciprocal_and_constants(const core::ParticleData& particles, const core::Box& box,
                                    neighbors::ForceBuffers& out, bool with_energy);
  void add_constant_terms(const std::vector<double>& q, double volume,
                          const core::SymmetricTensor<double>& reciprocal_virial,
                          neighbors::ForceBuffers& out) const;

  std::unique_ptr<CpuForceTerm> real_;
  double k_, alpha_;
  std::pair<std::size_t, std::size_t> targets_{0, SIZE_MAX};
  RankSum rank_sum_;
};

/// `real_space` (or null: the reciprocal, self and background terms alone) with the reciprocal
/// sum of `settings` (method ewald: alpha and the wave vectors resolved; kspace_parameters.hpp).
std::unique_ptr<CpuForceTerm> make_cpu_ewald_term(std::unique_ptr<CpuForceTerm> real_space,
                                                  const CoulombSettings& settings,
                                                  const core::UnitSystem& units);

/// The same with the PME reciprocal sum (method pme: alpha and the grid resolved).
std::unique_ptr<CpuForceTerm> make_cpu_pme_term(std::unique_ptr<CpuForceTerm> real_space,
                                                const CoulombSettings& settings,
                                                const core::UnitSystem& units);

}  // namespace novamd::forces
