/// @file runtime_library.cu
/// NVRTC to a cubin, loaded with cudaLibraryLoadData (runtime_library.cuh).

#include <nvrtc.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>

#include "novamd/core/cuda_check.cuh"
#include "novamd/core/error.hpp"
#include "novamd/core/runtime_library.cuh"

namespace novamd::core {
namespace {

void check_nvrtc(nvrtcResult status, const char* call) {
  if (status != NVRTC_SUCCESS)
    throw RunError(std::string("NVRTC error in ") + call + ": " + nvrtcGetErrorString(status));
}

/// "sm_90": the current device's own architecture, so that NVRTC writes native code.
std::string device_architecture() {
  int device = 0, major = 0, minor = 0;
  NOVAMD_CUDA_CHECK(cudaGetDevice(&device));
  NOVAMD_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  NOVAMD_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  return "sm_" + std::to_string(major * 10 + minor);
}

struct ProgramDeleter {
  void operator()(nvrtcProgram* p) const {
    nvrtcDestroyProgram(p);
    delete p;
  }
};

std::string compile_log(nvrtcProgram program) {
  std::size_t size = 0;
  check_nvrtc(nvrtcGetProgramLogSize(program, &size), "nvrtcGetProgramLogSize");
  std::string log(size, '\0');
  check_nvrtc(nvrtcGetProgramLog(program, log.data()), "nvrtcGetProgramLog");
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

std::vector<char> compile_to_cubin(const std::string& source, const std::string& name,
                                   const std::vector<std::string>& extra) {
  std::unique_ptr<nvrtcProgram, ProgramDeleter> program(new nvrtcProgram{});
  check_nvrtc(nvrtcCreateProgram(program.get(), source.c_str(), name.c_str(), 0, nullptr, nullptr),
              "nvrtcCreateProgram");
  std::vector<std::string> options{"--std=c++17", "--gpu-architecture=" + device_architecture()};
  options.insert(options.end(), extra.begin(), extra.end());
  std::vector<const char*> pointers;
  for (const auto& o : options) pointers.push_back(o.c_str());
  const nvrtcResult compiled =
      nvrtcCompileProgram(*program, static_cast<int>(pointers.size()), pointers.data());
  if (compiled != NVRTC_SUCCESS)
    throw InputError("the GPU's run-time compiler refused " + name + ":\n" + compile_log(*program));
  std::size_t size = 0;
  check_nvrtc(nvrtcGetCUBINSize(*program, &size), "nvrtcGetCUBINSize");
  std::vector<char> cubin(size);
  check_nvrtc(nvrtcGetCUBIN(*program, cubin.data()), "nvrtcGetCUBIN");
  return cubin;
}

}  // namespace

RuntimeLibrary::RuntimeLibrary(const std::string& source, const std::string& name,
                               const std::vector<std::string>& options) {
  const std::vector<char> cubin = compile_to_cubin(source, name, options);
  NOVAMD_CUDA_CHECK(
      cudaLibraryLoadData(&library_, cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
}

RuntimeLibrary::~RuntimeLibrary() {
  if (library_) cudaLibraryUnload(library_);
}

RuntimeLibrary::RuntimeLibrary(RuntimeLibrary&& other) noexcept
    : library_(std::exchange(other.library_, nullptr)) {}

RuntimeLibrary& RuntimeLibrary::operator=(RuntimeLibrary&& other) noexcept {
  if (this != &other) {
    if (library_) cudaLibraryUnload(library_);
    library_ = std::exchange(other.library_, nullptr);
  }
  return *this;
}

const void* RuntimeLibrary::kernel(const char* name) const {
  cudaKernel_t kernel = nullptr;
  NOVAMD_CUDA_CHECK(cudaLibraryGetKernel(&kernel, library_, name));
  return reinterpret_cast<const void*>(kernel);
}

std::shared_ptr<const RuntimeLibrary> RuntimeLibrary::shared(
    const std::string& source, const std::string& name, const std::vector<std::string>& options) {
  using Key = std::tuple<int, std::string, std::vector<std::string>>;
  static std::mutex mutex;
  static std::map<Key, std::shared_ptr<const RuntimeLibrary>> compiled;
  int device = 0;
  NOVAMD_CUDA_CHECK(cudaGetDevice(&device));
  const std::lock_guard lock(mutex);
  auto& library = compiled[Key{device, source, options}];
  if (!library) library = std::make_shared<const RuntimeLibrary>(source, name, options);
  return library;
}

void launch_runtime_kernel(const void* kernel, dim3 grid, dim3 block, void** args,
                           std::size_t shared_bytes, cudaStream_t stream) {
  NOVAMD_CUDA_CHECK(cudaLaunchKernel(kernel, grid, block, args, shared_bytes, stream));
}

}  // namespace novamd::core
