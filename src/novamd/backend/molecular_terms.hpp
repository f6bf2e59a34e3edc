#pragma once
/// @file molecular_terms.hpp
/// What the topology of a run asks of a backend's pair terms: the pairs the Verlet lists leave
/// out (1-2, 1-3 and 1-4 along the bonds), shared by both backends.

#include <optional>

#include "novamd/backend/backend.hpp"
#include "novamd/core/topology.hpp"

namespace novamd::backend {

/// The excluded pairs of `setup`'s topology (none without bonds). Throws core::InputError when
/// the run is `decomposed` (the force matrix has no bonded terms or exclusions) and has bonded
/// terms or bonds.
std::optional<core::ExclusionLists> excluded_pairs(const BackendSetup& setup, bool decomposed);

}  // namespace novamd::backend
