#pragma once
/// @file cuda_force_term.cuh
/// Force terms of the CUDA backend: the same evaluators and settings as the CPU, bound to the
/// CUDA traversal.

#include <memory>

#include "novamd/core/box.hpp"
#include "novamd/core/precision.hpp"
#include "novamd/forces/force_settings.hpp"
#include "novamd/neighbors/all_pairs_cuda.cuh"
#include "novamd/neighbors/all_pairs_half_cuda.cuh"

namespace novamd::forces {

/// What a force term reads: packed positions in the pair type PairT.
template <class PairT>
struct CudaForceInput {
  const neighbors::PairPosition<PairT>* positions;
  int n;
  core::BoxView<PairT> box;
  int multiprocessors;
};

template <class PairT>
class CudaForceTerm {
 public:
  virtual ~CudaForceTerm() = default;
  /// Queues this term's forces (and energy and virial if mode.with_energy), written to or added
  /// to `out`, on `stream`.
  virtual void add_to(const CudaForceInput<PairT>& input, neighbors::ForceOutputView out,
                      neighbors::OutputMode mode, cudaStream_t stream) = 0;
};

/// A pair force over all pairs: the evaluator's parameter table lives on the device.
template <class Evaluator, class AccT>
class CudaAllPairsForce final : public CudaForceTerm<typename Evaluator::Real> {
 public:
  using PairT = typename Evaluator::Real;

  explicit CudaAllPairsForce(const physics::PairTable<typename Evaluator::Params>& table)
      : num_types_(table.num_types()) {
    table_.copy_from_host(table.data(), nullptr);
  }

  void add_to(const CudaForceInput<PairT>& in, neighbors::ForceOutputView out,
              neighbors::OutputMode mode, cudaStream_t stream) override {
    if (in.n == 0) return;
    // Each pair once where there are enough range pairs to fill the GPU; for small systems the
    // chunked full matrix keeps more multiprocessors busy.
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

 private:
  int num_types_;
  core::DeviceBuffer<typename Evaluator::Params> table_;
  neighbors::PartialSums<AccT> partial_;
  neighbors::RangePairs range_pairs_;
};

/// The CUDA force term for `settings` at precision P.
template <core::Precision P>
std::unique_ptr<CudaForceTerm<typename core::PrecisionTypes<P>::PairT>> make_cuda_force_term(
    const ForceSettings& settings, const core::SpeciesTable& species,
    const core::UnitSystem& units) {
  using PairT = typename core::PrecisionTypes<P>::PairT;
  using AccT = typename core::PrecisionTypes<P>::AccT;
  return with_evaluator<PairT>(
      settings, species, units,
      [&]<class Evaluator>(const auto& table) -> std::unique_ptr<CudaForceTerm<PairT>> {
        return std::make_unique<CudaAllPairsForce<Evaluator, AccT>>(table);
      });
}

}  // namespace novamd::forces
