#include "novamd/app/version.hpp"

#include <fmt/format.h>

#include "novamd/backend/cuda_device.hpp"
#include "novamd/git_commit.hpp"  // generated at build time

namespace novamd::app {

std::string version_line() {
  return fmt::format("novamd {} (commit {})", NOVAMD_VERSION, NOVAMD_GIT_COMMIT);
}

std::string version_report() {
  std::string text = version_line() + "\n";
  if (!backend::cuda_compiled_in()) return text + "CUDA backend: not compiled in\n";
  text += "CUDA backend: compiled in\n";
  const auto device = backend::query_cuda_device();
  return text + "CUDA device: " + (device ? backend::describe(*device) : "none found") + "\n";
}

}  // namespace novamd::app
