#include "novamd/forces/cpu_force_term.hpp"

#include <cstdint>
#include <string>
#include <utility>

#include "novamd/core/error.hpp"
#include "novamd/forces/cpu_kspace_term.hpp"
#include "novamd/forces/pair_sum_terms.hpp"
#include "novamd/neighbors/all_pairs_cpu.hpp"
#include "novamd/neighbors/cell_list_cpu.hpp"
#include "novamd/neighbors/excluded_rows.hpp"
#include "novamd/neighbors/neighbor_list_cpu.hpp"

namespace novamd::forces {
namespace {

using neighbors::NeighborMethod;

/// A pair force: Evaluator in PairT arithmetic, sums in AccT, over the chosen traversal. A sum
/// of two potentials (physics::PairSum, pair_sum_terms.hpp) runs over its Verlet list only (the
/// CPU's lists serve any box), each potential's energy its own part.
template <class Evaluator, class AccT>
class CpuPairForce final : public CpuForceTerm {
 public:
  static constexpr int kParts = physics::parts_of<Evaluator>();

  CpuPairForce(physics::PairTable<typename Evaluator::Params> table, NeighborMethod method,
               double cutoff, double skin, std::int64_t check_every,
               std::optional<neighbors::PairBlock> block, const core::ExclusionLists* exclusions)
      : table_(std::move(table)),
        method_(method),
        cutoff_(cutoff),
        skin_(skin),
        check_every_(check_every),
        list_(cutoff, skin),
        block_(block),
        exclusions_(exclusions) {
    exclude_in(list_);
  }

  void add_to(const core::ParticleData& particles, const core::Box& box,
              neighbors::ForceBuffers& out, bool with_energy) override {
    if (with_energy) {
      traverse<true>(particles, box, out);
    } else {
      traverse<false>(particles, box, out);
    }
  }

  int parts() const override { return kParts; }
  /// Part `part` of a PairSum (the list brought up to date by part 0): the sum's forces and the
  /// first potential's energy, then the second's energy; without energy, the sum (part 0 only).
  void add_part_to(int part, const core::ParticleData& particles, const core::Box& box,
                   neighbors::ForceBuffers& out, bool with_energy) override {
    if constexpr (kParts > 1) {
      require_charges(particles);
      if (!with_energy) {
        if (part == 0) traverse<false>(particles, box, out);
      } else if (part == 0) {
        over_list<physics::PairSumEnergyPass<Evaluator, 0>, true>(particles, box, out, true);
      } else {
        over_list<physics::PairSumEnergyPass<Evaluator, 1>, true>(particles, box, out, false);
      }
    } else {
      add_to(particles, box, out, with_energy);
    }
  }

  std::int64_t list_builds() const override { return earlier_builds_ + list_.builds(); }
  void invalidate_lists() override {
    earlier_builds_ += list_.builds();
    list_ = neighbors::VerletList(cutoff_, skin_);
    exclude_in(list_);
  }
  bool restrict_targets(std::size_t begin, std::size_t end) override {
    if (method_ != NeighborMethod::NeighborList || block_) return false;
    targets_ = {begin, end};
    list_.set_targets(begin, end);
    return true;
  }
  bool lists_due(const core::ParticleData& particles, const core::Box& box) const override {
    return method_ == NeighborMethod::NeighborList && list_.due(particles, box);
  }
  void follow_box(const core::Box& box) override { list_.follow_box(box); }
  neighbors::NeighborState neighbor_state() const override {
    return {calls_, list_builds(), list_.built_at(), list_.built_box()};
  }
  void restore_neighbors(const neighbors::NeighborState& state, const core::ParticleData& particles,
                         const core::Box& box) override {
    calls_ = state.calls;
    earlier_builds_ = 0;
    list_ = neighbors::VerletList(cutoff_, skin_);
    exclude_in(list_);
    if (state.built_at.size() > 0 && method_ == NeighborMethod::NeighborList) {
      list_.restore(particles, state.built_at, state.builds, state.built_box, box);
    } else {
      earlier_builds_ = state.builds;
    }
  }

 private:
  void exclude_in(neighbors::VerletList& list) const {
    list.set_targets(targets_.first, targets_.second);
    if (exclusions_)
      list.set_exclusions(exclusions_->offsets.data(), exclusions_->ids.data(),
                          exclusions_->span());
  }

