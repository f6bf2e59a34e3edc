#pragma once
/// @file cuda_force_term.cuh
/// Force terms of the CUDA backend: the same evaluators and settings as the CPU, bound to the
/// CUDA traversal.

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "novamd/core/box.hpp"
#include "novamd/core/precision.hpp"
#include "novamd/forces/force_settings.hpp"
#include "novamd/neighbors/all_pairs_cuda.cuh"
#include "novamd/neighbors/all_pairs_half_cuda.cuh"
#include "novamd/neighbors/cell_list_cuda.cuh"
#include "novamd/neighbors/neighbor_list_cuda.cuh"
#include "novamd/neighbors/neighbor_list_force_cuda.cuh"
#include "novamd/neighbors/neighbor_settings.hpp"
#include "novamd/neighbors/neighbor_state.hpp"

namespace novamd::forces {

/// What a force term reads: packed positions in the pair type PairT.
template <class PairT>
struct CudaForceInput {
  const neighbors::PairPosition<PairT>* positions;
  int n;
  core::BoxView<PairT> box;
  core::Box host_box;  ///< the same box, for neighbour-list grids
  int multiprocessors;
  int resident_threads;  ///< threads the GPU keeps resident at once (all multiprocessors)
  /// The block of the force matrix this GPU computes in a decomposed run (all pairs of it,
  /// cutoff tested); none: the whole matrix, over the term's traversal.
  std::optional<neighbors::PairBlock> block;
  /// R > 0: the block's edges are multiples of R, and its pairs are computed once each over the
  /// grid's ranks (all_pairs_half_block_cuda: targets and sources both receive forces); 0: the
  /// block's full matrix (forces on its targets only).
  int block_range = 0;
};

template <class PairT>
class CudaForceTerm {
 public:
  virtual ~CudaForceTerm() = default;
  /// Queues this term's forces (and energy and virial if mode.with_energy), written to or added
  /// to `out`, on `stream`.
  virtual void add_to(const CudaForceInput<PairT>& input, neighbors::ForceOutputView out,
                      neighbors::OutputMode mode, cudaStream_t stream) = 0;
  /// Neighbour-list builds so far (0 over all pairs).
  virtual std::int64_t list_builds() const { return 0; }
  /// The particles were reordered in memory: indices kept between calls are stale.
  virtual void invalidate_lists() {}
  /// Device memory this term keeps between calls (tables, lists, cells, partial sums).
  virtual std::size_t bytes() const { return 0; }
  /// What the term keeps between evaluations (for a checkpoint); waits for `stream`.
  virtual neighbors::NeighborState neighbor_state(cudaStream_t) const { return {}; }
  /// Continues from a saved state; `built_at`: the state's positions at the last build, packed
  /// with the particles' types (device memory, storage order).
  virtual void restore_neighbors(const neighbors::NeighborState&,
                                 const neighbors::PairPosition<PairT>* /*built_at*/,
                                 const CudaForceInput<PairT>&, cudaStream_t) {}
};

/// A pair force over all pairs, cell lists or Verlet lists: the evaluator's parameter table
/// lives on the device.
template <class Evaluator, class AccT>
class CudaPairForce final : public CudaForceTerm<typename Evaluator::Real> {
 public:
  using PairT = typename Evaluator::Real;

  CudaPairForce(const physics::PairTable<typename Evaluator::Params>& table,
                neighbors::NeighborMethod method, double cutoff, double skin,
                std::int64_t check_every)
      : num_types_(table.num_types()),
        method_(method),
        cutoff_(cutoff),
        skin_(skin),
        check_every_(check_every) {
    table_.copy_from_host(table.data(), nullptr);
    // Kernels run on non-blocking streams, which do not wait for the legacy default stream.
    NOVAMD_CUDA_CHECK(cudaStreamSynchronize(nullptr));
  }

  std::int64_t list_builds() const override { return list_ ? list_->builds() : 0; }
  void invalidate_lists() override {
    if (list_) list_->invalidate();
  }
  std::size_t bytes() const override {
    return table_.bytes() + (list_ ? list_->bytes() : 0) + cells_.bytes() + partial_bytes();
  }

  neighbors::NeighborState neighbor_state(cudaStream_t stream) const override {
    neighbors::NeighborState state{calls_, list_builds(), {}};
    if (list_) state.built_at = list_->built_at_on_host(stream);
    return state;
  }
  void restore_neighbors(const neighbors::NeighborState& state,
                         const neighbors::PairPosition<PairT>* built_at,
                         const CudaForceInput<PairT>& in, cudaStream_t stream) override {
    calls_ = state.calls;
    list_.reset();
    if (state.built_at.size() == 0 ||
        traversal(in.n, in.host_box) != neighbors::NeighborMethod::NeighborList)
      return;
    list_.emplace(cutoff_, skin_, neighbors::lanes_per_target(in.n, in.resident_threads));
    list_->restore(built_at, in.n, in.host_box, state.builds, stream);
  }

