#pragma once
/// @file cuda_spatial_domain.cuh
/// The spatial decomposition (spatial_domain.hpp) of a CUDA run: SpatialDomain's bricks,
/// partitions, sums and host gathers, with the ghost refresh of every step on device arrays.
/// The positions a rank sends (its particles within the halo of other bricks, shift after
/// shift) are gathered on the device into one buffer and copied to the host; the shifts'
/// point-to-point exchanges run there (MPI, host memory: ranks may share a GPU); what arrives
/// goes back in one copy and is scattered into the ghosts' positions and packed entries. One
/// wait for the device a step.
///
/// What this leaves for the multi-GPU issue: NCCL (or CUDA-aware MPI) sends between device
/// buffers, with the owned particles' pairs computed while the halo travels (seed 004's remote
/// work first), instead of the host round trip.

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "novamd/core/cuda_check.cuh"
#include "novamd/core/device_buffer.cuh"
#include "novamd/integrate/vec3_pointers.hpp"
#include "novamd/neighbors/pair_position.hpp"
#include "novamd/parallel/spatial_domain.hpp"

namespace novamd::parallel {

/// out[3 k + c] = component c of particle index[k]'s position.
template <class Real = double>
__global__ void gather_halo_kernel(const std::int32_t* __restrict__ index, int count,
                                   integrate::Vec3Pointers position, Real* __restrict__ out) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count) return;
  const int i = index[k];
  out[3 * k] = position.x[i];
  out[3 * k + 1] = position.y[i];
  out[3 * k + 2] = position.z[i];
}

/// Particle index[k]'s position from in[3 k ..], packed (type included) for the pair kernels.
template <class PairT>
__global__ void scatter_halo_kernel(const std::int32_t* __restrict__ index, int count,
                                    const double* __restrict__ in,
                                    const std::int32_t* __restrict__ type,
                                    integrate::Vec3Pointers position,
                                    neighbors::PairPosition<PairT>* __restrict__ packed) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count) return;
  const int i = index[k];
  const double x = in[3 * k], y = in[3 * k + 1], z = in[3 * k + 2];
  position.set(i, {x, y, z});
  packed[i] = {static_cast<PairT>(x), static_cast<PairT>(y), static_cast<PairT>(z), type[i]};
}

class CudaSpatialDomain : public SpatialDomain {
 public:
  using SpatialDomain::SpatialDomain;

  /// The halo plan of the last partition, as device index arrays (after each partition).
  void upload_plan(cudaStream_t stream) {
    std::vector<std::int32_t> send, receive;
    for (const auto& s : sends())
      for (const std::size_t i : s) send.push_back(static_cast<std::int32_t>(i));
    for (const auto& r : receives())
      for (const std::size_t i : r) receive.push_back(static_cast<std::int32_t>(i));
    send_index_.copy_from_host(send, stream);
    receive_index_.copy_from_host(receive, stream);
    out_device_.resize(3 * send.size());
    in_device_.resize(3 * receive.size());
    NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));  // the host vectors go out of scope
  }

  using SpatialDomain::refresh_ghosts;
  /// The ghosts' positions (device arrays, storage order) from their owners, each also packed
  /// for the pair kernels; waits for `stream` (the positions leave through the host).
  template <class PairT>
  void refresh_ghosts(integrate::Vec3Pointers position, const std::int32_t* type,
                      neighbors::PairPosition<PairT>* packed, cudaStream_t stream) {
    if (!decomposed() || blocks().empty()) return;
    constexpr int kBlock = 256;
    const auto sends = static_cast<int>(send_index_.size());
    const auto receives = static_cast<int>(receive_index_.size());
    if (sends > 0) {
      gather_halo_kernel<<<(sends + kBlock - 1) / kBlock, kBlock, 0, stream>>>(
          send_index_.data(), sends, position, out_device_.data());
      NOVAMD_CUDA_CHECK_LAUNCH();
    }
    out_device_.copy_to_host(out_host_, stream);
    NOVAMD_CUDA_CHECK(cudaStreamSynchronize(stream));
    exchange(out_host_, in_host_, 3);
    if (receives == 0) return;
    NOVAMD_CUDA_CHECK(cudaMemcpyAsync(in_device_.data(), in_host_.data(),
                                      in_host_.size() * sizeof(double), cudaMemcpyHostToDevice,
                                      stream));
    scatter_halo_kernel<PairT><<<(receives + kBlock - 1) / kBlock, kBlock, 0, stream>>>(
        receive_index_.data(), receives, in_device_.data(), type, position, packed);
    NOVAMD_CUDA_CHECK_LAUNCH();
    // in_host_ is read by the copy before any later exchange refills it: the next refresh
    // waits for the stream first.
  }

  /// Device memory held: the plan's indices and the exchange buffers.
  std::size_t bytes() const {
    return send_index_.bytes() + receive_index_.bytes() + out_device_.bytes() + in_device_.bytes();
  }

 private:
  core::DeviceBuffer<std::int32_t> send_index_, receive_index_;
  core::DeviceBuffer<double> out_device_, in_device_;
  std::vector<double> out_host_, in_host_;
};

}  // namespace novamd::parallel