  /// The excluded pairs for the traversals without lists, in the particles' storage order (none
  /// without exclusions, and where the Verlet list leaves them out in its build).
  neighbors::ExcludedRowsView excluded_rows(const core::ParticleData& particles) {
    if (!exclusions_ || (method_ == NeighborMethod::NeighborList && !block_)) return {};
    rows_.update({exclusions_->offsets.data(), exclusions_->ids.data(), nullptr},
                 particles.id.data(), particles.size());
    return rows_.view();
  }

  void require_charges(const core::ParticleData& particles) const {
    if constexpr (physics::kReadsCharges<Evaluator>) {
      if (particles.charge.size() != particles.size())
        throw core::InputError(
            "a pair term scaled by per-particle charges needs the particles' "
            "charges (the `charge` field)");
    }
  }

  /// E (the evaluator or one part of it) over the Verlet list; with `update`, the list is
  /// checked first, every check_every calls, and whenever the particle count changed (a list
  /// built for other particles must not be traversed).
  template <class E, bool WithEnergy>
  void over_list(const core::ParticleData& particles, const core::Box& box,
                 neighbors::ForceBuffers& out, bool update) {
    if (update && (calls_++ % check_every_ == 0 || list_.check_due() || list_.builds() == 0 ||
                   list_.built_at().size() != particles.size()))
      list_.update(particles, box);
    neighbors::neighbor_list_cpu<E, AccT, WithEnergy>(particles, box.view<double>(), table_.view(),
                                                      list_, out);
  }

  template <bool WithEnergy>
  void traverse(const core::ParticleData& particles, const core::Box& box,
                neighbors::ForceBuffers& out) {
    require_charges(particles);
    if constexpr (kParts > 1) {
      over_list<Evaluator, WithEnergy>(particles, box, out, true);
    } else {
      traverse_one_potential<WithEnergy>(particles, box, out);
    }
  }

  template <bool WithEnergy>
  void traverse_one_potential(const core::ParticleData& particles, const core::Box& box,
                              neighbors::ForceBuffers& out) {
    const auto view = box.view<double>();
    const auto excluded = excluded_rows(particles);
    if (block_) {
      neighbors::all_pairs_cpu<Evaluator, AccT, WithEnergy>(particles, view, table_.view(), out,
                                                            *block_);
      return;
    }
    switch (method_) {
      case NeighborMethod::CellList:
        grid_.build(particles, box, cutoff_);
        neighbors::cell_list_cpu<Evaluator, AccT, WithEnergy>(particles, view, table_.view(), grid_,
                                                              out, excluded);
        return;
      case NeighborMethod::NeighborList:
        over_list<Evaluator, WithEnergy>(particles, box, out, true);
        return;
      default:
        neighbors::all_pairs_cpu<Evaluator, AccT, WithEnergy>(particles, view, table_.view(), out,
                                                              excluded);
    }
  }

