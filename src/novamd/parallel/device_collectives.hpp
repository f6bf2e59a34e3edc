#pragma once
/// @file device_collectives.hpp
/// The device collectives of a decomposed CUDA run: NCCL where this build has it, else a stand-in
/// that refuses a run on several ranks with a message that says how to get one.

#include <cstddef>

#include "novamd/core/error.hpp"
#include "novamd/parallel/communicator.hpp"
#ifdef NOVAMD_HAVE_NCCL
#include "novamd/parallel/nccl_collectives.hpp"
#endif

struct CUstream_st;

namespace novamd::parallel {

/// The device collectives of a decomposed run: NCCL where this build has it.
#ifdef NOVAMD_HAVE_NCCL
using DeviceCollectives = NcclCollectives;
#else
struct DeviceCollectives {
  explicit DeviceCollectives(const Communicator&) {
    throw core::InputError(
        "backend: cuda on several MPI ranks needs NCCL, and this build of novamd has none; "
        "rebuild with NCCL (the CUDA toolkit's, or libnccl-dev), or use --backend cpu");
  }
  void sum3(double*, double*, double*, std::size_t, Group, CUstream_st*) const {}
  void sum(double*, std::size_t, Group, CUstream_st*) const {}
};
#endif

}  // namespace novamd::parallel
