#pragma once
/// @file runtime_library.cuh
/// CUDA source compiled at run time (NVRTC) to native code for the current device and loaded
/// as a library of kernels through the runtime API (cudaLibraryLoadData): no driver API, so the
/// program still starts on machines without a GPU driver. Move-only; unloads on destruction.

#include <cuda_runtime.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace novamd::core {

class RuntimeLibrary {
 public:
  /// Compiles `source` (named `name` in messages) for the current device with `options` added
  /// to the standard ones (C++17, the device's own architecture).
  /// @throws core::InputError with the compiler's log where the source does not compile (the
  /// caller names what the source came from), core::RunError where loading fails.
  RuntimeLibrary(const std::string& source, const std::string& name,
                 const std::vector<std::string>& options = {});
  ~RuntimeLibrary();
  RuntimeLibrary(RuntimeLibrary&& other) noexcept;
  RuntimeLibrary& operator=(RuntimeLibrary&& other) noexcept;
  RuntimeLibrary(const RuntimeLibrary&) = delete;
  RuntimeLibrary& operator=(const RuntimeLibrary&) = delete;

  /// The kernel `name` (an extern "C" entry), as cudaLaunchKernel takes it.
  const void* kernel(const char* name) const;

  /// The library of `source` compiled once per process and device (as CUDA's own JIT cache
  /// keeps PTX it has compiled): a term built again (a restart, a test, a second simulation)
  /// takes it at once instead of compiling for a second or so. Thread-safe.
  static std::shared_ptr<const RuntimeLibrary> shared(const std::string& source,
                                                      const std::string& name,
                                                      const std::vector<std::string>& options);

 private:
  cudaLibrary_t library_ = nullptr;
};

/// Launches `kernel` with `args` (pointers to each argument's value) and `shared_bytes` of
/// dynamic shared memory on `stream`, checked.
void launch_runtime_kernel(const void* kernel, dim3 grid, dim3 block, void** args,
                           std::size_t shared_bytes, cudaStream_t stream);

}  // namespace novamd::core
