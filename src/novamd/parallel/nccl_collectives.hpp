#pragma once
/// @file nccl_collectives.hpp
/// The device collectives of a decomposed CUDA run: NCCL allreduces over one process row or
/// one process column, on device buffers and the backend's stream (no host copies, nothing
/// waits on the host). One rank per GPU. NCCL's NVLink SHARP (NVLS) multicast is never
/// requested here (NCCL_NVLS_ENABLE stays as the environment sets it).
///
/// Compiled where NCCL is (NOVAMD_HAVE_NCCL).

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>

#include "novamd/parallel/communicator.hpp"

namespace novamd::parallel {

class NcclCollectives {
 public:
  /// NCCL communicators for this rank's row and column: ids made by each group's first rank
  /// and broadcast over MPI. Collective over every rank of `comm`; the current CUDA device is
  /// this rank's.
  explicit NcclCollectives(const Communicator& comm);
  ~NcclCollectives();
  NcclCollectives(const NcclCollectives&) = delete;
  NcclCollectives& operator=(const NcclCollectives&) = delete;

  /// data[0 .. count) summed over the group, in place, queued on `stream`.
  void sum(double* data, std::size_t count, Group group, cudaStream_t stream) const;
  /// Three arrays summed at once (one fused NCCL group): x, y and z of a block.
  void sum3(double* x, double* y, double* z, std::size_t count, Group group,
            cudaStream_t stream) const;

 private:
  struct Comms;
  std::unique_ptr<Comms> comms_;
};

}  // namespace novamd::parallel
