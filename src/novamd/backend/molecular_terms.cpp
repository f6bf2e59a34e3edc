#include "novamd/backend/molecular_terms.hpp"

#include "novamd/core/error.hpp"

namespace novamd::backend {

bool has_excluded_pairs(const BackendSetup& setup, bool decomposed) {
  const bool excluded = setup.topology.excludes_pairs();
  if (decomposed && (excluded || !setup.bonded.empty()))
    throw core::InputError(
        "bonded terms and bonds are not supported with the force-matrix decomposition "
        "(parallel.grid); run molecular systems on one rank");
  return excluded;
}

core::HeldDistances held_distances_for(const BackendSetup& setup) {
  return setup.leave_out_held_terms ? constraints::held_distances_of(setup.constraint_plan)
                                    : core::HeldDistances{};
}

}  // namespace novamd::backend
