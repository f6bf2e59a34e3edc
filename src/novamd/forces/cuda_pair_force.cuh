#pragma once
/// @file cuda_pair_force.cuh
/// The CUDA pair force: an evaluator bound to the CUDA traversals (all pairs, cell lists,
/// Verlet lists, force-matrix blocks), and the definition of make_cuda_pair_force. Included only
/// by the generated per-family units (forces/cuda_pair_force.cu.in): each unit instantiates the
/// kernels of one evaluator family at one precision.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "novamd/core/error.hpp"
#include "novamd/forces/cpu_force_term.hpp"
#include "novamd/forces/cuda_force_term.cuh"
#include "novamd/neighbors/all_pairs_cuda.cuh"
#include "novamd/neighbors/all_pairs_half_cuda.cuh"
#include "novamd/neighbors/cell_list_cuda.cuh"
#include "novamd/neighbors/cluster_pair_force_cuda.cuh"
#include "novamd/neighbors/cluster_pairs_cuda.cuh"
#include "novamd/neighbors/excluded_rows_cuda.cuh"
#include "novamd/neighbors/neighbor_list_cuda.cuh"
#include "novamd/neighbors/neighbor_list_force_cuda.cuh"
#include "novamd/physics/pair_sum.hpp"
#include "novamd/physics/type_records.hpp"

namespace novamd::forces {

/// A pair force over all pairs, cell lists or Verlet lists: the evaluator's parameter table
/// lives on the device. Verlet lists take the layout `neighbors.layout` names: a list per
/// particle (each pair twice, no scattered sums) or cluster pairs (each pair once, the
/// reactions in fixed point). With excluded pairs (a system with bonds), every traversal leaves
/// them out: the Verlet lists in their build, all pairs and cell lists as they visit the sources.
///
/// A sum of two potentials (physics::PairSum: Lennard-Jones and real-space Coulomb of one
/// cutoff) runs in one pass over one Verlet list, and reports each potential's energy as its
/// own part; where the box does not hold a list's cells, the two `separate` terms (set by
/// set_separate_terms) run instead, each over its own traversal.
template <class Evaluator, class AccT>
class CudaPairForce final : public CudaForceTerm<typename Evaluator::Real> {
 public:
  using PairT = typename Evaluator::Real;
  static constexpr int kParts = physics::parts_of<Evaluator>();

  CudaPairForce(const physics::PairTable<typename Evaluator::Params>& table,
                neighbors::NeighborMethod method, double cutoff, double skin,
                std::int64_t check_every, neighbors::ListLayout layout, bool excluded_pairs)
      : num_types_(table.num_types()),
        method_(method),
        layout_(layout),
        cutoff_(cutoff),
        skin_(skin),
        check_every_(check_every),
        excluded_pairs_(excluded_pairs) {
    const auto entries = entries_on_device(table);
    table_.copy_from_host(entries, nullptr);
    keep_type_records(table);
    // Kernels run on non-blocking streams, which do not wait for the legacy default stream.
    NOVAMD_CUDA_CHECK(cudaStreamSynchronize(nullptr));
  }

  /// A PairSum's two potentials as terms of their own, for the traversals other than lists.
  void set_separate_terms(std::unique_ptr<CudaForceTerm<PairT>> first,
                          std::unique_ptr<CudaForceTerm<PairT>> second) {
    separate_[0] = std::move(first);
    separate_[1] = std::move(second);
  }

  int parts() const override { return kParts; }
  /// Over per-particle Verlet lists only (a spatial decomposition's backend asks for them), in
  /// a box that holds three cells of their reach along each edge.
  bool restricts_targets(int n, const core::Box& box) const override {
    return method_ == neighbors::NeighborMethod::NeighborList &&
           layout_ != neighbors::ListLayout::Clusters &&
           traversal(n, box) == neighbors::NeighborMethod::NeighborList;
  }
  bool lists_due(const CudaForceInput<PairT>& in, cudaStream_t stream) override {
    return !list_ || list_->due(in.positions, in.n, in.host_box, stream);
  }
  std::int64_t list_builds() const override {
    std::int64_t builds = (list_ ? list_->builds() : 0) + (clusters_ ? clusters_->builds() : 0);
    for (const auto& term : separate_)
      if (term) builds += term->list_builds();
    return builds;
  }
  void invalidate_lists() override {
    if (list_) list_->invalidate();
    if (clusters_) clusters_->invalidate();
    rows_.invalidate();
    for (const auto& term : separate_)
      if (term) term->invalidate_lists();
  }
  void follow_box(const core::Box& box, cudaStream_t stream) override {
    if (list_) list_->follow_box(box, stream);
    if (clusters_) clusters_->follow_box(box, stream);
    for (const auto& term : separate_)
      if (term) term->follow_box(box, stream);
  }
  std::size_t bytes() const override {
    std::size_t held = table_.bytes() + knots_.bytes() + records_.bytes() +
                       (list_ ? list_->bytes() : 0) + (clusters_ ? clusters_->bytes() : 0) +
                       fixed_.bytes() + cells_.bytes() + partial_bytes() + rows_.bytes();
    for (const auto& term : separate_)
      if (term) held += term->bytes();
    return held;
  }

