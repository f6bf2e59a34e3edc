#pragma once
/// @file cuda_rigid_molecules.cuh
/// Rigid molecules' interactions on the GPU (seed 001), the CPU term's traversal
/// (forces/cpu_rigid_molecules.hpp) moved to the device: Verlet lists of the molecules' centres
/// (neighbors/neighbor_list_cuda.cuh, full lists, G lanes per molecule), every
/// molecule's sites placed in space once per evaluation by a kernel of their own, then G lanes per
/// molecule each summing, over its share of the list in its fixed order, the force and torque of
/// every neighbour whose centre lies within the cutoff (forces/rigid_pair.hpp, all site pairs), the
/// lanes' sums combined in a fixed order: no atomics, bitwise repeatable. Molecule i's force and
/// torque, and half of each of its pairs' energy and virial, are written by i's lanes alone.
///
/// Precision P: sites placed and pairs evaluated in P's pair type (float in mixed and single),
/// sums in its accumulation type, stored in double. Defined in forces/cuda_rigid_molecules.cu.

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "novamd/forces/cuda_force_term.cuh"
#include "novamd/forces/rigid_model.hpp"

namespace novamd::forces {

/// The term over `model` (with its cutoff), lists of `skin` checked every `check_every`
/// evaluations, and with `kspace` (resolved: rigid_kspace.hpp's resolved_kspace) the charges'
/// reciprocal sum for molecules of components `types` (forces/cuda_rigid_kspace.cuh). Its
/// add_to needs CudaForceInput::fields' orientations and double positions and the output's
/// torque arrays, and overwrites or adds to the torque as it does the force.
template <core::Precision P>
std::unique_ptr<CudaForceTerm<PairTypeOf<P>>> make_cuda_rigid_molecules(
    const RigidModel& model, double skin, std::int64_t check_every,
    const std::optional<CoulombSettings>& kspace = std::nullopt,
    const std::vector<std::int32_t>& types = {});

}  // namespace novamd::forces
