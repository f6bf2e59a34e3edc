#pragma once
/// @file make_backend.hpp
/// Chooses and builds the backend a run asked for.

#include <memory>
#include <string_view>

#include "novamd/backend/backend.hpp"

namespace novamd::backend {

/// `requested`: auto (CUDA where a device exists, else CPU), cpu or cuda. Throws
/// core::InputError naming `backend` when CUDA is asked for and is not there.
std::unique_ptr<Backend> make_backend(std::string_view requested, BackendSetup setup);

/// The backend `auto` resolves to on this machine: "cuda" or "cpu".
std::string_view resolve_backend_name(std::string_view requested);

}  // namespace novamd::backend
