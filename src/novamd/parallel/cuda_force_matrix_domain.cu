#include "novamd/core/cuda_check.cuh"
#include "novamd/neighbors/all_pairs_plan.hpp"
#include "novamd/parallel/cuda_force_matrix_domain.cuh"
#include "novamd/parallel/source_exchange_cuda.cuh"

namespace novamd::parallel {
namespace {

constexpr int kBlock = 256;

int blocks_for(std::size_t n) {
  return static_cast<int>((n + kBlock - 1) / kBlock);
}

/// R of the each-pair-once kernel over every GPU of `comm`, or 0 (one rank, too few particles
/// for the GPUs, or `parallel.pairs: full_matrix`). Collective where `comm` has several ranks.
int each_pair_once_range(const std::shared_ptr<const Communicator>& comm, std::size_t n,
                         int multiprocessors) {
  if (!comm || comm->size() == 1) return 0;
  const auto sms = static_cast<int>(comm->min(multiprocessors, Group::World));
  if (comm->grid().full_matrix) return 0;
  return neighbors::half_kernel_range(static_cast<int>(n), sms * comm->size());
}

}  // namespace

CudaForceMatrixDomain::CudaForceMatrixDomain(std::shared_ptr<const Communicator> comm,
                                             std::size_t n, int multiprocessors)
    : ForceMatrixDomain(comm, n, each_pair_once_range(comm, n, multiprocessors)) {
  if (!decomposed()) return;
  collectives_ = std::make_unique<DeviceCollectives>(*matrix().comm);
  exchange_.resize(3 * matrix().sources.size());
}

CudaForceMatrixDomain::~CudaForceMatrixDomain() = default;

template <class PairT>
void CudaForceMatrixDomain::refresh_ghosts(integrate::Vec3Pointers position,
                                           const std::int32_t* type,
                                           neighbors::PairPosition<PairT>* packed,
                                           cudaStream_t stream) {
  if (!decomposed()) return;
  const IndexRange s = matrix().sources, t = matrix().targets;
  const int count = static_cast<int>(s.size());
  pack_owned_sources_kernel<<<blocks_for(count), kBlock, 0, stream>>>(
      static_cast<int>(s.begin), count, static_cast<int>(t.begin), static_cast<int>(t.end),
      position, exchange_.data());
  NOVAMD_CUDA_CHECK_LAUNCH();
  collectives_->sum(exchange_.data(), exchange_.size(), Group::Column, stream);
  unpack_sources_kernel<PairT><<<blocks_for(count), kBlock, 0, stream>>>(
      static_cast<int>(s.begin), count, static_cast<int>(t.begin), static_cast<int>(t.end),
      exchange_.data(), type, position, packed);
  NOVAMD_CUDA_CHECK_LAUNCH();
}

void CudaForceMatrixDomain::complete_forces(integrate::Vec3Pointers force, cudaStream_t stream) {
  if (!decomposed()) return;
  if (block_range() > 0) {
    const IndexRange s = matrix().sources;
    collectives_->sum3(force.x + s.begin, force.y + s.begin, force.z + s.begin, s.size(),
                       Group::Column, stream);
  }
  const IndexRange t = owned();
  collectives_->sum3(force.x + t.begin, force.y + t.begin, force.z + t.begin, t.size(), Group::Row,
                     stream);
}

// The pair precisions (core::PrecisionTypes<P>::PairT).
template void CudaForceMatrixDomain::refresh_ghosts<float>(integrate::Vec3Pointers,
                                                           const std::int32_t*,
                                                           neighbors::PairPosition<float>*,
                                                           cudaStream_t);
template void CudaForceMatrixDomain::refresh_ghosts<double>(integrate::Vec3Pointers,
                                                            const std::int32_t*,
                                                            neighbors::PairPosition<double>*,
                                                            cudaStream_t);

}  // namespace novamd::parallel
