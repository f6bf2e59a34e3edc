#include "novamd/backend/cuda_device.hpp"

#include <fmt/format.h>

namespace novamd::backend {

#ifndef NOVAMD_HAVE_CUDA
std::optional<CudaDeviceInfo> query_cuda_device() {
  return std::nullopt;
}

int select_cuda_device(int) { return -1; }
#endif

std::string describe(const CudaDeviceInfo& device) {
  return fmt::format("{}, {:.1f} GiB, compute capability {}.{}, {} SMs", device.name,
                     static_cast<double>(device.memory_bytes) / (1024.0 * 1024.0 * 1024.0),
                     device.compute_major, device.compute_minor, device.multiprocessors);
}

}  // namespace novamd::backend
