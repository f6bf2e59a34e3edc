#pragma once
/// @file cuda_device.hpp
/// What this build and this machine offer for the CUDA backend.

#include <cstddef>
#include <optional>
#include <string>

namespace novamd::backend {

struct CudaDeviceInfo {
  std::string name;
  std::size_t memory_bytes = 0;
  int compute_major = 0;
  int compute_minor = 0;
  int multiprocessors = 0;
  int clock_khz = 0;  ///< peak SM clock
  int max_threads_per_multiprocessor = 2048;
};

/// True when this build includes the CUDA backend (NOVAMD_ENABLE_CUDA).
constexpr bool cuda_compiled_in() {
#ifdef NOVAMD_HAVE_CUDA
  return true;
#else
  return false;
#endif
}

/// The device the CUDA backend would use (the current device: 0 unless select_cuda_device
/// chose another), or nothing if there is none or CUDA is not compiled in.
std::optional<CudaDeviceInfo> query_cuda_device();

/// Makes device `local_rank` mod (devices on this node) current for this process: one MPI rank
/// per GPU. Returns the device number, or -1 where there is no device.
int select_cuda_device(int local_rank);

/// "NVIDIA H100 80GB HBM3, 79.1 GiB, compute capability 9.0, 132 SMs"
std::string describe(const CudaDeviceInfo& device);

}  // namespace novamd::backend