  neighbors::NeighborState neighbor_state(cudaStream_t stream) const override {
    neighbors::NeighborState state{calls_, list_builds(), {}};
    if (list_) {
      state.built_at = list_->built_at_on_host(stream);
      state.built_box = list_->built_box();
    }
    if (clusters_) {
      state.built_at = clusters_->built_at_on_host(stream);
      state.built_box = clusters_->built_box();
    }
    return state;
  }
  void restore_neighbors(const neighbors::NeighborState& state,
                         const neighbors::PairPosition<PairT>* built_at,
                         const CudaForceInput<PairT>& in, cudaStream_t stream) override {
    calls_ = state.calls;
    list_.reset();
    clusters_.reset();
    rows_.invalidate();
    if (state.built_at.size() == 0 ||
        traversal(in.n, in.host_box) != neighbors::NeighborMethod::NeighborList)
      return;
    const auto restore = [&](auto& list) {
      list.set_exclusions(exclusion_view(in));
      list.restore(built_at, in.n, state.built_box, in.host_box, state.builds, stream);
    };
    if (layout_ == neighbors::ListLayout::Clusters) {
      restore(clusters_.emplace(cutoff_, skin_, in.resident_threads));
    } else {
      auto& list =
          list_.emplace(cutoff_, skin_, neighbors::lanes_per_target(in.n, in.resident_threads));
      list.set_targets(in.target_begin, in.target_end);
      restore(list);
    }
  }

  void add_to(const CudaForceInput<PairT>& in, neighbors::ForceOutputView out,
              neighbors::OutputMode mode, cudaStream_t stream) override {
    if (in.n == 0) return;
    if (physics::kReadsCharges<Evaluator> && in.fields.charge == nullptr)
      throw core::InputError(
          "a pair term scaled by per-particle charges needs the particles' "
          "charges (the `charge` field)");
    if (in.target_end >= 0 &&
        traversal(in.n, in.host_box) != neighbors::NeighborMethod::NeighborList)
      throw core::RunError(
          "the box no longer holds three cells of the Verlet lists' reach along each edge, "
          "which a spatial decomposition's lists need; run it on one GPU");
    if (in.block && excluded_pairs_)  // refused before (backend::has_excluded_pairs)
      throw core::RunError(
          "the system has excluded pairs (bonds), which the force-matrix blocks do not leave out");
    if constexpr (kParts > 1) {
      if (!in.block && traversal(in.n, in.host_box) == neighbors::NeighborMethod::NeighborList) {
        add_over_list<Evaluator>(in, out, mode, stream);
      } else {
        add_separately(in, out, mode, stream);
      }
    } else {
      add_one_potential(in, out, mode, stream);
    }
  }

  /// Part `part` of a PairSum over the list (the list brought up to date by part 0): the sum's
  /// forces and the first potential's energy, then the second's energy; the whole term for
  /// other evaluators.
  void add_part_to(int part, const CudaForceInput<PairT>& in, neighbors::ForceOutputView out,
                   neighbors::OutputMode mode, cudaStream_t stream) override {
    if constexpr (kParts > 1) {
      if (in.n == 0) return;
      if (in.block || traversal(in.n, in.host_box) != neighbors::NeighborMethod::NeighborList) {
        separate(part).add_to(in, out, mode, stream);
        return;
      }
      if (part == 0) {
        add_over_list<physics::PairSumEnergyPass<Evaluator, 0>>(in, out, mode, stream);
      } else {
        add_over_list<physics::PairSumEnergyPass<Evaluator, 1>>(in, out, mode, stream);
      }
    } else {
      add_to(in, out, mode, stream);
    }
  }

