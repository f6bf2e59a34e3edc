#pragma once
/// @file domain.hpp
/// Which particles a rank owns and which it only reads, and the exchanges that keep them
/// current: the one place a backend asks about the decomposition of its run.
///
/// A rank's arrays hold three kinds of particles: those it *owns* (integrates: kicks, drifts,
/// thermostats), its *ghosts* (read by its force terms, owned by another rank) and, where the
/// decomposition keeps them, others that are neither current nor read. Around each force
/// evaluation:
///
///     refresh_ghosts    positions from the owners into the ghosts (forward)
///     force terms       partial forces on owned particles and ghosts
///     complete_forces   the partial forces of every rank summed into each owner's (reverse)
///
/// and for output and checkpoints, `gather` makes every particle current on every rank. Sums
/// over the ranks follow the same split: a quantity of the owned particles (kinetic energy,
/// thermostat heat) sums over `sum_over_owners`, which counts every particle once; the energy
/// and virial shares a force evaluation wrote in energy_ranges() sum over `sum_over_ranks`,
/// which counts every pair once.
///
/// The force matrix (parallel/force_matrix_domain.hpp) is the first implementation: every rank
/// holds every particle in id order, owns its block of targets and reads the sources of its
/// block. The spatial decomposition (parallel/spatial_domain.hpp) is the second: every rank
/// holds every particle too, sorted by brick; it owns those of its brick and reads those within
/// the halo of it, refreshed by shifts between ranks (Communicator::send_receive), with
/// `pair_block` none.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "novamd/core/particles.hpp"
#include "novamd/neighbors/pair_block.hpp"
#include "novamd/parallel/process_grid.hpp"

namespace novamd::parallel {

class Domain {
 public:
  virtual ~Domain() = default;

  // --- which particles ------------------------------------------------------------------------

  /// More than one rank: some of the arrays are not current (those outside owned() and
  /// ghosts() between a force evaluation and a gather).
  virtual bool decomposed() const = 0;
  /// The particles this rank integrates (every particle on one rank).
  virtual IndexRange owned() const = 0;
  /// The particles this rank reads but does not own, in index order, disjoint from owned()
  /// and from each other (none on one rank).
  virtual std::vector<IndexRange> ghosts() const = 0;
  /// The index ranges whose energy and virial shares this rank's force evaluation writes,
  /// without overlap: summed over them and then over every rank, each pair counts once.
  virtual std::vector<IndexRange> energy_ranges() const = 0;
  /// The block of the force matrix whose pairs this rank's force terms evaluate; none: every
  /// pair among the particles it holds (one rank).
  virtual std::optional<neighbors::PairBlock> pair_block() const = 0;
  /// Whether the backend may reorder its particles in memory (along a space-filling curve);
  /// not where the decomposition cuts ranges of ids.
  virtual bool allows_reordering() const = 0;

  // --- sums over the ranks ----------------------------------------------------------------------

  /// values[0 .. count), each a sum over this rank's owned particles, summed in place over
  /// ranks that together own every particle once.
  virtual void sum_over_owners(double* values, std::size_t count) const = 0;
  /// values[0 .. count), each this rank's share (of the energy, the virial), summed in place
  /// over every rank.
  virtual void sum_over_ranks(double* values, std::size_t count) const = 0;
  /// The smallest `value` over every rank (a decision every rank takes alike).
  virtual std::int64_t min_over_ranks(std::int64_t value) const = 0;

  // --- exchanges of host arrays (one entry per particle, in the rank's storage order) -----------

  /// The ghosts' positions from their owners; owned entries keep their bits.
  virtual void refresh_ghosts(core::Vec3Array& position) = 0;
  /// `force` holds this rank's partial forces from its force evaluation; afterwards every
  /// owned particle holds its total force, the same bits on every rank that owns it.
  virtual void complete_forces(core::Vec3Array& force) = 0;
  /// The owners' entries of `values` to every rank: afterwards every entry is current.
  virtual void gather(std::vector<double>& values) = 0;
  /// gather for x, y and z.
  void gather(core::Vec3Array& values);
  /// gather for every present field of `particles` that changes during a run (positions,
  /// velocities, forces, image counts, ...); integer fields travel as doubles (exact).
  void gather_evolving(core::ParticleData& particles);

  /// The number of owned particles.
  std::size_t owned_count() const { return owned().size(); }
};

}  // namespace novamd::parallel
