#include "novamd/backend/make_backend.hpp"

#include <fmt/format.h>

#include "novamd/backend/cpu_backend.hpp"
#include "novamd/backend/cuda_backend.hpp"
#include "novamd/backend/cuda_device.hpp"
#include "novamd/core/error.hpp"

namespace novamd::backend {
namespace {

/// Throws the error that says why CUDA cannot run here, if it cannot.
void require_cuda() {
  if (!cuda_compiled_in()) {
    throw core::InputError(
        "backend: cuda was asked for, but this build of novamd has no CUDA backend; rebuild with "
        "-DNOVAMD_ENABLE_CUDA=ON on a machine with the CUDA toolkit, or use --backend cpu");
  }
  if (!query_cuda_device()) {
    throw core::InputError(
        "backend: cuda was asked for, but no CUDA device was found on this machine; "
        "use --backend cpu (or auto)");
  }
}

}  // namespace

std::string_view resolve_backend_name(std::string_view requested) {
  if (requested == "auto") return cuda_compiled_in() && query_cuda_device() ? "cuda" : "cpu";
  return requested;
}

std::unique_ptr<Backend> make_backend(std::string_view requested, BackendSetup setup) {
  if (requested == "cuda") require_cuda();
  if (resolve_backend_name(requested) == "cuda") {
#ifdef NOVAMD_HAVE_CUDA
    return make_cuda_backend(std::move(setup));
#endif
  }
  return std::make_unique<CpuBackend>(std::move(setup));
}

}  // namespace novamd::backend