 private:
  /// One potential (not a PairSum) over the traversal of this box, or a decomposed run's block.
  void add_one_potential(const CudaForceInput<PairT>& in, neighbors::ForceOutputView out,
                         neighbors::OutputMode mode, cudaStream_t stream) {
    if (in.block && in.block_range > 0) {  // decomposed: each pair once over the ranks
      const auto& b = *in.block;
      const auto r = static_cast<std::ptrdiff_t>(in.block_range);
      const neighbors::RangeBlock ranges{
          static_cast<int>(b.target_begin / r), static_cast<int>((b.target_end + r - 1) / r),
          static_cast<int>(b.source_begin / r), static_cast<int>((b.source_end + r - 1) / r)};
      neighbors::all_pairs_half_block_cuda<Evaluator, AccT>(
          in.positions, in.n, in.block_range, ranges, block_pairs_, in.box, table_.data(),
          num_types_, in.fields.charge, partial_, out, mode, stream);
      return;
    }
    if (in.block) {  // a decomposed run: all pairs of the block, cutoff tested
      const auto& b = *in.block;
      const int chunk_length = neighbors::choose_block_chunk_length(
          static_cast<int>(b.target_end - b.target_begin),
          static_cast<int>(b.source_end - b.source_begin), in.multiprocessors);
      neighbors::all_pairs_cuda<Evaluator, AccT>(in.positions, b, in.box, table_.data(), num_types_,
                                                 in.fields.charge, chunk_length, partial_, out,
                                                 mode, stream);
      return;
    }
    add_over(traversal(in.n, in.host_box), in, out, mode, stream);
  }

  /// The Verlet lists in their layout, checked (and rebuilt where due) once per evaluation: by
  /// the whole evaluator's pass, or by part 0 of a PairSum.
  template <class E>
  void add_over_list(const CudaForceInput<PairT>& in, neighbors::ForceOutputView out,
                     neighbors::OutputMode mode, cudaStream_t stream) {
    if (layout_ == neighbors::ListLayout::Clusters) {
      if (!clusters_) clusters_.emplace(cutoff_, skin_, in.resident_threads);
      keep_current<E>(*clusters_, in, mode, stream, [&] {
        const auto pairs_over_clusters = [&](const auto& pairs) {
          neighbors::cluster_pair_force_cuda<E>(in.positions, in.n, in.box, pairs, in.fields.charge,
                                                clusters_->view(), fixed_, out, mode, stream);
        };
        if constexpr (kMayReadRecords) {
          if (records_common_) {
            pairs_over_clusters(
                neighbors::RecordPairs<Evaluator>{records_.data(), num_types_, *records_common_});
            return;
          }
        }
        pairs_over_clusters(neighbors::TablePairs<Evaluator>{table_.data(), num_types_});
      });
      return;
    }
    if (!list_)
      list_.emplace(cutoff_, skin_, neighbors::lanes_per_target(in.n, in.resident_threads));
    list_->set_targets(in.target_begin, in.target_end);
    keep_current<E>(*list_, in, mode, stream, [&] {
      neighbors::neighbor_list_force_cuda<E>(in.positions, in.n, in.box, table_.data(), num_types_,
                                             in.fields.charge, list_->view(), out, mode, stream);
    });
  }

  /// Calls `evaluate` over `list` brought up to date (the first pass of an evaluation), or
  /// over the list as it is (the second energy pass of a PairSum).
  template <class E, class List, class Evaluate>
  void keep_current(List& list, const CudaForceInput<PairT>& in, neighbors::OutputMode mode,
                    cudaStream_t stream, Evaluate&& evaluate) {
    if constexpr (std::is_same_v<E, physics::PairSumEnergyPass<Evaluator, 1>>) {
      evaluate();
    } else {
      list.set_exclusions(exclusion_view(in));
      list.evaluate_current(in.positions, in.n, in.host_box, calls_++ % check_every_ == 0,
                            !mode.accumulate, stream, evaluate);
    }
  }

  /// A PairSum's potentials one after the other, each over its own traversal.
  void add_separately(const CudaForceInput<PairT>& in, neighbors::ForceOutputView out,
                      neighbors::OutputMode mode, cudaStream_t stream) {
    separate(0).add_to(in, out, mode, stream);
    separate(1).add_to(in, out, {true, mode.with_energy}, stream);
  }
  CudaForceTerm<PairT>& separate(int part) const {
    if (!separate_[part])
      throw std::logic_error("a pair sum outside Verlet lists needs its separate terms");
    return *separate_[part];
  }