  physics::PairTable<typename Evaluator::Params> table_;
  NeighborMethod method_;
  double cutoff_, skin_;
  std::int64_t check_every_;
  std::int64_t calls_ = 0;
  std::int64_t earlier_builds_ = 0;  ///< builds of lists discarded by invalidate_lists
  neighbors::CellGrid grid_;
  neighbors::VerletList list_;
  std::optional<neighbors::PairBlock> block_;  ///< a decomposed run's block: all pairs of it
  const core::ExclusionLists* exclusions_;     ///< pairs the traversals leave out (null: none)
  /// The slots whose lists are built (restrict_targets); every slot by default.
  std::pair<std::size_t, std::size_t> targets_{0, SIZE_MAX};
  neighbors::ExcludedRows rows_;  ///< exclusions_ by storage index (all pairs, cell lists)
};

template <core::Precision P>
std::unique_ptr<CpuForceTerm> make_term(
    const ForceSettings& settings, const core::SpeciesTable& species, const core::UnitSystem& units,
    const neighbors::NeighborSettings& neighbors, double shortest_edge,
    std::optional<neighbors::PairBlock> block, const core::ExclusionLists* exclusions) {
  using PairT = typename core::PrecisionTypes<P>::PairT;
  using AccT = typename core::PrecisionTypes<P>::AccT;
  const double cutoff = cutoff_of(settings);
  if (exclusions && block) throw_excluded_pairs_in_blocks(settings);
  const auto method = neighbors::resolve_method(neighbors, cutoff, shortest_edge);
  auto term = with_evaluator<PairT>(
      settings, species, units, [&]<class Evaluator>(auto table) -> std::unique_ptr<CpuForceTerm> {
        return std::make_unique<CpuPairForce<Evaluator, AccT>>(
            std::move(table), block ? NeighborMethod::AllPairs : method, cutoff,
            neighbors.skin_for(cutoff, shortest_edge), neighbors.check_every, block, exclusions);
      });
  const auto* coulomb = std::get_if<CoulombSettings>(&settings);
  if (coulomb && coulomb->ewald_split()) {
    if (block)
      throw core::InputError(
          "forces.coulomb: methods ewald and pme do not run in a force-matrix decomposition "
          "(parallel.grid); run them on one rank");
    if (coulomb->method == CoulombMethod::Pme)
      return make_cpu_pme_term(std::move(term), *coulomb, units);
    return make_cpu_ewald_term(std::move(term), *coulomb, units);
  }
  return term;
}

template <core::Precision P>
std::unique_ptr<CpuForceTerm> make_lj_coulomb_term(const LennardJonesSettings& lj,
                                                   const CoulombSettings& coulomb,
                                                   const core::SpeciesTable& species,
                                                   const core::UnitSystem& units,
                                                   const neighbors::NeighborSettings& neighbors,
                                                   double shortest_edge,
                                                   const core::ExclusionLists* exclusions) {
  using PairT = typename core::PrecisionTypes<P>::PairT;
  using AccT = typename core::PrecisionTypes<P>::AccT;
  const double cutoff = lj.cutoff;
  auto term = with_lj_coulomb_sum<PairT>(
      lj, coulomb, species, units, [&]<class Sum>(auto table) -> std::unique_ptr<CpuForceTerm> {
        return std::make_unique<CpuPairForce<Sum, AccT>>(
            std::move(table), NeighborMethod::NeighborList, cutoff,
            neighbors.skin_for(cutoff, shortest_edge), neighbors.check_every, std::nullopt,
            exclusions);
      });
  if (coulomb.method == CoulombMethod::Pme)
    return make_cpu_pme_term(std::move(term), coulomb, units);
  return make_cpu_ewald_term(std::move(term), coulomb, units);
}

}  // namespace

std::unique_ptr<CpuForceTerm> make_cpu_lj_coulomb_force(
    const LennardJonesSettings& lj, const CoulombSettings& coulomb,
    const core::SpeciesTable& species, const core::UnitSystem& units, core::Precision precision,
    const neighbors::NeighborSettings& neighbors, double shortest_edge,
    const core::ExclusionLists* exclusions) {
  switch (precision) {
    case core::Precision::Double:
      return make_lj_coulomb_term<core::Precision::Double>(lj, coulomb, species, units, neighbors,
                                                           shortest_edge, exclusions);
    case core::Precision::Mixed:
      return make_lj_coulomb_term<core::Precision::Mixed>(lj, coulomb, species, units, neighbors,
                                                          shortest_edge, exclusions);
    case core::Precision::Single:
      return make_lj_coulomb_term<core::Precision::Single>(lj, coulomb, species, units, neighbors,
                                                           shortest_edge, exclusions);
  }
  return nullptr;
}

void throw_excluded_pairs_in_blocks(const ForceSettings& settings) {
  const std::string name = std::visit([](const auto& s) { return std::string(s.kName); }, settings);
  throw core::InputError("forces." + name +
                         ": the system has excluded pairs (bonds), which the force-matrix "
                         "decomposition (parallel.grid) does not leave out; run it on one rank");
}

std::unique_ptr<CpuForceTerm> make_cpu_force_term(
    const ForceSettings& settings, const core::SpeciesTable& species, const core::UnitSystem& units,
    core::Precision precision, const neighbors::NeighborSettings& neighbors, double shortest_edge,
    std::optional<neighbors::PairBlock> block, const core::ExclusionLists* exclusions) {
  switch (precision) {
    case core::Precision::Double:
      return make_term<core::Precision::Double>(settings, species, units, neighbors, shortest_edge,
                                                block, exclusions);
    case core::Precision::Mixed:
      return make_term<core::Precision::Mixed>(settings, species, units, neighbors, shortest_edge,
                                               block, exclusions);
    case core::Precision::Single:
      return make_term<core::Precision::Single>(settings, species, units, neighbors, shortest_edge,
                                                block, exclusions);
  }
  return nullptr;
}

}  // namespace novamd::forces
