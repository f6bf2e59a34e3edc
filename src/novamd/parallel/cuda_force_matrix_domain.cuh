#pragma once
/// @file cuda_force_matrix_domain.cuh
/// The force-matrix domain of a CUDA run: ForceMatrixDomain's blocks, sums and host gathers
/// (output and checkpoints download first), with the two exchanges of every step on device
/// buffers instead: NCCL allreduces on the backend's stream, no host copies, nothing waits on
/// the host. One rank per GPU.
///
/// The blocks: where the system is large enough for the each-pair-once kernel on every GPU
/// (neighbors/all_pairs_plan.hpp, with the GPUs' multiprocessors together), they are whole
/// ranges of R particles and every pair is computed once over the ranks
/// (neighbors/all_pairs_half_cuda.cuh); else each rank computes its block's full matrix
/// (always with `parallel.pairs: full_matrix`).

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <memory>

#include "novamd/core/device_buffer.cuh"
#include "novamd/integrate/vec3_pointers.hpp"
#include "novamd/neighbors/pair_position.hpp"
#include "novamd/parallel/device_collectives.hpp"
#include "novamd/parallel/force_matrix_domain.hpp"

namespace novamd::parallel {

class CudaForceMatrixDomain : public ForceMatrixDomain {
 public:
  /// Rank (comm->row(), comm->column())'s blocks of `n` particles, for a GPU of
  /// `multiprocessors` (every rank cuts the same blocks: the smallest GPU decides). Collective
  /// over every rank of `comm` where it has several (the NCCL communicators); a null or
  /// one-rank `comm`: the whole matrix, no exchange.
  CudaForceMatrixDomain(std::shared_ptr<const Communicator> comm, std::size_t n,
                        int multiprocessors);
  ~CudaForceMatrixDomain() override;
  CudaForceMatrixDomain(const CudaForceMatrixDomain&) = delete;
  CudaForceMatrixDomain& operator=(const CudaForceMatrixDomain&) = delete;

  using ForceMatrixDomain::complete_forces;
  using ForceMatrixDomain::refresh_ghosts;

  /// The column allreduce on device arrays of every particle (parallel/source_exchange_cuda.cuh):
  /// the ghosts' positions from their owners, each also packed (type included) for the pair
  /// kernels; owned entries keep their bits (the updates that moved them packed them).
  template <class PairT>
  void refresh_ghosts(integrate::Vec3Pointers position, const std::int32_t* type,
                      neighbors::PairPosition<PairT>* packed, cudaStream_t stream);
  /// The forces of every rank's block (device arrays of every particle) into the total force
  /// on each owned particle: with each pair once, the sources' reactions first go down the
  /// column (in place: entries of T_p ∩ S_q then hold the column's sum, which the row sum
  /// adds once); then the row.
  void complete_forces(integrate::Vec3Pointers force, cudaStream_t stream);

  /// Device memory held: the exchange buffer.
  std::size_t bytes() const { return exchange_.bytes(); }

 private:
  std::unique_ptr<DeviceCollectives> collectives_;  ///< NCCL, when decomposed
  core::DeviceBuffer<double> exchange_;             ///< 3 |S_q|: the column allreduce
};

}  // namespace novamd::parallel