  /// The evaluator over `method` (not a PairSum: those run over lists only).
  void add_over(neighbors::NeighborMethod method, const CudaForceInput<PairT>& in,
                neighbors::ForceOutputView out, neighbors::OutputMode mode, cudaStream_t stream) {
    const int lanes = neighbors::lanes_per_target(in.n, in.resident_threads);
    switch (method) {
      case neighbors::NeighborMethod::NeighborList:
        add_over_list<Evaluator>(in, out, mode, stream);
        return;
      case neighbors::NeighborMethod::CellList:
        neighbors::cell_list_force_cuda<Evaluator>(
            in.positions, in.n, in.host_box, in.box, table_.data(), num_types_, in.fields.charge,
            cutoff_, lanes, cells_, out, mode, stream, excluded_rows(in, stream));
        return;
      default:
        add_all_pairs(in, out, mode, stream);
    }
  }

  /// The topology's excluded pairs, with the ids of the storage order `in` holds (none: a
  /// default view).
  neighbors::ExclusionView exclusion_view(const CudaForceInput<PairT>& in) const {
    if (!excluded_pairs_) return {};
    return {in.fields.topology.exclusion_offsets, in.fields.topology.exclusion_ids, in.fields.id,
            in.fields.topology.exclusion_span};
  }

  /// The topology's excluded pairs by storage index, for the traversals without lists (none: a
  /// default view), rebuilt after a reorder.
  neighbors::ExcludedRowsView excluded_rows(const CudaForceInput<PairT>& in, cudaStream_t stream) {
    if (!excluded_pairs_) return {};
    return rows_.update(in.fields.topology, in.fields.id, in.n, stream);
  }

  /// The traversal for n particles in `box`: cell and Verlet lists visit the 27 cells around a
  /// particle's cell, so they need 3 cells per axis in the grid that the particle count allows
  /// (a dilute system's grid is capped, cell_dimensions.hpp); else all pairs.
  neighbors::NeighborMethod traversal(int n, const core::Box& box) const {
    if (method_ == neighbors::NeighborMethod::AllPairs) return method_;
    const double cell = method_ == neighbors::NeighborMethod::CellList ? cutoff_ : cutoff_ + skin_;
    return neighbors::holds_three_cells(box, cell, static_cast<std::size_t>(n))
               ? method_
               : neighbors::NeighborMethod::AllPairs;
  }

  /// Each pair once where there are enough range pairs to fill the GPU; for small systems the
  /// chunked full matrix keeps more multiprocessors busy.
  void add_all_pairs(const CudaForceInput<PairT>& in, neighbors::ForceOutputView out,
                     neighbors::OutputMode mode, cudaStream_t stream) {
    const int range = neighbors::half_kernel_range(in.n, in.multiprocessors);
    const auto excluded = excluded_rows(in, stream);
    if (range > 0) {
      neighbors::all_pairs_half_cuda<Evaluator, AccT>(
          in.positions, in.n, range, range_pairs_, in.box, table_.data(), num_types_,
          in.fields.charge, partial_, out, mode, stream, excluded);
      return;
    }
    const int chunk_length = neighbors::choose_chunk_length(in.n, in.multiprocessors);
    neighbors::all_pairs_cuda<Evaluator, AccT>(in.positions, in.n, in.box, table_.data(),
                                               num_types_, in.fields.charge, chunk_length, partial_,
                                               out, mode, stream, excluded);
  }
  std::size_t partial_bytes() const { return partial_.bytes(); }

  /// The table's entries as the kernels read them: where they point into knots (a tabulated
  /// potential, physics/tabulated.hpp), the knots are copied to the device once and each entry
  /// points into that copy.
  std::vector<typename Evaluator::Params> entries_on_device(
      const physics::PairTable<typename Evaluator::Params>& table) {
    std::vector<typename Evaluator::Params> entries = table.data();
    if constexpr (requires(typename Evaluator::Params p) { p.knots; }) {
      std::vector<PairT> knots;
      std::vector<std::pair<const PairT*, std::size_t>> placed;  // host knots -> offset
      std::vector<std::size_t> offset(entries.size());
      for (std::size_t e = 0; e < entries.size(); ++e) {
        const PairT* host = entries[e].knots;
        auto it = std::find_if(placed.begin(), placed.end(),
                               [&](const auto& p) { return p.first == host; });
        if (it == placed.end()) {
          placed.emplace_back(host, knots.size());
          if (host) knots.insert(knots.end(), host, host + entries[e].values());
          it = placed.end() - 1;
        }
        offset[e] = it->second;
      }
      knots_.copy_from_host(knots, nullptr);
      NOVAMD_CUDA_CHECK(cudaStreamSynchronize(nullptr));  // the host knots go out of scope
      for (std::size_t e = 0; e < entries.size(); ++e)
        if (entries[e].knots) entries[e].knots = knots_.data() + offset[e];
    }
    return entries;
  }

