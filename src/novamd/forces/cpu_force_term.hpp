#pragma once
/// @file cpu_force_term.hpp
/// Force terms of the CPU backend: an evaluator bound to a traversal (all pairs, cell list or
/// Verlet list), built from its settings.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "novamd/core/box.hpp"
#include "novamd/core/particles.hpp"
#include "novamd/core/precision.hpp"
#include "novamd/core/topology.hpp"
#include "novamd/forces/force_settings.hpp"
#include "novamd/neighbors/force_buffers.hpp"
#include "novamd/neighbors/neighbor_settings.hpp"
#include "novamd/neighbors/neighbor_state.hpp"
#include "novamd/neighbors/pair_block.hpp"

namespace novamd::forces {

/// Sums `count` doubles at `data` element-wise over the ranks of a decomposed run, in place,
/// every rank receiving the same bits (a spatial decomposition's grid sums).
using RankSum = std::function<void(double* data, std::size_t count)>;

class CpuForceTerm {
 public:
  virtual ~CpuForceTerm() = default;
  /// Adds this term's forces to `out`, and with `with_energy` its energy and virial tensor
  /// shares (rebuilding neighbour data first where it is due).
  virtual void add_to(const core::ParticleData& particles, const core::Box& box,
                      neighbors::ForceBuffers& out, bool with_energy) = 0;
  /// Energy parts: Lennard-Jones and real-space Coulomb in one pass (pair_sum_terms.hpp) report
  /// each potential's energy apart. On energy steps the backend calls add_part_to for each part
  /// and sums the energy after each; add_to gives the same forces to round-off.
  virtual int parts() const { return 1; }
  virtual void add_part_to(int /*part*/, const core::ParticleData& particles, const core::Box& box,
                           neighbors::ForceBuffers& out, bool with_energy) {
    add_to(particles, box, out, with_energy);
  }
  /// Neighbour-list builds so far (0 for other traversals).
  virtual std::int64_t list_builds() const { return 0; }
  /// The particles were reordered in memory: lists kept between calls are stale.
  virtual void invalidate_lists() {}
  /// The box is now `box`, the positions scaled with its edges (a barostat's move): lists
  /// follow it where they can (neighbors::VerletList::follow_box), else are built again.
  virtual void follow_box(const core::Box&) { invalidate_lists(); }
  /// A spatial decomposition's owned slots [begin, end): forces are needed there only, and the
  /// term computes them there alone from its next list build on (the other slots get zero).
  /// False where the term cannot (it has no per-target lists); the caller refuses the run.
  virtual bool restrict_targets(std::size_t /*begin*/, std::size_t /*end*/) { return false; }
  /// The sum over ranks that a restricted term's global parts (a mesh of charges) go through.
  virtual void share_over_ranks(RankSum /*sum*/) {}
  /// Whether the term would rebuild its neighbour data at an evaluation of `particles` now.
  virtual bool lists_due(const core::ParticleData&, const core::Box&) const { return false; }
  /// What the term keeps between evaluations (for a checkpoint).
  virtual neighbors::NeighborState neighbor_state() const { return {}; }
  /// Continues from a saved state (the particles in the storage order they had then).
  virtual void restore_neighbors(const neighbors::NeighborState&, const core::ParticleData&,
                                 const core::Box&) {}
};

/// The CPU force term for `settings` at `precision` (pair table built for the species), with the
/// traversal `neighbors` resolves to in a box whose shortest edge is `shortest_edge`; or, given
/// a `block` of the force matrix (a decomposed run), all pairs of the block under the
/// evaluator's cutoff, without lists. With `exclusions` (kept alive by the caller), every
/// traversal leaves the excluded pairs out (all pairs and cell lists as they visit them, Verlet
/// lists in their build); a block with exclusions is an InputError.
std::unique_ptr<CpuForceTerm> make_cpu_force_term(
    const ForceSettings& settings, const core::SpeciesTable& species, const core::UnitSystem& units,
    core::Precision precision, const neighbors::NeighborSettings& neighbors, double shortest_edge,
    std::optional<neighbors::PairBlock> block = std::nullopt,
    const core::ExclusionLists* exclusions = nullptr);

/// Lennard-Jones and the real-space Coulomb of an Ewald split in one pass over one Verlet list
/// (physics::PairSum; the caller checked forces::lj_coulomb_pass_at), wrapped with the Coulomb
/// term's reciprocal sum; energy parts: Lennard-Jones, then Coulomb.
std::unique_ptr<CpuForceTerm> make_cpu_lj_coulomb_force(
    const LennardJonesSettings& lj, const CoulombSettings& coulomb,
    const core::SpeciesTable& species, const core::UnitSystem& units, core::Precision precision,
    const neighbors::NeighborSettings& neighbors, double shortest_edge,
    const core::ExclusionLists* exclusions);

/// Throws the core::InputError, naming the term, of a system with excluded pairs in a
/// force-matrix decomposition, whose blocks do not leave them out.
[[noreturn]] void throw_excluded_pairs_in_blocks(const ForceSettings& settings);

}  // namespace novamd::forces
