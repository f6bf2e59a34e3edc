#pragma once
/// @file molecular_terms.hpp
/// What the topology of a run asks of a backend, shared by both backends: whether it has bonds
/// (then the pair terms' Verlet lists leave out the 1-2, 1-3 and 1-4 pairs along them), the
/// refusal of bonds and bonded terms in a force-matrix decomposition, and the distances whose
/// bonded terms are left out, and the fields of rigid molecules.

#include "novamd/backend/backend.hpp"

namespace novamd::backend {

/// Whether `setup`'s topology has bonds, whose excluded pairs every pair term leaves out.
/// Throws core::InputError when the run is `decomposed` (the force matrix has no bonded terms
/// or exclusions) and has bonded terms or bonds.
bool has_excluded_pairs(const BackendSetup& setup, bool decomposed);

/// The distances whose bonded terms the backend leaves out (forces/held_terms.hpp): those the
/// constraint plan holds, or none where `leave_out_held_terms` is false.
core::HeldDistances held_distances_for(const BackendSetup& setup);

/// Rigid molecules' particle fields in `particles`: the orientation (each molecule as its body
/// frame lies, where the structure gave none), the angular momentum (zero where absent) and the
/// torque. Throws core::InputError when the run is `decomposed` (rigid molecules run on one
/// rank) or the rank is `what` (its name in the message: "rank", "GPU").
void prepare_rigid_fields(core::ParticleData& particles, bool decomposed, const char* what);

}  // namespace novamd::backend