  /// Records per type in place of the table for the cluster kernel (physics/type_records.hpp),
  /// where the evaluator has them, the lists are cluster pairs, the pair arithmetic is single
  /// precision and the table follows the records to within their rounding
  /// (TypeRecords::kTolerance); double precision reads the table's entries as they are.
  static constexpr bool kMayReadRecords =
      physics::TypeRecords<Evaluator>::kAvailable && std::is_same_v<PairT, float>;
  void keep_type_records(const physics::PairTable<typename Evaluator::Params>& table) {
    if constexpr (kMayReadRecords) {
      if (layout_ != neighbors::ListLayout::Clusters) return;
      if (auto records = physics::TypeRecords<Evaluator>::from_table(table, cutoff_)) {
        records_.copy_from_host(records->first, nullptr);
        records_common_ = records->second;
        NOVAMD_CUDA_CHECK(cudaStreamSynchronize(nullptr));  // the host records go out of scope
      }
    }
  }

  int num_types_;
  neighbors::NeighborMethod method_;
  neighbors::ListLayout layout_;
  double cutoff_, skin_;
  std::int64_t check_every_;
  std::int64_t calls_ = 0;
  core::DeviceBuffer<typename Evaluator::Params> table_;
  core::DeviceBuffer<PairT> knots_;  ///< a tabulated potential's knots (entries_on_device)
  /// The cluster kernel's records per type and what every pair shares (keep_type_records).
  using Records = physics::TypeRecords<Evaluator>;
  core::DeviceBuffer<typename Records::Record> records_;
  std::optional<typename Records::Common> records_common_;
  neighbors::PartialSums<AccT> partial_;
  neighbors::RangePairs range_pairs_;
  neighbors::BlockRangePairs block_pairs_;  ///< a decomposed run's range pairs
  neighbors::DeviceCellBins cells_;
  std::optional<neighbors::DeviceVerletList<PairT>> list_;
  std::optional<neighbors::DeviceClusterPairs<PairT>> clusters_;  ///< the layout `clusters`
  neighbors::DeviceFixedForces fixed_;  ///< the cluster kernel's fixed-point accumulators
  neighbors::DeviceExcludedRows rows_;  ///< the exclusions by storage index (all pairs, cells)
  bool excluded_pairs_;                 ///< every traversal leaves out the topology's exclusions
  /// A PairSum's potentials as terms of their own (set_separate_terms), where lists do not fit.
  std::unique_ptr<CudaForceTerm<PairT>> separate_[2];
};

template <core::Precision P, class Settings>
std::unique_ptr<CudaForceTerm<PairTypeOf<P>>> make_cuda_pair_force(
    const Settings& settings, const core::SpeciesTable& species, const core::UnitSystem& units,
    const neighbors::NeighborSettings& neighbors, const core::Box& box, bool excluded_pairs) {
  using PairT = typename core::PrecisionTypes<P>::PairT;
  using AccT = typename core::PrecisionTypes<P>::AccT;
  const double cutoff = settings.cutoff;
  const double skin = neighbors.skin_for(cutoff, box.shortest_edge());
  const auto method = neighbors::resolve_method(neighbors, cutoff, box.shortest_edge());
  return with_evaluator<PairT>(
      settings, species, units,
      [&]<class Evaluator>(const auto& table) -> std::unique_ptr<CudaForceTerm<PairT>> {
        // A config read from YAML arrives resolved; a bench's `auto` resolves here.
        const auto layout = neighbors::resolve_layout(
            neighbors.layout, P == core::Precision::Double, physics::kReadsCharges<Evaluator>);
        return std::make_unique<CudaPairForce<Evaluator, AccT>>(
            table, method, cutoff, skin, neighbors.check_every, layout, excluded_pairs);
      });
}

}  // namespace novamd::forces
