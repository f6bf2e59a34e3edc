#pragma once
/// @file cuda_check.cuh
/// Checked CUDA calls: a failure throws core::RunError naming the call, file, line and CUDA's
/// message. Used by every .cu file; raw CUDA calls go through NOVAMD_CUDA_CHECK.

#include <cuda_runtime.h>

#include <string>

#include "novamd/core/error.hpp"

namespace novamd::core {

inline void check_cuda(cudaError_t status, const char* call, const char* file, int line) {
  if (status == cudaSuccess) return;
  throw RunError(std::string("CUDA error at ") + file + ":" + std::to_string(line) + ": " + call +
                 ": " + cudaGetErrorString(status));
}

}  // namespace novamd::core

#define NOVAMD_CUDA_CHECK(call) ::novamd::core::check_cuda((call), #call, __FILE__, __LINE__)
/// Checks the launch of the kernel just queued (configuration errors surface here).
#define NOVAMD_CUDA_CHECK_LAUNCH() NOVAMD_CUDA_CHECK(cudaGetLastError())
