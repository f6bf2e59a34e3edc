#include <cuda_runtime.h>

#include "novamd/backend/cuda_device.hpp"

namespace novamd::backend {

std::optional<CudaDeviceInfo> query_cuda_device() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();  // clear the sticky error of a machine without a driver or device
    return std::nullopt;
  }
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) return std::nullopt;
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) return std::nullopt;
  int clock_khz = 0;
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device);
  return CudaDeviceInfo{prop.name,  prop.totalGlobalMem,      prop.major,
                        prop.minor, prop.multiProcessorCount, clock_khz,
                        prop.maxThreadsPerMultiProcessor};
}

int select_cuda_device(int local_rank) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();
    return -1;
  }
  const int device = local_rank % count;
  return cudaSetDevice(device) == cudaSuccess ? device : -1;
}

}  // namespace novamd::backend