  void add_to(const CudaForceInput<PairT>& in, neighbors::ForceOutputView out,
              neighbors::OutputMode mode, cudaStream_t stream) override {
    if (in.n == 0) return;
    if (in.block && in.block_range > 0) {  // decomposed: each pair once over the ranks
      const auto& b = *in.block;
      const auto r = static_cast<std::ptrdiff_t>(in.block_range);
      const neighbors::RangeBlock ranges{
          static_cast<int>(b.target_begin / r), static_cast<int>((b.target_end + r - 1) / r),
          static_cast<int>(b.source_begin / r), static_cast<int>((b.source_end + r - 1) / r)};
      neighbors::all_pairs_half_block_cuda<Evaluator, AccT>(
          in.positions, in.n, in.block_range, ranges, block_pairs_, in.box, table_.data(),
          num_types_, partial_, out, mode, stream);
      return;
    }
    if (in.block) {  // a decomposed run: all pairs of the block, cutoff tested
      const auto& b = *in.block;
      const int chunk_length = neighbors::choose_block_chunk_length(
          static_cast<int>(b.target_end - b.target_begin),
          static_cast<int>(b.source_end - b.source_begin), in.multiprocessors);
      neighbors::all_pairs_cuda<Evaluator, AccT>(in.positions, b, in.box, table_.data(),
                                                 num_types_, chunk_length, partial_, out, mode,
                                                 stream);
      return;
    }
    const int lanes = neighbors::lanes_per_target(in.n, in.resident_threads);
    switch (traversal(in.n, in.host_box)) {
      case neighbors::NeighborMethod::NeighborList: {
        if (!list_) list_.emplace(cutoff_, skin_, lanes);
        list_->update(in.positions, in.n, in.host_box, calls_++ % check_every_ == 0, stream);
        neighbors::neighbor_list_force_cuda<Evaluator>(in.positions, in.n, in.box, table_.data(),
                                                       num_types_, list_->view(), out, mode,
                                                       stream);
        return;
      }
      case neighbors::NeighborMethod::CellList:
        neighbors::cell_list_force_cuda<Evaluator>(in.positions, in.n, in.host_box, in.box,
                                                   table_.data(), num_types_, cutoff_, lanes,
                                                   cells_, out, mode, stream);
        return;
      default: add_all_pairs(in, out, mode, stream);
    }
  }

 private:
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
    if (range > 0) {
      neighbors::all_pairs_half_cuda<Evaluator, AccT>(in.positions, in.n, range, range_pairs_,
                                                      in.box, table_.data(), num_types_, partial_,
                                                      out, mode, stream);
      return;
    }
    const int chunk_length = neighbors::choose_chunk_length(in.n, in.multiprocessors);
    neighbors::all_pairs_cuda<Evaluator, AccT>(in.positions, in.n, in.box, table_.data(),
                                               num_types_, chunk_length, partial_, out, mode,
                                               stream);
  }
  std::size_t partial_bytes() const {
    return partial_.fx.bytes() * 5;  // fx, fy, fz, energy, virial of equal size
  }

  int num_types_;
  neighbors::NeighborMethod method_;
  double cutoff_, skin_;
  std::int64_t check_every_;
  std::int64_t calls_ = 0;
  core::DeviceBuffer<typename Evaluator::Params> table_;
  neighbors::PartialSums<AccT> partial_;
  neighbors::RangePairs range_pairs_;
  neighbors::BlockRangePairs block_pairs_;  ///< a decomposed run's range pairs
  neighbors::DeviceCellBins cells_;
  std::optional<neighbors::DeviceVerletList<PairT>> list_;
};

/// The CUDA force term for `settings` at precision P, over the traversal `neighbors` resolves
/// for this box; the term takes all pairs where the cell grid has fewer than three cells per
/// axis (a small box, or a dilute system's capped grid).
template <core::Precision P>
std::unique_ptr<CudaForceTerm<typename core::PrecisionTypes<P>::PairT>> make_cuda_force_term(
    const ForceSettings& settings, const core::SpeciesTable& species, const core::UnitSystem& units,
    const neighbors::NeighborSettings& neighbors, const core::Box& box) {
  using PairT = typename core::PrecisionTypes<P>::PairT;
  using AccT = typename core::PrecisionTypes<P>::AccT;
  const double cutoff = cutoff_of(settings);
  const double skin = neighbors.skin_for(cutoff);
  const auto method = neighbors::resolve_method(neighbors, cutoff, box.shortest_edge());
  return with_evaluator<PairT>(
      settings, species, units,
      [&]<class Evaluator>(const auto& table) -> std::unique_ptr<CudaForceTerm<PairT>> {
        return std::make_unique<CudaPairForce<Evaluator, AccT>>(table, method, cutoff, skin,
                                                                neighbors.check_every);
      });
}

}  // namespace novamd::forces
